#!/usr/bin/env bash
# A short, capped schemathesis run against a live layoutd built from this tree:
# every operation of openapi.yaml, all checks, a fixed seed, a few examples per operation.
#
#   scripts/schemathesis-smoke.sh [BINARY] [MAX_EXAMPLES] [STORE]
#
# STORE: `sqlite` (the default: a new SQLite file in a temporary folder) or `postgres`
# (a new database on a PostgreSQL cluster; the one of LAYOUTD_TEST_PG_URL when it
# is set, else a throwaway one started by scripts/pg-test-cluster.sh for this run).
#
# Excluded check: positive_data_acceptance — a schema-valid scene can still be one the
# contract rejects with 422 (an unknown group, a syntax error inside a constraint string)
# and a schema-valid PUT can fail a precondition (412); a JSON schema cannot express those.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="$(realpath "${1:-$repo/.build/debug/layoutd}")"
examples="${2:-15}"
store="${3:-sqlite}"
case "$store" in
    sqlite) ;;
    postgres)
        if [ -z "${LAYOUTD_TEST_PG_URL:-}" ]; then
            exec "$repo/scripts/pg-test-cluster.sh" -- "$0" "$binary" "$examples" postgres
        fi ;;
    *) echo "usage: $0 [BINARY] [MAX_EXAMPLES] [sqlite|postgres]" >&2; exit 2 ;;
esac
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
work=$(mktemp -d)
pid=
database=
psql_bin=
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    if [ -n "$database" ]; then
        "$psql_bin" -X -q -d "$LAYOUTD_TEST_PG_URL" -c "DROP DATABASE IF EXISTS \"$database\"" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ "$store" = postgres ]; then
    # A database of this run's own, so a cluster given by LAYOUTD_TEST_PG_URL keeps its data.
    psql_bin="$(ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)"
    psql_bin="${psql_bin:-psql}"
    database="layoutd_schemathesis_$$"
    "$psql_bin" -X -q -v ON_ERROR_STOP=1 -d "$LAYOUTD_TEST_PG_URL" -c "CREATE DATABASE \"$database\"" >/dev/null
    db="${LAYOUTD_TEST_PG_URL%/*}/$database"
else
    db="$work/st.db"
fi
"$binary" serve --host 127.0.0.1 --port "$port" --db "$db" --quiet 2>"$work/server.log" &
pid=$!
# Ready, not only live: with PostgreSQL, /readyz is 200 once the schema is in place.
for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null \
    || { echo "schemathesis-smoke: the server is not ready ($store)"; cat "$work/server.log"; exit 1; }
cd "$work"
echo "schemathesis-smoke: layoutd on $store"
timeout 300 schemathesis run "$repo/openapi.yaml" --url "http://127.0.0.1:$port" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$examples" --seed 20261130 --no-color
kill -0 "$pid" 2>/dev/null || { echo "schemathesis-smoke: the server died"; cat "$work/server.log"; exit 1; }
