"""Words players and other programs use: SAN in any letter case where it is
unambiguous (as lichess reads typed moves), FEN errors in chess words, and
the PGN standard's Termination values on export (issue #21)."""

from __future__ import annotations

import chess
import pytest

from pychessdraw import Game
from pychessdraw.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, PromotionNeededError

# -- SAN in any case --------------------------------------------------------

CASTLE_BOTH = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
# White: a b2-pawn and a d2-bishop can both take on c3; a b4-pawn can go to b5
B_PAWN_OR_BISHOP = "4k3/8/8/8/1P6/2p5/1P1B4/4K3 w - - 0 1"
PROMOTE = "8/4P3/8/8/8/k7/8/K7 w - - 0 50"


@pytest.mark.parametrize("fen, text, uci", [
    (None, "nf3", "g1f3"),
    (None, "NF3", "g1f3"),
    (None, "Nf3", "g1f3"),
    (None, "E4", "e2e4"),
    (None, "E2E4", "e2e4"),
    (None, "G1F3", "g1f3"),
    (None, "nc3", "b1c3"),
    (CASTLE_BOTH, "o-o", "e1g1"),
    (CASTLE_BOTH, "O-O", "e1g1"),
    (CASTLE_BOTH, "0-0", "e1g1"),
    (CASTLE_BOTH, "0-0-0", "e1c1"),
    (CASTLE_BOTH, "o-o-o", "e1c1"),
    (CASTLE_BOTH, "O-0-o", "e1c1"),
    (CASTLE_BOTH, "o-o+", "e1g1"),
    (CASTLE_BOTH, "ra2", "a1a2"),
    (CASTLE_BOTH, "kf1", "e1f1"),
    (PROMOTE, "e8=q", "e7e8q"),
    (PROMOTE, "e8q", "e7e8q"),
    (PROMOTE, "e8=n", "e7e8n"),
    (PROMOTE, "E8=Q", "e7e8q"),
    (PROMOTE, "e7e8Q", "e7e8q"),
    (B_PAWN_OR_BISHOP, "b5", "b4b5"),
    (B_PAWN_OR_BISHOP, "be3", "d2e3"),  # no pawn can go to e3: the bishop
    (B_PAWN_OR_BISHOP, "Bxc3", "d2c3"),
    ("4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "bxc3", "b2c3"),  # no bishop: the pawn
    ("4k3/8/8/8/8/2p5/3B4/4K3 w - - 0 1", "bxc3", "d2c3"),  # no b-pawn: the bishop
])
def test_san_in_any_case_is_read_where_one_move_fits(fen: str | None, text: str, uci: str) -> None:
    for typed in (False, True):
        game = Game(fen)
        assert game.parse_move(text, typed=typed).uci() == uci
    game = Game(fen)
    game.play(text)
    assert game.moves[-1].uci() == uci


def test_typed_lowercase_b_that_fits_a_pawn_and_a_bishop_is_ambiguous() -> None:
    game = Game(B_PAWN_OR_BISHOP)
    before = game.fen()
    for text in ("bxc3", "bc3", "bxc3+"):
        with pytest.raises(AmbiguousMoveError) as info:
            game.parse_move(text, typed=True)
        error = info.value
        assert error.code == "ambiguous_move"
        assert {c["uci"] for c in error.details["candidates"]} == {"b2c3", "d2c3"}
        assert {c["san"] for c in error.details["candidates"]} == {"bxc3", "Bxc3"}
        assert error.message == f"1.{text} is ambiguous: write bxc3, Bxc3"
    assert game.fen() == before and game.ply == 0
    # in a PGN, SAN is the standard's: lowercase b is the b-pawn
    assert game.parse_move("bxc3").uci() == "b2c3"


def test_the_bridge_move_box_refuses_the_ambiguous_b_and_keeps_the_game() -> None:
    import json

    from pychessdraw.bridge import Bridge
    bridge = Bridge()
    assert json.loads(bridge.handle(json.dumps({"op": "new", "args": {"fen": B_PAWN_OR_BISHOP}})))["ok"]
    reply = json.loads(bridge.handle(json.dumps({"op": "play", "args": {"move": "bxc3"}})))
    assert not reply["ok"] and reply["error"]["code"] == "ambiguous_move"
    state = json.loads(bridge.handle(json.dumps({"op": "state", "args": {}})))
    assert state["moves"]["add"] == []
    reply = json.loads(bridge.handle(json.dumps({"op": "play", "args": {"move": "kf1"}})))
    assert reply["ok"] and reply["moves"]["add"][-1]["uci"] == "e1f1"


def test_rook_ambiguity_in_lowercase_lists_the_rooks() -> None:
    game = Game("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(AmbiguousMoveError) as info:
        game.play("rf1")
    assert {c["san"] for c in info.value.details["candidates"]} == {"Raf1", "Rhf1"}
    assert info.value.message.startswith("1.rf1 is ambiguous: write ")
    assert game.ply == 0


@pytest.mark.parametrize("fen, text, error, message", [
    (None, "nf6", IllegalMoveError, "1.nf6 is not legal here"),
    (None, "o-o", IllegalMoveError, "1.o-o is not legal here"),
    (None, "0-0-0", IllegalMoveError, "1.0-0-0 is not legal here"),
    (None, "qq4", InvalidMoveError, "1.qq4 is not a move"),
    (None, "o-o-o-o", InvalidMoveError, "1.o-o-o-o is not a move"),
    (None, "nz3", InvalidMoveError, "1.nz3 is not a move"),
    (PROMOTE, "e8=k", IllegalMoveError, "50.e8=k is not legal here"),
    (PROMOTE, "E8", PromotionNeededError, "50.E8: say which piece the pawn becomes: e8=Q, e8=R, e8=B, e8=N"),
])
def test_refused_text_says_why_and_leaves_the_game_unchanged(fen: str | None, text: str, error: type,
                                                             message: str) -> None:
    game = Game(fen)
    before, ply = game.fen(), game.ply
    for typed in (False, True):
        with pytest.raises(error) as info:
            game.parse_move(text, typed=typed)
        assert info.value.message.startswith(message), info.value.message
    with pytest.raises(error):
        game.play(text)
    assert game.fen() == before and game.ply == ply


def test_typed_must_be_true_or_false() -> None:
    from pychessdraw.errors import BadRequestError
    with pytest.raises(BadRequestError):
        Game().parse_move("e4", typed="yes")  # type: ignore[arg-type]
