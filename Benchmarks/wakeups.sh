# Playhead: context switches per second of a player process, paused and playing, in a window
# on a private X server (sourced by Benchmarks/compare).
#
# Each player runs in a window on Xvfb with no audio (SDL's audio thread keeps running while a
# device is paused, and mpv's null output does not, so sound would compare the outputs, not the
# players). After WAKEUPS_SETTLE seconds (the window goes idle 5 s after the last change), the
# context switches of all the process's threads (/proc/PID/task/*/status, voluntary and not)
# are counted over WAKEUPS_SPAN seconds (wakeups_over).

WAKEUPS_SETTLE=${WAKEUPS_SETTLE:-8}
WAKEUPS_SPAN=${WAKEUPS_SPAN:-10}

# Prints "TID SWITCHES" for every thread of PID (voluntary and involuntary summed).
wakeups_threads() {
    local status
    for status in /proc/"$1"/task/*/status; do
        awk -v tid="${status//[^0-9]/ }" '/ctxt_switches/ { s += $2 } END { split(tid, t, " "); print t[2], s + 0 }' \
            "$status" 2>/dev/null
    done
}

# Context switches of PID's threads over SECONDS, sampled every half second so threads that
# start or end meanwhile count for the part of the span they lived (a thread's last reading
# stands after it ends; one that starts counts from zero).
wakeups_over() {
    local pid=$1 seconds=$2 samples
    samples=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 2 }')
    {
        wakeups_threads "$pid" | sed 's/^/first /'
        local i
        for i in $(seq "$samples"); do
            sleep 0.5
            wakeups_threads "$pid" | sed 's/^/later /'
        done
    } | awk '$1 == "first" { first[$2] = $3; last[$2] = $3; next }
             { if (!($2 in first)) first[$2] = 0; last[$2] = $3 }
             END { for (t in last) total += last[t] - first[t]; print total + 0 }'
}

# Starts Xvfb and openbox on a free display; sets WAKEUPS_DISPLAY and WAKEUPS_X_PIDS.
wakeups_start_x() {
    local number
    for number in $(seq 140 160); do
        [[ -e /tmp/.X11-unix/X$number ]] && continue
        Xvfb ":$number" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
        local server=$!
        local tries
        for tries in $(seq 50); do
            DISPLAY=":$number" xdotool getdisplaygeometry >/dev/null 2>&1 && break
            sleep 0.1
        done
        if DISPLAY=":$number" xdotool getdisplaygeometry >/dev/null 2>&1; then
            DISPLAY=":$number" openbox >/dev/null 2>&1 &
            WAKEUPS_X_PIDS="$server $!"
            WAKEUPS_DISPLAY=":$number"
            sleep 0.5
            return 0
        fi
        kill -KILL "$server" 2>/dev/null
    done
    return 1
}

wakeups_stop_x() {
    # shellcheck disable=SC2086
    kill -KILL $WAKEUPS_X_PIDS 2>/dev/null || true
    wait 2>/dev/null || true
}

# Prints the context switches per second of COMMAND... run in the window.
wakeups_of() {
    DISPLAY=$WAKEUPS_DISPLAY SDL_AUDIODRIVER=dummy "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep "$WAKEUPS_SETTLE"
    local switches
    switches=$(wakeups_over "$pid" "$WAKEUPS_SPAN")
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
    awk -v n="$switches" -v s="$WAKEUPS_SPAN" 'BEGIN { printf "%.1f", n / s }'
}

# Adds the paused and playing rows for fixture NAME at PATH.
measure_wakeups() {
    local name=$1 path=$2
    command -v Xvfb >/dev/null && command -v openbox >/dev/null && command -v xdotool >/dev/null \
        || die "wake-up rows need Xvfb, openbox and xdotool (scripts/install-deps.sh)"
    wakeups_start_x || die "could not start Xvfb for the wake-up rows"
    say "context switches: $name (paused, then playing; playhead, then mpv)"
    local ours theirs
    ours=$(wakeups_of "$PLAYHEAD" play --pause --no-audio "$path")
    theirs=$(wakeups_of mpv --no-config --vo=x11 --no-audio --pause "$path")
    report_row "Context switches per second, paused in a window" "$name" "$ours" "$theirs" "mpv --pause" le 1.0
    ours=$(wakeups_of "$PLAYHEAD" play --loop --no-audio "$path")
    theirs=$(wakeups_of mpv --no-config --vo=x11 --no-audio --loop-file=inf "$path")
    report_row "Context switches per second, playing in a window" "$name" "$ours" "$theirs" "mpv --vo=x11" le 1.0
    wakeups_stop_x
}
