#!/usr/bin/env bash
# HTTP benchmark of layoutd against nginx serving a static file, on
# loopback, with wrk; memory (RSS) figures; big scenes end to end. One command:
#
#   scripts/bench-http.sh            # builds release, runs everything (~4 minutes), prints tables
#
# Environment (all optional):
#   LAYOUTD_BIN=path   use this layoutd binary instead of building one
#   SCRATCH=dir        swift build --scratch-path (default: .build)
#   DURATION=10s       each wrk run
#   MEM_REQUESTS=200000  requests in each of the two memory rounds
#   LOG=1              also run cached /solve at 64 connections with the access log on
#   SKIP_HTTP=1 / SKIP_MEMORY=1 / SKIP_BIG=1  leave those parts out
#
# Everything it writes goes to bench-out/ (git-ignored): the nginx config and
# logs, the server logs, the generated scenes, raw wrk output, results.tsv.
# Both servers and wrk share this machine's cores, as in the issue's yardstick.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-out
BENCH=$ROOT/bench/http
DURATION=${DURATION:-10s}
MEM_REQUESTS=${MEM_REQUESTS:-200000}
mkdir -p "$OUT"
: > "$OUT/results.tsv"

need() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if ! need wrk || ! need nginx; then
    echo "installing wrk and nginx-light" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y wrk nginx-light >/dev/null 2>&1 \
        || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; }
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -n "${LAYOUTD_BIN:-}" ]; then
    BIN=$LAYOUTD_BIN
else
    SCRATCH=${SCRATCH:-.build}
    swift build -c release --scratch-path "$SCRATCH" --product layoutd >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/layoutd
fi

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Starts layoutd on a free port with a fresh database; sets SRV_PID and PORT.
# Extra flags are passed on. The access log (stderr) goes to a file.
start_layoutd() {
    local name=$1; shift
    # Remove the old logs first: the background child truncates them only
    # when it runs, and the port must not be read from a previous run's file.
    rm -f "$OUT/$name.db" "$OUT/$name.db-wal" "$OUT/$name.db-shm" "$OUT/$name.stdout" "$OUT/$name.stderr"
    "$BIN" serve --port 0 --db "$OUT/$name.db" "$@" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" &
    SRV_PID=$!
    PIDS+=("$SRV_PID")
    PORT=""
    for _ in $(seq 100); do
        PORT=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$OUT/$name.stdout" "$OUT/$name.stderr" 2>/dev/null | head -1 | sed 's/.*://') || true
        [ -n "$PORT" ] && break
        sleep 0.05
    done
    [ -n "$PORT" ] || { echo "layoutd did not start: $(cat "$OUT/$name.stderr")" >&2; exit 1; }
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
rss_kb() { awk -v k="$2" '$1==k":"{print $2}' "/proc/$1/status"; }   # VmRSS / VmHWM, kB

# CPU time (user + system) of process $1 so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# run_wrk LABEL CONNS URL SCRIPT [ARGS...]: one wrk run, appends a row to results.tsv.
# Besides wrk's figures, the row has the CPU time per request of the server (SRV_PID,
# from /proc) and of wrk itself (its rusage), in µs: on shared cores, what each request
# costs the machine, and wrk's own share of it.
run_wrk() {
    local label=$1 conns=$2 url=$3 script=$4; shift 4
    local threads=2; [ "$conns" -lt 2 ] && threads=1
    local raw="$OUT/wrk-$(echo "$label" | tr -c 'a-zA-Z0-9' '_')-c$conns.txt"
    local before; before=$(cpu_ticks "${SRV_PID:-0}")
    python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"WRKCPU {r.ru_utime} {r.ru_stime}\n")' "$raw.time" \
        wrk -t"$threads" -c"$conns" -d"$DURATION" --timeout 5s -s "$script" "$url" -- "$@" >"$raw" 2>&1 || true
    local after; after=$(cpu_ticks "${SRV_PID:-0}")
    local line; line=$(grep '^RESULT' "$raw" || echo "RESULT requests=0 rps=0 p50_us=0 p99_us=0 errors=-1 non2xx=-1")
    line="$line $(awk -v b="$before" -v a="$after" -v srv="${SRV_PID:-}" -v hz="$(getconf CLK_TCK)" -v line="$line" '
        /^WRKCPU/ { w = $2 + $3 }
        END { n = line; sub(/.*requests=/, "", n); sub(/ .*/, "", n); n += 0
              if (n == 0) n = 1
              if (srv != "") printf "server_cpu_us=%.1f ", (a - b) / hz * 1e6 / n
              printf "wrk_cpu_us=%.1f", w * 1e6 / n }' "$raw.time" 2>/dev/null)"
    printf '%s\t%s\t%s\n' "$label" "$conns" "$line" >>"$OUT/results.tsv"
    echo "  $label c=$conns: $line" >&2
}

SCENE=$BENCH/scene20.json
TEMPLATE=$BENCH/scene20.template.json   # the width varies: the same structure each time

if [ -z "${SKIP_HTTP:-}" ]; then
# ---------------------------------------------------------------- nginx
start_layoutd ref --quiet
curl -fsS -o "$OUT/solve-response.json" "http://127.0.0.1:$PORT/solve" -H 'content-type: application/json' --data-binary @"$SCENE"
stop "$SRV_PID"
mkdir -p "$OUT/nginx/www" "$OUT/nginx/tmp"
cp "$OUT/solve-response.json" "$OUT/nginx/www/solve.json"
NPORT=$(free_port)
cat >"$OUT/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    default_type application/json;
    client_body_temp_path $OUT/nginx/tmp;
    proxy_temp_path $OUT/nginx/tmp;
    fastcgi_temp_path $OUT/nginx/tmp;
    uwsgi_temp_path $OUT/nginx/tmp;
    scgi_temp_path $OUT/nginx/tmp;
    keepalive_requests 1000;
    server {
        listen 127.0.0.1:$NPORT;
        root $OUT/nginx/www;
        location / { types { } default_type application/json; }
    }
}
CONF
chmod -R a+rX "$OUT/nginx"
"$NGINX" -p "$OUT/nginx" -e "$OUT/nginx/error.log" -c "$OUT/nginx/nginx.conf" &
NGINX_PID=$!; PIDS+=("$NGINX_PID")
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$NPORT/solve.json" && break; sleep 0.05; done
echo "nginx static $(stat -c %s "$OUT/nginx/www/solve.json") bytes on :$NPORT" >&2
SRV_PID=""   # nginx's CPU is in its worker processes: not counted
for c in 1 64; do run_wrk "nginx static file" $c "http://127.0.0.1:$NPORT/solve.json" "$BENCH/get.lua"; done
stop "$NGINX_PID"

# ---------------------------------------------------------------- layoutd
start_layoutd http --quiet
LPID=$SRV_PID
URL=http://127.0.0.1:$PORT
seed=1
for c in 1 64; do
    run_wrk "POST /solve cached" $c "$URL/solve" "$BENCH/post_file.lua" "$SCENE"
    run_wrk "POST /solve uncached" $c "$URL/solve" "$BENCH/post_uncached.lua" "$TEMPLATE" $seed; seed=$((seed + 1))
    run_wrk "POST /validate" $c "$URL/validate" "$BENCH/post_file.lua" "$SCENE"
done
# Uncached and of a new structure every time (a metric varies, not the width): the whole
# path of parsing, compiling and solving, without the structure cache's help.
for c in 1 64; do
    run_wrk "POST /solve uncached, new structure" $c "$URL/solve" "$BENCH/post_uncached.lua" "$BENCH/scene20.structure.template.json" $seed
    seed=$((seed + 1))
done
stop "$LPID"
if [ -n "${LOG:-}" ]; then
    start_layoutd logged
    run_wrk "POST /solve cached, access log on" 64 "http://127.0.0.1:$PORT/solve" "$BENCH/post_file.lua" "$SCENE"
    stop "$SRV_PID"
fi
fi

# ---------------------------------------------------------------- memory
# Requests the server has answered, from its Prometheus counter.
served() { curl -fsS "http://127.0.0.1:$PORT/metrics" | awk '/^layoutd_requests_total/ {n += $2} END {print n + 0}'; }
# mem_round LABEL SEED: MEM_REQUESTS more POST /solve at 64 connections, every
# 10th a new scene (a miss that is solved and stored), the rest cache hits.
# wrk has no request count, so it runs in the background and gets SIGINT
# (it then prints its summary) once the server's counter says enough.
mem_round() {
    local label=$1 seed=$2 raw="$OUT/wrk-memory-$2.txt"
    local goal=$(( $(served) + MEM_REQUESTS ))
    wrk -t2 -c64 -d600s --timeout 5s -s "$BENCH/post_uncached.lua" "http://127.0.0.1:$PORT/solve" \
        -- "$TEMPLATE" "$seed" 10 >"$raw" 2>&1 &
    local wrk_pid=$!
    local deadline=$((SECONDS + 300))
    while [ "$(served)" -lt "$goal" ] && [ $SECONDS -lt $deadline ] && kill -0 "$wrk_pid" 2>/dev/null; do sleep 0.2; done
    kill -INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" 2>/dev/null || true
    local line; line=$(grep '^RESULT' "$raw" || echo "RESULT requests=0 rps=0 p50_us=0 p99_us=0 errors=-1 non2xx=-1")
    printf '%s\t%s\t%s\n' "$label" 64 "$line" >>"$OUT/results.tsv"
    echo "  $label: $line" >&2
}

MEM_LINES=()
if [ -z "${SKIP_MEMORY:-}" ]; then
    start_layoutd mem --quiet
    MPID=$SRV_PID
    sleep 0.5
    idle_rss=$(rss_kb "$MPID" VmRSS); idle_hwm=$(rss_kb "$MPID" VmHWM)
    # 1,000 idle keep-alive connections: each makes one request, then stays open.
    python3 "$BENCH/idle_connections.py" "$PORT" 1000 "$MPID" >"$OUT/idle.txt"
    conn_rss=$(sed -n 's/^rss_kb=//p' "$OUT/idle.txt"); conn_hwm=$(sed -n 's/^hwm_kb=//p' "$OUT/idle.txt")
    sleep 0.5
    mem_round "memory round 1 (1 in 10 uncached)" 7
    r1_rss=$(rss_kb "$MPID" VmRSS); r1_hwm=$(rss_kb "$MPID" VmHWM)
    mem_round "memory round 2 (1 in 10 uncached)" 8
    r2_rss=$(rss_kb "$MPID" VmRSS); r2_hwm=$(rss_kb "$MPID" VmHWM)
    stop "$MPID"
    MEM_LINES=("idle	$idle_rss	$idle_hwm" "1000 idle connections	$conn_rss	$conn_hwm"
               "after round 1	$r1_rss	$r1_hwm" "after round 2	$r2_rss	$r2_hwm")
fi
printf '%s\n' "${MEM_LINES[@]}" >"$OUT/memory.tsv"

# ---------------------------------------------------------------- big scenes
: >"$OUT/big.tsv"
if [ -z "${SKIP_BIG:-}" ]; then
    start_layoutd big --quiet --max-body-bytes 16777216
    for n in 1000 10000; do
        times=()
        for i in 1 2 3; do
            # Another inset each time: another structure, so nothing is reused (no result,
            # no compiled scene; see the cache table in docs/operations.md).
            python3 scripts/gen_scene.py $n --width $((370 + i)) --pad $((15 + i)) >"$OUT/scene-$n-$i.json"
            r=$(curl -sS -o "$OUT/scene-$n-$i.out" -w '%{http_code} %{time_total} %{size_upload} %{size_download}' \
                "http://127.0.0.1:$PORT/solve" -H 'content-type: application/json' --data-binary @"$OUT/scene-$n-$i.json")
            echo "  big $n #$i: $r" >&2
            times+=("$r")
        done
        printf '%s\t%s\n' "$n" "${times[*]}" >>"$OUT/big.tsv"
    done
    stop "$SRV_PID"
fi

python3 "$BENCH/table.py" "$OUT" "$(nproc)"
