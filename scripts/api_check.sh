#!/usr/bin/env bash
# schemathesis against the real server: every check, every phase (stateful included), on a
# fresh SQLite database, with schemathesis.toml (hooks that lend each created match's edit
# token to its later requests). Exit 0 only with zero failures. Part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
work=$(mktemp -d /tmp/marquoir-api-check.XXXXXX)
port=$("$BIN/python" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
export SQLITE_PATH="$work/api.sqlite3" MARQUOIR_DEBUG=0 SECRET_KEY="api-check-$(date +%s)-not-a-secret-$$-0123456789abcdef"
# The run makes thousands of matches from one address: no creation limit for it (the
# limit itself is tested by pytest).
export MATCH_CREATION_LIMIT=1000000 MATCH_CREATION_ADDRESS_LIMIT=1000000
"$BIN/python" manage.py migrate --no-input -v 0
"$BIN/uvicorn" marquoir.asgi:application --host 127.0.0.1 --port "$port" --log-level warning \
  > "$work/server.log" 2>&1 &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break
  sleep 0.1
done
echo "== schemathesis: every check, every phase, against http://127.0.0.1:$port =="
status=0
PYTHONPATH=. SCHEMATHESIS_HOOKS=scripts.schemathesis_hooks "$BIN/schemathesis" run "http://127.0.0.1:$port/api/v1/openapi.json" --checks all \
  --max-examples "${API_CHECK_EXAMPLES:-100}" --seed "${API_CHECK_SEED:-1}" --no-color ${API_CHECK_ARGS:-} || status=$?
if grep -q "Traceback" "$work/server.log"; then
  echo "== the server logged an exception during the run: ==" && cat "$work/server.log" && status=1
fi
exit $status
