#!/usr/bin/env bash
# Playhead: a private PipeWire sound server for the sound-server tests: a session bus, pipewire,
# wireplumber and pipewire-pulse in DIR (its runtime and home folders), a null sink "probe" made
# the default, then DIR/ready is written and the script exits (the daemons run on).
#
# Usage: scripts/pipewire-session.sh DIR
# Every daemon's process id is appended to DIR/pids, for the caller to end them. Clients reach
# the server at unix:DIR/run/pulse/native. Exits 1 (without DIR/ready) when it does not come up.
set -u
dir="$1"
mkdir -p "$dir/run" "$dir/home"
chmod 700 "$dir/run"
export XDG_RUNTIME_DIR="$dir/run" HOME="$dir/home"
: >"$dir/pids"
dbus-daemon --session --fork --nopidfile --print-address=3 --print-pid=4 3>"$dir/bus" 4>>"$dir/pids" </dev/null
DBUS_SESSION_BUS_ADDRESS="$(head -n 1 "$dir/bus")"
export DBUS_SESSION_BUS_ADDRESS
pipewire >"$dir/pipewire.log" 2>&1 </dev/null &
echo $! >>"$dir/pids"
sleep 0.3
wireplumber >"$dir/wireplumber.log" 2>&1 </dev/null &
echo $! >>"$dir/pids"
pipewire-pulse >"$dir/pipewire-pulse.log" 2>&1 </dev/null &
echo $! >>"$dir/pids"
server="unix:$dir/run/pulse/native"
for _ in $(seq 100); do
    pactl --server="$server" info >/dev/null 2>&1 && break
    sleep 0.1
done
pactl --server="$server" load-module module-null-sink sink_name=probe rate=48000 format=float32le channels=2 \
    >/dev/null 2>&1 || exit 1
# WirePlumber may pick its own default first: wait until the probe sink is there, then choose it.
for _ in $(seq 50); do
    pactl --server="$server" list short sinks 2>/dev/null | grep -q probe && break
    sleep 0.1
done
pactl --server="$server" set-default-sink probe >/dev/null 2>&1 || exit 1
touch "$dir/ready"
