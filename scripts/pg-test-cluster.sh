#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for layoutd's tests: Debian's `postgresql`,
# `initdb` into a temporary folder, listening on a free loopback port and on a unix socket
# in that folder, started with `pg_ctl start -w`; stopped and removed when done.
#
#   scripts/pg-test-cluster.sh -- COMMAND [ARG...]
#       start, run COMMAND with the variables below exported, stop and remove the cluster;
#       exits with COMMAND's status. For example:
#       scripts/pg-test-cluster.sh -- swift test --skip-build --filter PostgreSQL
#   scripts/pg-test-cluster.sh
#       start, print LAYOUTD_TEST_PG_URL=..., and wait; SIGINT or SIGTERM (Ctrl-C) stops
#       and removes the cluster.
#   scripts/pg-test-cluster.sh --control
#       start, print LAYOUTD_TEST_PG_URL=..., then read commands from standard input, one a
#       line: `restart` (`pg_ctl restart -m fast`), `stop`, `start` (again on the same
#       port); each answers one line when done (`restarted`, `stopped`, `started`, or
#       `failed`). The end of the input stops and removes the cluster, so a test that takes
#       the server away and brings it back never leaves one behind. (Commands come on
#       standard input rather than as signals because a child of a Swift test process
#       starts with most signals blocked.)
#   source scripts/pg-test-cluster.sh
#       start and export the variables into the current shell; the cluster is stopped and
#       removed when that shell exits (an EXIT trap, replacing any the shell had) or when
#       it calls `pg_test_cluster_stop`.
#
# Exported:
#   LAYOUTD_TEST_PG_URL   postgresql://postgres@127.0.0.1:PORT/postgres (trust authentication,
#                         superuser `postgres`; the tests create and drop their own databases)
#   LAYOUTD_TEST_PG_HOST  the unix socket folder (a libpq `host` that is a path)
#   LAYOUTD_TEST_PG_PORT  the port
#
# The cluster is for tests only: trust authentication on loopback and the socket, and
# fsync off (a crash of the machine loses it, which a throwaway cluster may). As root, the
# server runs as the `postgres` user (initdb refuses root); otherwise as the caller.
# PostgreSQL is installed by scripts/install-deps.sh when initdb is missing (needs root).
# Start-up takes a few seconds: initdb, then the server.

pg_test_cluster_say() { printf 'pg-test-cluster: %s\n' "$*" >&2; }

# The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin).
pg_test_cluster_bindir() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
        printf '%s\n' "$dir"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

# Runs its arguments as the cluster's owner.
pg_test_cluster_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Runs `pg_ctl ACTION` (start, stop, restart) on the cluster, waiting for it to finish;
# the server keeps its options (port, socket folder) across a stop and start.
pg_test_cluster_ctl() {
    pg_test_cluster_as_owner "$_pg_test_cluster_bin/pg_ctl" -D "$_pg_test_cluster_dir/data" \
        -l "$_pg_test_cluster_dir/server.log" -w -t 60 -m fast -o "$_pg_test_cluster_options" \
        "$1" >/dev/null 2>&1
}

pg_test_cluster_stop() {
    if [ -n "${_pg_test_cluster_dir:-}" ] && [ -d "$_pg_test_cluster_dir" ]; then
        if [ -f "$_pg_test_cluster_dir/data/postmaster.pid" ]; then
            pg_test_cluster_as_owner "$_pg_test_cluster_bin/pg_ctl" -D "$_pg_test_cluster_dir/data" \
                -m immediate -w stop >/dev/null 2>&1 || true
        fi
        rm -rf "$_pg_test_cluster_dir"
    fi
    _pg_test_cluster_dir=
}

# Creates and starts the cluster; sets LAYOUTD_TEST_PG_{URL,HOST,PORT}. Returns non-zero
# (after cleaning up) when it cannot.
pg_test_cluster_start() {
    _pg_test_cluster_bin="$(pg_test_cluster_bindir)"
    if [ -z "$_pg_test_cluster_bin" ]; then
        local repo
        repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
        pg_test_cluster_say "initdb not found: installing PostgreSQL with scripts/install-deps.sh"
        "$repo/scripts/install-deps.sh" || return 1
        _pg_test_cluster_bin="$(pg_test_cluster_bindir)"
        [ -n "$_pg_test_cluster_bin" ] || { pg_test_cluster_say "initdb still not found"; return 1; }
    fi
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        pg_test_cluster_say "running as root needs the postgres user (made by Debian's postgresql package)"
        return 1
    fi

    _pg_test_cluster_dir="$(mktemp -d "${TMPDIR:-/tmp}/layoutd-pg.XXXXXX")" || return 1
    mkdir -p "$_pg_test_cluster_dir/socket"
    if [ "$(id -u)" -eq 0 ]; then
        chown -R postgres: "$_pg_test_cluster_dir"
    fi
    if ! pg_test_cluster_as_owner "$_pg_test_cluster_bin/initdb" -D "$_pg_test_cluster_dir/data" \
        -U postgres -A trust -E UTF8 --locale=C --no-sync --no-instructions \
        >"$_pg_test_cluster_dir/initdb.log" 2>&1; then
        pg_test_cluster_say "initdb failed:"
        cat "$_pg_test_cluster_dir/initdb.log" >&2
        pg_test_cluster_stop
        return 1
    fi

    # A free port can be taken by someone else between the probe and the server's bind:
    # try a few.
    local port attempt started=
    for attempt in 1 2 3 4 5; do
        port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
        _pg_test_cluster_options="-c listen_addresses=127.0.0.1 -p $port -k $_pg_test_cluster_dir/socket -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        if pg_test_cluster_ctl start; then
            started=1
            break
        fi
        pg_test_cluster_say "start on port $port failed (attempt $attempt)"
    done
    if [ -z "$started" ]; then
        pg_test_cluster_say "the server did not start; its log:"
        cat "$_pg_test_cluster_dir/server.log" >&2 2>/dev/null
        pg_test_cluster_stop
        return 1
    fi
    export LAYOUTD_TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
    export LAYOUTD_TEST_PG_HOST="$_pg_test_cluster_dir/socket"
    export LAYOUTD_TEST_PG_PORT="$port"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    # Sourced: leave the caller's shell options alone.
    if pg_test_cluster_start; then
        trap pg_test_cluster_stop EXIT
        pg_test_cluster_say "LAYOUTD_TEST_PG_URL=$LAYOUTD_TEST_PG_URL (stopped when this shell exits, or by pg_test_cluster_stop)"
    fi
    return
fi

set -euo pipefail
trap pg_test_cluster_stop EXIT
sleeper=
trap '[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null; exit 130' INT
trap '[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null; exit 143' TERM
pg_test_cluster_start

if [ "$#" -gt 0 ] && [ "$1" = "--control" ] && [ "$#" -eq 1 ]; then
    printf 'LAYOUTD_TEST_PG_URL=%s\n' "$LAYOUTD_TEST_PG_URL"
    while IFS= read -r command; do
        case "$command" in
            restart) answer=restarted ;;
            stop) answer=stopped ;;
            start) answer=started ;;
            *) echo "failed"; continue ;;
        esac
        if pg_test_cluster_ctl "$command"; then echo "$answer"; else echo failed; fi
    done
    exit 0
fi

if [ "$#" -gt 0 ]; then
    if [ "$1" != "--" ] || [ "$#" -lt 2 ]; then
        pg_test_cluster_say "usage: $0 [--control | -- COMMAND [ARG...]]"
        exit 2
    fi
    shift
    status=0
    "$@" || status=$?
    exit "$status"
fi

printf 'LAYOUTD_TEST_PG_URL=%s\n' "$LAYOUTD_TEST_PG_URL"
# `wait` returns as soon as a trapped signal arrives, so the traps run at once.
while true; do
    sleep 3600 &
    sleeper=$!
    wait "$sleeper" || true
done
