# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark of the pure search on random legal positions of at most five men.

Each position (two to five men, either side to move; ``tests/test_deadposition_small.py``
draws its sample with the same function) is asked "can White
mate?" and "can Black mate?" with a node budget (``--nodes``, the answers
do not depend on the load).  Prints the decided share, the median, p95
and worst CPU time of a question (the process's: wall time moves with the
machine's load), how many took over 10 ms, and with
``--check`` replays every "can mate" line in python-chess; with ``--cha``
(CHA's binary) asks CHA the same questions in one process and prints the
disagreements where CHA decides, and the ratio of the two total times.

``--trees A,B`` runs the questions in each source tree in turn (a
subprocess with ``PYTHONPATH`` set to it, ``--rounds`` times, alternately)
and prints the ratio of their total times, the second over the first:

    python benchmarks/bench_small.py --positions 2000 --trees ../another-checkout,.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import chess

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


def random_small_position(rng: random.Random) -> chess.Board:
    """A random legal position of two to five men, either side to move."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 5)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2 : 2 + rng.randrange(0, 4)]:
            piece = rng.choice(PIECES)
            if piece == chess.PAWN and chess.square_rank(square) in (0, 7):
                piece = chess.KNIGHT
            board.set_piece_at(square, chess.Piece(piece, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def questions(count: int, seed: int) -> list[tuple[chess.Board, chess.Color]]:
    rng = random.Random(seed)
    return [(board, color) for board in (random_small_position(rng) for _ in range(count)) for color in chess.COLORS]


def ask_all(asked: list[tuple[chess.Board, chess.Color]], nodes: int) -> list[tuple[bool | None, float, object]]:
    """Each question's answer, CPU seconds and line, by the search imported
    here (CPU time: the machine is shared, and wall time moves with its load)."""
    os.environ.setdefault("PYCHESSDRAW_PURE", "1")
    from pychessdraw.deadposition.solver import can_checkmate

    out = []
    for board, color in asked:
        start = time.process_time()
        verdict = can_checkmate(board, color, nodes=nodes)
        out.append((verdict.winnable, time.process_time() - start, verdict.line))
    return out


def cha_answers(cha: str, asked: list[tuple[chess.Board, chess.Color]]) -> tuple[list[bool | None], float]:
    """CHA's answers (True, False, None: undetermined) and its CPU seconds
    (the whole process's, start-up included)."""
    lines = [f"{board.fen()} {'white' if color else 'black'}" for board, color in asked]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([cha], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    said: dict[str, bool] = {}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("winnable", "unwinnable") and rest.endswith(")") and "(" in rest:
            said[rest[rest.rindex("(") + 1 : -1]] = word == "winnable"
    return [said.get(question) for question in lines], seconds


def report(asked: list[tuple[chess.Board, chess.Color]], got: list[tuple[bool | None, float, object]]) -> float:
    times = sorted(t for _, t, _ in got)
    decided = sum(w is not None for w, _, _ in got)
    total = sum(times)
    print(
        f"{len(asked)} questions: {decided / len(asked):.2%} decided; "
        f"median {statistics.median(times) * 1e3:.2f} ms, p95 {times[int(0.95 * len(times))] * 1e3:.2f} ms, "
        f"worst {times[-1] * 1e3:.1f} ms; {sum(t > 0.01 for t in times)} over 10 ms; total {total:.2f} s"
    )
    return total


def check_lines(asked: list[tuple[chess.Board, chess.Color]], got: list[tuple[bool | None, float, object]]) -> None:
    from pychessdraw.deadposition.verify import verify_line

    bad = [b.fen() for (b, c), (w, _, line) in zip(asked, got, strict=True) if w and not verify_line(b, c, line)]
    print(f"lines replayed by python-chess: {sum(bool(w) for w, _, _ in got)}, refused: {len(bad)} {bad[:5]}")


def run_trees(args: argparse.Namespace) -> None:
    trees = [str(Path(t).resolve()) for t in args.trees.split(",")]
    totals: dict[str, float] = dict.fromkeys(trees, 0.0)
    for _ in range(args.rounds):
        for tree in trees:
            env = {**os.environ, "PYTHONPATH": tree, "PYCHESSDRAW_PURE": "1"}
            command = [sys.executable, __file__, "--positions", str(args.positions), "--seed", str(args.seed)]
            command += ["--nodes", str(args.nodes), "--json"]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd="/")
            result = json.loads(done.stdout.splitlines()[-1])
            totals[tree] += result["total"]
            print(f"{tree}: total {result['total']:.2f} s, over 10 ms {result['over']}, undecided {result['open']}")
    first, second = trees[0], trees[1]
    print(f"ratio {second} / {first}: {totals[second] / totals[first]:.3f} ({args.rounds} rounds)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--check", action="store_true", help="replay every line in python-chess")
    ap.add_argument("--cha", help="CHA's binary: its answers and time, compared")
    ap.add_argument("--trees", help="two source trees, comma-separated: the ratio of their times")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.trees:
        run_trees(args)
        return
    asked = questions(args.positions, args.seed)
    got = ask_all(asked, args.nodes)
    if args.json:
        times = [t for _, t, _ in got]
        over, undecided = sum(t > 0.01 for t in times), sum(w is None for w, _, _ in got)
        print(json.dumps({"total": sum(times), "over": over, "open": undecided}))
        return
    total = report(asked, got)
    if args.check:
        check_lines(asked, got)
    if args.cha:
        theirs, seconds = cha_answers(args.cha, asked)
        differ = [
            (b.fen(), c, w, t)
            for (b, c), (w, _, _), t in zip(asked, got, theirs, strict=True)
            if t is not None and w is not None and w != t
        ]
        print(f"CHA: {sum(t is not None for t in theirs)} decided, {seconds:.2f} s; disagreements {len(differ)}")
        for row in differ[:10]:
            print("  ", row)
        print(f"pure / CHA time: {total / seconds:.1f}")


if __name__ == "__main__":
    main()
