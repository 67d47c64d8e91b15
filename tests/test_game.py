"""Game actions and bad input: a bad move, FEN or claim never changes the game."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game, Termination
from pychessdraw.errors import (
    AmbiguousMoveError,
    BadFenError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NothingToUndoError,
)


@pytest.mark.parametrize(
    "fen, words",
    [
        ("not a fen", "bad FEN"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
        ("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "White cannot castle queen side"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "e3 cannot be the en passant square"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "the side not to move cannot be in check"),
    ],
)
def test_bad_fen_names_the_problem(fen: str, words: str) -> None:
    with pytest.raises(BadFenError) as info:
        Game(fen)
    assert words in info.value.message and info.value.code == "bad_fen"


@pytest.mark.parametrize(
    "text, error",
    [
        ("Nf9", InvalidMoveError),
        ("e5", IllegalMoveError),
        ("e2e5", IllegalMoveError),
        ("", InvalidMoveError),
        ("--", IllegalMoveError),
    ],
)
def test_bad_moves_leave_the_game_unchanged(text: str, error: type) -> None:
    game = Game()
    game.play("e4")
    with pytest.raises(error):
        game.play("e4" if text == "e5" else text)  # e4 again is illegal for Black
    assert (
        game.ply == 1 and game.fen() == chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()
    )


def test_ambiguous_move() -> None:
    game = Game("4k3/8/8/8/8/8/R6R/4K3 w - - 0 1")
    with pytest.raises(AmbiguousMoveError):
        game.play("Rd2")
    assert game.play("Rad2") == chess.Move.from_uci("a2d2")


def test_uci_and_san_both_work_and_castling_in_uci() -> None:
    game = Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.play("e1g1") == chess.Move.from_uci("e1g1")
    assert game.play("O-O-O") == chess.Move.from_uci("e8c8")


def test_chess960_castling_is_king_takes_rook_in_uci() -> None:
    game = Game("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", chess960=True)
    castle = [m for m in game.status(legal_moves=True).legal_moves or () if m["san"] == "O-O"]
    assert castle == [{"uci": "b1h1", "san": "O-O", "from": "b1", "to": "h1", "promotion": None}]
    assert game.play("O-O") == chess.Move.from_uci("b1h1")
    board = game.board
    assert board.piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)
    assert board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)


def test_undo_lifts_a_declared_ending_then_takes_back_moves() -> None:
    game = Game()
    for move in "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8".split():
        game.play(move)
    assert game.claim_draw().accepted
    with pytest.raises(GameOverError):
        game.play("e4")
    assert game.undo() is None and game.outcome() is None and game.ply == 8
    assert game.undo() == chess.Move.from_uci("f6g8") and game.ply == 7


def test_undo_after_checkmate() -> None:
    game = Game()
    for move in "f3 e5 g4 Qh4#".split():
        game.play(move)
    assert game.outcome().termination is Termination.CHECKMATE  # type: ignore[union-attr]
    game.undo()
    assert game.outcome() is None and game.status().claims == ()


def test_nothing_to_undo() -> None:
    with pytest.raises(NothingToUndoError):
        Game().undo()


def test_agreement_resignation_and_flag() -> None:
    game = Game()
    assert game.agree_draw().result() == "1/2-1/2"
    game.undo()
    outcome = game.resign()
    assert outcome.termination is Termination.RESIGNATION and outcome.result() == "0-1"
    assert game.outcome().reason() == "White resigns"  # type: ignore[union-attr]
    game.undo()
    assert game.flag(chess.BLACK).result() == "1-0"
    with pytest.raises(GameOverError):
        game.resign()


def test_claim_when_over_is_an_error_and_a_claim_with_bad_move_changes_nothing() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.claim_draw("e5")
    assert game.ply == 0
    game.resign()
    with pytest.raises(GameOverError):
        game.claim_draw()


def test_status_json_contract() -> None:
    game = Game()
    game.play("e4")
    data = game.status().to_dict()
    assert set(data) >= {
        "fen",
        "turn",
        "ply",
        "halfmove_clock",
        "repetition_count",
        "outcome",
        "claims",
        "insufficient_material",
    }
    assert data["turn"] == "black" and data["ply"] == 1 and data["halfmove_clock"] == 0
    assert data["outcome"] is None and data["claims"] == []
    assert data["insufficient_material"] == {"white": False, "black": False}


def test_board_property_is_a_copy() -> None:
    game = Game()
    board = game.board
    board.push_san("e4")
    assert game.ply == 0


def test_a_correct_claims_reason_names_the_rule_that_makes_it_correct() -> None:
    """The verdict quotes the count of the rule the claim is accepted under
    (not the other rule's count, which reads as a condition not met); a
    refused claim quotes both, with what each rule needs."""
    game = Game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        game.play(move)
    reason = game.claim_draw("Ng8").reason
    assert reason == (
        "Draw claim correct: after the intended move the position has occurred 3 times "
        "(threefold repetition, FIDE 9.2.1.1)."
    )
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 100 80")
    reason = game.claim_draw().reason
    assert (
        reason
        == "Draw claim correct: now 100 plies have passed without a pawn move or capture (fifty-move rule, FIDE 9.3.2)."
    )
    refused = Game().claim_draw("Nf3").reason
    assert "(3 needed for threefold repetition)" in refused and "(100 needed for the fifty-move rule)" in refused
