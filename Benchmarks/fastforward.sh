# Playhead: the fast forward rows of Benchmarks/compare (sourced by it): a 20 s 1080p H.264
# fixture played at 8x without sound, headless, by playhead and by mpv (`--speed=8`, which
# decodes every frame), in MP4 (playhead steps through the keyframes its index lists) and
# remuxed to MPEG-TS (no index: playhead reads on and decodes the keyframes only).
# FASTFORWARD_ROUNDS interleaved rounds; each side's median wall and CPU seconds. The ideal
# wall time is the duration over the rate (2.5 s) plus the start.

FASTFORWARD_ROUNDS=${PLAYHEAD_BENCH_FASTFORWARD_ROUNDS:-3}

# Arguments: FIXTURE PATH (an MP4; its MPEG-TS copy is made beside it in the cache).
measure_fastforward() {
    local name=$1 path=$2 ts="$CACHE/$1-copy.ts"
    [[ -s $ts ]] || ffmpeg -nostdin -hide_banner -loglevel error -y -i "$path" -c copy "$ts" \
        || die "could not remux $path to MPEG-TS"
    local container file round ours_all theirs_all
    for container in mp4 ts; do
        file=$path
        [[ $container == ts ]] && file=$ts
        say "fast forward 8x: $name ($container, $FASTFORWARD_ROUNDS rounds of playhead, then mpv)"
        ours_all="" theirs_all=""
        for round in $(seq 1 "$FASTFORWARD_ROUNDS"); do
            ours_all+="$(time_once "$PLAYHEAD" play --headless --no-audio --rate 8 "$file")"$'\n'
            theirs_all+="$(time_once mpv --no-config --vo=null --no-audio --speed=8 --really-quiet "$file")"$'\n'
        done
        report_row "Fast forward 8x without sound ($container), wall s, median of $FASTFORWARD_ROUNDS" "$name" \
            "$(median_wall <<<"$ours_all")" "$(median_wall <<<"$theirs_all")" "mpv --speed=8" le 1.0
        report_row "Fast forward 8x without sound ($container), CPU s (user+sys), median of $FASTFORWARD_ROUNDS" "$name" \
            "$(median_column cpu <<<"$ours_all")" "$(median_column cpu <<<"$theirs_all")" "mpv --speed=8" le 1.0
    done
}

# The median wall seconds over lines of `/usr/bin/time -f '%e %U %S %M'`.
median_wall() { awk 'NF >= 4 { print $1 }' | median_of_lines; }

# Runs only the fast forward rows and prints them (no report is written).
main_fastforward() {
    ensure_tools
    mkdir -p "$CACHE"
    build_playhead
    local path
    path=$(bench_fixture_path "$CACHE" h264-1080p30 mp4) || die "fixture h264-1080p30"
    REPORT_ROWS="$WORK/rows.md"
    : >"$REPORT_ROWS"
    REPORT_MET=0 REPORT_MISSED=0
    measure_fastforward h264-1080p30 "$path"
    cat "$REPORT_ROWS"
}
