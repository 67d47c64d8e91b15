#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's dead-position check in the browser:
after every move of real games, are both sides decided within the page's
budget, and how long does a position take, in Pyodide in Chromium against
CPython on the same positions in the same run.

    python benchmarks/bench_page_dead.py [--games 5] [--seed 1] [--no-build] [--dist DIR]

The positions are those of ``bench_deadposition.py --page N``: the position
after every move of ``--games`` random tcec-dev games (``--seed``) and of the
first ``--games`` lichess-dev games (../shared/corpus). Each is asked as the
page asks it after a move, ``rules.dead.verdicts(board, PAGE)`` (200,000
nodes and 15 ms a side), timed with ``time.perf_counter`` around that call
only, in Python, by ``measure`` below:

  Pyodide  web/bench/page-dead.html (served beside the built site by
           web/serve.py, not part of the public site) starts a module worker
           that boots Pyodide from dist/pyodide/ and unpacks the wheels the app
           ships (dist/boot.json's list), as the app's worker does when it has
           no snapshot; the driver sends it the source of ``measure`` and the
           FENs, in chunks. Headless Chromium (/usr/bin/chromium through
           Playwright, as web_bench.py launches it), one page, no throttling.
  CPython  the same ``measure`` in this process, after the browser has closed.

Then the same again with FACTOR (2,000 nodes a side and no clock): both
runtimes do the same work, so the ratio of their times is the interpreter's
speed factor (under the page's wall-clock budget the slower one stops earlier
and does less, so the ratios of that table mix speed with giving up).

It prints, per budget, per corpus and runtime: positions, the share with both
sides decided, the share of questions (sides) decided, the median / p95 /
worst milliseconds of a position (both sides), "wrong" (both sides proven
unable to mate before a game's last move, which the corpus rules out), then
the Pyodide/CPython ratios of the medians, p95s and total times, the shares
"not decided yet" (a side or both) and "disagree": positions where one
runtime answers True and the other False for a side (must be 0; an undecided
side is no disagreement). Then the page's whole budget: where its first ask
leaves a side open, the page asks again a moment later with more
(``pychessdraw.web.bridge.LEVELS``: 80 ms, 0.3 s, then 1 s a side), until
both sides are decided; per corpus and runtime, how many positions the
first ask left open, which later ask decided them, how many none did, the
share with both sides decided in the end, and the p95 and worst time to
that verdict (the searches alone, without the page's pauses between them).
Last, per runtime: of the positions the page's
budget left undecided, how many the clock-free run decides in under 15 ms
(both sides together): those were stopped by the clock (the machine's load,
or the time shares of the search's phases), not by their difficulty. The
shipped pychessdraw and python-chess are
checked to be the same source as this checkout's (a digest of their .py
files): a stale --no-build site says so.

Limits: the 15 ms budget is wall-clock, so a loaded machine decides less (on
the shared 2-core machine the page's table moves by several points from run
to run): the load average is printed at the start and the end; the FACTOR
table does not depend on it for its shares. The CPython here is the venv's
(3.11), Pyodide's is 3.14: the factor is of the two runtimes as shipped, not
of wasm alone. Chromium gives a page that is not cross-origin isolated a clock
rounded to 0.1 ms (web/serve.py sends no COOP/COEP headers), which blurs only
the smallest times. No warm-up is discarded (a player's first moves see the
same). With a load average of 3 to 4 on 2 cores, --games 5 (841 positions)
takes about 25 s and --games 20 (3,943 positions) about 70 s, with a
cached build (about 10 s). Exit status 0 unless the page fails to start.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import bench_deadposition as deadbench  # noqa: E402  (the games and the percentile of --page)
import web_bench  # noqa: E402  (the build, web/serve.py, Chromium)

from pychessdraw.rules.dead import PAGE, SearchBudget  # noqa: E402
from pychessdraw.web.bridge import LEVELS  # noqa: E402

# Per position: milliseconds (both sides), white's and black's answer.
Result = tuple[float, bool | None, bool | None]
# fens, nodes, seconds -> a Result per FEN: measure() here or in the worker
Runner = Callable[[list[str], int, float | None], list[Result]]
CHUNK = 100  # positions per message to the worker: a few seconds each at most
# The speed factor: the same work in both runtimes needs a node budget and no
# clock (with the clock, a slower runtime stops earlier and does less).
FACTOR = SearchBudget(nodes=2_000)
BUDGETS = {"page": PAGE, "nodes": FACTOR}
# The page's deeper asks: where PAGE leaves a side open, the page asks again
# with each of these in turn (a moment after the last answer: web/src/ctrl.js,
# DEEPER_AFTER_MS) until both sides are decided: the whole of its budget.
DEEPER = LEVELS[1:]
# Per position the first ask left open: ms of the deeper asks (the searches
# alone), and which of them decided both sides (0-based; -1: none).
Deeper = tuple[float, int]


def measure(fens: list[str], nodes: int, seconds: float | None) -> list[tuple[float, bool | None, bool | None]]:
    """Per FEN: ms of ``verdicts(board, SearchBudget(nodes, seconds))`` (both
    sides) and each side's answer. Self-contained: its source is what the
    Pyodide worker runs."""
    import time

    import chess
    from pychessdraw.rules.dead import SearchBudget, verdicts

    budget = SearchBudget(nodes, seconds)
    out = []
    for fen in fens:
        board = chess.Board(fen)
        t = time.perf_counter()
        found = verdicts(board, budget)
        ms = (time.perf_counter() - t) * 1000
        out.append((ms, found[chess.WHITE].winnable, found[chess.BLACK].winnable))
    return out


def measure_deeper(fens: list[str], levels: list[tuple[int, float | None]]) -> list[tuple[float, int]]:
    """Per FEN: ``verdicts`` with each budget of ``levels`` in turn until
    both sides are decided, as the page asks again; the ms of those asks and
    the index of the one that decided (-1: none did). Self-contained, as
    ``measure``."""
    import time

    import chess
    from pychessdraw.rules.dead import SearchBudget, verdicts

    out = []
    for fen in fens:
        board = chess.Board(fen)
        total, decided = 0.0, -1
        for i, (nodes, seconds) in enumerate(levels):
            t = time.perf_counter()
            found = verdicts(board, SearchBudget(nodes, seconds))
            total += (time.perf_counter() - t) * 1000
            if all(v.winnable is not None for v in found.values()):
                decided = i
                break
        out.append((total, decided))
    return out


def package_digest() -> str:
    """A digest of the .py files of pychessdraw and python-chess as imported
    (self-contained: the worker runs it too)."""
    import hashlib
    import pathlib

    import chess
    import pychessdraw

    h = hashlib.sha256()
    for module in (chess, pychessdraw):
        root = pathlib.Path(module.__file__ or "").parent
        for path in sorted(root.rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


PYTHON_SIDE = "\n\n".join(inspect.getsource(f) for f in (measure, measure_deeper, package_digest))
MEASURE_CALL = "import json\njson.dumps(measure(*json.loads(DATA)))"  # DATA: [fens, nodes, seconds]
DEEPER_CALL = "import json\njson.dumps(measure_deeper(*json.loads(DATA)))"  # DATA: [fens, levels]


def corpus_fens(games: int, seed: int) -> dict[str, list[list[str]]]:
    """Per corpus, per game, the FEN after every move: the games of
    ``bench_deadposition.py --page games --seed seed``."""
    tcec = [deadbench._after_each_move(g) for g in deadbench.tcec_games(games, seed)]
    lichess = deadbench.lichess_positions(games)
    return {
        name: [[b.fen() for b in boards] for boards in corpus]
        for name, corpus in (("tcec-dev", tcec), ("lichess", lichess))
    }


def summary(games: list[list[str]], results: list[Result]) -> dict[str, float]:
    """The figures of one corpus in one runtime; ``results`` follow the
    games' positions in order. "wrong": both sides proven unable before a
    game's last position (the corpus has no dead position there)."""
    ms = [r[0] for r in results]
    known = [(w is not None) + (b is not None) for _, w, b in results]
    wrong, at = 0, 0
    for fens in games:
        wrong += sum(results[at + i][1] is False and results[at + i][2] is False for i in range(len(fens) - 1))
        at += len(fens)
    return {
        "positions": len(results),
        "both": sum(k == 2 for k in known) / len(results),
        "questions": sum(known) / (2 * len(results)),
        "median": statistics.median(ms),
        "p95": deadbench.pct(ms, 0.95),
        "worst": max(ms),
        "wrong": wrong,
    }


def disagreements(fens: list[str], a: list[Result], b: list[Result]) -> list[str]:
    """The FENs where, for a side, one runtime answers True and the other False
    (an undecided side is no disagreement)."""
    return [fen for fen, ra, rb in zip(fens, a, b, strict=True) if any({ra[i], rb[i]} == {True, False} for i in (1, 2))]


def left_by_the_clock(runs: dict[str, dict[str, list[Result]]]) -> tuple[int, int]:
    """Positions a side of which PAGE left undecided, and how many of them
    FACTOR (no clock) decided in under PAGE's seconds for both sides."""
    pairs = [(p, f) for name in runs["page"] for p, f in zip(runs["page"][name], runs["nodes"][name], strict=True)]
    left = [f for p, f in pairs if None in p[1:]]
    quick = [f for f in left if None not in f[1:] and f[0] < (PAGE.seconds or 0) * 1000]
    return len(left), len(quick)


def chunked(run: Runner, fens: list[str], budget: SearchBudget, label: str) -> list[Result]:
    """``run`` over ``fens`` in chunks of CHUNK, with progress on stderr."""
    out: list[Result] = []
    t = time.monotonic()
    for start in range(0, len(fens), CHUNK):
        out += [(ms, w, b) for ms, w, b in run(fens[start : start + CHUNK], budget.nodes, budget.seconds)]
        print(f"\r  {label}: {len(out)}/{len(fens)} positions", end="", file=sys.stderr, flush=True)
    print(f" ({time.monotonic() - t:.0f} s)", file=sys.stderr, flush=True)
    return out


DeeperRunner = Callable[[list[str], list[tuple[int, float | None]]], list[Deeper]]


def measure_all(run: Runner, flat: dict[str, list[str]], runtime: str) -> dict[str, dict[str, list[Result]]]:
    """Per budget of BUDGETS, per corpus: ``run`` on every position."""
    return {
        key: {name: chunked(run, fens, budget, f"{key} {name} {runtime}") for name, fens in flat.items()}
        for key, budget in BUDGETS.items()
    }


def deeper_all(
    run: DeeperRunner, flat: dict[str, list[str]], page: dict[str, list[Result]]
) -> dict[str, list[Deeper | None]]:
    """Per corpus, per position: the deeper asks (``run``, DEEPER) where the
    page's first ask (``page``) left a side open; None where it did not."""
    levels = [(b.nodes, b.seconds) for b in DEEPER]
    out: dict[str, list[Deeper | None]] = {}
    for name, fens in flat.items():
        open_at = [i for i, r in enumerate(page[name]) if None in r[1:]]
        found = [tuple(r) for r in run([fens[i] for i in open_at], levels)] if open_at else []
        row: list[Deeper | None] = [None] * len(fens)
        for i, r in zip(open_at, found, strict=True):
            row[i] = (float(r[0]), int(r[1]))
        out[name] = row
    return out


def in_browser(flat: dict[str, list[str]], base: str) -> tuple[dict[str, Any], dict[str, dict[str, list[Result]]]]:
    """Boot web/bench/page-dead.html in headless Chromium: its worker's
    description (with ``deeper_all``'s results under "deeper") and
    ``measure_all`` there."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = web_bench.chromium(p)
        try:
            page = browser.new_page()
            page.goto(base + "page-dead.html")
            page.wait_for_selector("body:not([data-dead=loading])", state="attached", timeout=web_bench.TIMEOUT_MS)
            info: dict[str, Any] = page.evaluate("() => { const { run, ...rest } = window.__dead; return rest; }")
            if info["type"] != "ready":
                raise SystemExit(f"the benchmark page did not start: {info.get('message')}")

            def call(code: str, data: str = "") -> str:
                return str(page.evaluate("([c, d]) => window.__dead.run(c, d)", [code, data]))

            def run(fens: list[str], nodes: int, seconds: float | None) -> list[Result]:
                return [tuple(r) for r in json.loads(call(MEASURE_CALL, json.dumps([fens, nodes, seconds])))]

            def run_deeper(fens: list[str], levels: list[tuple[int, float | None]]) -> list[Deeper]:
                return [tuple(r) for r in json.loads(call(DEEPER_CALL, json.dumps([fens, levels])))]

            info["digest"] = call(PYTHON_SIDE + "\npackage_digest()")
            info["python"] = call("import sys\nsys.version.split()[0]")
            info["chromium"] = browser.version
            runs = measure_all(run, flat, "Pyodide")
            info["deeper"] = deeper_all(run_deeper, flat, runs["page"])
            return info, runs
        finally:
            browser.close()


def report(games: dict[str, list[list[str]]], runs: dict[str, dict[str, list[Result]]]) -> None:
    """One budget's table: per corpus, each runtime, then their ratios and disagreements."""
    print(
        f"{'corpus':<9}{'runtime':<9}{'positions':>10}{'both decided':>14}{'questions':>11}"
        f"{'median ms':>11}{'p95 ms':>9}{'worst ms':>10}{'wrong':>7}"
    )
    for name, corpus in games.items():
        s = {rt: summary(corpus, res[name]) for rt, res in runs.items()}
        for rt, f in s.items():
            print(
                f"{name:<9}{rt:<9}{f['positions']:>10,}{f['both']:>14.2%}{f['questions']:>11.2%}"
                f"{f['median']:>11.2f}{f['p95']:>9.2f}{f['worst']:>10.1f}{f['wrong']:>7}"
            )
        py, cp = runs["Pyodide"][name], runs["CPython"][name]
        bad = disagreements([fen for g in corpus for fen in g], py, cp)
        total = sum(r[0] for r in py) / sum(r[0] for r in cp)
        print(
            f"{name:<9}Pyodide/CPython: median {s['Pyodide']['median'] / s['CPython']['median']:.2f}x, "
            f"p95 {s['Pyodide']['p95'] / s['CPython']['p95']:.2f}x, total time {total:.2f}x; not decided yet "
            f"(a side or both): Pyodide {1 - s['Pyodide']['both']:.2%}, CPython {1 - s['CPython']['both']:.2%}; "
            f"disagree {len(bad)}"
        )
        for fen in bad[:10]:
            print(f"  DISAGREE: {fen}")


def report_deeper(
    games: dict[str, list[list[str]]],
    runs: dict[str, tuple[dict[str, list[Result]], dict[str, list[Deeper | None]]]],
) -> None:
    """The page's whole budget, per corpus and runtime: the positions its
    first ask left open, which deeper ask decided them, the share decided
    in the end, and the time to the verdict (the searches alone)."""
    names = ", ".join(f"{b.seconds * 1000:.0f} ms" if b.seconds else f"{b.nodes:,} nodes" for b in DEEPER)
    print(f"\nthe page's whole budget: where the first ask leaves a side open, it asks again with {names} a side")
    print(
        f"{'corpus':<9}{'runtime':<9}{'open':>6}{'decided by ask 2 / 3 / 4':>26}{'never':>7}"
        f"{'both decided':>14}{'p95 ms':>9}{'worst ms':>10}"
    )
    for name in games:
        for rt, (page, deeper) in runs.items():
            asked = [d for d in deeper[name] if d is not None]
            by = [sum(d[1] == i for d in asked) for i in range(len(DEEPER))]
            never = sum(d[1] < 0 for d in asked)
            total = [r[0] + (d[0] if d is not None else 0.0) for r, d in zip(page[name], deeper[name], strict=True)]
            both = 1 - never / len(total)
            print(
                f"{name:<9}{rt:<9}{len(asked):>6}{' / '.join(map(str, by)):>26}{never:>7}"
                f"{both:>14.2%}{deadbench.pct(total, 0.95):>9.2f}{max(total):>10.1f}"
            )


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5, help="games of each corpus (every position after a move)")
    ap.add_argument("--seed", type=int, default=1, help="which random tcec-dev games (as bench_deadposition)")
    ap.add_argument("--no-build", action="store_true", help="use web/dist as it is (built when missing)")
    ap.add_argument("--dist", type=Path, help="measure this built site instead of web/dist (implies --no-build)")
    a = ap.parse_args()
    if not deadbench.SHARED.exists():
        sys.exit(f"no shared data at {deadbench.SHARED}")
    if a.dist:
        web_bench.DIST, a.no_build = a.dist, True
    if not a.no_build or not (web_bench.DIST / "index.html").exists():
        subprocess.run([sys.executable, str(web_bench.WEB / "build.py")], check=True, stdout=subprocess.DEVNULL)
    games = corpus_fens(a.games, a.seed)
    flat = {name: [fen for g in corpus for fen in g] for name, corpus in games.items()}
    start_load = load()
    srv, base = web_bench.serve_dist(gzip_on=True)
    try:
        info, pyodide = in_browser(flat, base)
    finally:
        srv.shutdown()
    cpython = measure_all(measure, flat, "CPython")
    cpython_deeper = deeper_all(measure_deeper, flat, cpython["page"])
    here = package_digest()

    print(
        f"pychessdraw dead-position check, rules.dead.verdicts, after every move of {a.games} tcec-dev games "
        f"(seed {a.seed}) and the first {a.games} lichess-dev games"
    )
    print(
        f"Pyodide {info['pyodide']} (Python {info['python']}) in headless Chromium {info['chromium']}, module worker "
        f"(booted in {info['boot_ms'] / 1000:.1f} s); CPython {sys.version.split()[0]} in this process"
    )
    same = "yes" if info["digest"] == here else f"NO (site {info['digest']}, here {here}: rebuild the site)"
    print(f"shipped pychessdraw + python-chess source same as this checkout's: {same}")
    print(f"load average (1, 5, 15 min): {start_load} at the start, {load()} at the end; {os.cpu_count()} cores")
    for key, budget in BUDGETS.items():
        clock = f"{budget.seconds * 1000:.0f} ms" if budget.seconds else "no clock"
        what = "the page's budget" if budget == PAGE else "the same work in both (the speed factor)"
        print(f"\n{key}: {budget.nodes:,} nodes and {clock} a side, {what}")
        report(games, {"Pyodide": pyodide[key], "CPython": cpython[key]})
    report_deeper(games, {"Pyodide": (pyodide["page"], info["deeper"]), "CPython": (cpython["page"], cpython_deeper)})
    for runtime, runs in (("Pyodide", pyodide), ("CPython", cpython)):
        left, quick = left_by_the_clock(runs)
        print(
            f"{runtime}: of the {left} positions the page's budget left undecided, {quick} are decided in under "
            f"{(PAGE.seconds or 0) * 1000:.0f} ms for both sides together with no clock ({FACTOR.nodes:,} nodes): "
            "the clock stopped them, not their difficulty"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
