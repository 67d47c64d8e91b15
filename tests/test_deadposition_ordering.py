# SPDX-License-Identifier: GPL-3.0-or-later
"""The staged move generator of the dead-position walk gives exactly the
order of sorting every pseudo-legal move (so found lines and node counts do
not depend on which of the two the walk uses)."""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw.deadposition.ordering import (dive_moves, mating_corner, needs_loser_promotion, ordered_moves,
                                               staged_moves)

# Positions where the deferred moves matter: under-promotions with and
# without capture, castling both ways, en passant, a loser king in its corner.
SPECIAL = [
    "r3k2r/1P4P1/8/3pP3/8/8/p5p1/R3K2R w KQkq d6 0 1",
    "r3k2r/1P4P1/8/8/3pP3/8/p5p1/R3K2R b KQkq e3 0 1",
    "7k/5PPP/8/8/8/8/8/K6R w - - 0 1",
    "1n5k/P5pp/8/8/8/8/6PP/6RK w - - 0 1",
    "k7/8/8/8/8/8/1p6/K7 b - - 0 1",
]


def _positions(seed: int, games: int, chess960: bool) -> list[chess.Board]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(10, 160)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            out.append(board.copy(stack=False))
    return out


def _full_order(board: chess.Board, winner: chess.Color) -> list[chess.Move]:
    moves = list(board.generate_pseudo_legal_moves())
    corner = mating_corner(board, winner)
    return [m for m, _ in ordered_moves(board, moves, winner, corner, needs_loser_promotion(board, winner))]


@pytest.mark.parametrize("chess960", [False, True])
def test_staged_order_equals_the_full_sort_on_random_games(chess960: bool) -> None:
    boards = _positions(7 if chess960 else 3, 40, chess960)
    assert len(boards) > 1000
    for board in boards:
        for winner in chess.COLORS:
            assert list(staged_moves(board, winner)) == _full_order(board, winner), (board.fen(), winner)


@pytest.mark.parametrize("fen", SPECIAL)
def test_staged_order_with_promotions_castling_and_en_passant(fen: str) -> None:
    board = chess.Board(fen)
    for winner in chess.COLORS:
        staged = list(staged_moves(board, winner))
        assert staged == _full_order(board, winner), winner
        assert len(staged) == len(set(staged)) == len(list(board.generate_pseudo_legal_moves()))


def test_the_first_stage_is_generated_alone() -> None:
    """A dive that takes the first move never pays for the rest: the
    second stage's moves are generated only when asked for."""
    board = chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    generated: list[chess.Move] = []
    plain = board.generate_pseudo_legal_moves

    def counting(from_mask: int = chess.BB_ALL, to_mask: int = chess.BB_ALL):  # type: ignore[no-untyped-def]
        for move in plain(from_mask, to_mask):
            generated.append(move)
            yield move

    board.generate_pseudo_legal_moves = counting  # type: ignore[method-assign]
    gen = staged_moves(board, chess.WHITE)
    assert next(gen) == chess.Move.from_uci("e4d5")  # the capture comes first
    assert generated == [chess.Move.from_uci("e4d5")]
    rest = list(gen)
    assert len(rest) == 6 and len(generated) == 7  # five king moves and e5, now


def test_the_dive_order_is_a_permutation_that_keeps_the_winner_order() -> None:
    """The dive reorders only the loser's moves (king steps to the corner
    first, captures by other pieces last) and never drops or repeats a move."""
    for board in _positions(11, 20, False) + [chess.Board(f) for f in SPECIAL]:
        every = list(board.generate_pseudo_legal_moves())
        for winner in chess.COLORS:
            dive = list(dive_moves(board, winner))
            assert sorted(dive, key=str) == sorted(every, key=str), board.fen()
            if board.turn == winner or needs_loser_promotion(board, winner):
                assert dive == list(staged_moves(board, winner))
            else:
                them, kings = board.occupied_co[winner], board.kings
                captures = [m for m in dive if chess.BB_SQUARES[m.to_square] & them
                            and not chess.BB_SQUARES[m.from_square] & kings]
                assert dive[len(dive) - len(captures):] == captures, board.fen()
