# SPDX-License-Identifier: GPL-3.0-or-later
"""The reachability proof stops its fixpoint once a pawn of the winner can
promote (``reach.saturate(board, promoter)``): the same answers as the
whole fixpoint, on positions where pawns lock, free and promote."""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw.deadposition import reach
from pychessdraw.deadposition.static import reach_applicable

# Locked and half-locked structures (tests/test_deadposition.py, the README's
# classes), and the start: random play from them locks, frees and promotes pawns.
STARTS = [
    "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
    "7k/8/4p1p1/1p1pP1Pp/1P1P3P/8/8/2BK4 w - - 0 1",
    "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1",
    "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1",
    "8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1",
    "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1",
    chess.STARTING_FEN,
]


def positions(playouts: int = 12, plies: int = 60) -> list[chess.Board]:
    rng = random.Random(22)
    seen = []
    for fen in STARTS:
        for _ in range(playouts):
            board = chess.Board(fen)
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
                if reach_applicable(board):
                    seen.append(board.copy(stack=False))
    return seen


BOARDS = positions()


def test_the_sample_has_both_outcomes() -> None:
    """The property below is tried where the early stop happens and where it does not."""
    stops = sum(reach.saturate(b, c) is None for b in BOARDS for c in chess.COLORS)
    assert 1_000 < stops < 2 * len(BOARDS) - 1_000


@pytest.mark.parametrize("color", chess.COLORS, ids=["white", "black"])
def test_the_early_stop_is_exactly_a_promoting_pawn_of_that_colour(color: chess.Color) -> None:
    for board in BOARDS:
        whole = reach.saturate(board)
        assert whole is not None
        promotes = any(p.kind == chess.PAWN and p.promoted and p.color == color for p in whole[0])
        early = reach.saturate(board, color)
        assert (early is None) == promotes, board.fen()
        if early is not None:  # otherwise the very same fixpoint
            assert [(p.square, p.reach, p.promoted) for p in early[0]] == [
                (p.square, p.reach, p.promoted) for p in whole[0]
            ]
            assert early[1] == whole[1]


def test_the_proof_gives_the_same_answers_as_with_the_whole_fixpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    early = [reach.reach_cannot_mate(b, c) for b in BOARDS for c in chess.COLORS]
    whole_fixpoint = reach.saturate
    monkeypatch.setattr(reach, "saturate", lambda board, promoter=None: whole_fixpoint(board))
    whole = [reach.reach_cannot_mate(b, c) for b in BOARDS for c in chess.COLORS]
    assert early == whole
    assert sum(r is not None for r in whole) > 50  # proofs as well as failures
