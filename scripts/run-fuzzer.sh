#!/usr/bin/env bash
# Playhead: runs the libFuzzer harness for a set time over a seed corpus of tiny clips.
#
#   scripts/run-fuzzer.sh [seconds]      (default: $FUZZ_SECONDS, else 60)
#
# Seeds: small clips written here by ffmpeg in a dozen containers, plus any fixture-cache file
# under 256 KB. New interesting inputs go to $FUZZ_BUILD_DIR/corpus (kept between runs);
# crashes, leaks and timeouts to $FUZZ_BUILD_DIR/artifacts. Turn each into a regression test:
# see Tests/FFmpegBridgeTests/FuzzRegressionTests.swift.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/.build/fuzz}"
SECONDS_TO_RUN="${1:-${FUZZ_SECONDS:-60}}"
FUZZER="$BUILD_DIR/playhead-fuzz"
SEEDS="$BUILD_DIR/seeds"
CORPUS="$BUILD_DIR/corpus"
ARTIFACTS="$BUILD_DIR/artifacts"
FFMPEG="${FFMPEG:-ffmpeg}"
[[ -x "$FUZZER" ]] || bash scripts/build-fuzzer.sh

mkdir -p "$SEEDS" "$CORPUS" "$ARTIFACTS"
if [[ ! -f "$SEEDS/.done" ]]; then
    video=(-f lavfi -i testsrc2=size=64x48:rate=10:duration=0.5)
    audio=(-f lavfi -i sine=sample_rate=8000:duration=0.5)
    make_seed() {
        local name=$1; shift
        "$FFMPEG" -nostdin -hide_banner -loglevel error -y "$@" "$SEEDS/$name" || echo "seed $name skipped"
    }
    make_seed a.mp4 "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -c:a aac
    make_seed b.mkv "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -c:a aac
    make_seed c.webm "${video[@]}" "${audio[@]}" -c:v libvpx-vp9 -deadline realtime -c:a libopus
    make_seed d.avi "${video[@]}" "${audio[@]}" -c:v mpeg4 -c:a libmp3lame
    make_seed e.flv "${video[@]}" "${audio[@]}" -c:v flv1 -c:a libmp3lame -ar 22050
    make_seed f.ts "${video[@]}" "${audio[@]}" -c:v libx264 -preset ultrafast -c:a aac
    make_seed g.mpg "${video[@]}" "${audio[@]}" -c:v mpeg2video -c:a mp2
    make_seed h.ogv "${video[@]}" "${audio[@]}" -c:v libtheora -c:a libvorbis
    make_seed i.nut "${video[@]}" "${audio[@]}" -c:v mpeg4 -c:a pcm_s16le
    make_seed j.mov "${video[@]}" -c:v mjpeg
    make_seed k.mp3 "${audio[@]}" -c:a libmp3lame
    make_seed l.flac "${audio[@]}" -c:a flac
    make_seed m.wav "${audio[@]}" -c:a pcm_s16le
    make_seed n.opus "${audio[@]}" -c:a libopus
    make_seed o.png "${video[@]}" -frames:v 1
    make_seed p.wv "${audio[@]}" -c:a wavpack
    cache="${PLAYHEAD_FIXTURE_CACHE:-${TMPDIR:-/tmp}/playhead-fixtures}"
    if [[ -d "$cache" ]]; then
        find "$cache" -maxdepth 1 -type f -size -256k -exec cp {} "$SEEDS/" \;
    fi
    touch "$SEEDS/.done"
fi

echo "fuzzing for $SECONDS_TO_RUN s; corpus $CORPUS, artifacts $ARTIFACTS"
status=0
"$FUZZER" "$CORPUS" "$SEEDS" -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=2048 \
    -max_len=262144 -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 || status=$?
found=$(find "$ARTIFACTS" -type f | wc -l)
echo "fuzz: exit $status, $found artifact(s) in $ARTIFACTS"
exit "$status"
