#!/usr/bin/env python3
"""Playhead: what the adaptation rows (issue 17) allow at best on each trace, from the trace alone.

Plays every schedule of at most three runs of one variant each (v3 x 1, v0 x 4, v3 x 25 is one)
with an idealised client that knows the trace in advance: one segment fetched at a time at the
trace's bandwidth (no latency, no overhead), at most 30 s ahead of the playhead, playback from
the first segment's arrival (Playhead's engine starts with 1 s buffered, and a segment is 2 s),
a stall wherever a segment arrives after the playhead reached it. Prints the schedule with the
best linear QoE per segment (the figure of Benchmarks/adaptation-qoe.py, which does not count
startup), the best one without a stall, the best one without a stall that also starts playing
within 1 s (as Playhead does, its first segment on a low variant), and each fixed variant. No causal rule can do better
than these schedules; they only bound what the goals ask.

Usage: Benchmarks/adaptation-bounds.py LADDER_DIR TRACE...
"""

import itertools
import os
import re
import sys

STALL_WEIGHT = 4.3
READ_AHEAD = 30.0


def ladder(directory):
    with open(os.path.join(directory, "master.m3u8")) as handle:
        text = handle.read()
    rungs = []
    for match in re.finditer(r"AVERAGE-BANDWIDTH=(\d+).*\n(v\d+)/index\.m3u8", text):
        name = match.group(2)
        playlist = open(os.path.join(directory, name, "index.m3u8")).read()
        durations = [float(d) for d in re.findall(r"#EXTINF:([\d.]+)", playlist)]
        sizes = [os.path.getsize(os.path.join(directory, name, "seg%02d.ts" % i)) * 8 for i in range(len(durations))]
        rungs.append((name, int(match.group(1)) / 1e6, durations, sizes))
    return rungs


def read_trace(path):
    points = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            seconds, mbit = line.split()[:2]
            points.append((float(seconds), float(mbit) * 1e6))
    return sorted(points)


def arrival(trace, start, bits):
    """When a transfer of `bits` that begins at `start` ends."""
    t = start
    for k, (begin, rate) in enumerate(trace):
        end = trace[k + 1][0] if k + 1 < len(trace) else float("inf")
        if end <= t:
            continue
        span = (end - t) * rate
        if span >= bits:
            return t + bits / rate
        bits -= span
        t = end
    return t


def play(trace, rungs, schedule):
    durations = rungs[0][2]
    starts, ends, arrived = [], [], []
    stall = 0.0
    media = [sum(durations[:i]) for i in range(len(durations) + 1)]
    for i, variant in enumerate(schedule):
        begin = arrived[-1] if arrived else 0.0
        # Wait until the playhead is within READ_AHEAD of this segment's start.
        need = media[i] - READ_AHEAD
        if need > 0:
            j = max(k for k in range(i) if media[k] <= need)
            begin = max(begin, starts[j] + need - media[j])
        arrived.append(arrival(trace, begin, rungs[variant][3][i]))
        if i == 0:
            starts.append(arrived[0])
        else:
            starts.append(max(ends[-1], arrived[i]))
            stall += starts[i] - ends[-1]
        ends.append(starts[i] + durations[i])
    rates = [rungs[v][1] for v in schedule]
    change = sum(abs(b - a) for a, b in zip(rates, rates[1:]))
    mean = sum(r * d for r, d in zip(rates, durations)) / sum(durations)
    return mean - (STALL_WEIGHT * stall + change) / len(schedule), stall, arrived[0]


def schedules(variants, count, most_runs=3):
    """Every schedule of `count` segments made of at most `most_runs` runs of one variant."""
    for runs in range(1, most_runs + 1):
        for cuts in itertools.combinations(range(1, count), runs - 1):
            bounds = (0,) + cuts + (count,)
            for chosen in itertools.product(range(variants), repeat=runs):
                if any(a == b for a, b in zip(chosen, chosen[1:])):
                    continue
                yield [chosen[k] for k in range(runs) for _ in range(bounds[k], bounds[k + 1])]


def main():
    rungs = ladder(sys.argv[1])
    count = len(rungs[0][2])
    for path in sys.argv[2:]:
        trace = read_trace(path)
        best = {}
        for schedule in schedules(len(rungs), count):
            qoe, stall, first = play(trace, rungs, schedule)
            for label, fits in (("best", True), ("best without a stall", stall == 0),
                                ("best without a stall, playing within 1 s", stall == 0 and first <= 1)):
                if fits and (label not in best or qoe > best[label][0]):
                    best[label] = (qoe, stall, schedule)
        name = os.path.basename(path).rsplit(".", 1)[0]
        for label, (qoe, stall, schedule) in best.items():
            names = [rungs[v][0] for v in schedule]
            runs = [(n, len(list(g))) for n, g in itertools.groupby(names)]
            print("%s: %s: QoE per segment %.2f, stall %.2f s, %s" % (
                name, label, qoe, stall, " ".join("%s×%d" % r if r[1] > 1 else r[0] for r in runs)))
        for v in range(len(rungs)):
            qoe, stall, first = play(trace, rungs, [v] * count)
            print("  fixed %s: QoE per segment %.2f, stall %.2f s, first segment at %.2f s" % (
                rungs[v][0], qoe, stall, first))


if __name__ == "__main__":
    main()
