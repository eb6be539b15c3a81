#!/usr/bin/env bash
# schemathesis against the real server: every check, every phase (stateful included), on a
# fresh SQLite database, with schemathesis.toml and scripts/schemathesis_hooks.py (real
# matches and groups, their real ids and edit tokens, links to every write). Exit 0 only with
# zero failures. Part of `make test` (about two and a half minutes on a busy 2-core machine):
# one run of every phase, then API_CHECK_STATEFUL_PASSES (4) more of the stateful phase. At
# the end it prints its reach: the links the stateful passes covered, and the write requests
# that got past 401/404 (what the checks really tried), by operation and status.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
work=$(mktemp -d /tmp/marquoir-api-check.XXXXXX)
port=$("$BIN/python" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
export SQLITE_PATH="$work/api.sqlite3" MARQUOIR_DEBUG=0 SECRET_KEY="api-check-$(date +%s)-not-a-secret-$$-0123456789abcdef"
# The run makes thousands of matches and actions from one address: no creation or action
# limit for it, or its writes would meet 429s instead of the logic (the limits themselves
# are tested by pytest).
export MATCH_CREATION_LIMIT=1000000 MATCH_CREATION_ADDRESS_LIMIT=1000000
export MATCH_ACTION_LIMIT=1000000 MATCH_ACTION_ADDRESS_LIMIT=1000000 GROUP_READ_LIMIT=1000000 GROUP_IMPORT_LIMIT=1000000 GROUP_EXPORT_LIMIT=1000000
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
# The hooks make their fixtures through this address and add up the reach in that file.
export API_CHECK_URL="http://127.0.0.1:$port" API_CHECK_REACH="$work/reach.json"
st() { PYTHONPATH=. SCHEMATHESIS_HOOKS=scripts.schemathesis_hooks "$BIN/schemathesis" run "http://127.0.0.1:$port/api/v1/openapi.json" --checks all --no-color "$@"; }
st --max-examples "${API_CHECK_EXAMPLES:-100}" --seed "${API_CHECK_SEED:-1}" ${API_CHECK_ARGS:-} || status=$?
# Then the stateful phase alone, a few more times with other seeds. Against a live server
# Hypothesis ends that phase early, as soon as the same draws meet another answer than
# before ("inconsistent data generation": the server's state moved on), after anything from
# 13 to 250 scenarios; each pass takes 1 to 20 s, and the reach adds up over the passes.
for pass in $(seq "${API_CHECK_STATEFUL_PASSES:-4}"); do
  seed=$((${API_CHECK_SEED:-1} * 100 + pass))
  echo "== schemathesis: the stateful phase again (pass $pass, seed $seed) =="
  st --phases stateful --max-examples "${API_CHECK_STATEFUL_EXAMPLES:-1000}" --seed "$seed" ${API_CHECK_ARGS:-} \
    > "$work/stateful.txt" 2>&1 || status=$?
  # Only its summary, unless it failed (then all of it).
  if [ "$status" -ne 0 ]; then cat "$work/stateful.txt"; else grep -E "Scenarios:|API Links:|Test cases:|generated" "$work/stateful.txt" || true; fi
done
# The reach, for CI's log: the links the stateful passes followed together (schemathesis
# counts them the same way in its summary), and the writes (not the creations) whose answer
# was neither 401 nor 404, by operation and status: what the checks really tried.
"$BIN/python" - "$work/reach.json" <<'PY'
import json, sys
from collections import Counter
try:
    reach = json.load(open(sys.argv[1], encoding="utf-8"))
except (OSError, ValueError):
    reach = {"past": {}, "sent": {}, "links": [], "links_total": 0}
print("== api-check reach ==")
print(f"  stateful links covered: {len(reach['links'])} of {reach['links_total']} (published and inferred, all passes)")
by_operation: Counter[str] = Counter()
statuses: dict[str, Counter[str]] = {}
for key, count in reach["past"].items():
    operation, status = key.rsplit(" ", 1)
    by_operation[operation] += count
    statuses.setdefault(operation, Counter())[status] += count
past, sent = sum(by_operation.values()), sum(reach["sent"].values())
print(f"  write requests past 401/404: {past} of {sent}")
for operation in sorted(reach["sent"]):
    detail = ", ".join(f"{n} × {s}" for s, n in sorted(statuses.get(operation, Counter()).items()))
    print(f"    {operation:<48} {by_operation[operation]:>5} of {reach['sent'][operation]:<5} {detail}")
PY
# The reach in full (every link followed, by id), for a closer look: API_CHECK_REACH_OUT=file.
if [ -n "${API_CHECK_REACH_OUT:-}" ]; then cp "$work/reach.json" "$API_CHECK_REACH_OUT"; fi
if grep -q "Traceback" "$work/server.log"; then
  echo "== the server logged an exception during the run: ==" && cat "$work/server.log" && status=1
fi
exit $status
