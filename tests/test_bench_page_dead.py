"""benchmarks/bench_page_dead.py without a browser: the positions it sends,
the Python it sends (it must run on its own, as in the Pyodide worker), and
the figures it prints."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import chess

from pychessdraw.rules.dead import PAGE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_page_dead as bench  # noqa: E402
from bench_deadposition import tcec_games  # noqa: E402

BARE_KINGS = "8/8/4k3/8/8/3K4/8/8 w - - 0 1"
QUEEN = "7k/8/6K1/8/8/8/8/Q7 w - - 0 1"  # white mates at once (Qa8), black cannot


def _one_move_apart(before: str, after: str) -> bool:
    board = chess.Board(before)
    for move in board.legal_moves:
        board.push(move)
        if board.fen() == after:
            return True
        board.pop()
    return False


def test_the_fens_follow_every_move_of_the_games(shared: Callable[..., Path]) -> None:
    shared("corpus", "tcec-dev.pgn")
    shared("corpus", "lichess-dev.pgn.zst")
    games = bench.corpus_fens(2, seed=1)
    assert sorted(games) == ["lichess", "tcec-dev"]
    tcec = tcec_games(2, 1)
    assert [len(g) for g in games["tcec-dev"]] == [len(list(g.mainline_moves())) for g in tcec]
    assert [g[-1] for g in games["tcec-dev"]] == [g.end().board().fen() for g in tcec]
    assert all(_one_move_apart(g.board().fen(), fens[0]) for g, fens in zip(tcec, games["tcec-dev"], strict=True))
    for corpus in games.values():
        assert len(corpus) == 2
        for fens in corpus:
            assert all(_one_move_apart(a, b) for a, b in zip(fens, fens[1:], strict=False))


def test_the_python_sent_to_the_worker_runs_on_its_own() -> None:
    alone: dict[str, object] = {}
    exec(bench.PYTHON_SIDE, alone)  # as the worker does: no module globals
    measure = alone["measure"]
    assert callable(measure)
    # nodes only, no clock: the answers cannot depend on the machine's speed
    answers = [r[1:] for r in measure([BARE_KINGS, QUEEN], PAGE.nodes, None)]
    assert answers == [(False, False), (True, False)]
    assert answers == [r[1:] for r in bench.measure([BARE_KINGS, QUEEN], PAGE.nodes, None)]
    digest = alone["package_digest"]
    assert callable(digest) and digest() == bench.package_digest()


def test_summary_counts_decided_positions_and_wrong_answers_before_the_end() -> None:
    games = [["a", "b", "c"], ["d", "e"]]
    results: list[bench.Result] = [
        (1.0, True, True),
        (2.0, False, False),  # dead before the game's end: wrong
        (3.0, False, False),  # the game's last position: may be dead
        (4.0, None, True),
        (5.0, True, None),  # last of its game, one side undecided
    ]
    s = bench.summary(games, results)
    assert s["positions"] == 5
    assert s["both"] == 3 / 5
    assert s["questions"] == 8 / 10
    assert s["wrong"] == 1
    assert (s["median"], s["worst"]) == (3.0, 5.0)


def test_only_true_against_false_is_a_disagreement() -> None:
    fens = ["w", "b", "none", "same"]
    a: list[bench.Result] = [(1.0, True, None), (1.0, None, False), (1.0, None, None), (1.0, True, False)]
    b: list[bench.Result] = [(1.0, False, None), (1.0, None, True), (1.0, False, True), (1.0, True, False)]
    assert bench.disagreements(fens, a, b) == ["w", "b"]


def test_positions_left_by_the_clock_are_those_the_node_budget_decides_fast() -> None:
    page: list[bench.Result] = [(16.0, True, None), (16.0, None, None), (30.0, None, True), (1.0, True, False)]
    nodes: list[bench.Result] = [(3.0, True, True), (40.0, True, True), (2.0, None, True), (1.0, True, False)]
    # left: the first three; decided fast without the clock: only the first
    assert bench.left_by_the_clock({"page": {"c": page}, "nodes": {"c": nodes}}) == (3, 1)
