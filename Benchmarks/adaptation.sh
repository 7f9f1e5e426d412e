# Playhead: the adaptive-streaming rows of Benchmarks/compare (issue 17): a 60 s four-variant
# HLS ladder played in real time over loopback from a server whose bandwidth follows a trace
# (Benchmarks/traces/*.trace, served by Benchmarks/shaped-server.py), by playhead on the
# multivariant playlist, by mpv on the same playlist, and by playhead on each variant's media
# playlist alone (the fixed-variant baselines). Benchmarks/adaptation-qoe.py turns the server's
# request log and each player's stall figures into played bitrate, switches, stalls, startup
# and the linear QoE. The same encodes copied into a DASH manifest (fragmented MP4 segments,
# one video Representation per variant and one audio Representation) are played on each trace
# by playhead and by mpv too, and reported beside playhead's HLS run (Benchmarks/adaptation-dash.py):
# both formats go through the same loader and adaptation.
#
# Sourced by Benchmarks/compare (needs say, die, report_row helpers, PLAYHEAD, WORK, CACHE,
# REPORT_ROWS, REPORT_FIXTURES).

ADAPTATION_FIXTURE=hls-ladder-4x60s
ADAPTATION_FIXTURE_VERSION=1
# Wall seconds a run may take before it is stopped (a fixed high variant on a slow trace
# would otherwise stall for minutes); a stopped run's stall time is then a lower bound.
ADAPTATION_LIMIT=${PLAYHEAD_BENCH_ADAPTATION_LIMIT:-130}
# The traces to play, by name (Benchmarks/traces/NAME.trace).
ADAPTATION_TRACES=${PLAYHEAD_BENCH_ADAPTATION_TRACES:-step-down step-up cellular}
# The players to run on each trace. A subset (say `playhead`, while tuning the rule) prints
# each run's summary and writes no goal rows, which need every player of one run.
ADAPTATION_PLAYERS=${PLAYHEAD_BENCH_ADAPTATION_PLAYERS:-playhead mpv fixed-v0 fixed-v1 fixed-v2 fixed-v3}
# The players on the DASH copy of the ladder (empty: none).
ADAPTATION_DASH_PLAYERS=${PLAYHEAD_BENCH_ADAPTATION_DASH_PLAYERS-playhead-dash mpv-dash}

# The ladder, one variant a line: NAME|WIDTH|HEIGHT|VIDEO_KBIT (audio: 64 kbit/s AAC in every
# variant). Nominal totals 0.4, 1, 2.5 and 5 Mbit/s with the MPEG-TS overhead.
adaptation_ladder_table() {
    cat <<'TABLE'
v0|640|360|300
v1|852|480|860
v2|1280|720|2250
v3|1920|1080|4600
TABLE
}

# Prints the directory of the ladder (master.m3u8, v0..v3/index.m3u8), generating it into
# CACHE when missing: testsrc2 at 30 fps and a sine tone, x264 veryfast in constant bit rate
# (nal-hrd=cbr, so every segment is close to its nominal size), a keyframe every 2 s, 2 s
# MPEG-TS segments; the multivariant playlist states each variant's measured peak and average
# segment bit rate, resolution and codecs.
bench_adaptation_ladder() {
    local cache=$1
    local dir="$cache/$ADAPTATION_FIXTURE-v$ADAPTATION_FIXTURE_VERSION"
    if [[ ! -s $dir/master.m3u8 ]]; then
        say "generating $ADAPTATION_FIXTURE ..."
        local started=$SECONDS tmp="$dir.partial" name width height kbit
        rm -rf "$tmp"
        mkdir -p "$tmp"
        while IFS='|' read -r name width height kbit; do
            mkdir -p "$tmp/$name"
            ffmpeg -nostdin -hide_banner -loglevel error -y \
                -f lavfi -i "testsrc2=size=${width}x${height}:rate=30" \
                -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 60 \
                -c:v libx264 -preset veryfast -pix_fmt yuv420p -b:v "${kbit}k" -maxrate "${kbit}k" \
                -bufsize "${kbit}k" -x264-params nal-hrd=cbr -g 60 -keyint_min 60 -sc_threshold 0 \
                -c:a aac -b:a 64k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod \
                -hls_segment_filename "$tmp/$name/seg%02d.ts" "$tmp/$name/index.m3u8" || return 1
        done < <(adaptation_ladder_table)
        python3 "$ROOT/Benchmarks/adaptation-qoe.py" master "$tmp" >"$tmp/master.m3u8" || return 1
        rm -rf "$dir"
        mv "$tmp" "$dir"
        say "  $ADAPTATION_FIXTURE done in $((SECONDS - started)) s"
    fi
    printf '%s\n' "$dir"
}

# Prints the directory of the ladder's DASH copy (manifest.mpd, v0..v3 and v4 (the sound)
# /init.m4s and segNN.m4s, ladder.json), made from the HLS ladder in HLS_DIR when missing: the
# same streams copied, not encoded again, in 2 s fragmented MP4 segments with a timeline (the
# 852x480 picture marked 16:9 like the rest: FFmpeg's DASH muxer wants one aspect ratio a set).
bench_adaptation_dash_ladder() {
    local cache=$1 hls=$2
    local dir="$cache/$ADAPTATION_FIXTURE-dash-v$ADAPTATION_FIXTURE_VERSION"
    if [[ ! -s $dir/ladder.json ]]; then
        say "making the DASH copy of $ADAPTATION_FIXTURE ..."
        local tmp="$dir.partial" inputs=() maps=() index=0 name
        rm -rf "$tmp"
        mkdir -p "$tmp"
        while IFS='|' read -r name _; do
            inputs+=(-i "$hls/$name/index.m3u8")
            maps+=(-map "$index:v")
            mkdir -p "$tmp/v$index"
            index=$((index + 1))
        done < <(adaptation_ladder_table)
        mkdir -p "$tmp/v$index"
        ffmpeg -nostdin -hide_banner -loglevel error -y "${inputs[@]}" "${maps[@]}" -map 0:a -c copy -tag:v avc1 -tag:a mp4a \
            -aspect:v 16:9 -f dash -seg_duration 2 -use_template 1 -use_timeline 1 \
            -adaptation_sets "id=0,streams=v id=1,streams=a" \
            -init_seg_name 'v$RepresentationID$/init.m4s' -media_seg_name 'v$RepresentationID$/seg$Number%02d$.m4s' \
            "$tmp/manifest.mpd" || return 1
        python3 "$ROOT/Benchmarks/adaptation-dash.py" ladder "$tmp" || return 1
        rm -rf "$dir"
        mv "$tmp" "$dir"
    fi
    printf '%s\n' "$dir"
}

# Starts the shaped server over DIR with TRACE, logging to LOG; sets ADAPTATION_SERVER_PID and
# ADAPTATION_PORT.
adaptation_start_server() {
    local dir=$1 trace=$2 log=$3 portfile="$WORK/adaptation-port"
    rm -f "$portfile"
    python3 "$ROOT/Benchmarks/shaped-server.py" --root "$dir" --trace "$trace" --log "$log" \
        --port-file "$portfile" --max-seconds $((ADAPTATION_LIMIT + 60)) 2>"$WORK/server.err" &
    ADAPTATION_SERVER_PID=$!
    local tries=0
    while [[ ! -s $portfile ]]; do
        ((tries++ < 100)) || { cat "$WORK/server.err" >&2; die "the shaped server did not start"; }
        sleep 0.05
    done
    ADAPTATION_PORT=$(cat "$portfile")
}

adaptation_stop_server() {
    kill "$ADAPTATION_SERVER_PID" 2>/dev/null || true
    wait "$ADAPTATION_SERVER_PID" 2>/dev/null || true
}

# Runs COMMAND... for at most ADAPTATION_LIMIT seconds (SIGINT then, so playhead still writes
# its report), its stdout to OUT; writes the wall seconds to WALL.
adaptation_timed_run() {
    local out=$1 wall=$2
    shift 2
    local begin end
    begin=$(date +%s.%N)
    timeout --signal=INT --kill-after=10 "$ADAPTATION_LIMIT" "$@" >"$out" 2>"$WORK/player.err" || true
    end=$(date +%s.%N)
    awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >"$wall"
}

# Writes the mpv Lua script that records stalls (`paused-for-cache`) and startup to PATH.
adaptation_write_mpv_script() {
    cat >"$1" <<'LUA'
-- Playhead: mpv's side of the adaptation rows, run by Benchmarks/compare adaptation.
-- Records the time from script load to the first playback restart (startup), and every
-- stretch of `paused-for-cache` after it (stalls). Writes JSON to the `out` option on exit.
local options = { out = "" }
require("mp.options").read_options(options, "benchadapt")
local loaded = mp.get_time()
local started = nil
local stall_began = nil
local stalls, stall_seconds, position = 0, 0, 0

mp.register_event("playback-restart", function()
    if not started then started = mp.get_time() end
end)
mp.observe_property("time-pos", "number", function(_, value)
    if value then position = value end
end)
mp.observe_property("paused-for-cache", "bool", function(_, value)
    if not started then return end
    if value and not stall_began then
        stall_began = mp.get_time()
        stalls = stalls + 1
    elseif not value and stall_began then
        stall_seconds = stall_seconds + (mp.get_time() - stall_began)
        stall_began = nil
    end
end)
mp.register_event("shutdown", function()
    if stall_began then stall_seconds = stall_seconds + (mp.get_time() - stall_began) end
    local file = assert(io.open(options.out, "w"))
    file:write(string.format('{"stalls":%d,"stallSeconds":%.3f,"startup":%.3f,"position":%.3f}\n',
        stalls, stall_seconds, started and (started - loaded) or -1, position))
    file:close()
end)
LUA
}

# One run of PLAYER (playhead, mpv, or fixed-vN on the HLS ladder in DIR; playhead-dash or
# mpv-dash on the DASH copy in DIR) on TRACE; writes RESULT (JSON from adaptation-qoe.py analyse).
adaptation_run() {
    local dir=$1 trace=$2 player=$3 result=$4
    local log="$WORK/adaptation-requests.jsonl" out="$WORK/adaptation-player.json"
    local wall="$WORK/adaptation-wall.txt" kind url
    rm -f "$log" "$out"
    adaptation_start_server "$dir" "$trace" "$log"
    url="http://127.0.0.1:$ADAPTATION_PORT/master.m3u8"
    case $player in
        playhead | playhead-dash)
            kind=playhead
            [[ $player == playhead ]] || url="http://127.0.0.1:$ADAPTATION_PORT/manifest.mpd"
            adaptation_timed_run "$out" "$wall" \
                "$PLAYHEAD" play --headless --no-audio --no-mpris --report json "$url" ;;
        fixed-*)
            kind=playhead
            url="http://127.0.0.1:$ADAPTATION_PORT/${player#fixed-}/index.m3u8"
            adaptation_timed_run "$out" "$wall" \
                "$PLAYHEAD" play --headless --no-audio --no-mpris --report json "$url" ;;
        mpv | mpv-dash)
            kind=mpv
            [[ $player == mpv ]] || url="http://127.0.0.1:$ADAPTATION_PORT/manifest.mpd"
            adaptation_write_mpv_script "$WORK/adaptation.lua"
            local mpv_out="$WORK/adaptation-mpv.json"
            rm -f "$mpv_out"
            adaptation_timed_run /dev/null "$wall" \
                mpv --no-config --vo=null --ao=null --really-quiet --script="$WORK/adaptation.lua" \
                --script-opts="benchadapt-out=$mpv_out" "$url"
            cp "$mpv_out" "$out" 2>/dev/null || echo '{}' >"$out" ;;
    esac
    adaptation_stop_server
    [[ -s $out ]] || { tail -5 "$WORK/player.err" >&2; echo '{}' >"$out"; }
    python3 "$ROOT/Benchmarks/adaptation-qoe.py" analyse --ladder "$dir" --trace "$trace" \
        --requests "$log" --player "$kind" --report "$out" --wall "$(cat "$wall")" \
        --limit "$ADAPTATION_LIMIT" --name "$player" >"$result" \
        || die "could not analyse the $player run on $(basename "$trace")"
    cp "$log" "${result%.json}.requests.jsonl"
}

measure_adaptation() {
    command -v python3 >/dev/null || die "adaptation rows need python3"
    local dir dash=""
    dir=$(bench_adaptation_ladder "$CACHE") || die "fixture $ADAPTATION_FIXTURE"
    if [[ -n $ADAPTATION_DASH_PLAYERS ]]; then
        dash=$(bench_adaptation_dash_ladder "$CACHE" "$dir") || die "the DASH copy of $ADAPTATION_FIXTURE"
    fi
    if [[ -n $REPORT_FIXTURES ]]; then
        report_fixture "$ADAPTATION_FIXTURE" \
            "HLS ladder of four variants (0.4, 1, 2.5, 5 Mbit/s; 360p to 1080p30 H.264 CBR + AAC), 2 s MPEG-TS segments, 60 s"
    fi
    local results="$WORK/adaptation-results" trace name player
    rm -rf "$results"
    mkdir -p "$results"
    for name in $ADAPTATION_TRACES; do
        trace="$ROOT/Benchmarks/traces/$name.trace"
        [[ -s $trace ]] || die "no trace $trace"
        for player in $ADAPTATION_PLAYERS; do
            say "adaptation: $name, $player (real time, at most $ADAPTATION_LIMIT s)"
            adaptation_run "$dir" "$trace" "$player" "$results/$name-$player.json"
            say "  $(python3 "$ROOT/Benchmarks/adaptation-qoe.py" summary "$results/$name-$player.json")"
        done
        for player in $ADAPTATION_DASH_PLAYERS; do
            say "adaptation: $name, $player (real time, at most $ADAPTATION_LIMIT s)"
            adaptation_run "$dash" "$trace" "$player" "$results/$name-$player.json"
            say "  $(python3 "$ROOT/Benchmarks/adaptation-qoe.py" summary "$results/$name-$player.json")"
        done
    done
    # DASH beside HLS: playhead's HLS run and the DASH runs of each trace, in one table.
    local dash_files=()
    for name in $ADAPTATION_TRACES; do
        for player in playhead $ADAPTATION_DASH_PLAYERS; do
            [[ -s $results/$name-$player.json ]] && dash_files+=("$results/$name-$player.json")
        done
    done
    if [[ -n $ADAPTATION_DASH_PLAYERS ]]; then
        python3 "$ROOT/Benchmarks/adaptation-dash.py" rows "${dash_files[@]}" >"$REPORT_ROWS.adaptation-dash" \
            || die "could not write the DASH rows"
    fi
    if [[ $ADAPTATION_PLAYERS != "playhead mpv fixed-v0 fixed-v1 fixed-v2 fixed-v3" ]]; then
        say "adaptation: players $ADAPTATION_PLAYERS only, so no goal rows (results in $results)"
        [[ ! -s $REPORT_ROWS.adaptation-dash ]] || cat "$REPORT_ROWS.adaptation-dash" >&2
        rm -rf "$CACHE/adaptation-subset"
        cp -r "$results" "$CACHE/adaptation-subset"
        return 0
    fi
    local files=()
    for name in $ADAPTATION_TRACES; do
        for player in playhead mpv fixed-v0 fixed-v1 fixed-v2 fixed-v3; do
            files+=("$results/$name-$player.json")
        done
    done
    python3 "$ROOT/Benchmarks/adaptation-qoe.py" rows --fixture "$ADAPTATION_FIXTURE" \
        --details "$REPORT_ROWS.adaptation" "${files[@]}" >"$REPORT_ROWS.adaptation-goals" \
        || die "could not write the adaptation rows"
    local line
    while IFS= read -r line; do
        case $line in
            *'**met**'*) REPORT_MET=$((REPORT_MET + 1)) ;;
            *'**missed**'*) REPORT_MISSED=$((REPORT_MISSED + 1)) ;;
        esac
        printf '%s\n' "$line" >>"$REPORT_ROWS"
    done <"$REPORT_ROWS.adaptation-goals"
    # Each run's figures are kept for a look after the report (the last run's only).
    rm -rf "$CACHE/adaptation-results"
    cp -r "$results" "$CACHE/adaptation-results"
}
