"""Draw-evaluation knowledge (can mate still be forced? material drawn in practice): hints,
reported apart from the rules; they never end a game."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game
from pychessdraw.rules.hints import can_force_mate, practical_draw


@pytest.mark.parametrize(
    "fen, white, black",
    [
        ("8/8/4k3/8/8/4K3/8/4NN2 w - - 0 1", False, False),  # two knights cannot force mate
        ("8/8/4k3/8/8/4K3/8/4NNN1 w - - 0 1", True, False),  # three can
        ("8/8/4k3/8/8/4K3/8/4BN2 w - - 0 1", True, False),  # bishop and knight
        ("8/8/4k3/8/8/4K3/8/4BB2 w - - 0 1", True, False),  # the bishop pair
        ("8/8/4k3/8/8/4K3/8/3B1B2 w - - 0 1", False, False),  # two bishops on one colour
        ("8/8/4k3/8/8/4K3/7p/8 w - - 0 1", False, True),  # a pawn can promote
    ],
)
def test_can_force_mate(fen: str, white: bool, black: bool) -> None:
    board = chess.Board(fen)
    assert can_force_mate(board, chess.WHITE) == white
    assert can_force_mate(board, chess.BLACK) == black


@pytest.mark.parametrize(
    "fen, expected",
    [
        ("8/8/4k3/8/8/4K3/8/4NN2 w - - 0 1", "two knights"),
        ("8/8/4k1n1/8/8/4K3/8/5B2 w - - 0 1", "one minor piece each"),
        ("8/8/4k1b1/8/8/4K3/8/4NN2 w - - 0 1", "two knights"),
        ("8/8/4k1b1/8/8/4K3/8/4BB2 w - - 0 1", "two bishops against a bishop"),
        ("8/8/4k1n1/8/8/4K3/8/4BN2 w - - 0 1", "without the bishop pair"),
        ("8/8/4k1n1/8/8/4K3/8/3BB3 w - - 0 1", None),  # the bishop pair wins in practice
        ("8/8/4k3/8/8/4K3/8/4BN2 w - - 0 1", None),  # KBN v K is a forced win
    ],
)
def test_practical_draws(fen: str, expected: str | None) -> None:
    got = practical_draw(chess.Board(fen))
    assert (got is None) if expected is None else (got is not None and expected in got)


def test_hints_never_end_the_game() -> None:
    status = Game("8/8/4k3/8/8/4K3/8/4NN2 w - - 0 1").status()
    assert status.outcome is None
    assert status.hints.practical_draw is not None
    data = status.to_dict()["hints"]
    assert data["can_force_mate"] == {"white": False, "black": False}
    assert any("cannot force mate" in note for note in data["notes"])


def test_lone_minor_against_pawns_note() -> None:
    notes = Game("8/8/4k3/pp6/8/4K3/8/4N3 w - - 0 1").status().hints.notes
    assert any("lone minor piece" in note for note in notes)
