#!/usr/bin/env bash
# Builds the scene libFuzzer targets (fuzz/scene/: `scene`, the decoder + compiler +
# solver end to end; `svg`, the wireframe renderer) and runs each for a while. Both have a
# structured mode (fuzz/scene/SceneMutator.swift, libFuzzer's custom mutator): half of the
# mutations rewrite names (combining marks, compatibility characters, repeated members,
# copied names), within the same seconds.
#
#   scripts/fuzz-scene-smoke.sh [SECONDS] [TARGET...]   default 20 s per target, both targets
#
# The modules are compiled as the package has them by scripts/fuzz-modules.sh (Cassowary
# through LayoutService: static libraries instrumented with -sanitize=fuzzer,address, -O,
# -enable-testing), then each entry file links them.
#
# Environment: FUZZ_BUILD (default /tmp/layoutd-fuzz-scene) holds the modules, binaries,
# corpora (seeded from fuzz/scene/seeds), logs (fuzz-NAME.log) and crash artifacts
# (those of earlier runs move to old-artifacts/, slow units to slow-units/); SWIFTC (default swiftc on PATH or
# /opt/swift); FUZZ_JOBS (default 1: in-process; N > 1 runs N jobs in N workers).
# Exits non-zero when a target finds a crash, an invariant failure, a hang (> 120 s for
# one input) or runs out of memory (> 2048 MB). Copy every failing input into
# fuzz/regressions/scene/ or fuzz/regressions/svg/: SceneInvariantTests replays both
# directories with the same settings on every `swift test`.
set -euo pipefail

seconds="${1:-20}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(scene svg)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD:-/tmp/layoutd-fuzz-scene}"
swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
mkdir -p "$build"

# shellcheck source=scripts/fuzz-modules.sh
. "$root/scripts/fuzz-modules.sh"
# Package.swift's dependency order: LayoutService imports InterfaceBuilder (the import
# command and POST /import).
fuzz_build_modules "$build/modules" \
    Cassowary LayoutSyntax HTTP1 TextLayout LayoutCompiler InterfaceBuilder LayoutStore Wireframe LayoutService

build_target() { # name
    local entry="$root/fuzz/scene/Fuzz$(tr '[:lower:]' '[:upper:]' <<< "${1:0:1}")${1:1}.swift"
    echo "== building target $1"
    rm -f "$build/fuzz-$1"
    "$swiftc" "${flags[@]}" "${includes[@]}" -module-name "SceneFuzz_$1" \
        "$root/Tests/LayoutServiceTests/SceneFuzzInvariants.swift" "$root/Tests/LayoutServiceTests/SceneNameMutator.swift" \
        "$root/fuzz/scene/SceneMutator.swift" "$entry" "${link[@]}" -o "$build/fuzz-$1" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }
    [ -x "$build/fuzz-$1" ] || { echo "build of $1 failed"; exit 1; }
}

run_target() { # name
    local corpus="$build/corpus-$1"
    mkdir -p "$corpus"
    # The seeds only: fuzz/regressions/ is replayed by `swift test`, and its slow inputs
    # would cost every smoke run their seconds.
    cp -n "$root/fuzz/scene/seeds"/* "$corpus"/ 2>/dev/null || true
    echo "== fuzzing $1 for ${seconds}s"
    if ls "$build"/crash-"$1"-* >/dev/null 2>&1; then
        mkdir -p "$build/old-artifacts"
        mv "$build"/crash-"$1"-* "$build/old-artifacts/"
    fi
    local jobs=()
    if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
    local status=0
    # -timeout: one input's solves are bounded by the work limit (10^6 each), but not the
    # diagnostics it answers: fuzz/regressions/svg/slow-unit-510-unknown-views-* (48 KB)
    # answers 6 MB, 510 diagnostics each quoting a 15 KB constraint,
    # about 10 s of CPU under ASan and up to 55 s of wall time on a busy machine.
    # -max_len: 64 KiB, the scene bodies of the hostile checks.
    (cd "$build" && nice "$build/fuzz-$1" "$corpus" -dict="$root/fuzz/scene/scene.dict" \
        -max_total_time="$seconds" -timeout=120 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$build/crash-$1-" -print_final_stats=1 "${jobs[@]}" > "$build/fuzz-$1.log" 2>&1) || status=$?
    grep -E "^(Done|stat::|==[0-9]+==|SUMMARY|artifact_prefix)|Test unit written|DONE|invariant" "$build/fuzz-$1.log" | tail -n 12 || true
    # A slow unit (over -report_slow_units, 10 s of wall time) is reported, not failed:
    # on a shared machine wall time is noise; the -timeout is the bound.
    if ls "$build"/crash-"$1"-slow-unit-* >/dev/null 2>&1; then
        echo "note: $1 slow units (> 10 s): $(ls "$build"/crash-"$1"-slow-unit-* | tr '\n' ' ')"
        mkdir -p "$build/slow-units"
        mv "$build"/crash-"$1"-slow-unit-* "$build/slow-units/"
    fi
    if [ "$status" -ne 0 ] || ls "$build"/crash-"$1"-* >/dev/null 2>&1; then
        echo "FAIL: $1 (status $status); log $build/fuzz-$1.log; artifacts: $(ls "$build"/crash-"$1"-* 2>/dev/null | tr '\n' ' ')"
        return 1
    fi
}

for target in "${targets[@]}"; do build_target "$target"; done
status=0
for target in "${targets[@]}"; do run_target "$target" || status=1; done
[ "$status" -eq 0 ] && echo "fuzz scene smoke: OK (${seconds}s per target, no crash, hang or OOM)"
exit "$status"
