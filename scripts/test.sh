#!/usr/bin/env bash
# layoutd's whole test suite, as README.md's second command and .ci/run call it.
#
#   scripts/test.sh            # everything
#   STEPS="build unit" scripts/test.sh   # only some steps (names below)
#
# It installs what a fresh machine lacks (scripts/install-deps.sh), builds once in debug
# (with the tests) and once in release, then runs every step below even when an earlier
# one fails, and ends with a line "test.sh: N passed, M failed" (exit 1 on any failure).
# Steps: build corpus unit openapi dockerfile deploy e2e schemathesis browser differential fuzz dockerlibs
# The public test corpus is not in this repository: the unit and e2e steps read it from
# ../shared/corpus and ../shared/tools beside the clone; the corpus step says when it is missing.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
steps="${STEPS:-build corpus unit openapi dockerfile deploy e2e schemathesis browser differential fuzz dockerlibs}"
fuzz_seconds="${FUZZ_SECONDS:-15}"
passed=0
failed=0
failures=()

want() { [[ " $steps " == *" $1 "* ]]; }

step() {
    local name="$1"; shift
    want "$name" || return 0
    printf '\n=== %s: %s\n' "$name" "$*"
    local start=$SECONDS
    if "$@"; then
        passed=$((passed + 1))
        printf '=== %s: PASS (%ds)\n' "$name" $((SECONDS - start))
    else
        failed=$((failed + 1))
        failures+=("$name")
        printf '=== %s: FAIL (%ds)\n' "$name" $((SECONDS - start))
    fi
}

build() {
    # The release layoutd is linked as the Dockerfile links it (static Swift runtime), so
    # the dockerlibs step checks the same binary the image would ship.
    swift build --build-tests && swift build -c release --product layoutd --static-swift-stdlib \
        && swift build -c release --product layoutd-bench
}

# The shared folder beside the clone, with the public corpus and its comparison tool.
corpus() {
    local shared
    shared="$(cd "$repo/.." && pwd)/shared"
    if [ -d "$shared/corpus" ] && [ -f "$shared/tools/run_cases.py" ]; then
        echo "corpus: $shared/corpus"
        return 0
    fi
    echo "test.sh: the public test corpus is missing: expected $shared/corpus and $shared/tools/run_cases.py."
    echo "test.sh: it is not part of this repository; put the shared/ folder beside the clone."
    echo "test.sh: without it the unit step (CorpusTests.corpusIsPresent) and the e2e step (corpus/present) fail."
    return 1
}

# The PostgreSQL store's tests run against a throwaway cluster (LAYOUTD_TEST_PG_URL).
unit() { scripts/pg-test-cluster.sh -- swift test --skip-build; }
openapi() { python3 -m openapi_spec_validator openapi.yaml; }
dockerfile() { hadolint Dockerfile; }
# deploy/compose.yaml and deploy/kubernetes/ against their schemas, and what the issue asks of them.
deploy() { python3 scripts/validate-deploy.py; }
# The replicas checks (checks_replicas.py, pg_cluster.py) start their own PostgreSQL cluster
# with scripts/pg-test-cluster.sh --control: they stop and start it.
# Every check with the server's own count of event loops (one per core), then the
# connection-handling checks (raw sockets, pipelining, limits, slow and unread clients,
# answers held unread) with one loop and with four, so that answers made on different
# loop threads keep every limit and order (about a minute each in debug).
e2e_loop_checks=(--only 'http/keep-alive' --only 'http/pipelining' --only 'http/chunked-upload-raw'
    --only 'http/http10-closes' --only 'http/expect-100-continue' --only 'http/framing-errors'
    --only 'http/smuggling-rejected' --only 'http/413-body-too-large' --only 'process/connection-limit'
    --only 'process/sigterm-exits-0' --only 'hostile/http-*' --only 'hostile/answers-concurrent-pending')
e2e() {
    local status=0 loops
    python3 integration/e2e/run.py --binary .build/debug/layoutd || status=1
    for loops in 1 4; do
        echo "e2e: the connection checks with --io-threads $loops"
        python3 integration/e2e/run.py --binary .build/debug/layoutd --io-threads "$loops" "${e2e_loop_checks[@]}" || status=1
    done
    return "$status"
}
# schemathesis against a server on SQLite, then on PostgreSQL (a throwaway cluster of its own).
schemathesis() {
    scripts/schemathesis-smoke.sh .build/debug/layoutd 15 sqlite \
        && scripts/schemathesis-smoke.sh .build/debug/layoutd 15 postgres
}
browser() { scripts/install-browser.sh && python3 integration/browser/run.py --binary .build/debug/layoutd; }
differential() { python3 scripts/kiwi_differential.py --bench .build/release/layoutd-bench; }
# The scene targets (scene, svg) and the upload targets (font, ib) get a third of
# FUZZ_SECONDS each, at least 5 s: their builds (instrumented modules) are most of their
# time, and the upload targets reuse the scene targets' modules (FUZZ_MODULES).
fuzz() {
    local short=$(( fuzz_seconds / 3 > 5 ? fuzz_seconds / 3 : 5 ))
    scripts/fuzz-smoke.sh "$fuzz_seconds" && scripts/fuzz-http-smoke.sh "$fuzz_seconds" \
        && scripts/fuzz-scene-smoke.sh "$short" && FUZZ_MODULES=/tmp/layoutd-fuzz-scene/modules scripts/fuzz-upload-smoke.sh "$short"
}
dockerlibs() { python3 integration/e2e/check_docker_libs.py .build/release/layoutd; }

scripts/install-deps.sh || { echo "test.sh: installing dependencies failed"; echo "test.sh: 0 passed, 1 failed"; exit 1; }

step build build
if [ "$failed" -gt 0 ]; then
    echo "test.sh: the build failed; nothing else can run"
    echo "test.sh: $passed passed, $failed failed"
    exit 1
fi
step corpus corpus
step unit unit
step openapi openapi
step dockerfile dockerfile
step deploy deploy
step e2e e2e
step schemathesis schemathesis
step browser browser
step differential differential
step fuzz fuzz
step dockerlibs dockerlibs

echo
if [ "$failed" -gt 0 ]; then echo "test.sh: failed steps: ${failures[*]}"; fi
echo "test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
