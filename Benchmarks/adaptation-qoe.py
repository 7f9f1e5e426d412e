#!/usr/bin/env python3
"""Playhead: the figures of the adaptation rows of Benchmarks/compare (issue 17).

Subcommands:
  master DIR        print the multivariant playlist of the ladder in DIR (v0..v3/index.m3u8),
                    with each variant's measured peak and average segment bit rate
  analyse ...       one run's figures, as JSON, from the shaped server's request log and the
                    player's own stall report
  summary FILE      one line about an analysed run
  rows ...          the goal rows (markdown, printed) and the detail table (to --details)

What a run played is read from the server's request log, the same way for every player: a
segment's variant is the variant of its completed download; where several variants of one
segment were downloaded completely (libavformat probes every variant's first segment when it
opens a multivariant playlist), the one whose next segment was downloaded too. Stalls come from
the player (playhead's `--report json`, mpv's `paused-for-cache` through a Lua script).

Linear QoE (issue 17: bitrate in Mbit/s - 4.3 x stall seconds - total |bitrate change|,
with Pensieve's weights, per segment as the issue's reference states it): summed over the
segments played, sum(R_n) - 4.3 x stall seconds - sum(|R_n+1 - R_n|), and divided by the
number of segments so it reads in Mbit/s: mean played bitrate - (4.3 x stall seconds + total
|bitrate change|) / segments. R_n is the played variant's AVERAGE-BANDWIDTH in Mbit/s.
`qoeSession` is the other reading of the issue's sentence, with nothing divided: mean played
bitrate - 4.3 x stall seconds - total |bitrate change|.
"""

import argparse
import json
import os
import re
import subprocess
import sys

STALL_WEIGHT = 4.3
# The lowest variant must fit the bandwidth with this margin for "no stall" to be required.
FIT_MARGIN = 1.3
# Seconds after a bandwidth change (and after the start) that are not a steady part.
SETTLE = 10.0
# At most one switch in any window of this many seconds on a steady part.
SWITCH_WINDOW = 10.0
# A media segment's request: its variant and number (MPEG-TS of the HLS ladder, fragmented MP4
# of its DASH copy).
SEGMENT = re.compile(r"/(v\d+)/seg(\d+)\.(?:ts|m4s)")


def media_playlist(path):
    """[(duration, uri)] of a media playlist."""
    segments = []
    duration = None
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("#EXTINF:"):
                duration = float(line[8:].split(",")[0])
            elif line and not line.startswith("#"):
                segments.append((duration or 0.0, line))
                duration = None
    return segments


def variants(directory):
    """The ladder's variant directories, ascending: v0, v1, ..."""
    names = [n for n in os.listdir(directory) if re.fullmatch(r"v\d+", n)]
    return sorted(names, key=lambda n: int(n[1:]))


def video_stream(directory, name, first):
    """(width, height, CODECS attribute) from the first segment (H.264 profile/level, AAC-LC)."""
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=width,height,profile,level", "-of", "json", os.path.join(directory, name, first)],
        capture_output=True, text=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    profile = {"High": 0x64, "Main": 0x4D, "Baseline": 0x42, "Constrained Baseline": 0x42}.get(
        stream.get("profile"), 0x64)
    codecs = "avc1.%02x00%02x,mp4a.40.2" % (profile, int(stream.get("level", 40)))
    return stream["width"], stream["height"], codecs


def command_master(arguments):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for name in variants(arguments.directory):
        playlist = os.path.join(arguments.directory, name, "index.m3u8")
        segments = media_playlist(playlist)
        rates = []
        total_bits = total_seconds = 0.0
        for duration, uri in segments:
            bits = os.path.getsize(os.path.join(arguments.directory, name, uri)) * 8
            total_bits += bits
            total_seconds += duration
            if duration > 0:
                rates.append(bits / duration)
        peak = int(max(rates))
        average = int(total_bits / total_seconds)
        width, height, codecs = video_stream(arguments.directory, name, segments[0][1])
        lines.append(
            '#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,RESOLUTION=%dx%d,CODECS="%s",FRAME-RATE=30.000'
            % (peak, average, width, height, codecs))
        lines.append("%s/index.m3u8" % name)
    print("\n".join(lines))


def segment_layout(directory):
    """(number of the first segment, file name pattern) of the ladder in DIRECTORY: a DASH copy
    describes its own (ladder.json, by adaptation-dash.py)."""
    described = os.path.join(directory, "ladder.json")
    if os.path.exists(described):
        with open(described) as handle:
            layout = json.load(handle)
        return layout["firstNumber"], layout["segment"]
    return 0, "seg%02d.ts"


def ladder(directory):
    """{name: {"average": bits/s, "peak": bits/s, "durations": [s...]}} from the master playlist
    (or a DASH copy's ladder.json)."""
    described = os.path.join(directory, "ladder.json")
    if os.path.exists(described):
        with open(described) as handle:
            return json.load(handle)["variants"]
    result = {}
    pending = None
    with open(os.path.join(directory, "master.m3u8")) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("#EXT-X-STREAM-INF:"):
                attributes = dict(re.findall(r'([A-Z-]+)=("[^"]*"|[^,]*)', line[18:]))
                pending = (int(attributes["AVERAGE-BANDWIDTH"]), int(attributes["BANDWIDTH"]))
            elif line and not line.startswith("#") and pending:
                name = line.split("/")[0]
                durations = [d for d, _ in media_playlist(os.path.join(directory, line))]
                result[name] = {"average": pending[0], "peak": pending[1], "durations": durations}
                pending = None
    return result


def read_trace(path):
    """[(start seconds, Mbit/s)] ascending."""
    points = []
    with open(path) as handle:
        for line in handle:
            line = line.split("#")[0].strip()
            if line:
                seconds, mbit = line.split()[:2]
                points.append((float(seconds), float(mbit)))
    return sorted(points)


def played_segments(requests, names, first=0):
    """{segment index: variant name} of what was played, from the completed downloads (segment
    numbers counted from FIRST)."""
    completed = {}
    for request in requests:
        match = SEGMENT.fullmatch(request["path"])
        if not match or match.group(1) not in names or not request.get("complete"):
            continue
        completed.setdefault(int(match.group(2)) - first, []).append(match.group(1))
    played = {}
    for index in sorted(completed, reverse=True):
        choices = completed[index]
        after = played.get(index + 1)
        played[index] = after if after in choices else choices[-1]
    return played


def command_analyse(arguments):
    rungs = ladder(arguments.ladder)
    names = list(rungs)
    trace = read_trace(arguments.trace)
    with open(arguments.requests) as handle:
        requests = [json.loads(line) for line in handle if line.strip()]
    try:
        with open(arguments.report) as handle:
            report = json.load(handle)
    except (OSError, ValueError):
        report = {}
    if arguments.player == "playhead" and "items" in report:
        item = report["items"][-1]
    else:
        item = report
    segment_count = len(rungs[names[0]]["durations"])
    durations = rungs[names[0]]["durations"]
    first, pattern = segment_layout(arguments.ladder)
    played = played_segments(requests, names, first)
    indices = [i for i in range(segment_count) if i in played]
    seconds = sum(durations[i] for i in indices)
    rates = [rungs[played[i]]["average"] / 1e6 for i in indices]
    mean = sum(rates[k] * durations[i] for k, i in enumerate(indices)) / seconds if seconds else 0.0
    changes = [abs(b - a) for a, b in zip(rates, rates[1:])]
    # A switch's time: when the first segment on the new variant was requested.
    first_request = {}
    for request in requests:
        match = SEGMENT.fullmatch(request["path"])
        index = int(match.group(2)) - first if match else -1
        if match and index in played and played[index] == match.group(1):
            first_request.setdefault(index, request["start"])
    switch_times = [first_request.get(i, 0.0) for k, i in enumerate(indices[1:], 1)
                    if played[i] != played[indices[k - 1]]]
    stall_seconds = float(item.get("stallSeconds", 0) or 0)
    stalls = int(item.get("stalls", 0) or 0)
    wall = arguments.wall
    finished = len(indices) == segment_count and wall < arguments.limit - 1
    if arguments.player == "mpv" and item.get("startup", -1) >= 0:
        startup = item["startup"]
    else:
        # Wall time less the media played and the time stalled (process start to first frame,
        # plus the exit, which is a few milliseconds).
        position = float(item.get("position", 0) or 0)
        startup = max(wall - position - stall_seconds, 0.0)
    media_bytes = sum(r.get("sent", 0) for r in requests if SEGMENT.fullmatch(r["path"]))
    played_bytes = sum(os.path.getsize(os.path.join(arguments.ladder, played[i], pattern % (i + first)))
                       for i in indices)
    result = {
        "name": arguments.name,
        "trace": os.path.basename(arguments.trace).rsplit(".", 1)[0],
        "finished": finished,
        "status": item.get("status", "completed" if finished else "stopped"),
        "wall": wall,
        "segmentsPlayed": len(indices),
        "segments": segment_count,
        "variants": [played[i] for i in indices],
        "meanMbit": round(mean, 3),
        "stalls": stalls,
        "stallSeconds": round(stall_seconds, 3),
        # False when the player wrote no stall figures (a run stopped before mpv's script could
        # write them): its stalls are unknown, and it is left out of the comparison.
        "reported": "stallSeconds" in item,
        "switches": len(switch_times),
        "switchTimes": [round(t, 2) for t in switch_times],
        "changeMbit": round(sum(changes), 3),
        "startup": round(startup, 3),
        "qoe": qoe(mean, stall_seconds, sum(changes), len(indices)),
        "qoeSession": round(mean - STALL_WEIGHT * stall_seconds - sum(changes), 3),
        "requests": len(requests),
        "mediaRequests": sum(1 for r in requests if SEGMENT.fullmatch(r["path"])),
        "bytes": sum(r.get("sent", 0) for r in requests),
        "wasteRatio": round(media_bytes / played_bytes - 1, 3) if played_bytes else None,
        "reportedSwitches": item.get("variantSwitches"),
        "observedBitrate": item.get("observedBitrate"),
        "lowestFits": min(m for _, m in trace) * 1e6 >= FIT_MARGIN * rungs[names[0]]["peak"],
        "steadyViolations": steady_violations(trace, switch_times, wall),
    }
    print(json.dumps(result))


def qoe(mean, stall_seconds, change, segments):
    """Pensieve's linear QoE summed over the segments, per segment (Mbit/s)."""
    if segments == 0:
        return round(-STALL_WEIGHT * stall_seconds, 3)
    return round(mean - (STALL_WEIGHT * stall_seconds + change) / segments, 3)


def steady_violations(trace, switch_times, wall):
    """Switches closer than SWITCH_WINDOW to the one before on a steady part of the trace: a
    stretch of constant bandwidth from SETTLE seconds after its start to its end."""
    violations = 0
    for k, (start, _) in enumerate(trace):
        end = trace[k + 1][0] if k + 1 < len(trace) else max(wall, start)
        inside = [t for t in switch_times if start + SETTLE <= t < end]
        violations += sum(1 for a, b in zip(inside, inside[1:]) if b - a < SWITCH_WINDOW)
    return violations


def load_run(path):
    with open(path) as handle:
        run = json.load(handle)
    run["qoe"] = qoe(run["meanMbit"], run["stallSeconds"], run["changeMbit"], run["segmentsPlayed"])
    run["qoeSession"] = round(run["meanMbit"] - STALL_WEIGHT * run["stallSeconds"] - run["changeMbit"], 3)
    return run


def command_summary(arguments):
    run = load_run(arguments.file)
    print("%s: %s Mbit/s, %d stalls %.2f s, %d switches, startup %.2f s, QoE %.3f (session reading %.3f)%s" % (
        run["name"], run["meanMbit"], run["stalls"], run["stallSeconds"], run["switches"],
        run["startup"], run["qoe"], run["qoeSession"], "" if run["finished"] else " (stopped at %d of %d segments)" % (
            run["segmentsPlayed"], run["segments"])))


def label(run):
    if run["name"] == "playhead":
        return "playhead (adaptive)"
    if run["name"] == "mpv":
        return "mpv"
    return "playhead fixed %s" % run["name"][6:]


def command_rows(arguments):
    runs = []
    for path in arguments.files:
        runs.append(load_run(path))
    order = ["playhead", "mpv", "fixed-v0", "fixed-v1", "fixed-v2", "fixed-v3"]
    traces = []
    for run in runs:
        if run["trace"] not in traces:
            traces.append(run["trace"])
    details = ["| Trace | Player | Mean played Mbit/s | Stalls (s) | Switches | Σ abs(Δ) Mbit/s | Startup s | QoE per segment | QoE, session reading | Played variants |",
               "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    goals = []
    for trace in traces:
        by_name = {run["name"]: run for run in runs if run["trace"] == trace}
        for name in order:
            run = by_name.get(name)
            if not run:
                continue
            stopped = "" if run["finished"] else " (stopped after %d s at segment %d of %d: a lower bound)" % (
                run["wall"], run["segmentsPlayed"], run["segments"])
            if not run.get("reported", True):
                stopped += " (the player wrote no stall figures: stalls unknown, left out of the goal rows)"
            details.append("| `%s` | %s | %.2f | %d (%.2f%s) | %d | %.2f | %.2f | %.2f | %.2f | %s |" % (
                trace, label(run), run["meanMbit"], run["stalls"], run["stallSeconds"],
                "" if run["finished"] else "+", run["switches"], run["changeMbit"], run["startup"],
                run["qoe"], run["qoeSession"], compress(run["variants"]) + stopped))
        ours = by_name.get("playhead")
        if not ours:
            continue
        others = [by_name[n] for n in order[1:] if n in by_name and by_name[n].get("reported", True)]
        best = max(others, key=lambda r: r["qoe"]) if others else None
        if best:
            met = ours["qoe"] > best["qoe"] and ours["finished"]
            goals.append("| Adaptation, linear QoE per segment on `%s` (Σ over segments of Mbit/s − 4.3 × stall s − abs(Δ Mbit/s), ÷ segments) | `%s` | %.2f | %.2f (best other: %s) | — | above mpv and every fixed variant | %s |" % (
                trace, arguments.fixture, ours["qoe"], best["qoe"], label(best), "**met**" if met else "**missed**"))
            session_best = max(others, key=lambda r: r["qoeSession"])
            goals.append("| Same on `%s`, session reading (mean Mbit/s − 4.3 × stall s − Σ abs(Δ Mbit/s), nothing divided) | `%s` | %.2f | %.2f (best other: %s) | — | (for information) | %s |" % (
                trace, arguments.fixture, ours["qoeSession"], session_best["qoeSession"], label(session_best),
                "above" if ours["qoeSession"] > session_best["qoeSession"] else "below"))
        if ours["lowestFits"]:
            goals.append("| Adaptation, stalls on `%s` (the lowest variant fits with 30 %% margin throughout) | `%s` | %d (%.2f s) | %s | — | 0 | %s |" % (
                trace, arguments.fixture, ours["stalls"], ours["stallSeconds"],
                "%d (%.2f s%s) (mpv)" % (by_name["mpv"]["stalls"], by_name["mpv"]["stallSeconds"],
                                         "" if by_name["mpv"]["finished"] else "+")
                if "mpv" in by_name and by_name["mpv"].get("reported", True) else "—",
                "**met**" if ours["stalls"] == 0 else "**missed**"))
        goals.append("| Adaptation, switches closer than 10 s on steady parts of `%s` (switches in all) | `%s` | %d (%d) | — | — | 0 | %s |" % (
            trace, arguments.fixture, ours["steadyViolations"], ours["switches"],
            "**met**" if ours["steadyViolations"] == 0 else "**missed**"))
    with open(arguments.details, "w") as handle:
        handle.write("\n".join(details) + "\n")
    print("\n".join(goals))


def compress(names):
    """v3 v3 v3 v2 -> v3×3 v2"""
    parts = []
    for name in names:
        if parts and parts[-1][0] == name:
            parts[-1][1] += 1
        else:
            parts.append([name, 1])
    return " ".join("%s×%d" % (n, c) if c > 1 else n for n, c in parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    master = sub.add_parser("master")
    master.add_argument("directory")
    analyse = sub.add_parser("analyse")
    analyse.add_argument("--ladder", required=True)
    analyse.add_argument("--trace", required=True)
    analyse.add_argument("--requests", required=True)
    analyse.add_argument("--player", choices=["playhead", "mpv"], required=True)
    analyse.add_argument("--report", required=True)
    analyse.add_argument("--wall", type=float, required=True)
    analyse.add_argument("--limit", type=float, required=True)
    analyse.add_argument("--name", required=True)
    summary = sub.add_parser("summary")
    summary.add_argument("file")
    rows = sub.add_parser("rows")
    rows.add_argument("--fixture", required=True)
    rows.add_argument("--details", required=True)
    rows.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    {"master": command_master, "analyse": command_analyse, "summary": command_summary,
     "rows": command_rows}[arguments.command](arguments)


if __name__ == "__main__":
    sys.exit(main())
