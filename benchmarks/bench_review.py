#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Review speed: the page's review of a PGN file (headless Chromium, the
review's workers in Pyodide, searching as ``scan`` does by default: auto)
against the CLI's ``pychessdraw scan --search auto`` (its default; ``--cli-search
static`` for the faster CLI without the final search) on the same file, on
the same machine, in the same run.

    python benchmarks/bench_review.py [--games N] [--pgn FILE] [--runs R] [--no-build] [--cli-search auto|static]
    python benchmarks/bench_review.py --in-process [--games N] [--pgn FILE]

The file is the first N games of the corpus (default 600) that were not
lost on time (``--keep-time-losses`` keeps them: the goal is stated for
files without losses on time, where the review's auto search has only the
positions that might be dead to search), written to a temporary file. The
CLI runs as a user runs it (a new process, output to /dev/null); its rate is
plies over wall time. The page opens the file with its file input; its rate
is plies over the time from the first chunk sent to the last game shown (the
review's workers already started), and, separately, including the workers'
start on the first review. Goal: the page at least half the CLI's rate.
Runs alternate CLI and page; the best run of each is compared. Then the
page's JSON-lines download is compared with ``pychessdraw scan`` (default
search) on the same file, line by line: the verdicts must be equal.

``--in-process`` needs no browser: it times, in this Python, the review
session the page's workers run (auto, the page's search, and static)
against ``scan --search static`` on the same text, interleaved, best of R:
what the search the page now asks for costs the review, apart from
Pyodide. Figures are printed; the exit status does not depend on them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = WEB / "dist"
DEFAULT_PGN = ROOT.parent / "shared" / "corpus" / "tcec-dev.pgn"
from web_bench import chromium  # noqa: E402 (e2e/chromium.py: the tests' executable and flags)


def first_games(path: Path, games: int, keep_time_losses: bool = False) -> str:
    """The first ``games`` games of ``path`` (those the record says were
    lost on time left out unless ``keep_time_losses``)."""
    from pychessdraw.batch.inputs import open_text
    from pychessdraw.records.scan import lost_on_time

    out: list[str] = []
    game: list[str] = []
    count = 0

    def close() -> None:
        nonlocal count
        tags = dict(TAG.findall("".join(line for line in game if line.startswith("["))))
        if game and (keep_time_losses or lost_on_time(tags) is None):
            out.extend(game)
            count += 1

    with open_text(str(path)) as handle:
        for line in handle:
            if line.startswith("[Event "):
                close()
                game = []
                if count == games:
                    break
            game.append(line)
        else:
            close()
    return "".join(out)


TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')


def compare(page_lines: list[str], path: Path) -> None:
    """The page's JSON-lines download against ``pychessdraw scan`` (its
    default search, auto) on the same file: the same bytes, the same verdicts."""
    proc = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "--no-progress", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    cli_lines = proc.stdout.splitlines()
    differ = [i for i, (a, b) in enumerate(zip(page_lines, cli_lines)) if a != b]
    verdicts = [json.loads(line)["verdict"] for line in page_lines]
    counts = {v: verdicts.count(v) for v in sorted(set(verdicts))}
    print(
        f"page JSON lines vs `pychessdraw scan` (auto): {len(page_lines)} / {len(cli_lines)} lines, "
        f"{len(differ)} differ{' (first: game ' + str(differ[0] + 1) + ')' if differ else ''}; page verdicts {counts}"
    )


def run_cli(path: Path, search: str = "auto") -> tuple[float, int]:
    """Wall seconds of one CLI scan (``--search`` ``search``), and the plies it reported."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "--search", search, "--no-progress", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - t0
    plies = sum(json.loads(line)["plies"] for line in proc.stdout.splitlines())
    return seconds, plies


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--workers", type=int, default=0, help="review workers (default: the page's own choice)")
    ap.add_argument(
        "--page-search",
        choices=["auto", "static"],
        default="auto",
        help="the review's search on the page (auto, its default; static: as it was before)",
    )
    ap.add_argument("--keep-time-losses", action="store_true", help="keep the games lost on time")
    ap.add_argument(
        "--cli-search",
        choices=["auto", "static"],
        default="auto",
        help="the CLI's search (auto, its default and the goal's peer; static: no final search)",
    )
    ap.add_argument("--in-process", action="store_true", help="no browser: the review session in this Python")
    args = ap.parse_args()
    if not args.pgn.exists():
        print(f"{args.pgn} not found: pass --pgn FILE (the corpus lives in ../shared beside the checkout)")
        return 2
    if args.in_process:
        return in_process(first_games(args.pgn, args.games, args.keep_time_losses), args.runs)
    if not args.no_build:
        subprocess.run([sys.executable, str(WEB / "build.py")], check=True, stdout=subprocess.DEVNULL)
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(WEB))
    import serve  # noqa: E402  (web/serve.py)

    srv = serve.make_server(DIST, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_address[1]}/"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.pgn"
        path.write_text(first_games(args.pgn, args.games, args.keep_time_losses), encoding="utf-8")
        size = path.stat().st_size
        cli: list[float] = []
        page: list[dict] = []
        plies = 0
        with sync_playwright() as p:
            browser = chromium(p)
            tab = browser.new_page()
            tab.set_default_timeout(600_000)
            query = [f"review-workers={args.workers}"] if args.workers else []
            if args.page_search != "auto":
                query.append(f"review-search={args.page_search}")
            tab.goto(base + ("?" + "&".join(query) if query else ""))
            tab.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
            for run in range(args.runs):
                seconds, plies = run_cli(path, args.cli_search)
                cli.append(seconds)
                tab.evaluate("() => { window.__review = null; }")
                tab.get_by_test_id("pgn-file").set_input_files(str(path))
                tab.wait_for_function("() => window.__review && window.__review.games > 0", timeout=600_000)
                page.append(tab.evaluate("() => window.__review"))
                print(
                    f"run {run + 1}: CLI {seconds:.2f} s; page {page[-1]['seconds']:.2f} s "
                    f"(+{page[-1]['start_seconds']:.2f} s starting {page[-1]['workers']} worker(s))",
                    flush=True,
                )
            tab.locator("[data-view-tab=review]").click()  # the downloads are in the Review view
            with tab.expect_download() as download:
                tab.get_by_test_id("review-jsonl").click()
            page_lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
            browser.close()
        if args.page_search == "auto":
            compare(page_lines, path)
    srv.shutdown()
    games = page[-1]["games"]
    assert page[-1]["plies"] == plies, (page[-1]["plies"], plies)
    best_cli = min(cli)
    best_page = min(r["seconds"] for r in page)
    first = page[0]["seconds"] + page[0]["start_seconds"]
    cli_rate, page_rate, cold_rate = plies / best_cli, plies / best_page, plies / first
    print(f"\nfile: {games} games, {plies} plies, {size / 1e6:.2f} MB; best of {args.runs}")
    print(f"CLI scan --search {args.cli_search:6} {best_cli:7.2f} s  {cli_rate:9,.0f} plies/s")
    print(
        f"page review ({page[-1]['workers']} workers, {args.page_search}) {best_page:7.2f} s  {page_rate:9,.0f} plies/s"
        f"  ratio {page_rate / cli_rate:.2f} (goal >= 0.5)"
    )
    print(
        f"page, first review with the workers' start {first:7.2f} s  {cold_rate:9,.0f} plies/s"
        f"  ratio {cold_rate / cli_rate:.2f}"
    )
    return 0


def in_process(text: str, runs: int) -> int:
    """Time the review session (as the page's workers run it, one worker)
    with each search against ``scan --search static``, interleaved."""
    sys.path.insert(0, str(ROOT))
    from pychessdraw.web.review import ReviewSession
    from pychessdraw.rules import dead
    from pychessdraw.records.scan import scan

    def review(search: str) -> tuple[int, list[str]]:
        session = ReviewSession(final_search={"auto": "auto", "static": dead.STATIC}[search])
        out = []
        for i in range(0, len(text), 65536):
            out += session.feed(text[i : i + 65536])
        out += session.finish()
        return session.plies, [r["line"] for r in out]

    def cli() -> tuple[int, list[str]]:
        reports = list(scan(text.splitlines(keepends=True), final_search=dead.STATIC))
        return sum(r["plies"] for r in reports), [json.dumps(r) for r in reports]

    jobs = {
        "scan --search static": cli,
        "review, search auto (the page)": lambda: review("auto"),
        "review, search static (the page before)": lambda: review("static"),
    }
    best: dict[str, float] = {}
    lines: dict[str, list[str]] = {}
    plies = 0
    for _ in range(runs):
        for name, job in jobs.items():
            t0 = time.perf_counter()
            plies, lines[name] = job()
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - t0)
    verdicts = {name: [json.loads(line)["verdict"] for line in out] for name, out in lines.items()}
    print(f"{len(verdicts['scan --search static'])} games, {plies} plies; best of {runs}, interleaved")
    base = plies / best["scan --search static"]
    for name, seconds in best.items():
        counts = {v: verdicts[name].count(v) for v in sorted(set(verdicts[name]))}
        print(f"{name:42} {seconds:7.2f} s {plies / seconds:9,.0f} plies/s  {plies / seconds / base:.2f}x  {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
