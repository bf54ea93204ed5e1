#!/usr/bin/env bash
# The replicas benchmark, in one run on one machine: layoutd on SQLite beside layoutd on
# PostgreSQL, and three PostgreSQL-backed replicas behind nginx. wrk on loopback.
#
#   scripts/bench-replicas.sh        # builds release, runs everything (~3 minutes), prints a table
#
# What it measures (ROUNDS rounds; in each, every store runs every row once for DURATION,
# the stores in a rotating order; a ratio is taken within each round, between runs a few
# seconds apart, and the table shows the median of the rounds' ratios and of their figures,
# so a burst of load from elsewhere moves one round, not the verdict):
#   no groups, cached and uncached, 64 connections    PostgreSQL / SQLite (target >= 0.95); also
#                                                     PostgreSQL with its result cache in a SQLite
#                                                     file (--cache-db) as the SQLite server has it
#   one unversioned group, cached, 64 connections     PostgreSQL / SQLite (target >= 0.5),
#                                                     PostgreSQL p99 (target < 5 ms)
#   three replicas behind nginx, uncached, 64 conns   no errors, no non-2xx (no scaling claim:
#                                                     the cores are shared with nginx and wrk)
#
# Environment (all optional):
#   LAYOUTD_BIN=path     use this layoutd binary instead of building one
#   SCRATCH=dir          swift build --scratch-path (default: .build)
#   DURATION=5s          each wrk run
#   ROUNDS=3             rounds (an odd number: the median is one of them)
#   LAYOUTD_TEST_PG_URL  a PostgreSQL superuser URL to use; otherwise a throwaway cluster
#                        is started by scripts/pg-test-cluster.sh (fsync off, loopback) and
#                        removed at the end. The benchmark makes a database of its own.
#
# Everything it writes goes to bench-out/replicas/ (git-ignored): server and nginx logs,
# raw wrk output, results.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

if [ -z "${LAYOUTD_TEST_PG_URL:-}" ]; then
    exec "$ROOT/scripts/pg-test-cluster.sh" -- "$ROOT/scripts/bench-replicas.sh" "$@"
fi

OUT=$ROOT/bench-out/replicas
BENCH=$ROOT/bench/http
DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$OUT/results.tsv"

need() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if ! need wrk || ! need nginx; then
    echo "installing wrk and nginx-light" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y wrk nginx-light >/dev/null 2>&1 \
        || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; }
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
PSQL=$(ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)
PSQL=${PSQL:-psql}

if [ -n "${LAYOUTD_BIN:-}" ]; then
    BIN=$LAYOUTD_BIN
else
    SCRATCH=${SCRATCH:-.build}
    swift build -c release --scratch-path "$SCRATCH" --product layoutd >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/layoutd
fi

PIDS=()
DATABASE="layoutd_bench_$$"
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    "$PSQL" -X -q -d "$LAYOUTD_TEST_PG_URL" -c "DROP DATABASE IF EXISTS \"$DATABASE\"" >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$LAYOUTD_TEST_PG_URL" -c "CREATE DATABASE \"$DATABASE\"" >/dev/null
PG_URL="${LAYOUTD_TEST_PG_URL%/*}/$DATABASE"

free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

# start_layoutd NAME DB [FLAGS...]: layoutd on a free port, waits for /readyz; sets PORT, SRV_PID.
start_layoutd() {
    local name=$1 db=$2; shift 2
    PORT=$(free_port)
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --db "$db" --quiet "$@" \
        >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" &
    SRV_PID=$!
    PIDS+=("$SRV_PID")
    for _ in $(seq 300); do
        curl -fsS -o /dev/null "http://127.0.0.1:$PORT/readyz" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "layoutd $name did not become ready: $(tail -c 1000 "$OUT/$name.stderr")" >&2
    exit 1
}

# run_wrk LABEL STORE CONNS URL SCRIPT [ARGS...]: one wrk run; appends a row to results.tsv
# (with the round, $ROUND).
ROUND=0
run_wrk() {
    local label=$1 store=$2 conns=$3 url=$4 script=$5; shift 5
    local raw="$OUT/wrk-$(echo "$label-$store" | tr -c 'a-zA-Z0-9' '_')-$(date +%s%N).txt"
    local threads=2; [ "$conns" -lt 2 ] && threads=1
    wrk -t"$threads" -c"$conns" -d"$DURATION" --timeout 5s -s "$script" "$url" -- "$@" >"$raw" 2>&1 || true
    local line; line=$(grep '^RESULT' "$raw" || echo "RESULT requests=0 rps=0 p50_us=0 p99_us=0 errors=-1 non2xx=-1")
    printf '%s\t%s\t%s\t%s\t%s\n' "$ROUND" "$label" "$store" "$conns" "$line" >>"$OUT/results.tsv"
    echo "  $label [$store] c=$conns: $line" >&2
}

# The scenes: scene20 (20 views) as it is, and including one unversioned group.
SCENE=$BENCH/scene20.json
TEMPLATE=$BENCH/scene20.template.json
GROUP_SCENE=$OUT/scene20-group.json
python3 - "$SCENE" "$GROUP_SCENE" <<'PY'
import json, sys
scene = json.load(open(sys.argv[1]))
scene['groups'] = ['benchrow']
json.dump(scene, open(sys.argv[2], 'w'))
PY
GROUP_BODY='{"constraints":[{"id":"badge-square","equation":"badge.height == badge.width"}],"metrics":{"unused":1}}'

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "layoutd: $BIN" >&2
echo "PostgreSQL: $PG_URL" >&2

# ---------------------------------------------------------------- one process each
start_layoutd sqlite "$OUT/sqlite.db"
SQLITE_URL=http://127.0.0.1:$PORT
start_layoutd postgres "$PG_URL"
POSTGRES_URL=http://127.0.0.1:$PORT
# PostgreSQL for the groups, but the result cache in a SQLite file as the SQLite server has
# it: the same cache writes, so the comparison is of the group store alone.
start_layoutd postgres-cachefile "$PG_URL" --cache-db "$OUT/postgres-cache.db"
POSTGRES_CACHEFILE_URL=http://127.0.0.1:$PORT
for url in "$SQLITE_URL" "$POSTGRES_URL"; do
    curl -fsS -o /dev/null -X PUT "$url/groups/benchrow" -H 'content-type: application/json' --data-binary "$GROUP_BODY"
    # The group's scene must solve (a 422 would be a benchmark of the error path).
    curl -fsS -o /dev/null "$url/solve" -H 'content-type: application/json' --data-binary @"$GROUP_SCENE"
done

seed=1
STORES=(sqlite postgres postgres-cachefile)
for round in $(seq "$ROUNDS"); do
    ROUND=$round
    order=()
    for k in 0 1 2; do order+=("${STORES[$(( (k + round - 1) % 3 ))]}"); done
    for store in "${order[@]}"; do
        case "$store" in
            sqlite) url=$SQLITE_URL ;;
            postgres) url=$POSTGRES_URL ;;
            postgres-cachefile) url=$POSTGRES_CACHEFILE_URL ;;
        esac
        run_wrk "no groups, cached" "$store" 64 "$url/solve" "$BENCH/post_file.lua" "$SCENE"
        run_wrk "no groups, uncached" "$store" 64 "$url/solve" "$BENCH/post_uncached.lua" "$TEMPLATE" "$seed"
        seed=$((seed + 1))
        [ "$store" = postgres-cachefile ] && continue
        run_wrk "one unversioned group, cached" "$store" 64 "$url/solve" "$BENCH/post_file.lua" "$GROUP_SCENE"
        run_wrk "one unversioned group, cached" "$store" 1 "$url/solve" "$BENCH/post_file.lua" "$GROUP_SCENE"
    done
done
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
PIDS=()

# ---------------------------------------------------------------- three replicas behind nginx
ROUND=1
UPSTREAMS=""
for i in 1 2 3; do
    start_layoutd "replica$i" "$PG_URL"
    UPSTREAMS="$UPSTREAMS        server 127.0.0.1:$PORT;
"
done
mkdir -p "$OUT/nginx/tmp"
chmod 777 "$OUT/nginx/tmp"
NPORT=$(free_port)
cat >"$OUT/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $OUT/nginx/tmp;
    proxy_temp_path $OUT/nginx/tmp;
    fastcgi_temp_path $OUT/nginx/tmp;
    uwsgi_temp_path $OUT/nginx/tmp;
    scgi_temp_path $OUT/nginx/tmp;
    upstream layoutd {
$UPSTREAMS        keepalive 64;
    }
    server {
        listen 127.0.0.1:$NPORT;
        location / {
            proxy_pass http://layoutd;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host 127.0.0.1;
        }
    }
}
CONF
"$NGINX" -p "$OUT/nginx" -e "$OUT/nginx/error.log" -c "$OUT/nginx/nginx.conf" &
PIDS+=("$!")
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$NPORT/readyz" && break; sleep 0.05; done
curl -fsS -o /dev/null "http://127.0.0.1:$NPORT/readyz"
curl -fsS -o /dev/null -X PUT "http://127.0.0.1:$NPORT/groups/benchrow" -H 'content-type: application/json' --data-binary "$GROUP_BODY"
run_wrk "3 replicas behind nginx, no groups, uncached" postgres 64 "http://127.0.0.1:$NPORT/solve" "$BENCH/post_uncached.lua" "$TEMPLATE" 90
run_wrk "3 replicas behind nginx, one unversioned group, cached" postgres 64 "http://127.0.0.1:$NPORT/solve" "$BENCH/post_file.lua" "$GROUP_SCENE"

# ---------------------------------------------------------------- the table
# The load averages before and after say how much else ran on the machine meanwhile.
python3 - "$OUT/results.tsv" "$(nproc)" "$LOAD_BEFORE" "$(cut -d' ' -f1-3 /proc/loadavg)" "$ROUNDS" <<'PY'
import statistics
import sys

runs = {}     # (label, store, conns) -> {round: fields}
for line in open(sys.argv[1]):
    rnd, label, store, conns, result = line.rstrip('\n').split('\t')
    fields = dict(kv.split('=') for kv in result.split()[1:])
    runs.setdefault((label, store, int(conns)), {})[int(rnd)] = fields

def median(key, field):
    values = [float(f[field]) for f in runs.get(key, {}).values()]
    return statistics.median(values) if values else None

print('\nlayoutd replicas benchmark (%s cores; wrk on loopback; medians of %s rounds; '
      'load average %s before, %s after)' % (sys.argv[2], sys.argv[5], sys.argv[3], sys.argv[4]))
print('%-58s %-18s %5s  %9s  %7s  %7s  %6s  %6s' % ('what', 'store', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx'))
order = {'sqlite': 0, 'postgres': 1, 'postgres-cachefile': 2}
for key in sorted(runs, key=lambda k: (k[0].startswith('3 '), k[0], k[2], order[k[1]])):
    label, store, conns = key
    errors = sum(int(f['errors']) for f in runs[key].values())
    non2xx = sum(int(f['non2xx']) for f in runs[key].values())
    print('%-58s %-18s %5d  %9.0f  %7.2f  %7.2f  %6d  %6d' % (
        label, store, conns, median(key, 'rps'), median(key, 'p50_us') / 1000,
        median(key, 'p99_us') / 1000, errors, non2xx))

verdicts = []
def ratio(label, conns, target, store='postgres'):
    base, other = runs.get((label, 'sqlite', conns), {}), runs.get((label, store, conns), {})
    per_round = [float(other[r]['rps']) / float(base[r]['rps'])
                 for r in sorted(set(base) & set(other)) if float(base[r]['rps']) > 0]
    what = '%s, c=%d: %s/sqlite >= %.2f' % (label, conns, store, target)
    if not per_round:
        verdicts.append((what, 'missing', 'FAIL'))
        return
    r = statistics.median(per_round)
    verdicts.append((what, '%.2f (%s)' % (r, ' '.join('%.2f' % x for x in per_round)),
                     'ok' if r >= target else 'MISSED'))
for store in ('postgres', 'postgres-cachefile'):
    ratio('no groups, cached', 64, 0.95, store)
    ratio('no groups, uncached', 64, 0.95, store)
ratio('one unversioned group, cached', 64, 0.5)
ms = median(('one unversioned group, cached', 'postgres', 64), 'p99_us')
if ms is not None:
    verdicts.append(('one unversioned group, cached, c=64: postgres p99 < 5 ms', '%.2f ms' % (ms / 1000),
                     'ok' if ms < 5000 else 'MISSED'))
for label in ('3 replicas behind nginx, no groups, uncached', '3 replicas behind nginx, one unversioned group, cached'):
    f = runs.get((label, 'postgres', 64), {}).get(1)
    clean = f is not None and f['errors'] == '0' and f['non2xx'] == '0' and int(f['requests']) > 0
    verdicts.append(('%s: no errors' % label,
                     '%s errors, %s non-2xx' % (f['errors'], f['non2xx']) if f else 'missing',
                     'ok' if clean else 'FAIL'))
print('\ntargets (docs/performance.md; ratios: the median of the rounds, then each round)')
for what, value, verdict in verdicts:
    print('%-70s %-28s %s' % (what, value, verdict))
PY
