#!/usr/bin/env bash
# Playhead: type-checks the ported clients in Tests/PortedClients (code written the way public
# AVPlayer wrappers are, importing only OpenAVFoundation, and an iOS-style now-playing client
# importing OpenMediaPlayer) in the Swift 5 and Swift 6 language
# modes against the debug build's modules. Any error fails; warnings are allowed, as they are
# for the same code against Apple's SDK.
#
#   scripts/check-ported-clients.sh [BUILD_DIR]     (default .build; run after `swift build`)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="${1:-.build}"
BIN="$BUILD_DIR/debug"
[[ -d "$BIN/Modules" ]] || { echo "check-ported-clients: build first (no $BIN/Modules)" >&2; exit 1; }

flags=(-I "$BIN/Modules"
    -Xcc -fmodule-map-file="$BIN/CFFmpegShims.build/module.modulemap"
    -Xcc -fmodule-map-file="$ROOT/Sources/CFFmpeg/module.modulemap"
    -Xcc -I"$ROOT/Sources/CFFmpegShims/include"
    -Xcc -fmodule-map-file="$ROOT/Sources/CDBus/module.modulemap"
    -Xcc -fmodule-map-file="$BIN/CDBusLoader.build/module.modulemap"
    -Xcc -I"$ROOT/Sources/CDBusLoader/include")
status=0
for mode in 5 6; do
    if output="$(swiftc -typecheck -swift-version "$mode" "${flags[@]}" Tests/PortedClients/*.swift 2>&1)"; then
        warnings="$(grep -c 'warning:' <<<"$output" || true)"
        echo "check-ported-clients: Swift $mode mode: no errors ($warnings warnings)"
    else
        echo "check-ported-clients: Swift $mode mode: errors"
        grep -E 'error:' <<<"$output" | head -n 40
        status=1
    fi
done
exit "$status"
