# SPDX-License-Identifier: GPL-3.0-or-later
"""The walk's board: its shorter push leaves python-chess's state, to the bit."""

from __future__ import annotations

import random

import chess

from pychessdraw.deadposition.keys import key
from pychessdraw.deadposition.walkboard import WalkBoard


def _state(board: chess.Board) -> tuple[object, ...]:
    """The whole state: the search's key and what it leaves out."""
    return (
        *key(board),
        board.occupied_co[chess.BLACK],
        board.occupied,
        board.promoted,
        board.halfmove_clock,
        board.fullmove_number,
        list(board.move_stack),
    )


def test_push_and_pop_match_python_chess_on_random_games_chess960_included() -> None:
    rng = random.Random(7)
    short = with_rights = 0
    for game in range(150):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if game % 3 == 0 else chess.Board()
        walk = WalkBoard.of(board)
        assert walk.chess960 == board.chess960 and _state(walk) == _state(board)
        for _ in range(250):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            before = _state(walk)
            plain = not move.promotion and move.to_square != board.ep_square and not board.is_castling(move)
            short += plain and not board.castling_rights
            with_rights += plain and bool(board.castling_rights)
            board.push(move)
            walk.push(move)
            assert _state(walk) == _state(board), (board.fen(), move)
            if rng.random() < 0.2:
                assert walk.pop() == board.pop() == move
                assert _state(walk) == before
                board.push(move)
                walk.push(move)
        assert walk.fen() == board.fen()
    assert short > 10_000  # the shorter push was taken, captures and promoted men included
    assert with_rights > 2_000  # and where castling rights are left: a king's or rook's move, a rook taken


def test_a_promoted_piece_keeps_its_mark_and_loses_it_when_taken() -> None:
    board = WalkBoard.of(chess.Board("4k3/8/8/8/8/8/8/r3K2Q w - - 0 1"))
    board.promoted = chess.BB_H1
    board.push(chess.Move.from_uci("h1h8"))  # a check: the promoted queen moves, its mark with it
    assert board.promoted == chess.BB_H8 and board.queens == chess.BB_H8
    board.push(chess.Move.from_uci("e8f7"))
    board.push(chess.Move.from_uci("e1e2"))
    board.push(chess.Move.from_uci("f7g8"))
    board.push(chess.Move.from_uci("e2e3"))
    board.push(chess.Move.from_uci("g8h8"))  # the king takes it
    assert board.promoted == 0 and board.queens == 0 and board.halfmove_clock == 0
    assert board.fen() == "7k/8/8/8/8/4K3/8/r7 w - - 0 4"
