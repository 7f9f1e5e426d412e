#!/usr/bin/env bash
# Playhead: builds the libFuzzer harness (Tests/Fuzz/PlayheadFuzz) against the package's own
# FFmpegBridge and OpenCoreMedia, with AddressSanitizer and coverage instrumentation.
#
#   scripts/build-fuzzer.sh [output]     (default: $FUZZ_BUILD_DIR/playhead-fuzz)
#
# SwiftPM builds the library modules (instrumented with -sanitize=address and edge + compare
# coverage, but without libFuzzer's main, so no executable of the package is linked with it);
# then swiftc compiles the harness with -sanitize=fuzzer,address and links it with the module
# objects and FFmpeg (libavfilter is loaded on first use, as in the package). FFmpeg itself
# is Debian's uninstrumented build: ASan catches bad frees
# and Playhead-side overflows, and coverage guides through Playhead's code only.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SWIFT="${SWIFT:-swift}"
BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/.build/fuzz}"
OUTPUT="${1:-$BUILD_DIR/playhead-fuzz}"
# SwiftPM's -package-name is the package identity: the root folder's name, lowercased, with
# characters other than letters, digits and underscores (a worktree's '-') turned into '_'.
PACKAGE_NAME="${PLAYHEAD_PACKAGE_NAME:-$(basename "$ROOT" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9_\n' '_')}"

instrument=(-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
    -Xcc -fsanitize=address)
"$SWIFT" build --scratch-path "$BUILD_DIR" -c debug --target FFmpegBridge "${instrument[@]}"

BIN="$BUILD_DIR/debug"
objects=("$BIN"/OpenCoreMedia.build/*.o "$BIN"/FFmpegBridge.build/*.o "$BIN"/CFFmpegShims.build/*.o)
read -r -a ffmpeg_libs <<<"$(pkg-config --libs libavformat libavcodec libavutil libswscale libswresample)"
mkdir -p "$(dirname "$OUTPUT")"
swiftc -sanitize=fuzzer,address -parse-as-library -g -Onone \
    -module-name PlayheadFuzz -package-name "$PACKAGE_NAME" \
    -I "$BIN/Modules" -Xcc -fmodule-map-file="$BIN/CFFmpegShims.build/module.modulemap" \
    -Xcc -fmodule-map-file="$ROOT/Sources/CFFmpeg/module.modulemap" \
    -Xcc -I"$ROOT/Sources/CFFmpegShims/include" \
    Tests/Fuzz/PlayheadFuzz/*.swift "${objects[@]}" "${ffmpeg_libs[@]}" -o "$OUTPUT"
echo "built $OUTPUT"
