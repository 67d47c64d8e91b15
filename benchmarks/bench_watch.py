"""``pychessdraw watch`` on a live round: 64 boards, one move per board per
second, in a file rewritten whole at every move (as DGT LiveChess does),
each move with a ``[%clk]`` comment. Prints, for each ``--interval``, the
latency from a change of the file to the watch having printed its events
(p50, p95, max: the wait for the next read included), the time to follow
one new text once read (parse of what changed, referee work, output; the
first, which replays every game to its start ply, apart), and the CPU the
watch takes (its thread's CPU time over the run's wall time).

    python benchmarks/bench_watch.py [--boards 64] [--seconds 15] [--intervals 0.25,1,2] [--pgn FILE] [--http]

The watch runs in this process on the CLI's own path (FileSource, ticks,
Tracker.update, one JSON line per event to /dev/null); the writer is a
thread of this process, so its CPU is not counted. ``--http``: the round
is served on loopback (ETag, 304 when unchanged) and read by HttpSource. The games are the
first ``--boards`` games of the TCEC corpus with at least 120 plies,
started at ply 40; figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pychessdraw.pgn import read_games  # noqa: E402
from pychessdraw.batch.watch import FileSource, HttpSource, ticks  # noqa: E402
from pychessdraw.records.tracker import Tracker  # noqa: E402

DEFAULT_PGN = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tcec-dev.pgn"
START_PLY = 40


def render(games: list[tuple[dict[str, str], list[str]]], plies: list[int]) -> str:
    parts = []
    for (headers, tokens), n in zip(games, plies):
        tags = "".join(f'[{k} "{v}"]\n' for k, v in headers.items() if k != "Result")
        moves = " ".join(f"{t} {{[%clk 1:{59 - i % 60:02d}:00]}}" for i, t in enumerate(tokens[:n]))
        parts.append(f'{tags}[Result "*"]\n\n{moves} *\n\n')
    return "".join(parts)


class Writer(threading.Thread):
    """Rewrites the file at one move per board per second, round robin;
    ``written[v]`` is when version ``v`` (v moves made) was in place."""

    def __init__(self, path: str, games: list[tuple[dict[str, str], list[str]]], seconds: float) -> None:
        super().__init__(daemon=True)
        self.path, self.games, self.seconds = path, games, seconds
        self.plies = [START_PLY] * len(games)
        self.written: list[float] = []
        self.texts: dict[str, int] = {}
        self.body, self.version = b"", 0  # what the loopback server serves
        self.done = threading.Event()

    def write(self, version: int) -> None:
        text = render(self.games, self.plies)
        self.texts[text] = version
        tmp = self.path + ".tmp"
        with open(tmp, "w") as handle:
            handle.write(text)
        self.written.append(time.perf_counter())  # before it is in place: a reader never misses it
        os.replace(tmp, self.path)  # whole, as a relay publishes it
        self.body, self.version = text.encode(), version

    def run(self) -> None:
        step = 1.0 / len(self.games)
        start = time.perf_counter()
        version = 0
        while time.perf_counter() - start < self.seconds:
            version += 1
            self.plies[(version - 1) % len(self.games)] += 1
            time.sleep(max(0.0, start + version * step - time.perf_counter()))
            self.write(version)
        self.done.set()


def serve(writer: Writer, headers: tuple[tuple[str, str], ...] = ()) -> ThreadingHTTPServer:
    """The round on loopback; ``headers`` are sent with every answer
    (bench_arbiter.py adds CORS's, for the page)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body, etag = writer.body, f'"{writer.version}"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.extra()
                self.end_headers()
                return
            self.send_response(200)
            self.extra()
            self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def extra(self) -> None:
            for name, value in headers:
                self.send_header(name, value)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(games: list[tuple[dict[str, str], list[str]]], seconds: float, interval: float, http: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "live.pgn")
        writer = Writer(path, games, seconds)
        writer.write(0)
        tracker, out = Tracker(), open(os.devnull, "w")
        server = serve(writer) if http else None
        source = FileSource(path) if server is None else HttpSource(f"http://127.0.0.1:{server.server_port}/")
        writer.start()
        latencies: list[float] = []
        reads: list[float] = []
        last = 0  # version 0 is the round as it stood at the start: its read is the start-up
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        for text in ticks(source, interval, lambda m: print(m, file=sys.stderr)):
            began = time.perf_counter()
            for event in tracker.update(text):
                out.write(json.dumps(event) + "\n")
            out.flush()
            done = time.perf_counter()
            reads.append(done - began)
            version = writer.texts.get(text, last)
            latencies += [done - writer.written[v] for v in range(last + 1, version + 1)]
            last = max(last, version)
            if writer.done.is_set():
                break
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        out.close()
        if server is not None:
            server.shutdown()
            server.server_close()
    q = statistics.quantiles(latencies, n=20)
    return {
        "changes": len(latencies),
        "reads": len(reads),
        "p50": statistics.median(latencies),
        "p95": q[18],
        "max": max(latencies),
        "first": reads[0],
        "read_p50": statistics.median(reads[1:]),
        "read_p95": statistics.quantiles(reads[1:], n=20)[18],
        "cpu": cpu / wall,
        "plies": tracker.plies_pushed,
        "bytes": len(text),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--intervals", default="0.25,1,2")
    parser.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    parser.add_argument("--http", action="store_true", help="read the round from a loopback HTTP server")
    args = parser.parse_args()
    if not args.pgn.exists():
        print(f"corpus not found: {args.pgn} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    with open(args.pgn) as handle:
        long = ((g.headers, g.tokens) for g in read_games(handle) if len(g.tokens) >= 120)
        games = [next(long) for _ in range(args.boards)]
    print(
        f"{args.boards} boards, one move per board per second, {args.seconds:g} s per run, "
        f"games from {args.pgn.name} started at ply {START_PLY}, "
        f"{'a loopback URL' if args.http else 'a file'} rewritten at every move"
    )
    for interval in (float(x) for x in args.intervals.split(",")):
        r = run(games, args.seconds, interval, args.http)
        print(
            f"--interval {interval:g}: change -> events printed p50 {r['p50'] * 1000:.0f} ms, "
            f"p95 {r['p95'] * 1000:.0f} ms, max {r['max'] * 1000:.0f} ms ({r['changes']:.0f} changes, "
            f"{r['reads']:.0f} reads); following one text p50 {r['read_p50'] * 1000:.1f} ms, p95 "
            f"{r['read_p95'] * 1000:.1f} ms ({r['bytes'] / 1e3:.0f} kB), the first (start-up, "
            f"{args.boards * START_PLY} plies) {r['first'] * 1000:.0f} ms; CPU {r['cpu'] * 100:.1f}% of a core; "
            f"{r['plies']:.0f} plies pushed"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
