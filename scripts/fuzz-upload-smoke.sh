#!/usr/bin/env bash
# Builds the libFuzzer targets of what clients upload as files (fuzz/upload/: `font`, the
# stored-font check, face loading in HarfBuzz and measuring with the face; `ib`, the
# Interface Builder importer and each imported scene compiled and solved) and runs each
# for a while.
#
#   scripts/fuzz-upload-smoke.sh [SECONDS] [TARGET...]   default 20 s per target, both targets
#
# The modules are compiled as the package has them by scripts/fuzz-modules.sh (Cassowary,
# LayoutSyntax, TextLayout, LayoutCompiler, InterfaceBuilder: static libraries instrumented
# with -sanitize=fuzzer,address, -O, -enable-testing), then each entry file links them with its
# invariants (Tests/TextLayoutTests/FontFuzzInvariants.swift,
# Tests/InterfaceBuilderTests/IBFuzzInvariants.swift), which the unit tests replay too.
#
# The seed corpora are written at run time by scripts/fuzz_upload_seeds.py: Debian's
# fonts (fonts-dejavu-core, fonts-liberation2, fonts-inter under /usr/share/fonts) made
# small, cut and corrupted; the Interface Builder corpus (IB_CORPUS, default
# ../shared/corpus/ib/files beside the clone: read, never copied into the repository) and
# hostile copies of some of its documents.
#
# Environment: FUZZ_BUILD (default /tmp/layoutd-fuzz-upload) holds the binaries, corpora,
# logs (fuzz-NAME.log) and crash artifacts (those of earlier runs move to old-artifacts/,
# slow units to slow-units/); FUZZ_MODULES (default $FUZZ_BUILD/modules) the instrumented
# modules: scripts/test.sh points it at scripts/fuzz-scene-smoke.sh's, which are built with
# the same flags, so that nothing is compiled again; SWIFTC (default swiftc on
# PATH or /opt/swift); FUZZ_JOBS (default 1: in-process; N > 1 runs N jobs in N workers).
# Exits non-zero when a target finds a crash, an invariant failure, a hang (> 60 s for
# one input) or runs out of memory (> 2048 MB). Copy every failing input into
# fuzz/regressions/font/ or fuzz/regressions/ib/: FontFuzzTests and IBFuzzTests replay
# them on every `swift test`.
set -euo pipefail

seconds="${1:-20}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(font ib)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD:-/tmp/layoutd-fuzz-upload}"
swiftc="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
ib_corpus="${IB_CORPUS:-$(cd "$root/.." && pwd)/shared/corpus/ib/files}"
modules_dir="${FUZZ_MODULES:-$build/modules}"
mkdir -p "$build"

# shellcheck source=scripts/fuzz-modules.sh
. "$root/scripts/fuzz-modules.sh"
fuzz_build_modules "$modules_dir" Cassowary LayoutSyntax TextLayout LayoutCompiler InterfaceBuilder

# Per target: its invariants file, the longest input and the seconds one input may take.
invariants() {
    case "$1" in
        font) echo "$root/Tests/TextLayoutTests/FontFuzzInvariants.swift" ;;
        ib) echo "$root/Tests/InterfaceBuilderTests/IBFuzzInvariants.swift" ;;
    esac
}
# font: the seeds are subsets of a few KB and the whole files' first 64 KiB; ib: the
# corpus's largest document is 129 KB.
max_len() { case "$1" in font) echo 65536 ;; ib) echo 196608 ;; esac; }

build_target() { # name
    local entry="$root/fuzz/upload/Fuzz$(tr '[:lower:]' '[:upper:]' <<< "${1:0:1}")${1:1}.swift"
    echo "== building target $1"
    rm -f "$build/fuzz-$1"
    "$swiftc" "${flags[@]}" "${includes[@]}" -module-name "UploadFuzz_$1" \
        "$(invariants "$1")" "$entry" "${link[@]}" -o "$build/fuzz-$1" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }
    [ -x "$build/fuzz-$1" ] || { echo "build of $1 failed"; exit 1; }
}

run_target() { # name
    local corpus="$build/corpus-$1"
    local seeds="$build/seeds-$1"
    mkdir -p "$corpus"
    rm -rf "$seeds"
    case "$1" in
        font) python3 "$root/scripts/fuzz_upload_seeds.py" font "$seeds" ;;
        ib) python3 "$root/scripts/fuzz_upload_seeds.py" ib "$seeds" --corpus "$ib_corpus" ;;
    esac
    echo "== fuzzing $1 for ${seconds}s"
    if ls "$build"/crash-"$1"-* >/dev/null 2>&1; then
        mkdir -p "$build/old-artifacts"
        mv "$build"/crash-"$1"-* "$build/old-artifacts/"
    fi
    local jobs=()
    if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
    local status=0
    # The seeds are a second corpus directory, written afresh each run: libFuzzer reads
    # both and adds what it finds only to the first, which keeps earlier runs' findings.
    (cd "$build" && nice "$build/fuzz-$1" "$corpus" "$seeds" \
        -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len="$(max_len "$1")" \
        -artifact_prefix="$build/crash-$1-" -print_final_stats=1 "${jobs[@]}" > "$build/fuzz-$1.log" 2>&1) || status=$?
    grep -E "^(Done|stat::|==[0-9]+==|SUMMARY|artifact_prefix)|Test unit written|DONE|invariant|INITED" "$build/fuzz-$1.log" | tail -n 12 || true
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
[ "$status" -eq 0 ] && echo "fuzz upload smoke: OK (${seconds}s per target, no crash, invariant failure, hang or OOM)"
exit "$status"
