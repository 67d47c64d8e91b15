"""Importing and replaying is linear in the game's length, also past a
fivefold repetition and the 75-move rule (where the halfmove clock keeps
growing and a walk back to the last irreversible move grows with it).
Work is counted, not timed: the lines the package runs."""

from __future__ import annotations

import json
import random
import sys
from types import FrameType
from typing import Any

import chess
import pytest

import pychessdraw
from pychessdraw import Game
from pychessdraw.rules import repetition
from pychessdraw.web.bridge import Bridge

PACKAGE = pychessdraw.__path__[0]


def shuffle(plies: int) -> str:
    """Knights out and back: one position repeated for the whole game."""
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    moves = [(f"{i // 2 + 1}. " if i % 2 == 0 else "") + cycle[i % 4] for i in range(plies)]
    return '[Event "shuffle"]\n[Result "1/2-1/2"]\n\n' + " ".join(moves) + " 1/2-1/2\n"


def lines_run(call: Any) -> int:
    """Lines of the package run by ``call()`` (other code is not traced)."""
    count = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


def load(plies: int) -> None:
    reply = json.loads(Bridge().handle(json.dumps({"id": 1, "op": "load_pgn", "args": {"pgn": shuffle(plies)}})))
    assert reply["ok"], reply


@pytest.mark.parametrize("plies", [250])
def test_importing_a_long_shuffle_costs_work_in_proportion_to_its_length(plies: int) -> None:
    short = lines_run(lambda: load(plies))
    long = lines_run(lambda: load(3 * plies))
    # Three times the plies, three times the work (and a little): the walk back to the
    # last irreversible move made it grow with the square of the length past the 75-move rule.
    assert long < 3.5 * short, (short, long)


def _walked(game: Game) -> list[int]:
    history = game.history()
    return repetition.earlier_plies([e.key for e in history], [e.halfmove_clock for e in history], game.ply)


def test_repetition_counts_from_the_index_are_the_walks() -> None:
    rng = random.Random(5)
    game = Game()
    shuffle_moves = [chess.Move.from_uci(u) for u in ("g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8")]
    for _ in range(900):
        legal = list(game.board.legal_moves)
        if not legal:
            break
        fits = [m for m in shuffle_moves if m in legal]
        game.push(rng.choice(fits) if fits and rng.random() < 0.9 else rng.choice(legal))  # past any ending
        assert game.repetitions() == _walked(game)
        assert game.repetition_count() == 1 + len(_walked(game))
    for _ in range(60):  # the index follows undo
        game.undo()
        assert game.repetition_count() == 1 + len(_walked(game)) and game.repetitions() == _walked(game)
