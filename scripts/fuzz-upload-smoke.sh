#!/usr/bin/env bash
# Builds the libFuzzer targets of what clients upload as files (fuzz/upload/: `font`, the
# stored-font check, face loading in HarfBuzz and measuring with the face; `ib`, the
# Interface Builder importer and each imported scene compiled and solved) and runs each
# for a while.
#
#   scripts/fuzz-upload-smoke.sh [SECONDS] [TARGET...]   default 20 s per target, both targets
#
# The modules are compiled as the package has them (Cassowary, LayoutSyntax, TextLayout,
# LayoutCompiler, InterfaceBuilder: static libraries instrumented with
# -sanitize=fuzzer,address, -O, -enable-testing), then each entry file links them with its
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
# the same flags, so that only InterfaceBuilder is compiled again; SWIFTC (default swiftc on
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
mkdir -p "$build" "$modules_dir"

flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6
       -enable-upcoming-feature ExistentialAny -enable-testing)
# System-library targets (a directory of Sources/ with a module.modulemap) are found by -I.
includes=(-I "$modules_dir")
for map in "$root"/Sources/*/module.modulemap "$root"/Sources/*/include/module.modulemap; do
    includes+=(-I "$(dirname "$map")")
done
# Header folders that Package.swift's pkgConfig entries add (Debian: /usr/include/harfbuzz,
# /usr/include/libxml2).
for package in harfbuzz libxml-2.0; do
    for flag in $(pkg-config --cflags-only-I "$package" 2>/dev/null); do includes+=(-Xcc "$flag"); done
done
includes+=(-Xcc -I/usr/include/harfbuzz -Xcc -I/usr/include/libxml2)
# C targets (a directory of Sources/ with include/ and .c files): one static library each.
c_targets=()
for header_dir in "$root"/Sources/*/include; do
    target="$(basename "$(dirname "$header_dir")")"
    c_targets+=("$target")
    objects=()
    for c_file in "$root/Sources/$target"/*.c; do
        object="$modules_dir/$target-$(basename "$c_file" .c).o"
        cc -c -O1 -g -I "$header_dir" "$c_file" -o "$object" || { echo "build of $target failed"; exit 1; }
        objects+=("$object")
    done
    rm -f "$modules_dir/lib$target.a"
    ar rcs "$modules_dir/lib$target.a" "${objects[@]}"
done

# In dependency order (Package.swift); a module is rebuilt when any of its sources is
# newer than its library.
modules=(Cassowary LayoutSyntax TextLayout LayoutCompiler InterfaceBuilder)
for module in "${modules[@]}"; do
    library="$modules_dir/lib$module.a"
    if [ -f "$library" ] && [ -z "$(find "$root/Sources/$module" -name '*.swift' -newer "$library" | head -n 1)" ]; then
        continue
    fi
    echo "== building module $module"
    sources=()
    while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/$module" -name '*.swift' | sort)
    rm -f "$library"
    (cd "$modules_dir" && "$swiftc" "${flags[@]}" "${includes[@]}" -module-name "$module" \
        -emit-module -emit-module-path "$modules_dir/$module.swiftmodule" \
        -emit-library -static -o "$library" "${sources[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; })
    [ -f "$library" ] || { echo "build of module $module failed"; exit 1; }
done

link=(-L "$modules_dir")
for (( index=${#modules[@]}-1; index>=0; index-- )); do link+=("-l${modules[index]}"); done
for target in "${c_targets[@]}"; do link+=("-l$target"); done
link+=(-licuuc)   # CICUBreak's library (Package.swift's linkerSettings)

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
