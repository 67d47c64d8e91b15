# SPDX-License-Identifier: GPL-3.0-or-later
"""Classes of the hard set (``../shared/dead-positions``) newly decided, one
position each, and the theorem behind each class checked on random positions.

Bishops of one colour against rooks and queens only (any number, no pawns):
no mate can follow a legal move (``deadposition.material``'s proof). The
hard set's undecided ``5b2/4bk2/8/8/8/8/3KR3/3R4 w - -`` (two dark bishops
against two rooks: Black cannot mate) is now proven by material.

A side whose only mobile piece is its king, between two squares, behind
locked pawns: the other king may never come near (it would leave that king
no move), so it cannot take the pawns that would free the side
(``deadposition.reach``).  The hard set's undecided
``8/b1b5/k6p/5p1P/5p2/5PpK/6P1/8 w - -`` (White cannot mate) and three
more are pinned in ``tests/test_deadposition_reach.py`` (``SHUFFLING``).

Locked pawns where the proof fails at the root only because the side to
move must move now (a king in check that can never come back to its
square, a piece that must leave): the proof after each legal move, which
ran only if the walk ended within its budget, now runs before the walk.
"""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw.deadposition import can_checkmate, quick_verdict
from pychessdraw.deadposition.material import material_cannot_mate

HARD_SET_BISHOPS_V_ROOKS = "5b2/4bk2/8/8/8/8/3KR3/3R4 w - - 0 1"  # labelled: Black cannot mate


def test_bishops_of_one_colour_against_two_rooks_are_decided() -> None:
    board = chess.Board(HARD_SET_BISHOPS_V_ROOKS)
    assert quick_verdict(board, chess.BLACK).winnable is False  # static: every scan has it
    assert can_checkmate(board, chess.BLACK, nodes=2_000).winnable is False
    assert can_checkmate(board, chess.WHITE, nodes=20_000).winnable is True  # the rooks still mate


# The hard set's, undecided at 1 s a side before; labelled: neither side can mate.
AFTER_EACH_MOVE = [
    "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1",  # Black's king in check, a6 lost for good
    "k1b5/1pBpB3/1PpP4/2Pp4/N1pP4/1pP5/1P6/K7 w - - 0 1",
]


@pytest.mark.parametrize("fen", AFTER_EACH_MOVE)
@pytest.mark.parametrize("color", chess.COLORS, ids=["white", "black"])
def test_the_proof_after_each_move_comes_before_the_walk(fen: str, color: chess.Color) -> None:
    verdict = can_checkmate(chess.Board(fen), color, nodes=3_000)
    assert verdict.winnable is False and verdict.reason == "every legal move leads to a proven dead end"


PARRIED = [
    ("4K3/8/8/8/8/3b1b2/7k/5RR1 w - - 0 1", chess.BLACK),  # two rooks
    ("4K3/8/8/8/8/3b1b2/7k/5RQ1 w - - 0 1", chess.BLACK),  # a rook and a queen
    ("1k6/8/8/3B4/2B1B3/8/8/1qqrK3 b - - 0 1", chess.WHITE),  # two queens and a rook
    ("8/b7/8/8/8/2b1k3/8/3RKR2 w - - 0 1", chess.BLACK),  # in check: Rd1-d2 parries
    ("8/8/8/8/8/2b1k1b1/3R4/4KR2 w - - 0 1", chess.BLACK),  # the hard set's: in check, Rf1-f2 parries
]
NOT_CLAIMED = [
    ("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", chess.BLACK),  # a double check set up on the board: mate
    ("4K3/8/8/8/8/3b1b2/7k/5RN1 w - - 0 1", chess.BLACK),  # a knight can be the blocker that does not parry
    ("4K3/8/8/8/8/3b1b2/P6k/5RR1 w - - 0 1", chess.BLACK),  # a pawn
]


def test_several_rooks_and_queens_always_parry_and_nothing_else_is_claimed() -> None:
    for fen, bishops in PARRIED:
        assert material_cannot_mate(chess.Board(fen), bishops), fen
    for fen, bishops in NOT_CLAIMED:
        assert material_cannot_mate(chess.Board(fen), bishops) is None, fen


def _near_mate(rng: random.Random, defenders: list[int]) -> tuple[chess.Board, chess.Color]:
    """K + bishops of one colour against K + ``defenders``, the defender's
    king on the bishops' colour (often on an edge), its men around it."""
    attacker = rng.choice(chess.COLORS)
    colour = list(chess.SquareSet(rng.choice([chess.BB_DARK_SQUARES, chess.BB_LIGHT_SQUARES])))
    board = chess.Board.empty()
    edge = [
        s
        for s in colour
        if chess.BB_SQUARES[s] & (chess.BB_RANK_1 | chess.BB_RANK_8 | chess.BB_FILE_A | chess.BB_FILE_H)
    ]
    king = rng.choice(edge if rng.random() < 0.6 else colour)
    board.set_piece_at(king, chess.Piece(chess.KING, not attacker))
    for distance, pieces in (
        (1, [chess.Piece(kind, not attacker) for kind in defenders]),
        (2, [chess.Piece(chess.KING, attacker)]),
    ):
        for piece in pieces:
            free = [
                s for s in chess.SQUARES if chess.square_distance(s, king) == distance and board.piece_at(s) is None
            ]
            board.set_piece_at(rng.choice(free or [s for s in chess.SQUARES if board.piece_at(s) is None]), piece)
    for _ in range(rng.randrange(2, 5)):
        free = [s for s in colour if board.piece_at(s) is None]
        board.set_piece_at(rng.choice(free), chess.Piece(chess.BISHOP, attacker))
    board.turn = attacker
    return board, attacker


@pytest.mark.parametrize("defenders", [[chess.ROOK, chess.ROOK], [chess.ROOK, chess.QUEEN], [chess.ROOK] * 3])
def test_no_mate_follows_a_legal_move_of_the_bishops(defenders: list[int]) -> None:
    """The theorem on random near-mate positions (python-chess judges each
    position after every legal move of the bishops' side): checks happen,
    mates never, and the theorem is claimed after every move."""
    rng = random.Random(22)
    checks = claimed = 0
    for _ in range(400):
        board, attacker = _near_mate(rng, defenders)
        if not board.is_valid():
            continue
        claimed += material_cannot_mate(board, attacker) is not None
        for move in board.legal_moves:
            board.push(move)
            checks += board.is_check()
            assert not board.is_checkmate(), (board.fen(), move)
            assert material_cannot_mate(board, attacker) is not None
            board.pop()
    assert checks > 200 and claimed > 100
