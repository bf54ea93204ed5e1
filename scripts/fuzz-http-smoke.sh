#!/usr/bin/env bash
# Builds the libFuzzer target for HTTP1's RequestParser and runs it.
# Usage: scripts/fuzz-http-smoke.sh [seconds=20]
# Env: FUZZ_JOBS (default 1), FUZZ_BUILD_DIR (default /tmp/fuzz-http).
# Exit status is libFuzzer's: non-zero when a crash or invariant failure was found
# (the reproducer is written to $FUZZ_BUILD_DIR/artifacts/).
set -euo pipefail
seconds="${1:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-/tmp/fuzz-http}"
mkdir -p "$build/artifacts" "$build/corpus"
cp -n "$root"/fuzz/http/corpus/* "$build/corpus/" 2>/dev/null || true
src="$root/Sources/HTTP1"
swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -enable-upcoming-feature ExistentialAny -module-name HTTP1Fuzz \
    "$src/RequestParser.swift" "$src/HTTPMethod.swift" "$src/HTTPFields.swift" \
    "$src/HTTPRequest.swift" "$src/HTTPParseError.swift" "$src/ServerLimits.swift" "$src/HTTPResponse.swift" "$src/HTTPStatus.swift" \
    "$root/fuzz/http/FuzzRequestParser.swift" -o "$build/fuzz-http"
jobs=()
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
exec "$build/fuzz-http" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    "${jobs[@]}" -artifact_prefix="$build/artifacts/" "$build/corpus"
