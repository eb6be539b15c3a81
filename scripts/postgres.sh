#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: scripts/postgres.sh start|stop|url|reset|destroy|version.
#
# - start: creates the cluster on first use (in /tmp/marquoir-pg, owned by the `postgres`
#   system user when run as root, since initdb refuses root), starts it on 127.0.0.1:54329
#   with its socket in the same directory, trust authentication for local connections
#   only, fsync off, and a database `marquoir`. Already running: nothing to do. Quiet.
# - stop: stops it (the files stay, so the next start is quick; delete the directory to
#   start afresh).
# - url: the DATABASE_URL to reach it: postgres://postgres@127.0.0.1:54329/marquoir
# - reset: starts it if needed, drops every database in it (the tests' test_marquoir too)
#   and makes `marquoir` anew, empty: the browser tests' server migrates and serves it, a
#   fresh one each pass as its SQLite file is, whatever schema an earlier checkout left.
# - destroy: stops it and deletes its directory; the next start makes a new cluster.
# - version: the server's major version (15 on Debian 12).
#
# Binaries come from Debian's packages (/usr/lib/postgresql/*/bin; scripts/system_deps.sh
# installs them). MARQUOIR_PG_DIR and MARQUOIR_PG_PORT move the cluster elsewhere.
set -euo pipefail

PG_DIR=${MARQUOIR_PG_DIR:-/tmp/marquoir-pg}
PG_PORT=${MARQUOIR_PG_PORT:-54329}
PG_HOST=127.0.0.1
PG_DB=marquoir
PG_SUPERUSER=postgres
DATA="$PG_DIR/data"
LOG="$PG_DIR/server.log"

die() {
  echo "postgres.sh: $*" >&2
  exit 1
}

pg_bin() {
  local bin
  bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -type d -name bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$bin" ] && [ -x "$bin/initdb" ] || die "no PostgreSQL server under /usr/lib/postgresql/*/bin (run scripts/system_deps.sh)"
  echo "$bin"
}

# Runs a server command as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [ "$EUID" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

is_running() {
  [ -f "$DATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1
}

init_cluster() {
  if [ "$EUID" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "no 'postgres' system user (install Debian's postgresql package)"
    install -d -m 700 -o postgres -g postgres "$PG_DIR"
  else
    install -d -m 700 "$PG_DIR"
  fi
  # -U postgres: the same superuser name whoever runs this, so the URL is the same everywhere.
  as_owner "$BIN/initdb" -D "$DATA" -U "$PG_SUPERUSER" -E UTF8 --locale=C \
    --auth-local=trust --auth-host=trust --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
    die "initdb failed; see $PG_DIR/initdb.log"
  # A test cluster: nothing here needs to survive a crash, so trade durability for speed.
  cat >>"$DATA/postgresql.conf" <<EOF

# --- marquoir test cluster (scripts/postgres.sh) ---
listen_addresses = '$PG_HOST'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 100
EOF
  # Trust, but only for this machine: the socket and the loopback addresses.
  cat >"$DATA/pg_hba.conf" <<EOF
local all all trust
host all all 127.0.0.1/32 trust
host all all ::1/128 trust
EOF
}

psql_admin() {
  "$BIN/psql" -h "$PG_HOST" -p "$PG_PORT" -U "$PG_SUPERUSER" -d postgres -X -q -v ON_ERROR_STOP=1 "$@"
}

start() {
  [ -f "$DATA/PG_VERSION" ] || init_cluster
  if ! is_running; then
    # 9>&-: the server must not inherit the lock below, or it would hold it for its lifetime.
    as_owner "$BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t 60 -s >/dev/null 9>&- ||
      die "the server did not start; see $LOG"
  fi
  if [ -z "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" ]; then
    psql_admin -c "CREATE DATABASE $PG_DB"
  fi
}

stop() {
  if is_running; then
    as_owner "$BIN/pg_ctl" stop -D "$DATA" -m fast -w -t 60 -s >/dev/null
  fi
}

reset() {
  start
  local db
  for db in $(psql_admin -tAc "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres'"); do
    psql_admin -c "DROP DATABASE \"$db\" WITH (FORCE)"
  done
  psql_admin -c "CREATE DATABASE $PG_DB"
}

destroy() {
  stop
  rm -rf "$PG_DIR"
}

BIN=$(pg_bin)
case "${1:-}" in
  start | stop | reset | destroy)
    # One at a time: two test runs starting the cluster together must not both initdb.
    exec 9>"/tmp/marquoir-pg-$PG_PORT.lock"
    flock 9
    "$1"
    ;;
  url) echo "postgres://$PG_SUPERUSER@$PG_HOST:$PG_PORT/$PG_DB" ;;
  version) "$BIN/postgres" --version | sed -E 's/^[^0-9]*([0-9]+).*/\1/' ;;
  *) die "usage: scripts/postgres.sh start|stop|url|reset|destroy|version" ;;
esac
