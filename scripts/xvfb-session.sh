#!/usr/bin/env bash
# Playhead: a private X server (Xvfb) with a window manager (openbox) for the window tests.
#
# Usage: scripts/xvfb-session.sh DISPLAY WIDTHxHEIGHT [WATCH_PID]
# Starts Xvfb on DISPLAY (e.g. :99) and openbox on it, prints "ready" once clients can connect,
# and keeps both running until WATCH_PID (the test process) exits or stdin closes; then kills
# them and removes the display's lock files. Exits 1 (printing nothing) when Xvfb cannot start.
#
# The server is killed with SIGKILL: processes started from the Swift test runner inherit a
# signal mask in which SIGTERM is blocked.
set -u
display="$1"
size="$2"
watch="${3:-}"
number="${display#:}"

Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
server=$!
manager=""
cleanup() {
    kill -KILL $manager "$server" 2>/dev/null
    wait 2>/dev/null
    rm -f "/tmp/.X${number}-lock" "/tmp/.X11-unix/X${number}"
}
trap cleanup EXIT

for _ in $(seq 100); do
    if ! kill -0 "$server" 2>/dev/null; then exit 1; fi
    if DISPLAY="$display" xdotool getdisplaygeometry >/dev/null 2>&1; then break; fi
    sleep 0.1
done
DISPLAY="$display" xdotool getdisplaygeometry >/dev/null 2>&1 || exit 1
DISPLAY="$display" openbox >/dev/null 2>&1 &
manager=$!
sleep 0.3
echo ready

while kill -0 "$server" 2>/dev/null; do
    if [[ -n "$watch" ]] && ! kill -0 "$watch" 2>/dev/null; then break; fi
    # read returns >128 on timeout (keep going), 1 at end of input (stop).
    read -r -t 0.5 _
    status=$?
    if [[ $status -ne 0 && $status -le 128 ]]; then break; fi
done
