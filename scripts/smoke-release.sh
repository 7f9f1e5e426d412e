#!/usr/bin/env bash
# Playhead: smoke checks of the release binary, used as a user would use it: the built-in demo
# headless, probe, thumbnail, bench seek and one bad input. Each result is checked, not only run.
#
# Usage: scripts/smoke-release.sh PLAYHEAD_BINARY
# Needs ffmpeg (to make the test clip) and python3 (to read JSON and PNG headers).
# Prints one line per check and a closing "N passed, N failed"; exits 1 when any check failed.
set -uo pipefail

binary="${1:?usage: smoke-release.sh PLAYHEAD_BINARY}"
[[ -x "$binary" ]] || { echo "smoke: $binary is not an executable; run make release" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A headless run with no sound server must not look for one for long.
export SDL_AUDIODRIVER="${SDL_AUDIODRIVER:-dummy}"
unset DISPLAY WAYLAND_DISPLAY

passed=0
failed=0
pass() { echo "smoke: ok   $1"; passed=$((passed + 1)); }
fail() { echo "smoke: FAIL $1"; shift; for line in "$@"; do echo "      $line"; done; failed=$((failed + 1)); }

# Runs python3 on a JSON file with an expression over `j`; prints the value or fails.
json() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

clip="$work/clip.mp4"
ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=25:duration=4 \
    -f lavfi -i sine=frequency=440:duration=4 -c:v libx264 -g 25 -pix_fmt yuv420p \
    -c:a aac -shortest "$clip" || { echo "smoke: ffmpeg could not make the test clip" >&2; exit 1; }

# 1. The built-in demo, headless, for 75 frames (3 s at 25 fps) with a JSON report.
if timeout 60 "$binary" --headless --frames 75 --report json >"$work/demo.json" 2>"$work/demo.err"; then
    frames="$(json "$work/demo.json" 'j["videoFramesPresented"]' 2>/dev/null || echo 0)"
    status="$(json "$work/demo.json" 'j["status"]' 2>/dev/null || echo none)"
    if [[ "$frames" -gt 0 && "$status" == "completed" ]]; then
        pass "demo: $frames frames presented, status $status"
    else
        fail "demo: report says $frames frames, status $status" "$(cat "$work/demo.json")"
    fi
else
    fail "demo: exit $?" "$(tail -n 5 "$work/demo.err")"
fi

# 2. probe --json: duration and both tracks of the clip.
if "$binary" probe --json "$clip" >"$work/probe.json" 2>"$work/probe.err"; then
    summary="$(json "$work/probe.json" \
        '"%.1f %s" % (j["duration"], ",".join(t["mediaType"] + ":" + t["codec"] for t in j["tracks"]))' 2>&1)"
    if [[ "$summary" == "4.0 video:h264,audio:aac" ]]; then
        pass "probe --json: $summary"
    else
        fail "probe --json: expected '4.0 video:h264,audio:aac', got '$summary'"
    fi
else
    fail "probe --json: exit $?" "$(cat "$work/probe.err")"
fi

# 3. thumbnail: a 320x240 PNG of the frame ffmpeg -ss 1.5 gives (PSNR against ffmpeg's own).
if "$binary" thumbnail "$clip" --at 1.5 -o "$work/thumb.png" >/dev/null 2>"$work/thumb.err"; then
    size="$(python3 -c 'import struct,sys
d=open(sys.argv[1],"rb").read(24)
print("%dx%d" % struct.unpack(">II", d[16:24]) if d[:8] == b"\x89PNG\r\n\x1a\n" else "not-png")' "$work/thumb.png")"
    ffmpeg -v error -y -ss 1.5 -i "$clip" -frames:v 1 "$work/reference.png"
    psnr="$(ffmpeg -v info -i "$work/thumb.png" -i "$work/reference.png" -lavfi psnr -f null - 2>&1 \
        | sed -n 's/.*average:\([0-9.inf]*\).*/\1/p' | tail -n 1)"
    if [[ "$size" == "320x240" && ( "$psnr" == "inf" || "${psnr%%.*}" -ge 35 ) ]]; then
        pass "thumbnail: $size PNG, PSNR $psnr dB against ffmpeg -ss 1.5"
    else
        fail "thumbnail: $size, PSNR '$psnr' dB against ffmpeg -ss 1.5 (want 320x240, >= 35 dB)"
    fi
else
    fail "thumbnail: exit $?" "$(cat "$work/thumb.err")"
fi

# 4. bench seek --json: 20 exact seeks, each timed.
if timeout 120 "$binary" bench seek --json "$clip" >"$work/bench.json" 2>"$work/bench.err"; then
    result="$(json "$work/bench.json" '"%d %d" % (j["n"], len(j["seeks"])) if j["medianMs"] > 0 else "no-median"' 2>&1)"
    if [[ "$result" == "20 20" ]]; then
        pass "bench seek --json: 20 seeks, median $(json "$work/bench.json" 'j["medianMs"]') ms"
    else
        fail "bench seek --json: expected 20 timed seeks, got '$result'" "$(cat "$work/bench.json")"
    fi
else
    fail "bench seek --json: exit $?" "$(cat "$work/bench.err")"
fi

# 5. Bad input: exit 1 and exactly one line, "playhead: <input>: <reason>".
missing="$work/missing.mp4"
"$binary" "$missing" >"$work/bad.out" 2>"$work/bad.err"
code=$?
lines="$(wc -l <"$work/bad.err")"
if [[ "$code" -eq 1 && "$lines" -eq 1 ]] && grep -qx "playhead: $missing: no such file" "$work/bad.err"; then
    pass "bad input: exit 1, '$(cat "$work/bad.err")'"
else
    fail "bad input: exit $code, $lines lines on stderr" "$(cat "$work/bad.err")"
fi

echo "smoke: $passed passed, $failed failed"
[[ "$failed" -eq 0 ]]
