"""The page's Arbiter view on a live round: 64 boards, one move per board per
second (each with a ``[%clk]``), served on loopback (ETag, 304 when
unchanged, CORS) and followed by the page in Chromium (Pyodide in the
arbiter's worker, web/dist as built). Prints, for each polling interval,
the latency from a change of the source to the grid and the log updated
(p50, p95, max: the wait for the next read included; "shown" is the DOM
updated, "painted" the next frame after it), the time from the text read
to the grid updated (the worker's Python, the page's DOM), and the CPU
Chromium takes (all its processes: the page, both workers, the GPU and
network processes, over the run's wall time). For the CLI on the same
round, see bench_watch.py.

    python benchmarks/bench_arbiter.py [--boards 64] [--seconds 20] [--intervals 1,2] [--pgn FILE]

Build the site first (web/build.py). The writer and the server are threads
of this process, not counted. Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "web"))
from bench_watch import DEFAULT_PGN, Writer, serve as watch_serve  # noqa: E402
from pychessdraw.pgn import read_games  # noqa: E402

DIST = HERE.parent / "web" / "dist"
BOOT_TIMEOUT_MS = 180_000


class EpochWriter(Writer):
    """bench_watch's writer, with each version's time on the epoch clock (the
    page's clock is compared with it) and its length (a version's text is
    known by its length: every move lengthens it)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.epoch: list[float] = []
        self.by_length: dict[int, int] = {}

    def write(self, version: int) -> None:
        self.epoch.append(time.time())
        super().write(version)
        self.by_length[len(self.body.decode())] = version


def serve(writer: EpochWriter) -> ThreadingHTTPServer:
    """bench_watch's loopback server, readable by the page (CORS)."""
    return watch_serve(writer, (("Access-Control-Allow-Origin", "*"), ("Cache-Control", "no-cache")))


def descendants_cpu() -> float:
    """CPU seconds (user + system) of this process's descendants alive now."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    me, total = os.getpid(), 0.0
    for pid, cpu in times.items():
        up = parents.get(pid)
        while up is not None and up not in (0, 1, me):
            up = parents.get(up)
        if up == me:
            total += cpu
    return total


def pct(xs: list[float], p: int) -> float:
    return statistics.quantiles(xs, n=100)[p - 1] if len(xs) >= 2 else xs[0]


def run(page: Any, games: list[tuple[dict[str, str], list[str]]], seconds: float, interval: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:  # the writer also writes a file (bench_watch's): unread here
        return follow(page, EpochWriter(os.path.join(folder, "live.pgn"), games, seconds), interval)


def follow(page: Any, writer: EpochWriter, interval: int) -> dict[str, Any]:
    writer.write(0)
    server = serve(writer)
    try:
        page.get_by_test_id("arbiter-source").fill(f"http://127.0.0.1:{server.server_port}/round.pgn")
        page.get_by_test_id("arbiter-interval").fill(str(interval))
        before = page.evaluate("() => window.__arbiter ? window.__arbiter.applied : 0")
        page.get_by_test_id("arbiter-follow").click()
        page.wait_for_function(f"() => window.__arbiter.applied > {before}", timeout=BOOT_TIMEOUT_MS)
        skip = page.evaluate("() => window.__arbiter.updates.length")  # the round as it stood: start-up
        cpu0, wall0 = descendants_cpu(), time.perf_counter()
        writer.start()
        writer.done.wait()
        time.sleep(interval + 1.0)  # the last change read and shown
        cpu, wall = descendants_cpu() - cpu0, time.perf_counter() - wall0
        page.get_by_test_id("arbiter-follow").click()  # stop
        updates = page.evaluate("() => [performance.timeOrigin, window.__arbiter.updates]")
    finally:
        server.shutdown()
        server.server_close()
    origin, records = updates
    shown: list[float] = []
    painted: list[float] = []
    work: list[float] = []
    python: list[float] = []
    last = 0
    for rec in records[skip:]:
        version = writer.by_length.get(rec["bytes"])
        if version is None:
            continue
        for v in range(last + 1, version + 1):
            shown.append((origin + rec["shown_at"]) / 1000 - writer.epoch[v])
            if rec["painted_at"]:
                painted.append((origin + rec["painted_at"]) / 1000 - writer.epoch[v])
        last = max(last, version)
        work.append((rec["shown_at"] - rec["text_at"]) / 1000)
        python.append(rec["worker_ms"] / 1000)
    return {
        "changes": len(shown),
        "reads": len(work),
        "shown": shown,
        "painted": painted,
        "work": work,
        "python": python,
        "cpu": cpu / wall,
        "missed": len(writer.epoch) - 1 - last,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--intervals", default="1,2")
    parser.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    args = parser.parse_args()
    if not args.pgn.exists():
        print(f"corpus not found: {args.pgn} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    if not (DIST / "arbiter-worker.js").exists():
        print("web/dist has no arbiter-worker.js: build the site first (python web/build.py)", file=sys.stderr)
        return 1
    with open(args.pgn) as handle:
        long = ((g.headers, g.tokens) for g in read_games(handle) if len(g.tokens) >= 120)
        games = [next(long) for _ in range(args.boards)]
    import serve as site  # web/serve.py
    from playwright.sync_api import sync_playwright

    server = site.make_server(DIST, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(
        f"{args.boards} boards, one move per board per second, {args.seconds:g} s per run, games from "
        f"{args.pgn.name} started at ply 40, a loopback URL rewritten at every move, followed by the page "
        "(Chromium, headless)"
    )
    with sync_playwright() as p:
        exe = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/#arbiter")
        page.get_by_test_id("arbiter-source").wait_for()
        for interval in (int(x) for x in args.intervals.split(",")):
            r = run(page, games, args.seconds, interval)
            ms = lambda xs, q: f"{pct(xs, q) * 1000:.0f}"  # noqa: E731
            print(
                f"interval {interval} s: change -> grid and log shown p50 {ms(r['shown'], 50)} ms, p95 "
                f"{ms(r['shown'], 95)} ms, max {max(r['shown']) * 1000:.0f} ms; painted p50 "
                f"{ms(r['painted'], 50)} ms, p95 {ms(r['painted'], 95)} ms ({r['changes']} changes, "
                f"{r['reads']} reads, {r['missed']} not yet shown); text read -> grid updated p50 "
                f"{ms(r['work'], 50)} ms, p95 {ms(r['work'], 95)} ms, of which Python p50 "
                f"{ms(r['python'], 50)} ms; CPU of Chromium {r['cpu'] * 100:.0f}% of a core"
            )
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
