"""Threefold and fivefold repetition, FIDE 9.2 and 9.6.1, and the traps of
the position key (9.2.2): en passant only when legal, castling rights,
promoted pieces, transpositions, non-consecutive repetitions."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game, Termination
from pychessdraw.errors import GameOverError
from pychessdraw.position import position_key

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def play(game: Game, moves: str) -> Game:
    for move in moves.split():
        game.play(move)
    return game


def rules(game: Game) -> list[tuple[str, str | None]]:
    return [(c.rule.value, c.san) for c in game.status().claims]


def test_threefold_is_a_claim_not_an_ending() -> None:
    game = play(Game(), " ".join(SHUFFLE * 2))
    status = game.status()
    assert status.repetition_count == 3
    assert status.repetitions == (0, 4)
    assert status.outcome is None
    assert rules(game) == [("threefold_repetition", None)]


def test_intended_move_is_offered_one_ply_early() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    assert game.repetition_count() == 2
    assert rules(game) == [("threefold_repetition", "Ng8")]
    assert game.status().claims[0].article == "9.2.1.1"


def test_fivefold_need_not_be_consecutive() -> None:
    moves = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nf6 Ng1 Ng8 Nh3 Nh6 Ng1 Ng8"
    game = play(Game(), moves)
    status = game.status()
    assert status.repetitions == (0, 4, 8, 12)
    assert status.outcome is not None
    assert status.outcome.termination is Termination.FIVEFOLD_REPETITION
    assert status.outcome.article == "9.6.1"
    assert status.claims == ()
    with pytest.raises(GameOverError):
        game.play("e4")


def test_fourth_occurrence_is_not_fivefold() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nf6 Ng1 Ng8")
    assert game.repetition_count() == 4
    assert game.outcome() is None


def test_transposition_counts_as_repetition() -> None:
    # The same position reached by different move orders.
    game = play(Game(), "Nf3 Nf6 Nc3 Nc6 Nb1 Nb8 Ng1 Ng8 Nc3 Nc6 Nf3 Nf6")
    assert game.repetition_count() == 2
    assert game.status().repetitions == (4,)


def test_pinned_en_passant_does_not_make_a_new_position() -> None:
    # After ...c5 the en passant capture bxc6 would expose the king on a5 to
    # the rook on h5: it is not a possible move, so the position is the same
    # as the one that returns after the kings step away and back.
    game = play(Game("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1"), "c5 Ka6 Ke7 Ka5 Ke8")
    assert game.repetition_count() == 2
    pinned = chess.Board("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2")
    assert position_key(pinned) == position_key(chess.Board("4k3/8/8/KPp4r/8/8/8/8 w - - 0 2"))


def test_legal_en_passant_makes_a_different_position() -> None:
    game = play(Game("4k3/2p5/8/KP6/8/8/8/7r b - - 0 1"), "c5 Ka6 Ke7 Ka5 Ke8")
    assert game.repetition_count() == 1
    legal = chess.Board("4k3/8/8/KPp5/8/8/8/7r w - c6 0 2")
    assert position_key(legal) != position_key(chess.Board("4k3/8/8/KPp5/8/8/8/7r w - - 0 2"))


def test_lost_castling_rights_make_a_different_position() -> None:
    game = play(Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "Ke2 Ke7 Ke1 Ke8")
    assert game.repetition_count() == 1  # same squares, but the rights are gone
    play(game, "Ke2 Ke7 Ke1 Ke8")
    assert game.repetition_count() == 2


def test_castling_rights_count_even_when_castling_is_impossible_now() -> None:
    # Castling is blocked by the knights, yet the rights are part of the position.
    game = play(Game("rn2k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1"), "Nc3 Nc6 Nb1 Nb8")
    assert game.repetition_count() == 2


def test_chess960_castling_rights_are_part_of_the_key() -> None:
    fen = "bqnb1rkr/pppppppp/8/8/8/8/PPPPPPPP/BQNB1RKR w HFhf - 0 1"
    game = play(Game(fen, chess960=True), "Nd3 Nd6 Nc1 Nc8")
    assert game.repetition_count() == 2
    play(game, "Re1 Re8 Rf1 Rf8")  # the f-rooks moved: rights on that side lost
    assert game.repetition_count() == 1


def test_promoted_queen_is_a_queen() -> None:
    board = chess.Board("8/P7/8/8/8/8/8/k1K5 w - - 0 1")
    board.push_san("a8=Q")
    assert position_key(board) == position_key(chess.Board("Q7/8/8/8/8/8/8/k1K5 b - - 0 1"))


def test_no_repetition_across_a_pawn_move() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8")
    assert game.repetition_count() == 2  # only the position after 2...e5 counts
    assert game.status().repetitions == (6,)


def test_claim_with_intended_move_ends_the_game() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
    result = game.claim_draw("Ng8")
    assert result.accepted and result.rule is Termination.THREEFOLD_REPETITION
    outcome = game.outcome()
    assert outcome is not None and outcome.claimed and outcome.result() == "1/2-1/2"
    assert game.ply == 8  # the intended move is recorded
    assert (outcome.article, outcome.claim_article) == ("9.2", "9.2.1.1")


def test_claim_of_the_position_on_the_board_cites_its_article() -> None:
    game = play(Game(), " ".join(SHUFFLE * 2))
    assert game.claim_draw().accepted
    outcome = game.outcome()
    assert outcome is not None and (outcome.article, outcome.claim_article) == ("9.2", "9.2.1.2")


def test_wrong_claim_with_move_plays_the_move_and_goes_on() -> None:
    game = play(Game(), "Nf3 Nf6 Ng1")
    result = game.claim_draw("Ng8")
    assert not result.accepted
    assert "9.5.3" in result.reason
    assert game.ply == 4 and game.outcome() is None
    assert game.repetition_count() == 2


def test_wrong_claim_now_changes_nothing() -> None:
    game = play(Game(), "e4 e5")
    fen = game.fen()
    result = game.claim_draw()
    assert not result.accepted and "refused" in result.reason
    assert game.fen() == fen and game.outcome() is None
