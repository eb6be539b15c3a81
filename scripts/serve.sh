#!/usr/bin/env bash
# Serve Marquoir as in production: DEBUG off, compressed static files, JSON logs,
# gunicorn with uvicorn workers. Settings come from the environment (docs/deploy.md);
# for a try-out on this machine, a secret key is made once and kept in .secret_key.
#
# The build and deploy steps (catalogs, static files, migrations, checks: about 4 s, and
# twice that under load) run only when what they depend on changed since they last ran:
# the code, the installed packages, the settings' environment, the database. A restart
# of the same server (after a crash, by systemd) starts gunicorn at once. `--build` runs
# them all whatever the stamps say (after restoring a database from a backup, say).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
# Every open live stream holds a file descriptor: raise the soft limit to the hard one, so
# that the streams' cap (MARQUOIR_STREAMS_PER_PROCESS, kept below it) is the bound, not the
# usual 1,024 (docs/deploy.md; under systemd, LimitNOFILE=).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
STAMPS=var/serve
force=0
for arg in "$@"; do
  case "$arg" in
    --build) force=1 ;;
    *) echo "usage: scripts/serve.sh [--build]" >&2; exit 2 ;;
  esac
done

# MARQUOIR_HTTPS as the settings read it (marquoir/env.py refuses any other word).
case "$(echo "${MARQUOIR_HTTPS:-}" | tr '[:upper:]' '[:lower:]' | tr -d '[:space:]')" in
  1 | true | yes | on) https=1 ;;
  *) https=0 ;;
esac

# Without SECRET_KEY the settings read the key kept in MARQUOIR_SECRET_KEY_FILE (.secret_key),
# made here on the first start (marquoir/env.py: random, readable by this user only).
if [ -z "${SECRET_KEY:-}" ]; then
  [ -s "${MARQUOIR_SECRET_KEY_FILE:-.secret_key}" ] || "$BIN/python" -m marquoir.env
  if [ "$https" = 1 ]; then
    echo "serve.sh: SECRET_KEY is not set: signing with the key kept in ${MARQUOIR_SECRET_KEY_FILE:-.secret_key}." \
      "Every server of a deployment needs the same key: set SECRET_KEY (docs/deploy.md)." >&2
  fi
fi
export MARQUOIR_DEBUG=0 MARQUOIR_COMPRESS_STATIC=1 LOG_FORMAT="${LOG_FORMAT:-json}"

# What the steps depend on, as one fingerprint each (file names, times and sizes: a few ms).
code_inputs() {
  find marquoir -type f ! -name '*.mo' ! -name '*.pyc' ! -path '*/__pycache__/*' -printf '%p %T@ %s\n' | sort
  find pyproject.toml manage.py .venv/.installed -maxdepth 0 -printf '%p %T@ %s\n' 2>/dev/null || true
}
settings_inputs() {
  # The variables the settings read (by their prefixes: marquoir/settings.py), and the
  # database itself: a new SQLite file, or one put back from elsewhere, has another inode.
  # A PostgreSQL database dropped and made again under the same URL is not seen: `--build`.
  env | { grep -E '^(MARQUOIR_|SECRET_KEY|ALLOWED_HOSTS|CSRF_TRUSTED_ORIGINS|DATABASE_|SQLITE_|SECURE_|MATCH_|GROUP_|LOG_)' || true; } | sort
  if [ -z "${DATABASE_URL:-}" ]; then
    stat -c 'sqlite %d:%i' "${SQLITE_PATH:-db.sqlite3}" 2>/dev/null || echo "sqlite missing"
  fi
}
fingerprint() { sha256sum | cut -d' ' -f1; }
build_print=$(code_inputs | fingerprint)
deploy_print=$( (echo "$build_print"; settings_inputs) | fingerprint)
stamped() { [ "$force" = 0 ] && [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }
mkdir -p "$STAMPS"

if ! stamped build "$build_print" || [ ! -f staticfiles/staticfiles.json ]; then
  "$BIN/python" scripts/compile_messages.py
  "$BIN/python" manage.py collectstatic --no-input -v 0
  echo "$build_print" > "$STAMPS/build"
fi
if ! stamped deploy "$deploy_print"; then
  "$BIN/python" manage.py migrate --no-input -v 0
  # Behind TLS (MARQUOIR_HTTPS=1) every deployment check must pass; a plain-HTTP try-out on
  # this machine only gets the ordinary checks (the HTTPS ones cannot hold there).
  if [ "$https" = 1 ]; then
    "$BIN/python" manage.py check --deploy --fail-level WARNING
  else
    "$BIN/python" manage.py check
  fi
  # Migrating made the SQLite file if it was missing: stamp the database as it is now.
  (echo "$build_print"; settings_inputs) | fingerprint > "$STAMPS/deploy"
fi
exec "$BIN/gunicorn" -c marquoir/gunicorn_conf.py marquoir.asgi:application
