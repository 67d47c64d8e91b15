"""Errors in chess words with structured fields: "3...Qxe7 is not legal
here", never a FEN dump; ``ply``, ``token`` and ``move_label`` for the UI;
``promotion_needed`` with the choices; stable codes."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game, pgn
from pychessdraw.errors import (
    CODES,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    PromotionNeededError,
    RefereeError,
)

AFTER_TWO_MOVES = ["e4", "e5", "Nf3", "Nc6"]


def game_after(moves: list[str], fen: str | None = None) -> Game:
    game = Game(fen)
    for move in moves:
        game.play(move)
    return game


def test_illegal_move_names_the_move_number_and_side() -> None:
    game = game_after(AFTER_TWO_MOVES + ["Bc4"])
    with pytest.raises(IllegalMoveError) as info:
        game.play("Qxh2")
    error = info.value
    assert error.message == "3...Qxh2 is not legal here"
    assert error.to_dict() == {
        "code": "illegal_move",
        "message": "3...Qxh2 is not legal here",
        "token": "Qxh2",
        "move_label": "3...Qxh2",
        "ply": 6,
    }
    assert "/" not in error.message  # no FEN


def test_white_moves_are_labelled_with_one_dot_and_check_is_said() -> None:
    game = game_after(["e4", "e5"])
    with pytest.raises(IllegalMoveError) as info:
        game.play("Ke3")
    assert info.value.details["move_label"] == "2.Ke3" and info.value.details["ply"] == 3
    checked = Game("4k3/8/8/8/8/8/8/r3K3 w - - 0 7")
    with pytest.raises(IllegalMoveError) as info:
        checked.play("Kd1")
    assert info.value.message == "7.Kd1 is not legal here (White is in check)"


def test_not_a_move_is_invalid_move() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Game().play("Qxz9")
    assert info.value.message.startswith("1.Qxz9 is not a move") and info.value.details["ply"] == 1


@pytest.mark.parametrize("text", ["e8", "e7e8", "e8+"])
def test_promotion_without_the_piece_asks_for_it(text: str) -> None:
    game = Game("8/4P3/8/8/8/k7/8/K7 w - - 0 50")
    with pytest.raises(PromotionNeededError) as info:
        game.play(text)
    error = info.value
    assert error.code == "promotion_needed" and isinstance(error, IllegalMoveError)
    assert [c["san"] for c in error.details["candidates"]] == ["e8=Q", "e8=R", "e8=B", "e8=N"]
    assert [c["uci"] for c in error.details["candidates"]] == ["e7e8q", "e7e8r", "e7e8b", "e7e8n"]
    assert error.message.startswith(f"50.{text}: ") and "e8=Q" in error.message
    assert game.ply == 0  # unchanged
    assert game.play(error.details["candidates"][3]["uci"]) == chess.Move.from_uci("e7e8n")


def test_capture_promotion_without_the_piece() -> None:
    game = Game("3r4/4P3/8/8/8/k7/8/K7 w - - 0 1")
    with pytest.raises(PromotionNeededError) as info:
        game.play("exd8")
    assert [c["san"] for c in info.value.details["candidates"]] == ["exd8=Q", "exd8=R", "exd8=B", "exd8=N"]


def test_ambiguous_move_lists_the_candidates() -> None:
    game = Game("4k3/8/8/8/8/8/R6R/4K3 w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        game.play("Rd2")
    assert [c["san"] for c in info.value.details["candidates"]] == ["Rhd2", "Rad2"]
    assert info.value.message == "1.Rd2 is ambiguous: write Rhd2, Rad2"


def test_a_huge_token_is_cut_in_the_error() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Game().play("N" * 100_000)
    assert len(info.value.message) < 200 and len(info.value.details["token"]) <= 40


def test_pgn_errors_keep_the_fields() -> None:
    with pytest.raises(IllegalMoveError) as info:
        pgn.parse_one("1. e4 e5 2. Ke3 *")
    assert info.value.to_dict()["move_label"] == "2.Ke3" and info.value.details["ply"] == 3


def test_every_code_is_listed_once() -> None:
    def subclasses(cls: type[RefereeError]) -> list[type[RefereeError]]:
        return [cls, *(s for sub in cls.__subclasses__() for s in subclasses(sub))]

    codes = [c.code for c in subclasses(RefereeError) if c is not RefereeError]
    assert sorted(codes) == sorted(CODES) and len(set(codes)) == len(codes)
