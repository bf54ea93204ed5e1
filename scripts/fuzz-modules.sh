# Sourced by scripts/fuzz-scene-smoke.sh and scripts/fuzz-upload-smoke.sh: compiles the
# package's modules for libFuzzer as Package.swift has them (static libraries instrumented
# with -sanitize=fuzzer,address, -O, -enable-testing) and sets what an entry file needs.
#
#   fuzz_build_modules MODULES_DIR MODULE...   MODULE... in Package.swift's dependency order
#
# Needs `root` (the clone) and `swiftc`. Sets `flags`, `includes` (the modules folder, each
# system-library target's module map, HarfBuzz's and libxml2's header folders) and `link`
# (the modules, the C targets, ICU). A module is rebuilt only when one of its sources is
# newer than its library, so both scripts can share one MODULES_DIR.

fuzz_build_modules() {
    local modules_dir="$1"
    shift
    local modules=("$@")
    mkdir -p "$modules_dir"
    flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6
           -enable-upcoming-feature ExistentialAny -enable-testing)
    # System-library targets (a directory of Sources/ with a module.modulemap) are found by -I.
    includes=(-I "$modules_dir")
    local map
    for map in "$root"/Sources/*/module.modulemap "$root"/Sources/*/include/module.modulemap; do
        includes+=(-I "$(dirname "$map")")
    done
    # Header folders that Package.swift's pkgConfig entries add (Debian: /usr/include/harfbuzz,
    # /usr/include/libxml2).
    local package flag
    for package in harfbuzz libxml-2.0; do
        for flag in $(pkg-config --cflags-only-I "$package" 2>/dev/null); do includes+=(-Xcc "$flag"); done
    done
    includes+=(-Xcc -I/usr/include/harfbuzz -Xcc -I/usr/include/libxml2)

    # C targets (a directory of Sources/ with include/ and .c files): one static library each.
    local c_targets=() header_dir target c_file object objects
    for header_dir in "$root"/Sources/*/include; do
        target="$(basename "$(dirname "$header_dir")")"
        c_targets+=("$target")
        objects=()
        for c_file in "$root/Sources/$target"/*.c; do
            object="$modules_dir/$target-$(basename "$c_file" .c).o"
            cc -c -O1 -g -I "$header_dir" "$c_file" -o "$object" || { echo "build of $target failed"; return 1; }
            objects+=("$object")
        done
        rm -f "$modules_dir/lib$target.a"
        ar rcs "$modules_dir/lib$target.a" "${objects[@]}"
    done

    local module library sources file
    for module in "${modules[@]}"; do
        library="$modules_dir/lib$module.a"
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
                > "$modules_dir/PackageResources.swift"
            sources+=("$modules_dir/PackageResources.swift")
        fi
        rm -f "$library"
        (cd "$modules_dir" && "$swiftc" "${flags[@]}" "${includes[@]}" -module-name "$module" \
            -emit-module -emit-module-path "$modules_dir/$module.swiftmodule" \
            -emit-library -static -o "$library" "${sources[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; })
        [ -f "$library" ] || { echo "build of module $module failed"; return 1; }
    done

    link=(-L "$modules_dir")
    local index
    for (( index=${#modules[@]}-1; index>=0; index-- )); do link+=("-l${modules[index]}"); done
    for target in "${c_targets[@]}"; do link+=("-l$target"); done
    link+=(-licuuc)   # CICUBreak's library (Package.swift's linkerSettings)
}
