#!/usr/bin/env bash
# Builds the LayoutSyntax libFuzzer targets (VFL and equations) and runs each for a while.
#
#   scripts/fuzz-smoke.sh [SECONDS]        default 20 s per target (the test command's smoke run)
#
# Environment: FUZZ_BUILD (default /tmp/layoutd-fuzz) holds the binaries, the corpora
# (seeded from the string literals of Tests/LayoutSyntaxTests and fuzz/seeds), the logs
# (fuzz-NAME.log) and any crash artifacts (those of earlier runs move to old-artifacts/); SWIFTC (default swiftc on PATH or /opt/swift).
# Exits non-zero when a target finds a crash, a hang (> 10 s per input) or runs out of
# memory (> 2048 MB). Turn every crasher into a regression test in
# Tests/LayoutSyntaxTests/ParserInvariantTests.swift.
set -euo pipefail

seconds="${1:-20}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD:-/tmp/layoutd-fuzz}"
swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
mkdir -p "$build"

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/LayoutSyntax" -name '*.swift' | sort)

build_target() { # name entry-file
    echo "== building $1"
    rm -f "$build/fuzz-$1"
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g \
        -swift-version 6 -enable-upcoming-feature ExistentialAny \
        -module-name "LayoutSyntaxFuzz_$1" \
        "${sources[@]}" "$root/fuzz/FuzzSupport.swift" "$root/fuzz/$2" \
        -o "$build/fuzz-$1" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    [ -x "$build/fuzz-$1" ] || { echo "build of $1 failed"; exit 1; }
}

seed_corpus() { # name kind(vfl|equation)
    local corpus="$build/corpus-$1"
    mkdir -p "$corpus"
    if [ -d "$root/fuzz/seeds/$2" ]; then cp -n "$root/fuzz/seeds/$2"/* "$corpus"/ 2>/dev/null || true; fi
    # Every string literal of the parser tests is a seed (the VFL target reads byte 0 as its option selector).
    python3 - "$root/Tests/LayoutSyntaxTests" "$corpus" "$2" <<'PY'
import hashlib, os, re, sys
tests, corpus, kind = sys.argv[1:4]
seen = set()
for folder, _, files in os.walk(tests):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', text):
            # Swift escapes: \u{…}, \t, \n, \", \\ (interpolations are kept as text).
            literal = re.sub(r"\\u\{([0-9a-fA-F]{1,6})\}", lambda m: chr(int(m.group(1), 16)), literal)
            literal = literal.replace("\\t", "\t").replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
            value = literal.encode("utf-8", "surrogatepass")
            if not value or value in seen:
                continue
            seen.add(value)
            data = (b"\x00" + value) if kind == "vfl" else value
            path = os.path.join(corpus, "seed-" + hashlib.sha1(data).hexdigest()[:16])
            with open(path, "wb") as handle:
                handle.write(data)
PY
}

run_target() { # name
    echo "== fuzzing $1 for ${seconds}s"
    local status=0
    # Artifacts of earlier runs (kept in old-artifacts/) must not fail this one.
    if ls "$build"/crash-"$1"-* >/dev/null 2>&1; then
        mkdir -p "$build/old-artifacts"
        mv "$build"/crash-"$1"-* "$build/old-artifacts/"
    fi
    # In-process (no -jobs): a crash, hang or OOM stops the run with a non-zero status.
    (cd "$build" && nice "$build/fuzz-$1" "$build/corpus-$1" -dict="$root/fuzz/$1.dict" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
        -artifact_prefix="$build/crash-$1-" -print_final_stats=1 > "$build/fuzz-$1.log" 2>&1) || status=$?
    grep -E "^(Done|stat::|==[0-9]+==|SUMMARY|artifact_prefix)|Test unit written|DONE" "$build/fuzz-$1.log" | tail -n 12 || true
    if [ "$status" -ne 0 ] || ls "$build"/crash-"$1"-* >/dev/null 2>&1; then
        echo "FAIL: $1 (status $status); log $build/fuzz-$1.log; artifacts: $(ls "$build"/crash-"$1"-* 2>/dev/null | tr '\n' ' ')"
        return 1
    fi
}

build_target vfl FuzzVisualFormat.swift
build_target equation FuzzEquation.swift
seed_corpus vfl vfl
seed_corpus equation equation
status=0
run_target vfl || status=1
run_target equation || status=1
[ "$status" -eq 0 ] && echo "fuzz smoke: OK (${seconds}s per target, no crash, hang or OOM)"
exit "$status"
