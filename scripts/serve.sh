#!/usr/bin/env bash
# Serve Marquoir as in production: DEBUG off, compressed static files, JSON logs,
# gunicorn with uvicorn workers. Settings come from the environment (docs/deploy.md);
# for a try-out on this machine, a secret key is made once and kept in .secret_key.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

if [ -z "${SECRET_KEY:-}" ]; then
  [ -s .secret_key ] || "$BIN/python" -c "import secrets; print(secrets.token_urlsafe(64))" > .secret_key
  SECRET_KEY=$(cat .secret_key)
fi
export SECRET_KEY
export MARQUOIR_DEBUG=0 MARQUOIR_COMPRESS_STATIC=1 LOG_FORMAT="${LOG_FORMAT:-json}"

"$BIN/python" scripts/compile_messages.py
"$BIN/python" manage.py collectstatic --no-input -v 0
"$BIN/python" manage.py migrate --no-input -v 0
# Behind TLS (MARQUOIR_HTTPS=1) every deployment check must pass; a plain-HTTP try-out on
# this machine only gets the ordinary checks (the HTTPS ones cannot hold there).
if [ "${MARQUOIR_HTTPS:-0}" = 1 ]; then
  "$BIN/python" manage.py check --deploy --fail-level WARNING
else
  "$BIN/python" manage.py check
fi
exec "$BIN/gunicorn" -c marquoir/gunicorn_conf.py marquoir.asgi:application
