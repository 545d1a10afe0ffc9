#!/usr/bin/env bash
# Source this from .ci/run: starts a throwaway PostgreSQL 15 cluster for the store tests,
# exports CARDKIT_TEST_POSTGRES, and stops and removes the cluster when the shell exits.
# Needs the PostgreSQL server binaries (postgresql-15 on Debian/Ubuntu); as root it runs
# the server as the 'postgres' user.
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
PG_PORT="${PG_PORT:-55432}"
PG_DIR="$(mktemp -d "${PG_PARENT:-/tmp}/cardkit-pg.XXXXXX")"  # PG_PARENT=/dev/shm: a tmpfs cluster (not durable)
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL server binaries not found (set PG_BIN); the store tests will fail under CI" >&2
    return 0 2>/dev/null || exit 0
fi
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
as_pg "'$PG_BIN/initdb' -D '$PG_DIR/data' -A trust -U postgres" >"$PG_DIR/initdb.log"
as_pg "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -l '$PG_DIR/server.log' -w \
    -o \"-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1\" start" >/dev/null
stop_postgres() {
    as_pg "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
}
trap stop_postgres EXIT
as_pg "'$PG_BIN/createdb' -h 127.0.0.1 -p $PG_PORT -U postgres cardkit_test"
export CARDKIT_TEST_POSTGRES="postgresql://postgres@127.0.0.1:$PG_PORT/cardkit_test"
export CI="${CI:-1}"
