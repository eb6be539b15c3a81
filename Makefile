# Marquoir: `make run` serves the site, `make test` runs every check. Both install what is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint typecheck importlint pytest bench messages makemessages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

messages: install
	$(BIN)/python scripts/compile_messages.py

# Collects the strings marked for translation into the French catalogs (needs GNU gettext):
# one per app, and the project's own for what sits outside the apps.
makemessages: install
	cd marquoir/catalog && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	cd marquoir/tables && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location
	cd marquoir && ../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location \
		--ignore 'catalog/*' --ignore 'tables/*' --ignore 'games/*'
	cd marquoir/games && ../../$(BIN)/django-admin makemessages -l fr --no-obsolete --no-location

run: messages
	$(BIN)/python manage.py migrate --no-input
	MARQUOIR_DEBUG=$${MARQUOIR_DEBUG:-1} $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy marquoir tests benchmarks

importlint: install
	$(BIN)/lint-imports

pytest: messages
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test: lint typecheck importlint pytest

bench: messages
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
