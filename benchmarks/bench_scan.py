"""Scan speed: pychessdraw's scan against a python-chess loop doing the same
per-ply work (``board.outcome(claim_draw=True)`` and
``has_insufficient_material`` for both sides after each move), on the same
games in the same process. Prints plies per second and the ratios: the
per-ply work, the default scan (``--search auto``: deep search only where
it can change a verdict), ``--search deep`` (every final position, both
sides), and the previous release's default scan (which was ``deep``),
extracted from git at run time (``benchmarks/previous.py``).

    python benchmarks/bench_scan.py [--games N] [--pgn FILE] [--no-previous]

Also prints the cost of one status at short and long game lengths, to show it
does not grow with the length of the game.
"""

from __future__ import annotations

import argparse
import io
import itertools
import statistics
import sys
import time
from pathlib import Path

import chess
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import previous  # noqa: E402

from pychessdraw import Game
from pychessdraw.records.final_search import AUTO
from pychessdraw.rules import dead
from pychessdraw.records.scan import scan

DEFAULT_PGN = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tcec-dev.pgn"


def first_games_text(path: Path, games: int) -> str:
    out, count = [], 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("[Event ") and count == games:
                break
            if line.startswith("[Event "):
                count += 1
            out.append(line)
    return "".join(out)


def python_chess_loop(text: str) -> int:
    plies = 0
    handle = io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            board.outcome(claim_draw=True)
            board.has_insufficient_material(chess.WHITE)
            board.has_insufficient_material(chess.BLACK)
            plies += 1
    return plies


def pychessdraw_scan(text: str) -> int:
    """The per-ply referee work python-chess's loop also does (every ply gets
    the static dead-position proofs; the final position is not searched)."""
    return sum(report["plies"] for report in scan(io.StringIO(text), final_search=dead.STATIC))


def pychessdraw_scan_auto(text: str) -> int:
    """``pychessdraw scan`` as run by default: the final position searched
    deeply only where the answer can change the verdict."""
    return sum(report["plies"] for report in scan(io.StringIO(text), final_search=AUTO))


def previous_scan_default(text: str) -> int:
    """The previous release's ``scan`` as it ran by default (deep search of
    every final position)."""
    old_scan = previous.load("scan")
    old_dead = previous.load("rules.dead")
    return sum(report["plies"] for report in old_scan.scan(io.StringIO(text), final_search=old_dead.DEEP))


def pychessdraw_scan_deep(text: str) -> int:
    """``pychessdraw scan --search deep``: the final position of every game
    also searched for dead positions and flag falls, both sides (about 1 s
    a side at most)."""
    return sum(report["plies"] for report in scan(io.StringIO(text), final_search=dead.DEEP))


def timed(fn, text: str) -> tuple[float, int]:
    start = time.perf_counter()
    plies = fn(text)
    return time.perf_counter() - start, plies


def status_cost(plies: int, repeat: int = 200) -> float:
    """Microseconds for one status after a game of ``plies`` plies: knight
    shuffles, with a pawn move for each side every 12 plies so that neither
    fivefold nor the 75-move rule ends it."""
    game = Game()
    shuffle = itertools.cycle(["Nf3", "Nf6", "Ng1", "Ng8"])
    white = ["a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3", "e4", "h3", "h4", "g3", "g4"]
    black = ["a6", "a5", "b6", "b5", "c6", "c5", "d6", "d5", "e6", "e5", "h6", "h5", "g6", "g5"]
    pawns = iter([m for pair in zip(white, black) for m in pair])
    while game.ply < plies:
        game.play(next(pawns) if game.ply % 12 in (10, 11) else next(shuffle))
    # A status is cached per ply: take the last move back and play it again
    # (public calls) before each one, and subtract what that alone costs.
    last = game.last_move
    assert last is not None
    start = time.perf_counter()
    for _ in range(repeat):
        game.undo()
        game.push(last)
        game.status()
    with_status = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        game.undo()
        game.push(last)
    return (with_status - (time.perf_counter() - start)) / repeat * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--pgn", type=Path, default=DEFAULT_PGN)
    parser.add_argument("--rounds", type=int, default=3, help="best of N for each side")
    parser.add_argument("--no-previous", action="store_true", help="skip the previous release's scan")
    args = parser.parse_args()
    if not args.pgn.exists():
        print(f"corpus not found: {args.pgn} (it lives in ../shared beside the checkout)", file=sys.stderr)
        return 1
    text = first_games_text(args.pgn, args.games)
    runs: dict[str, list[tuple[float, int]]] = {"static": [], "loop": [], "auto": []}
    for _ in range(args.rounds):  # interleaved, so that machine noise hits all
        runs["static"].append(timed(pychessdraw_scan, text))
        runs["loop"].append(timed(python_chess_loop, text))
        runs["auto"].append(timed(pychessdraw_scan_auto, text))
    t_ours, plies = min(runs["static"])
    t_theirs, plies_theirs = min(runs["loop"])
    t_auto, _ = min(runs["auto"])
    t_deep, _ = timed(pychessdraw_scan_deep, text)
    assert plies == plies_theirs, (plies, plies_theirs)
    print(f"games: {args.games}, plies: {plies}")
    print(f"pychessdraw scan, per ply:  {t_ours:7.2f} s  {plies / t_ours:9,.0f} plies/s")
    print(f"python-chess loop:          {t_theirs:7.2f} s  {plies / t_theirs:9,.0f} plies/s")
    print(f"speed-up:                   {t_theirs / t_ours:7.1f}x")
    print(
        f"scan as run by default:     {t_auto:7.2f} s  {plies / t_auto:9,.0f} plies/s  "
        f"({t_theirs / t_auto:.1f}x the python-chess loop; --search auto)"
    )
    print(
        f"scan --search deep:         {t_deep:7.2f} s  ({(t_deep - t_ours) / args.games * 1e3:.1f} ms a game "
        f"for the final position; {t_theirs / t_deep:.1f}x the python-chess loop)"
    )
    if not args.no_previous:
        t_prev, _ = timed(previous_scan_default, text)
        print(
            f"previous release, default:  {t_prev:7.2f} s  ({t_theirs / t_prev:.1f}x the python-chess loop; "
            f"the default scan is now {t_prev / t_auto:.1f}x faster)"
        )
    for n in (20, 80, 160):
        print(f"status at ply {n:3d}:          {status_cost(n):7.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
