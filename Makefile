# Marquoir: `make run` serves the site, `make test` runs every check. Both install what is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# All interfaces, so the other phones at home can join; HOST=127.0.0.1 make run stays local.
HOST ?= 0.0.0.0
PORT ?= 8000

PG := bash scripts/postgres.sh

.PHONY: install run test lint typecheck importlint pytest test-sqlite test-postgres system-deps \
	postgres-start postgres-stop api-check bench bench-load bench-abuse serve messages makemessages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

# The Yahtzee assistant's table of values (4 MiB, about 10 s to build; see
# marquoir/games/yahtzee/solver.py): built once here, so its first advice is quick.
YAHTZEE_TABLE := var/yahtzee-values-v1.npy

$(YAHTZEE_TABLE): $(STAMP) marquoir/games/yahtzee/solver.py marquoir/games/yahtzee/engine.py
	$(BIN)/python -m marquoir.games.yahtzee.solver

install: $(STAMP) $(YAHTZEE_TABLE)

messages: install
	$(BIN)/python scripts/compile_messages.py

# Collects the strings marked for translation into the French catalogs (needs GNU gettext):
# one per app, and the project's own for what sits outside the apps.
makemessages: install
	cd marquoir/catalog && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	cd marquoir/tables && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	cd marquoir/groups && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	cd marquoir && ../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location \
		--ignore 'catalog/*' --ignore 'tables/*' --ignore 'groups/*' --ignore 'games/*' --ignore 'keepers/*'
	cd marquoir/games && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	for keeper in marquoir/keepers/*/; do \
		(cd $$keeper && ../../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location) || exit 1; \
	done

# Makes the server's secret key on the first start (kept in .secret_key), migrates, prints the
# address to open here and the one other phones on the network open, then serves
# (scripts/run.py: debug pages only while the server stays on this machine).
run: messages
	$(BIN)/python scripts/run.py --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy marquoir tests benchmarks

importlint: install
	$(BIN)/lint-imports

# Chromium, PostgreSQL, gettext, python3-venv from Debian's packages, when missing (as root).
system-deps:
	@bash scripts/system_deps.sh

# The suite runs on two processes (pytest-xdist, one per core of a CI machine): forty games'
# screens and pages in a real browser take most of a pass.
PYTEST_ARGS ?= -n 2

# One pass of the suite on the database DATABASE_URL names (SQLite when it is unset).
pytest: messages
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The whole suite on SQLite, whatever DATABASE_URL says. The test database is a file (see
# settings.py) in a directory of this pass's own, removed after it with whatever SQLite left.
test-sqlite: messages
	@echo "== pytest on SQLite =="
	@dir=$$(mktemp -d /tmp/marquoir-sqlite.XXXXXX); \
	echo "SQLITE_TEST_PATH=$$dir/test.sqlite3 $(BIN)/python -m pytest $(PYTEST_ARGS)"; \
	env -u DATABASE_URL SQLITE_TEST_PATH=$$dir/test.sqlite3 $(BIN)/python -m pytest $(PYTEST_ARGS); \
	status=$$?; rm -rf "$$dir"; exit $$status

# The suite again on the throwaway cluster of scripts/postgres.sh, started if need be, but for
# the browser tests: their server would share one `marquoir` database between the two
# processes, and what they try (the screens, the pages, the taps) is the same on either
# database; the real server processes of the other tests, and every test of the database's
# own work, run here. `reset` empties the cluster first, and pytest creates test_marquoir_gw0
# and _gw1; --reuse-db then leaves them in place at the end, since the next reset drops them
# anyway (and a DROP at the end fails while any thread still holds a connection to one).
test-postgres: messages
	@$(PG) reset
	@echo "== pytest on PostgreSQL $$($(PG) version) =="
	DATABASE_URL=$$($(PG) url) $(BIN)/python -m pytest --reuse-db --ignore=tests/browser $(PYTEST_ARGS)

# schemathesis against a real server on a fresh SQLite database: every check, every phase
# (stateful included); zero failures or it fails (scripts/api_check.sh, schemathesis.toml).
api-check: messages
	@bash scripts/api_check.sh

postgres-start:
	@$(PG) start
	@$(PG) url

postgres-stop:
	@$(PG) stop

# Linters first, then the suite on SQLite and again on PostgreSQL (without the browser tests).
# Both passes run even if the first fails, so one run tells about both databases; any failure
# fails `make test`.
test: system-deps
	@$(MAKE) --no-print-directory lint typecheck importlint api-check
	@status=0; \
	$(MAKE) --no-print-directory test-sqlite || status=1; \
	$(MAKE) --no-print-directory test-postgres || status=1; \
	if [ $$status -ne 0 ]; then echo "== make test: a pytest pass failed (see above) =="; fi; \
	exit $$status

# The benchmarks run Django in this process: it signs with the checkout's kept key (.secret_key,
# made here on first use, as `make run` does), there being no default key.
bench: messages
	$(BIN)/python -m marquoir.env
	$(BIN)/python -m benchmarks

# A real server (gunicorn, two uvicorn workers) under K tables and W watchers, on SQLite and
# on PostgreSQL, then kill -9 under load and a restart: figures printed, nothing asserted.
bench-load: messages
	$(BIN)/python -m benchmarks.load $(BENCH_LOAD_ARGS)

# The real server, 50 tables playing, and one attack at a time beside them (slow bodies,
# 5,000 streams, refused imports, the biggest export), then PostgreSQL restarted under load:
# figures printed, nothing asserted. BENCH_ABUSE_ARGS="--scenarios streams --seconds 5" for one.
bench-abuse: messages
	$(BIN)/python -m benchmarks.abuse $(BENCH_ABUSE_ARGS)

# Serve as in production (docs/deploy.md): DEBUG off, compressed static files, JSON logs. The
# build and deploy steps run when something changed since the last start (scripts/serve.sh).
serve: install
	bash scripts/serve.sh

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
