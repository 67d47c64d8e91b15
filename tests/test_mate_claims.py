"""Checkmate comes before any draw claim (FIDE 5.1.1, and 9.6.2 for the
75th move): a mating move is never offered as an intended move, and a claim
made with one ends the game by checkmate. Stalemating intended moves stay
(a draw either way)."""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw import Game, Termination

MATE_IN_ONE = "7k/8/6K1/8/8/8/8/R7 w - - {clock} 60"  # Ra8#
STALEMATE_IN_ONE = "7k/8/6K1/8/8/8/8/5Q2 w - - {clock} 80"  # Qf7 stalemates


def test_the_reported_position() -> None:
    game = Game(MATE_IN_ONE.format(clock=99))
    sans = {c.san for c in game.status().claims}
    assert "Ra8#" not in sans and "Ra2" in sans  # a fifty-move claim with any quiet move but the mate
    result = game.claim_draw("Ra8#")
    assert not result.accepted and result.rule is None and result.ended_by is Termination.CHECKMATE
    assert result.move == "a1a8" and "checkmate" in result.reason.lower()
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE and outcome.result() == "1-0"
    assert result.to_dict()["ended_by"] == "checkmate"
    assert game.undo() == chess.Move.from_uci("a1a8") and game.outcome() is None  # undo takes back the mate


def test_stalemating_intended_move_is_kept_and_ends_in_stalemate() -> None:
    game = Game(STALEMATE_IN_ONE.format(clock=99))
    assert "Qf7" in {c.san for c in game.status().claims}
    result = game.claim_draw("Qf7")
    assert result.ended_by is Termination.STALEMATE
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.STALEMATE and outcome.result() == "1/2-1/2"


def test_seventy_fifth_move_mate_with_a_claim_is_mate() -> None:
    game = Game(MATE_IN_ONE.format(clock=149))
    assert [c.move for c in game.status().claims] == [None]  # claimable now, no intended moves
    result = game.claim_draw("Ra8#")
    assert not result.accepted and result.ended_by is Termination.CHECKMATE
    assert game.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]


def mate_in_one_positions(count: int, seed: int = 7) -> list[chess.Board]:
    """Positions with a mate in one, found along random games."""
    rng = random.Random(seed)
    found: list[chess.Board] = []
    while len(found) < count:
        board = chess.Board()
        for _ in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            if any(board.is_zeroing(m) is False and _mates(board, m) for m in moves):
                found.append(board.copy(stack=False))
                break
            board.push(rng.choice(moves))
    return found


def _mates(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


FIXED = [
    MATE_IN_ONE.format(clock=0),
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
    "7k/6pp/8/8/8/8/8/KB4RN w - - 0 1",
]


@pytest.mark.parametrize("clock", [99, 149])
def test_every_mate_in_one_at_clock_99_and_149(clock: int) -> None:
    boards = [chess.Board(fen) for fen in FIXED] + mate_in_one_positions(20)
    checked = 0
    for start in boards:
        start.halfmove_clock = clock
        fen = start.fen()
        game = Game(fen)
        if game.outcome() is not None:
            continue
        mates = [m for m in start.legal_moves if not start.is_zeroing(m) and _mates(start, m)]
        offered = {c.move for c in game.claims()}
        assert not offered & set(mates), fen
        if clock == 99:  # every other quiet move is offered (9.3.1)
            quiet = {m for m in start.legal_moves if not start.is_zeroing(m)}
            assert offered == quiet - set(mates), fen
        for move in mates:
            game = Game(fen)
            result = game.claim_draw(start.san(move))
            outcome = game.outcome()
            assert not result.accepted and result.ended_by is Termination.CHECKMATE, fen
            assert outcome is not None and outcome.termination is Termination.CHECKMATE, fen
            assert outcome.winner == start.turn, fen
            checked += 1
    assert checked >= 20
