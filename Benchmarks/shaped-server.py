#!/usr/bin/env python3
"""Playhead: a loopback HTTP/1.1 file server whose total bandwidth follows a trace, for the
adaptation rows of Benchmarks/compare (issue 17). Benchmark tooling only; binds 127.0.0.1.

The trace is a small text file of `SECONDS MBIT` lines (from that second on, the link carries
MBIT megabits per second; `#` starts a comment). Its clock starts at the first request. All
connections share one bottleneck: every chunk of a response reserves its transmission time on
one link schedule (first come, first served) at the rate in force, and is written when its
slot ends, so parallel downloads share the bandwidth as they would behind one slow link.

Every request is logged as one JSON line (path, start and end seconds on the trace clock,
bytes sent, whether the whole response was sent). The server stops by itself after
--max-seconds.
"""

import argparse
import json
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 4096
TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".m4s": "video/iso.segment",
         ".mp4": "video/mp4"}


class Link:
    """The shared bottleneck: a schedule of transmission slots at the trace's rate."""

    def __init__(self, trace):
        self.trace = trace
        self.lock = threading.Lock()
        self.origin = None
        self.free_at = 0.0

    def clock(self):
        with self.lock:
            if self.origin is None:
                self.origin = time.monotonic()
            return time.monotonic() - self.origin

    def rate(self, at):
        mbit = self.trace[0][1]
        for start, value in self.trace:
            if start <= at:
                mbit = value
        return max(mbit, 0.001) * 1e6

    def reserve(self, size):
        """Seconds on the trace clock when a chunk of `size` bytes has crossed the link."""
        now = self.clock()
        with self.lock:
            begin = max(self.free_at, now)
            self.free_at = begin + size * 8 / self.rate(begin)
            return self.free_at


def read_trace(path):
    points = []
    with open(path) as handle:
        for line in handle:
            line = line.split("#")[0].strip()
            if line:
                seconds, mbit = line.split()[:2]
                points.append((float(seconds), float(mbit)))
    if not points:
        raise SystemExit("shaped-server: empty trace %s" % path)
    return sorted(points)


def make_handler(root, link, log):
    log_lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def record(self, entry):
            with log_lock:
                log.write(json.dumps(entry) + "\n")
                log.flush()

        def do_GET(self):
            start = link.clock()
            path = self.path.split("?")[0]
            full = os.path.realpath(os.path.join(root, path.lstrip("/")))
            if not full.startswith(root + os.sep) or not os.path.isfile(full):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                self.record({"path": path, "start": round(start, 4), "end": round(link.clock(), 4),
                             "status": 404, "sent": 0, "length": 0, "complete": True})
                return
            with open(full, "rb") as handle:
                data = handle.read()
            first, last, status = 0, len(data) - 1, 200
            match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "") or "")
            if match and (match.group(1) or match.group(2)):
                if match.group(1):
                    first = int(match.group(1))
                    if match.group(2):
                        last = min(int(match.group(2)), len(data) - 1)
                else:
                    first = max(len(data) - int(match.group(2)), 0)
                status = 206
            body = data[first:last + 1]
            self.send_response(status)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Accept-Ranges", "bytes")
            if status == 206:
                self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, len(data)))
            self.end_headers()
            sent = 0
            try:
                while sent < len(body):
                    piece = body[sent:sent + CHUNK]
                    due = link.reserve(len(piece))
                    delay = due - link.clock()
                    if delay > 0:
                        time.sleep(delay)
                    self.wfile.write(piece)
                    sent += len(piece)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                self.close_connection = True
            self.record({"path": path, "start": round(start, 4), "end": round(link.clock(), 4),
                         "status": status, "sent": sent, "length": len(body),
                         "complete": sent == len(body), "range": status == 206})

        def do_HEAD(self):
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--trace", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--max-seconds", type=float, default=300)
    arguments = parser.parse_args()
    link = Link(read_trace(arguments.trace))
    root = os.path.realpath(arguments.root)
    with open(arguments.log, "w") as log:
        server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(root, link, log))
        server.daemon_threads = True
        timer = threading.Timer(arguments.max_seconds, server.shutdown)
        timer.daemon = True
        timer.start()
        with open(arguments.port_file + ".tmp", "w") as handle:
            handle.write(str(server.server_address[1]))
        os.replace(arguments.port_file + ".tmp", arguments.port_file)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def stop(*_):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    sys.exit(main())
