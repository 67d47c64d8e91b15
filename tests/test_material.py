"""Insufficient material (FIDE 5.2.2) and the per-side flag-fall question
(6.9), material version. Beyond python-chess: our per-side rule is sound when
the defender's own rooks or queens can box in its king."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game, Termination
from pychessdraw.rules.material import cannot_mate

# Both from ../shared/dead-positions: the side that has just mated is said
# by python-chess to have insufficient material.
BISHOPS_MATE_BEHIND_ROOKS = ["8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", "5B2/7r/5K1k/7r/8/4B3/8/8 b - - 0 1"]


@pytest.mark.parametrize("fen", BISHOPS_MATE_BEHIND_ROOKS)
def test_same_coloured_bishops_mate_against_own_rooks(fen: str) -> None:
    board = chess.Board(fen)
    winner = not board.turn
    assert board.is_checkmate()
    assert board.has_insufficient_material(winner)  # python-chess: unsound here
    assert not cannot_mate(board, winner)  # pychessdraw: sound
    status = Game(fen).status()
    assert status.outcome is not None and status.outcome.termination is Termination.CHECKMATE


@pytest.mark.parametrize("fen, dead", [
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", True),             # K v K
    ("8/8/4k3/8/8/4K3/8/5B2 w - - 0 1", True),           # KB v K
    ("8/8/4k3/8/8/4K3/8/6N1 w - - 0 1", True),           # KN v K
    ("8/8/4k1b1/8/8/4K3/8/5B2 w - - 0 1", True),         # KB v KB, bishops on one colour
    ("8/8/4kb2/8/8/4K3/8/5B2 w - - 0 1", False),         # KB v KB, opposite colours: a helpmate exists
    ("8/8/4k1n1/8/8/4K3/8/6N1 w - - 0 1", False),        # KN v KN
    ("8/8/4k1n1/8/8/4K3/8/5B2 w - - 0 1", False),        # KB v KN
    ("B7/1B6/2B1k3/8/8/4K3/8/5B2 w - - 0 1", True),      # four light-squared bishops (promoted)
    ("8/8/4k3/8/8/4K3/8/4NN2 w - - 0 1", False),         # KNN v K: a helpmate exists
])
def test_dead_by_material(fen: str, dead: bool) -> None:
    status = Game(fen).status()
    assert (status.outcome is not None and status.outcome.termination is Termination.INSUFFICIENT_MATERIAL) == dead
    assert chess.Board(fen).is_insufficient_material() == dead


@pytest.mark.parametrize("fen, white_cannot, black_cannot", [
    ("8/8/4k3/8/8/4K3/8/R5b1 w - - 0 1", False, True),   # lone bishop v rook: the rook always parries
    ("8/8/4k3/8/8/4K3/8/Rb5b w - - 0 1", False, False) ,  # two bishops v rook: the rook may box in its king
    ("8/8/4k1q1/8/8/4K3/8/6N1 w - - 0 1", True, False),  # a knight cannot mate against king and queen
    ("8/8/4k1r1/8/8/4K3/8/6N1 w - - 0 1", False, False),  # ... but can against a rook that blocks
    ("8/8/4k3/8/8/4K3/8/5BB1 w - - 0 1", False, True),   # bishop pair
    ("8/8/4k3/8/8/4K3/7p/8 w - - 0 1", True, False),     # pawn: can promote
])
def test_per_side(fen: str, white_cannot: bool, black_cannot: bool) -> None:
    board = chess.Board(fen)
    assert cannot_mate(board, chess.WHITE) == white_cannot
    assert cannot_mate(board, chess.BLACK) == black_cannot


def test_flag_fall_against_a_side_that_cannot_mate_is_a_draw() -> None:
    status = Game("8/8/4k3/8/8/4K3/8/R7 w - - 0 1").status()
    assert status.flag_fall(chess.WHITE) == "1/2-1/2"  # Black has a bare king
    assert status.flag_fall(chess.BLACK) == "1-0"
    assert status.to_dict()["flag_fall"] == {"white": "1/2-1/2", "black": "1-0"}


def test_flag_against_rooks_with_same_coloured_bishops_is_a_loss() -> None:
    # python-chess would call this a draw on time; a self-block mate exists.
    game = Game("k7/8/8/8/2b3b1/8/8/3RKR2 w - - 0 1")
    outcome = game.flag(chess.WHITE)
    assert outcome.termination is Termination.TIME_FORFEIT and outcome.result() == "0-1"
