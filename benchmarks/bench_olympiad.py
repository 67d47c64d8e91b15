"""An Olympiad round, followed by ``pychessdraw watch``'s path and by the
page's Arbiter view: ``--boards`` boards (1,000 by default; games from the
TCEC corpus, used again where it has too few, each with its own players
and ``[Round "1.N"]``), each moving every ``--every`` seconds on average
(30: about 33 moves a second in all, the boards chosen at random, seeded),
served whole on loopback (ETag, 304 when unchanged, CORS) and read every
``--interval`` seconds (2). The text is rewritten with the moves due every
``--batch`` seconds (0.25), each version's time noted when it is in place.

Prints, for ``watch`` (HttpSource, Tracker.update, one JSON line per event
to /dev/null, in this process: its thread's CPU) and for the page
(Chromium from e2e/chromium.py, web/dist as built): change -> events
printed / grid and log shown, p50 and p95 (the wait for the next read
included), a read -> shown (p50, p95), the page's long tasks over 100 ms
(count, longest) and its CPU share (all of Chromium's processes).

    python benchmarks/bench_olympiad.py [--boards 1000] [--seconds 60] [--every 30] [--interval 2] [--only watch|page]
    python benchmarks/bench_olympiad.py --memory 300 [--sample 30] [--only watch|page]

``--memory S``: follow the round for S seconds (30 minutes is 1800) and
print the memory every ``--sample`` seconds: for ``watch``, this process's
resident memory and Python's own allocations (tracemalloc); for the page,
the main thread's JavaScript heap, the grid's elements, the log's rows, and
the resident memory of all of Chromium's processes (the worker's Python
heap, WebAssembly memory, is in it). Then whether it grows: the last third's
mean against the second third's (the first third is the round filling up).

Figures depend on the machine and its load (run it on an idle machine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for extra in (ROOT, HERE, ROOT / "web", ROOT / "e2e"):
    sys.path.insert(0, str(extra))
import bench_arbiter  # noqa: E402
from bench_watch import DEFAULT_PGN, START_PLY, render  # noqa: E402
from pychessdraw.batch.watch import HttpSource, ticks  # noqa: E402
from pychessdraw.pgn import read_games  # noqa: E402
from pychessdraw.records.tracker import Tracker  # noqa: E402

LONG_TASK_MS = 100


class RoundWriter(bench_arbiter.EpochWriter):
    """The round's text, rewritten every ``batch`` seconds with the moves
    due: the round moves at ``boards / every`` moves a second, each move on
    a board chosen at random (so each board moves every ``every`` seconds
    on average). Versions are known by their length (every move lengthens
    the text); no text is kept."""

    def __init__(
        self, path: str, games: list[tuple[dict[str, str], list[str]]], seconds: float, every: float, batch: float
    ) -> None:
        super().__init__(path, games, seconds)
        self.rate, self.batch = len(games) / every, batch
        self.random = random.Random(1)
        self.moves = 0
        self.shown: list[tuple[int, str]] = [(-1, "")] * len(games)  # per board: its plies and its text

    def write(self, version: int) -> None:
        for board, plies in enumerate(self.plies):  # only the boards that moved are rendered again
            if self.shown[board][0] != plies:
                self.shown[board] = (plies, render(self.games[board : board + 1], [plies]))
        text = "".join(piece for _, piece in self.shown)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as handle:
            handle.write(text)
        self.epoch.append(time.time())
        self.written.append(time.perf_counter())
        os.replace(tmp, self.path)
        self.body, self.version = text.encode(), version
        self.by_length[len(text)] = version

    def run(self) -> None:
        start = last = time.perf_counter()
        version, due = 0, 0.0
        while time.perf_counter() - start < self.seconds:
            time.sleep(max(0.0, last + self.batch - time.perf_counter()))
            now = time.perf_counter()
            due += self.rate * (now - last)  # the moves due since the last batch, at the round's rate
            last = now
            n, due = int(due), due - int(due)
            if not n:
                continue
            for board in self.random.sample(range(len(self.games)), min(n, len(self.games))):
                self.plies[board] = min(self.plies[board] + 1, len(self.games[board][1]))
            self.moves += n
            version += 1
            self.write(version)
        self.done.set()


def pick(path: Path, boards: int) -> list[tuple[dict[str, str], list[str]]]:
    """``boards`` games of at least 120 plies, used again where too few, each its own board."""
    with open(path) as handle:
        pool = [(g.headers, g.tokens) for g, _ in zip(read_games(handle), range(5000)) if len(g.tokens) >= 120]
    out = []
    for n in range(1, boards + 1):
        headers, tokens = pool[(n - 1) % len(pool)]
        tags = {"Event": "Olympiad", "Round": f"1.{n}", "White": f"White {n}", "Black": f"Black {n}"}
        out.append(({**{k: v for k, v in headers.items() if k not in tags}, **tags}, tokens))
    return out


def pct(xs: list[float], p: int) -> float:
    return statistics.quantiles(xs, n=100)[p - 1] if len(xs) >= 2 else (xs[0] if xs else float("nan"))


def watch(games: list[tuple[dict[str, str], list[str]]], args: argparse.Namespace) -> dict[str, Any]:
    """watch's own path (HttpSource, ticks, Tracker.update) on the round."""
    with tempfile.TemporaryDirectory() as folder:
        writer = RoundWriter(os.path.join(folder, "live.pgn"), games, args.seconds, args.every, args.batch)
        writer.write(0)
        server = bench_arbiter.serve(writer)
        tracker, out = Tracker(), open(os.devnull, "w")
        latencies: list[float] = []
        reads: list[float] = []
        last, started = 0, False
        cpu0 = wall0 = 0.0
        try:
            for text in ticks(HttpSource(f"http://127.0.0.1:{server.server_port}/"), args.interval, lambda m: None):
                began = time.perf_counter()
                for event in tracker.update(text):
                    out.write(json.dumps(event) + "\n")
                out.flush()
                done = time.perf_counter()
                if not started:  # the round as it stood: start-up, not counted
                    started, cpu0, wall0 = True, time.thread_time(), time.perf_counter()
                    writer.start()
                    continue
                reads.append(done - began)
                version = writer.by_length.get(len(text), last)
                latencies += [done - writer.written[v] for v in range(last + 1, version + 1)]
                last = max(last, version)
                if writer.done.is_set() and last >= len(writer.written) - 1:
                    break
            cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        finally:
            out.close()
            server.shutdown()
            server.server_close()
    return {"changes": len(latencies), "shown": latencies, "work": reads, "cpu": cpu / wall, "moves": writer.moves}


LONG_TASKS = """() => { window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); })
    .observe({ type: "longtask", buffered: false }); }"""


def page(games: list[tuple[dict[str, str], list[str]]], args: argparse.Namespace) -> dict[str, Any]:
    """The page's Arbiter view on the round, in Chromium."""
    import chromium  # e2e/chromium.py
    import serve as site  # web/serve.py
    from playwright.sync_api import sync_playwright

    server = site.make_server(bench_arbiter.DIST, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as folder:
            browser = chromium.launch(p)
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            tab.goto(f"http://127.0.0.1:{server.server_address[1]}/#arbiter")
            tab.get_by_test_id("arbiter-source").wait_for()
            writer = RoundWriter(os.path.join(folder, "live.pgn"), games, args.seconds, args.every, args.batch)
            tab.evaluate(LONG_TASKS)
            r = bench_arbiter.follow(tab, writer, max(1, round(args.interval)))  # the page takes whole seconds
            long = tab.evaluate("() => window.__long")
            browser.close()
    finally:
        server.shutdown()
    return {**r, "long": [d for d in long if d > LONG_TASK_MS], "moves": writer.moves}


def rss_mb(pids: list[int]) -> float:
    """Resident memory of these processes (MB)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as handle:
                total += int(handle.read().split()[1])
        except OSError:
            continue
    return total * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def descendants() -> list[int]:
    """This process's descendants alive now (Chromium's processes)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    me, out = os.getpid(), []
    for pid in parents:
        up = parents.get(pid)
        while up is not None and up not in (0, 1, me):
            up = parents.get(up)
        if up == me:
            out.append(pid)
    return out


def grows(samples: list[float]) -> str:
    """The last third's mean against the second third's, in words."""
    third = len(samples) // 3
    if third < 1:
        return "too few samples to say"
    middle = statistics.mean(samples[third : 2 * third])
    last = statistics.mean(samples[2 * third :])
    change = (last - middle) / middle * 100 if middle else 0.0
    return f"{middle:.1f} -> {last:.1f} ({change:+.1f}%)"


def memory_watch(games: list[tuple[dict[str, str], list[str]]], args: argparse.Namespace) -> None:
    """watch's path for ``--memory`` seconds, its memory every ``--sample`` seconds."""
    import tracemalloc

    tracemalloc.start()
    with tempfile.TemporaryDirectory() as folder:
        writer = RoundWriter(os.path.join(folder, "live.pgn"), games, args.memory, args.every, args.batch)
        writer.write(0)
        server = bench_arbiter.serve(writer)
        tracker, out = Tracker(), open(os.devnull, "w")
        rss: list[float] = []
        per_ply: list[float] = []  # Python's allocations over the plies held: flat when nothing leaks
        started = False
        began = next_at = time.perf_counter()
        try:
            for text in ticks(HttpSource(f"http://127.0.0.1:{server.server_port}/"), args.interval, lambda m: None):
                for event in tracker.update(text):
                    out.write(json.dumps(event) + "\n")
                if not started:  # the round as it stood is read: it moves from now
                    started = True
                    began = next_at = time.perf_counter()
                    writer.start()
                if time.perf_counter() >= next_at:
                    rss.append(rss_mb([os.getpid()]))
                    traced = tracemalloc.get_traced_memory()[0] / (1 << 20)
                    plies = sum(len(board.seen) for board in tracker.boards)
                    per_ply.append(traced * 1024 / max(plies, 1))
                    print(
                        f"watch {time.perf_counter() - began:6.0f} s: resident {rss[-1]:.1f} MB, "
                        f"Python's allocations {traced:.1f} MB for {plies} plies held ({per_ply[-1]:.2f} KB a ply)",
                        flush=True,
                    )
                    next_at += args.sample
                if writer.done.is_set():
                    break
        finally:
            out.close()
            server.shutdown()
            server.server_close()
    print(f"watch: resident memory, second third -> last third: {grows(rss)} MB")
    # the round grows (every move is kept, for take-backs): what must stay flat is the cost of a ply
    print(f"watch: Python's allocations a ply held, second third -> last third: {grows(per_ply)} KB")


HEAP = """() => ({heap: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : NaN,
  cards: document.querySelectorAll('[data-testid=arbiter-board]').length,
  rows: document.querySelectorAll('[data-testid=arbiter-event]').length,
  updates: window.__arbiter ? window.__arbiter.updates.length : 0})"""


def memory_page(games: list[tuple[dict[str, str], list[str]]], args: argparse.Namespace) -> None:
    """The page for ``--memory`` seconds, its memory every ``--sample`` seconds."""
    import chromium  # e2e/chromium.py
    import serve as site  # web/serve.py
    from playwright.sync_api import sync_playwright

    server = site.make_server(bench_arbiter.DIST, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    heap: list[float] = []
    rss: list[float] = []
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as folder:
            browser = chromium.launch(p)
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            tab.goto(f"http://127.0.0.1:{server.server_address[1]}/#arbiter")
            tab.get_by_test_id("arbiter-source").wait_for()
            writer = RoundWriter(os.path.join(folder, "live.pgn"), games, args.memory, args.every, args.batch)
            writer.write(0)
            source = bench_arbiter.serve(writer)
            try:
                tab.get_by_test_id("arbiter-source").fill(f"http://127.0.0.1:{source.server_port}/round.pgn")
                tab.get_by_test_id("arbiter-interval").fill(str(max(1, round(args.interval))))
                tab.get_by_test_id("arbiter-follow").click()
                tab.wait_for_function("() => window.__arbiter && window.__arbiter.applied > 0", timeout=300_000)
                writer.start()
                began = time.perf_counter()
                while not writer.done.is_set():
                    tab.wait_for_timeout(min(args.sample, max(0.0, args.memory - (time.perf_counter() - began))) * 1000)
                    tab.evaluate("() => { if (window.gc) window.gc(); }")
                    m = tab.evaluate(HEAP)
                    heap.append(m["heap"])
                    rss.append(rss_mb(descendants()))
                    print(
                        f"page {time.perf_counter() - began:6.0f} s: JS heap {m['heap']:.1f} MB, Chromium resident "
                        f"{rss[-1]:.0f} MB, {m['cards']} cards, {m['rows']} log rows, {m['updates']} updates",
                        flush=True,
                    )
            finally:
                source.shutdown()
                source.server_close()
            browser.close()
    finally:
        server.shutdown()
    print(f"page: JS heap, second third -> last third: {grows(heap)} MB; Chromium resident: {grows(rss)} MB")


def say(name: str, r: dict[str, Any], interval: float) -> str:
    ms = lambda xs, q: f"{pct(xs, q) * 1000:.0f}"  # noqa: E731
    line = (
        f"{name}: change -> shown p50 {ms(r['shown'], 50)} ms, p95 {ms(r['shown'], 95)} ms "
        f"(goal: at most {interval * 1000 + 500:.0f}); a read -> shown p50 {ms(r['work'], 50)} ms, p95 "
        f"{ms(r['work'], 95)} ms (goal: at most 500); {r['changes']} changes, {r['moves']} moves; "
        f"CPU {r['cpu'] * 100:.0f}% of a core"
    )
    if "long" in r:
        longest = max(r["long"], default=0)
        line += f"; long tasks over {LONG_TASK_MS} ms: {len(r['long'])}, the longest {longest:.0f} ms"
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between a board's moves, on average")
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--batch", type=float, default=0.25)
    parser.add_argument("--only", choices=("watch", "page"))
    parser.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    parser.add_argument("--memory", type=float, default=0.0, help="follow this many seconds, printing the memory")
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between memory samples (--memory)")
    args = parser.parse_args()
    if not args.pgn.exists():
        print(f"corpus not found: {args.pgn} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    if args.only != "watch" and not (bench_arbiter.DIST / "arbiter-worker.js").exists():
        print("web/dist has no arbiter-worker.js: build the site first (make site)", file=sys.stderr)
        return 1
    games = pick(args.pgn, args.boards)
    print(
        f"{args.boards} boards from {args.pgn.name} (started at ply {START_PLY}), each moving every "
        f"{args.every:g} s on average ({args.boards / args.every:.1f} moves a second), rewritten every "
        f"{args.batch:g} s, read every {args.interval:g} s, {args.memory or args.seconds:g} s"
    )
    if args.memory:
        if args.only != "page":
            memory_watch(games, args)
        if args.only != "watch":
            memory_page(games, args)
        return 0
    if args.only != "page":
        print(say("watch", watch(games, args), args.interval), flush=True)
    if args.only != "watch":
        print(say("page", page(games, args), args.interval), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
