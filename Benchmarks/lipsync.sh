# Playhead: the end-to-end lip-sync rows of Benchmarks/compare: a flash and a beep each second
# played fullscreen on Xvfb, the flash found by screen grabs and the beep in a real sound
# server's sink monitor, on one clock, for playhead and for mpv in the same run, on PulseAudio
# and on PipeWire. The rig is the sound-server test WindowLipSyncTests (PlayheadTestSupport's
# ScreenBrightness, MonitorRecording, PulseAudioServer, PipeWireServer); this runs it against
# the release binary and reads the figures it prints.
#
# Sourced by Benchmarks/compare (needs say, report helpers, PLAYHEAD, WORK, REPORT_ROWS).

# Adds one lip-sync row: SERVER OURS_MS MPV_MS (empty OURS_MS: not measured).
report_lipsync_row() {
    local server=$1 ours=$2 theirs=$3
    if [[ -z $ours ]]; then
        printf '| Window lip-sync on %s, mean abs(sound − picture) ms | `flash-beep-6s` | not measured (see the log) | — | — | ≤ 10 | not measured |\n' \
            "$server" >>"$REPORT_ROWS"
        return
    fi
    local result="**missed**"
    if awk -v o="$ours" 'BEGIN { exit !(o <= 10) }'; then
        result="**met**"
        REPORT_MET=$((REPORT_MET + 1))
    else
        REPORT_MISSED=$((REPORT_MISSED + 1))
    fi
    printf '| Window lip-sync on %s, mean abs(sound − picture) ms | `flash-beep-6s` | %s | %s (mpv, same rig) | — | ≤ 10 | %s |\n' \
        "$server" "$ours" "$theirs" "$result" >>"$REPORT_ROWS"
}

measure_lipsync() {
    local log="$WORK/lipsync.log"
    say "window lip-sync on PulseAudio and PipeWire (playhead, then mpv)"
    env -u SDL_VIDEODRIVER -u SDL_AUDIODRIVER PLAYHEAD_REALTIME_TESTS=1 PLAYHEAD_BINARY="$PLAYHEAD" \
        swift test --filter WindowLipSyncTests >"$log" 2>&1 || say "lip-sync test reported a failure (figures kept)"
    local server line ours theirs
    for server in PulseAudio PipeWire; do
        line=$(grep "window lip-sync on $server" "$log" | tail -n 1 || true)
        ours=$(sed -n 's/.*playhead \([0-9.]*\) ms.*/\1/p' <<<"$line")
        theirs=$(sed -n 's/.*mpv \([0-9.]*\) ms.*/\1/p' <<<"$line")
        report_lipsync_row "$server" "$ours" "$theirs"
    done
}
