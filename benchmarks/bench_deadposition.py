# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark of pychessdraw.deadposition on real games and on the hard set.

Prints, per data set and budget: questions per second, decided share,
median / p95 / worst time, and any wrong answer against the labels (hard
set) or against the corpus guarantee that no game position before the last
is dead.  Sample sizes are arguments so a run stays short, e.g.

    python benchmarks/bench_deadposition.py --games 10 --hard 300 --budgets 0.03,1

``--previous`` asks every question of the previous release too (commit
``benchmarks/previous.py`` names, extracted from git at run time), one
question after the other on the same positions, and prints the ratio of
questions decided per second, new over old.

``--page N`` measures the page's budget instead:
after every move of N games of ``tcec-dev`` (random, ``--seed``) and of the
first N of ``lichess-dev``, both sides are asked as the page asks them
(``rules.dead.verdicts`` with ``PAGE``: 200,000 nodes and 15 ms a side);
it prints the share of positions with both sides decided, the share of
questions decided, the median, p95 and worst time of a position (both
sides), under CPython in this process.  The browser runs the same code in
Pyodide, about twice as slowly: ``bench_page_dead.py`` measures the same
questions there, in headless Chromium, against CPython in the same run.  The 15 ms limit is wall-clock, so a loaded machine
decides less: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import chess
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pychessdraw.deadposition import can_checkmate, quick_verdict  # noqa: E402
from pychessdraw.rules.dead import PAGE, verdicts  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def hard_positions(n: int, seed: int) -> list[tuple[str, chess.Board]]:
    """``n`` random labelled positions from the hard set (all when n <= 0)."""
    rows = []
    for line in (SHARED / "dead-positions" / "positions.txt").read_text().splitlines():
        if line.startswith("#") or len(line) < 5:
            continue
        rows.append((line[:2], line[3:].strip()))
    if 0 < n < len(rows):
        rows = random.Random(seed).sample(rows, n)
    return [(label, chess.Board(fen)) for label, fen in rows]


def tcec_games(n: int, seed: int) -> list[chess.pgn.Game]:
    """``n`` random games of the tcec-dev corpus, in file order."""
    path = SHARED / "corpus" / "tcec-dev.pgn"
    offsets = []
    with path.open() as f:
        while True:
            off = f.tell()
            if chess.pgn.read_headers(f) is None:
                break
            offsets.append(off)
        games = []
        for off in sorted(random.Random(seed).sample(offsets, min(n, len(offsets)))):
            f.seek(off)
            game = chess.pgn.read_game(f)
            if game is not None:
                games.append(game)
    return games


def game_positions(n: int, seed: int) -> list[chess.Board]:
    """Every position (every ply) of ``n`` random corpus games."""
    boards = []
    for game in tcec_games(n, seed):
        boards.append(game.board())
        boards += _after_each_move(game)
    return boards


def lichess_positions(n: int) -> list[list[chess.Board]]:
    """Every position after a move of the first ``n`` lichess-dev games, per game."""
    from bench_lichess import lichess_games  # the lichess corpus reader, one for both benchmarks

    games = []
    for number, text in enumerate(lichess_games(SHARED / "corpus" / "lichess-dev.pgn.zst")):
        if number >= n:
            break
        game = chess.pgn.read_game(io.StringIO(text))
        if game is not None:
            games.append(_after_each_move(game))
    return games


def _after_each_move(game: chess.pgn.Game) -> list[chess.Board]:
    board = game.board()
    out = []
    for move in game.mainline_moves():
        board.push(move)
        out.append(board.copy(stack=False))
    return out


def page_budget(name: str, games: list[list[chess.Board]]) -> None:
    """Both sides of every position as the page asks them; no position
    before a game's last may be dead (the corpus guarantee), else WRONG."""
    times, both, decided, questions, wrong = [], 0, 0, 0, 0
    for boards in games:
        for i, board in enumerate(boards):
            t = time.perf_counter()
            found = verdicts(board, PAGE)
            times.append(time.perf_counter() - t)
            known = [v.winnable is not None for v in found.values()]
            both += all(known)
            decided += sum(known)
            questions += len(known)
            if i < len(boards) - 1 and all(v.winnable is False for v in found.values()):
                wrong += 1
                print(f"  WRONG: dead before the game's end: {board.fen()}")
    n = len(times)
    print(
        f"{name:>8} page budget ({PAGE.nodes:,} nodes, {(PAGE.seconds or 0) * 1000:.0f} ms a side): {len(games)} games, "
        f"{n:,} positions; both sides decided {both / n:6.2%}, questions decided {decided / questions:6.2%}; "
        f"a position (both sides): median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {pct(times, 0.95) * 1000:.2f} ms, worst {max(times) * 1000:.1f} ms; wrong {wrong}"
    )


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


Solver = Callable[..., Any]


def run(
    name: str,
    questions: list[tuple[chess.Board, chess.Color, bool | None]],
    budget: float,
    previous: Solver | None = None,
) -> None:
    solvers = [("new", can_checkmate)] + ([("old", previous)] if previous is not None else [])
    times: dict[str, list[float]] = {label: [] for label, _ in solvers}
    decided = {label: 0 for label, _ in solvers}
    wrong = {label: 0 for label, _ in solvers}
    contradictions = 0
    for board, color, truth in questions:
        answers = []
        for label, solve in solvers:  # interleaved: machine noise hits both
            t = time.perf_counter()
            v = solve(board, color, nodes=10**9, seconds=budget)
            times[label].append(time.perf_counter() - t)
            answers.append(v.winnable)
            if v.winnable is not None:
                decided[label] += 1
                if truth is not None and v.winnable != truth:
                    wrong[label] += 1
                    print(
                        f"  WRONG ({label}) {v.winnable} for {'white' if color else 'black'}: {board.fen()} "
                        f"({v.reason})"
                    )
        if None not in answers and len(set(answers)) > 1:
            contradictions += 1
            print(f"  CONTRADICTION {answers} for {'white' if color else 'black'}: {board.fen()}")
    n = len(questions)
    rate = {}
    for label, _ in solvers:
        ts = times[label]
        rate[label] = decided[label] / sum(ts)
        print(
            f"{name:>10} {label} budget {budget * 1000:6.0f} ms: {n} questions, {n / sum(ts):7.1f}/s, "
            f"decided {decided[label] / n:6.1%} ({rate[label]:7.1f} decided/s), "
            f"median {statistics.median(ts) * 1000:6.1f} ms, p95 {pct(ts, 0.95) * 1000:6.1f} ms, "
            f"worst {max(ts) * 1000:7.1f} ms, wrong {wrong[label]}"
        )
    if previous is not None:
        print(
            f"{name:>10} new/old decided per second: {rate['new'] / rate['old']:.2f}x "
            f"(answers contradicting each other: {contradictions})"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5, help="corpus games (every ply of each)")
    ap.add_argument("--hard", type=int, default=200, help="hard-set sample size (0 = all)")
    ap.add_argument("--budgets", default="0.03,1", help="comma-separated seconds per question")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--previous", action="store_true", help="also run the previous release, interleaved")
    ap.add_argument("--every", type=int, default=1, help="real games: every Nth ply only")
    ap.add_argument(
        "--page",
        type=int,
        default=0,
        help="the page's budget after every move of N tcec-dev and N lichess-dev games (instead of the other measures)",
    )
    args = ap.parse_args()
    if args.page:
        print(
            f"CPython {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f}; the Pyodide factor is "
            "not measured here"
        )
        page_budget("tcec-dev", [_after_each_move(g) for g in tcec_games(args.page, args.seed)])
        page_budget("lichess", lichess_positions(args.page))
        return
    previous = None
    if args.previous:
        import previous as previous_release

        previous = previous_release.load("deadposition").can_checkmate
    budgets = [float(x) for x in args.budgets.split(",")]
    if not SHARED.exists():
        sys.exit(f"no shared data at {SHARED}")

    if args.games:
        boards = game_positions(args.games, args.seed)
        t = time.perf_counter()
        quick = [quick_verdict(b, c) for b in boards for c in chess.COLORS]
        dt = time.perf_counter() - t
        qd = sum(v.winnable is not None for v in quick)
        print(
            f"real games: {args.games} games, {len(boards)} positions; quick_verdict "
            f"{dt / len(quick) * 1e6:.1f} us/question, decides {qd}/{len(quick)}"
        )
        # Corpus guarantee: before the last ply no position is dead, so a side
        # proven unable must not be both sides.  Per-side truth is unknown.
        qs = [(b, c, None) for b in boards[:: args.every] for c in chess.COLORS]
        for budget in budgets:
            run("games", qs, budget, previous)

    if args.hard >= 0:
        rows = hard_positions(args.hard, args.seed)
        qs = [(b, c, label[0 if c else 1] != "-") for label, b in rows for c in chess.COLORS]
        for budget in budgets:
            run("hard", qs, budget, previous)
        dead = [(lab, b) for lab, b in rows if lab == "--"]
        t = time.perf_counter()
        kinds: dict[str, int] = {}
        both = 0
        for _, b in dead:
            vs = [can_checkmate(b, c, nodes=10**9, seconds=0.03) for c in chess.COLORS]
            if all(v.winnable is False for v in vs):
                both += 1
                for v in vs:
                    kind = _kind(v.reason)
                    kinds[kind] = kinds.get(kind, 0) + 1
        print(
            f"      hard dead positions proven dead at 30 ms/side: {both}/{len(dead)} "
            f"({time.perf_counter() - t:.1f} s); per-side proofs by kind: {kinds}"
        )


def _kind(reason: str) -> str:
    if "bare king" in reason or "bishops of one colour, nothing" in reason or "lone knight" in reason:
        return "material"
    if "pawns locked" in reason or "escape" in reason or "dead end" in reason:
        return "locked wall (static)"
    if "stalemate" in reason or "checkmated" in reason:
        return "game over"
    return "search"


if __name__ == "__main__":
    main()
