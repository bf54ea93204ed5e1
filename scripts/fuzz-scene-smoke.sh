#!/usr/bin/env bash
# Builds the scene libFuzzer targets (fuzz/scene/: `scene`, the decoder + compiler +
# solver end to end; `svg`, the wireframe renderer) and runs each for a while. Both have a
# structured mode (fuzz/scene/SceneMutator.swift, libFuzzer's custom mutator): half of the
# mutations rewrite names (combining marks, compatibility characters, repeated members,
# copied names), within the same seconds.
#
#   scripts/fuzz-scene-smoke.sh [SECONDS] [TARGET...]   default 20 s per target, both targets
#
# The modules are compiled as the package has them (Cassowary, LayoutSyntax, HTTP1,
# LayoutCompiler, LayoutStore, Wireframe, LayoutService: static libraries instrumented with
# -sanitize=fuzzer,address, -O, -enable-testing), then each entry file links them.
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
mkdir -p "$build/modules"

flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6
       -enable-upcoming-feature ExistentialAny -enable-testing)
# System-library targets (a directory of Sources/ with a module.modulemap) are found by -I.
includes=(-I "$build/modules")
for map in "$root"/Sources/*/module.modulemap "$root"/Sources/*/include/module.modulemap; do
    includes+=(-I "$(dirname "$map")")
done
# Header folders that Package.swift's pkgConfig entries add (HarfBuzz's hb.h is in
# /usr/include/harfbuzz on Debian).
for flag in $(pkg-config --cflags-only-I harfbuzz 2>/dev/null || echo -I/usr/include/harfbuzz); do
    includes+=(-Xcc "$flag")
done
# C targets (a directory of Sources/ with include/ and .c files): one static library each.
c_targets=()
for header_dir in "$root"/Sources/*/include; do
    target="$(basename "$(dirname "$header_dir")")"
    c_targets+=("$target")
    objects=()
    for c_file in "$root/Sources/$target"/*.c; do
        object="$build/modules/$target-$(basename "$c_file" .c).o"
        cc -c -O1 -g -I "$header_dir" "$c_file" -o "$object" || { echo "build of $target failed"; exit 1; }
        objects+=("$object")
    done
    rm -f "$build/modules/lib$target.a"
    ar rcs "$build/modules/lib$target.a" "${objects[@]}"
done

# In dependency order (Package.swift); a module is rebuilt when any of its sources is
# newer than its library.
modules=(Cassowary LayoutSyntax HTTP1 TextLayout LayoutCompiler LayoutStore Wireframe LayoutService)
for module in "${modules[@]}"; do
    library="$build/modules/lib$module.a"
    if [ -f "$library" ] && [ -z "$(find "$root/Sources/$module" -name '*.swift' -newer "$library" | head -n 1)" ]; then
        continue
    fi
    echo "== building module $module"
    sources=()
    while IFS= read -r file; do sources+=("$file"); done < <(find "$root/Sources/$module" -name '*.swift' | sort)
    if [ "$module" = LayoutService ]; then
        # SwiftPM embeds openapi.yaml and the playground page as PackageResources
        # (Package.swift's .embedInCode); the fuzz targets serve neither, so empty
        # documents stand in.
        printf 'struct PackageResources {\n    static let openapi_yaml: [UInt8] = []\n    static let playground_html: [UInt8] = []\n}\n' \
            > "$build/modules/PackageResources.swift"
        sources+=("$build/modules/PackageResources.swift")
    fi
    rm -f "$library"
    (cd "$build/modules" && "$swiftc" "${flags[@]}" "${includes[@]}" -module-name "$module" \
        -emit-module -emit-module-path "$build/modules/$module.swiftmodule" \
        -emit-library -static -o "$library" "${sources[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; })
    [ -f "$library" ] || { echo "build of module $module failed"; exit 1; }
done

link=(-L "$build/modules")
for (( index=${#modules[@]}-1; index>=0; index-- )); do link+=("-l${modules[index]}"); done
for target in "${c_targets[@]}"; do link+=("-l$target"); done
link+=(-licuuc)   # CICUBreak's library (Package.swift's linkerSettings)

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
