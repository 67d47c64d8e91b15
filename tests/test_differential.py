"""Differential test against python-chess on random legal games, Chess960
included, at every ply.

Where pychessdraw deliberately differs, the test says so:
- per-side material (FIDE 6.9): for a side with bishops of one colour
  against two or more rooks or queens, pychessdraw proves "cannot mate"
  only when the defender is not in double check now (a theorem: one of
  them always parries a single check, and no move makes a double check);
  python-chess says "cannot mate" there always. Against a single rook or
  queen both say "cannot mate".
- dead positions: pychessdraw proves some positions dead beyond material
  (locked pawns, FIDE 5.2.2) where python-chess sees a game going on; the
  proof itself is tested against labelled positions in test_deadposition*.
- claims: python-chess answers yes/no; pychessdraw lists every intended move,
  which is checked here against python-chess move by move.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw import Game, Termination
from pychessdraw.rules.insufficient import cannot_mate

pytestmark = pytest.mark.slow  # left out by `make test-quick`

AUTOMATIC = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
}


def known_material_difference(board: chess.Board, color: chess.Color) -> bool:
    """Where python-chess may say 'cannot mate' and we prove nothing: two or
    more same-coloured bishops against two or more rooks or queens (we
    prove it too unless the defender is in double check now)."""
    ours = board.occupied_co[color] & ~board.kings
    theirs = board.occupied_co[not color]
    return (
        chess.popcount(ours) >= 2
        and ours == ours & board.bishops
        and chess.popcount(theirs & (board.rooks | board.queens)) >= 2
    )


def check_position(game: Game, board: chess.Board) -> None:
    status = game.status()
    assert status.fen == board.fen()
    expected = board.outcome()
    if expected is None and status.outcome is not None:
        assert status.outcome.termination is Termination.DEAD_POSITION, (board.fen(), status.outcome)
        assert status.winnable == {chess.WHITE: False, chess.BLACK: False}
        return
    if expected is None:
        assert status.outcome is None, (board.fen(), status.outcome)
    else:
        assert status.outcome is not None and status.outcome.termination is AUTOMATIC[expected.termination], board.fen()
        assert status.outcome.result() == expected.result()
    assert board.is_insufficient_material() == (status.cannot_mate[chess.WHITE] and status.cannot_mate[chess.BLACK])
    for color in chess.COLORS:
        theirs = board.has_insufficient_material(color)
        if status.cannot_mate[color] != theirs:
            assert theirs and known_material_difference(board, color), (board.fen(), color)
    count = status.repetition_count
    assert board.is_repetition(count) and not board.is_repetition(count + 1)
    if status.outcome is not None:
        assert status.claims == ()
        return
    rules = {c.rule for c in status.claims}
    threefold = board.can_claim_threefold_repetition()
    assert (Termination.THREEFOLD_REPETITION in rules) == threefold, board.fen()
    assert (Termination.FIFTY_MOVES in rules) == board.can_claim_fifty_moves(), board.fen()
    if threefold and count < 3:
        theirs_moves = set()
        for move in board.legal_moves:
            board.push(move)
            if board.is_repetition(3):
                theirs_moves.add(move)
            board.pop()
        ours_moves = {c.move for c in status.claims if c.rule is Termination.THREEFOLD_REPETITION}
        assert ours_moves == theirs_moves, board.fen()


def play_random_game(rng: random.Random, chess960: bool, max_plies: int) -> int:
    """Random legal moves, biased to undo the move of two plies ago so that
    repetitions happen; checks every ply; returns the plies played."""
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        game = Game(board.fen(), chess960=True)
    else:
        board = chess.Board()
        game = Game()
    check_position(game, board)
    for _ in range(max_plies):
        if board.outcome() is not None:
            break
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        move = rng.choice(moves)
        if len(board.move_stack) >= 2 and rng.random() < 0.6:
            back = board.move_stack[-2]
            reverse = chess.Move(back.to_square, back.from_square)
            if reverse in moves:
                move = reverse
        game.play(move)
        board.push(move)
        check_position(game, board)
    return len(board.move_stack)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chess960=st.booleans())
def test_random_games_agree_with_python_chess(seed: int, chess960: bool) -> None:
    play_random_game(random.Random(seed), chess960, max_plies=260)


def test_thousands_of_seeded_games(full: bool) -> None:
    """A fixed set of games (seeds 0..N) so that a failure is reproducible."""
    games = 3000 if full else 250
    plies = 0
    for seed in range(games):
        plies += play_random_game(random.Random(seed), chess960=seed % 2 == 1, max_plies=220)
    assert plies > games * 50  # the games were real games, not empty ones


@st.composite
def sparse_positions(draw: st.DrawFn) -> chess.Board:
    """Few pieces anywhere: where the material rules matter."""
    board = chess.Board(None)
    squares = draw(st.permutations(list(chess.SQUARES)))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    pieces = draw(
        st.lists(
            st.tuples(
                st.sampled_from([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]), st.booleans()
            ),
            max_size=4,
        )
    )
    for square, (kind, color) in zip(squares[2:], pieces, strict=False):
        if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
            kind = chess.BISHOP
        board.set_piece_at(square, chess.Piece(kind, color))
    board.turn = draw(st.booleans())
    return board


@settings(max_examples=1500, deadline=None)
@given(board=sparse_positions())
def test_material_never_says_cannot_mate_where_python_chess_says_can(board: chess.Board) -> None:
    for color in chess.COLORS:
        if cannot_mate(board, color):
            assert board.has_insufficient_material(color)
        elif board.has_insufficient_material(color):
            assert known_material_difference(board, color)
    if board.is_valid():
        game = Game(board.fen())
        expected = board.outcome()
        status = game.status()
        assert (status.outcome.termination if status.outcome else None) == (
            AUTOMATIC[expected.termination] if expected else None
        )
