# Playhead: generates the benchmark fixtures into a cache directory (sourced by Benchmarks/compare).
#
# Each fixture's file name carries a recipe version; bump BENCH_FIXTURE_VERSION when a recipe
# changes so stale files are regenerated. Encoders use their fastest presets so generation
# stays short on a small machine; 2-second GOPs (1 s for 2160p) mimic streaming content.

BENCH_FIXTURE_VERSION=1

# The fixtures, one per line: NAME|EXTENSION|HAS_VIDEO|DESCRIPTION.
bench_fixture_table() {
    cat <<'TABLE'
h264-1080p30|mp4|yes|1080p30 H.264 + AAC, 20 s
vp9-720p30|webm|yes|720p30 VP9 + Opus, 20 s
hevc-2160p30|mp4|yes|2160p30 HEVC, 10 s
mp3-audio|mp3|no|MP3 audio only, 30 s
TABLE
}

# Writes fixture NAME to PATH with ffmpeg.
bench_generate_fixture() {
    local name=$1 path=$2
    local tmp="${path%.*}.partial.${path##*.}"
    local common=(-nostdin -hide_banner -loglevel error -y)
    local sine=(-f lavfi -i "sine=frequency=440:sample_rate=48000")
    case $name in
        h264-1080p30)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=1920x1080:rate=30" "${sine[@]}" \
                -t 20 -c:v libx264 -preset ultrafast -g 60 -pix_fmt yuv420p \
                -c:a aac -b:a 128k -shortest "$tmp" ;;
        vp9-720p30)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=1280x720:rate=30" "${sine[@]}" \
                -t 20 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -row-mt 1 -b:v 2M -g 60 \
                -pix_fmt yuv420p -c:a libopus -b:a 96k -shortest "$tmp" ;;
        hevc-2160p30)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=3840x2160:rate=30" \
                -t 10 -c:v libx265 -preset ultrafast -x265-params "keyint=30:log-level=error" \
                -pix_fmt yuv420p -tag:v hvc1 "$tmp" ;;
        mp3-audio)
            ffmpeg "${common[@]}" -f lavfi -i "sine=frequency=440:sample_rate=44100" \
                -t 30 -c:a libmp3lame -b:a 192k "$tmp" ;;
        *) echo "compare: unknown fixture $name" >&2; return 1 ;;
    esac
    mv "$tmp" "$path"
}

# Prints the path of fixture NAME with EXTENSION, generating it into CACHE when missing.
bench_fixture_path() {
    local cache=$1 name=$2 extension=$3
    local path="$cache/$name-v$BENCH_FIXTURE_VERSION.$extension"
    if [[ ! -s $path ]]; then
        echo "compare: generating $name ..." >&2
        local started=$SECONDS
        bench_generate_fixture "$name" "$path" || {
            echo "compare: could not generate fixture $name (see ffmpeg's message above)" >&2
            return 1
        }
        echo "compare:   $name done in $((SECONDS - started)) s" >&2
    fi
    printf '%s\n' "$path"
}
