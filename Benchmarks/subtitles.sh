# Playhead: the subtitle-rendering rows of Benchmarks/compare (issue 18): a 1080p H.264 clip
# with a dense karaoke ASS track, played in real time fullscreen in a window on Xvfb with the
# track showing and with --no-sub; the extra CPU the subtitles cost set beside the extra CPU
# FFmpeg's own libass burning costs (`-vf subtitles=F` against no filter, both `-f null`), and
# the window's dropped frames.
#
# Sourced by Benchmarks/compare (needs say, die, report helpers, PLAYHEAD, WORK, CACHE,
# REPORT_ROWS, and wakeups_start_x / wakeups_stop_x from wakeups.sh).

SUBTITLE_FIXTURE=karaoke-1080p30
SUBTITLE_FIXTURE_VERSION=1
SUBTITLE_RUNS=${PLAYHEAD_BENCH_SUBTITLE_RUNS:-3}

# Prints the karaoke fixture's path, generating it into CACHE when missing: 30 s of 1080p30
# H.264 (x264 medium, as the other fixtures) and AAC, with the script Benchmarks/karaoke.py
# writes muxed into Matroska as the default subtitle track.
bench_karaoke_fixture() {
    local cache=$1
    local path="$cache/$SUBTITLE_FIXTURE-v$BENCH_FIXTURE_VERSION.$SUBTITLE_FIXTURE_VERSION.mkv"
    if [[ ! -s $path ]]; then
        say "generating $SUBTITLE_FIXTURE ..."
        local started=$SECONDS tmp="${path%.mkv}.partial.mkv" script="${path%.mkv}.ass"
        python3 "$ROOT/Benchmarks/karaoke.py" >"$script" || return 1
        ffmpeg -nostdin -hide_banner -loglevel error -y \
            -f lavfi -i "testsrc2=size=1920x1080:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
            -i "$script" -map 0:v -map 1:a -map 2:s -t 30 \
            -c:v libx264 -preset medium -g 60 -pix_fmt yuv420p -c:a aac -b:a 128k -c:s ass \
            -metadata:s:s:0 language=jpn -disposition:s:0 default "$tmp" || return 1
        mv "$tmp" "$path"
        say "  $SUBTITLE_FIXTURE done in $((SECONDS - started)) s"
    fi
    printf '%s\n' "$path"
}

# Prints "CPU_S DROPPED PRESENTED" for one real-time playhead run of PATH fullscreen in the
# window on WAKEUPS_DISPLAY with no audio; extra arguments go to `playhead play`.
subtitle_window_run() {
    local path=$1
    shift
    local times="$WORK/subtitle-time.txt" report="$WORK/subtitle-report.json"
    DISPLAY=$WAKEUPS_DISPLAY SDL_AUDIODRIVER=dummy /usr/bin/time -f '%U %S' -o "$times" \
        "$PLAYHEAD" play --fullscreen --no-audio --no-mpris --report json "$@" "$path" \
        >"$report" 2>"$WORK/stderr.txt" \
        || { tail -5 "$WORK/stderr.txt" >&2; die "playhead play failed on $path"; }
    local cpu
    cpu=$(tail -1 "$times" | awk '{ printf "%.2f", $1 + $2 }')
    printf '%s %s %s\n' "$cpu" "$(jq -r '.videoFramesDropped' "$report")" \
        "$(jq -r '.videoFramesPresented' "$report")"
}

# Prints the CPU seconds (user+sys) of one ffmpeg run with extra arguments before `-f null -`.
subtitle_ffmpeg_run() {
    local path=$1
    shift
    time_once ffmpeg -nostdin -hide_banner -loglevel error -an -i "$path" "$@" -f null - \
        | awk '{ printf "%.2f", $2 + $3 }'
}

# The median of the numbers on stdin.
subtitle_median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Adds the dropped-frames row: FIXTURE DROPPED_LIST PRESENTED_LIST (over the runs with
# subtitles) and DROPPED_WITHOUT_LIST (the --no-sub runs, for comparison).
report_subtitle_drops_row() {
    local fixture=$1 dropped=$2 presented=$3 without=$4 total=0 value result
    for value in $dropped; do total=$((total + value)); done
    if ((total == 0)); then
        result="**met**"
        REPORT_MET=$((REPORT_MET + 1))
    else
        result="**missed**"
        REPORT_MISSED=$((REPORT_MISSED + 1))
    fi
    printf '| Window playback with karaoke subtitles, dropped frames per run (frames shown) | `%s` | %s (%s) | %s (playhead `--no-sub`) | — | 0 | %s |\n' \
        "$fixture" "${dropped// /, }" "${presented// /, }" "${without// /, }" "$result" >>"$REPORT_ROWS"
}

measure_subtitles() {
    command -v Xvfb >/dev/null && command -v openbox >/dev/null && command -v xdotool >/dev/null \
        || die "subtitle rows need Xvfb, openbox and xdotool (scripts/install-deps.sh)"
    command -v python3 >/dev/null || die "subtitle rows need python3 (Benchmarks/karaoke.py)"
    local path
    path=$(bench_karaoke_fixture "$CACHE") || die "fixture $SUBTITLE_FIXTURE"
    if [[ -n $REPORT_FIXTURES ]]; then
        report_fixture "$SUBTITLE_FIXTURE" \
            "1080p30 H.264 (x264 medium) + AAC with a dense karaoke ASS track (Benchmarks/karaoke.py) in Matroska, 30 s"
    fi
    wakeups_start_x || die "could not start Xvfb for the subtitle rows"
    say "karaoke subtitles: $SUBTITLE_RUNS interleaved rounds (playhead with and without, ffmpeg with and without)"
    local round ours_with=() ours_without=() theirs_with=() theirs_without=() drops="" shown=""
    local cpu dropped presented dropped_without drops_without=""
    for round in $(seq "$SUBTITLE_RUNS"); do
        read -r cpu dropped presented < <(subtitle_window_run "$path")
        ours_with+=("$cpu")
        drops="$drops $dropped"
        shown="$shown $presented"
        read -r cpu dropped_without _ < <(subtitle_window_run "$path" --no-sub)
        ours_without+=("$cpu")
        drops_without="$drops_without $dropped_without"
        theirs_with+=("$(subtitle_ffmpeg_run "$path" -vf "subtitles=$path")")
        theirs_without+=("$(subtitle_ffmpeg_run "$path")")
        say "  round $round: playhead ${ours_with[-1]} / ${ours_without[-1]} s (dropped $dropped of $presented / $dropped_without), ffmpeg ${theirs_with[-1]} / ${theirs_without[-1]} s"
    done
    wakeups_stop_x
    local ow owo tw two
    ow=$(printf '%s\n' "${ours_with[@]}" | subtitle_median)
    owo=$(printf '%s\n' "${ours_without[@]}" | subtitle_median)
    tw=$(printf '%s\n' "${theirs_with[@]}" | subtitle_median)
    two=$(printf '%s\n' "${theirs_without[@]}" | subtitle_median)
    report_row "Window playback with karaoke subtitles, CPU s (user+sys)" "$SUBTITLE_FIXTURE" "$ow" "$tw" \
        "ffmpeg -vf subtitles -f null" info -
    report_row "Same without subtitles (\`--no-sub\`; ffmpeg without the filter), CPU s" "$SUBTITLE_FIXTURE" \
        "$owo" "$two" "ffmpeg -f null" info -
    # The cost: the median over rounds of (with − without), each pair run back to back.
    local ours_extra theirs_extra i
    ours_extra=$(for i in "${!ours_with[@]}"; do
        awk -v a="${ours_with[i]}" -v b="${ours_without[i]}" 'BEGIN { printf "%.2f\n", a - b }'
    done | subtitle_median)
    theirs_extra=$(for i in "${!theirs_with[@]}"; do
        awk -v a="${theirs_with[i]}" -v b="${theirs_without[i]}" 'BEGIN { printf "%.2f\n", a - b }'
    done | subtitle_median)
    report_row "Subtitle rendering cost: extra CPU s over the same playback without (median of paired rounds)" "$SUBTITLE_FIXTURE" \
        "$ours_extra" "$theirs_extra" "ffmpeg's libass burning" le 1.0
    report_subtitle_drops_row "$SUBTITLE_FIXTURE" "${drops# }" "${shown# }" "${drops_without# }"
}
