#!/usr/bin/env python3
"""Playhead: the DASH side of the adaptation rows of Benchmarks/compare (issue 17).

Subcommands:
  ladder DIR    write DIR/ladder.json for `adaptation-qoe.py analyse` from DIR/manifest.mpd (a
                DASH copy of the HLS ladder: the same encodes in fragmented MP4, one video
                Representation per variant, one audio Representation) and its segment files:
                each variant's average and peak segment bit rate (its sound's added, as the HLS
                variants carry theirs) and the segment durations
  rows FILES    print the table of playhead on the DASH ladder beside playhead on the HLS ladder
                and mpv on the DASH manifest, trace by trace, from analysed runs

The DASH runs are read as the HLS ones are (adaptation-qoe.py): what was played from the shaped
server's request log, stalls from the player's own report.
"""

import argparse
import importlib.util
import json
import os
import sys
import xml.etree.ElementTree as ElementTree

# The HLS side's helpers (its file name is not a module name).
_spec = importlib.util.spec_from_file_location(
    "adaptation_qoe", os.path.join(os.path.dirname(os.path.abspath(__file__)), "adaptation-qoe.py"))
qoe_figures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qoe_figures)

NAMESPACE = "{urn:mpeg:dash:schema:mpd:2011}"


def timeline(template):
    """[(number, seconds)] of a SegmentTemplate with a SegmentTimeline."""
    scale = float(template.get("timescale", "1"))
    number = int(template.get("startNumber", "1"))
    segments = []
    for entry in template.find(NAMESPACE + "SegmentTimeline"):
        for _ in range(int(entry.get("r", "0")) + 1):
            segments.append((number, int(entry.get("d")) / scale))
            number += 1
    return segments


def rates(directory, name, segments):
    """(average, peak) bits per second of the media segments NAME/segNN.m4s."""
    bits = [os.path.getsize(os.path.join(directory, name, "seg%02d.m4s" % n)) * 8 for n, _ in segments]
    seconds = sum(d for _, d in segments)
    return sum(bits) / seconds, max(b / d for b, (_, d) in zip(bits, segments) if d > 0)


def command_ladder(arguments):
    root = ElementTree.parse(os.path.join(arguments.directory, "manifest.mpd")).getroot()
    video, sound = [], []
    for adaptation in root.iter(NAMESPACE + "AdaptationSet"):
        kind = adaptation.get("contentType") or adaptation.get("mimeType", "").split("/")[0]
        for representation in adaptation.findall(NAMESPACE + "Representation"):
            template = representation.find(NAMESPACE + "SegmentTemplate")
            if template is None:
                template = adaptation.find(NAMESPACE + "SegmentTemplate")
            (video if kind == "video" else sound).append(("v" + representation.get("id"), timeline(template)))
    sound_average, sound_peak = rates(arguments.directory, *sound[0]) if sound else (0.0, 0.0)
    variants = {}
    for name, segments in sorted(video, key=lambda entry: int(entry[0][1:])):
        average, peak = rates(arguments.directory, name, segments)
        variants[name] = {"average": int(average + sound_average), "peak": int(peak + sound_peak),
                          "durations": [d for _, d in segments]}
    first = video[0][1][0][0]
    with open(os.path.join(arguments.directory, "ladder.json"), "w") as handle:
        json.dump({"firstNumber": first, "segment": "seg%02d.m4s", "variants": variants}, handle)


def command_rows(arguments):
    runs = []
    for path in arguments.files:
        with open(path) as handle:
            runs.append(json.load(handle))
    labels = {"playhead": "playhead, HLS ladder", "playhead-dash": "playhead, DASH ladder",
              "mpv-dash": "mpv, DASH manifest"}
    lines = ["| Trace | Player | Mean played Mbit/s | Stalls (s) | Switches | Startup s | QoE per segment | Played variants |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    traces = []
    for run in runs:
        if run["trace"] not in traces:
            traces.append(run["trace"])
    for trace in traces:
        for name in labels:
            run = next((r for r in runs if r["trace"] == trace and r["name"] == name), None)
            if not run:
                continue
            stopped = "" if run["finished"] else " (stopped after %d s at segment %d of %d)" % (
                run["wall"], run["segmentsPlayed"], run["segments"])
            reported = run.get("reported", True)
            if not reported:
                stopped += " (the player wrote no stall figures)"
            stalls = "%d (%.2f)" % (run["stalls"], run["stallSeconds"]) if reported else "unknown"
            lines.append("| `%s` | %s | %.2f | %s | %d | %.2f | %s | %s |" % (
                trace, labels[name], run["meanMbit"], stalls, run["switches"], run["startup"],
                "%.2f" % run["qoe"] if reported else "—", qoe_figures.compress(run["variants"]) + stopped))
    print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ladder = sub.add_parser("ladder")
    ladder.add_argument("directory")
    rows = sub.add_parser("rows")
    rows.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    {"ladder": command_ladder, "rows": command_rows}[arguments.command](arguments)


if __name__ == "__main__":
    sys.exit(main())
