"""A flag fall in words: the result, the rule and the proof."""

from __future__ import annotations

import chess

from pychessdraw import Game
from pychessdraw.rules import dead
from pychessdraw.web.flagfall import explain


def words(fen: str, flagged: chess.Color, rules: str = "fide") -> dict:
    game = Game(fen, flag_rules=rules)
    return dict(explain(game.board, game.status(search=dead.DEEP), flagged))


def test_loss_names_the_mating_line() -> None:
    w = words("4k3/r7/8/8/8/5N2/8/4K3 b - - 0 1", chess.BLACK)
    assert w["result"] == "1-0" and w["article"] == "FIDE 6.9"
    assert w["text"].startswith("Black's flag fell and White can still checkmate (a mating line: ")
    assert w["proof"].startswith("a mating line: 1...")
    assert "#" in w["proof"] or w["proof"].endswith("plies in all)")


def test_draw_when_the_opponent_cannot_mate() -> None:
    w = words("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", chess.WHITE)
    assert w["result"] == "1/2-1/2"
    assert "Black cannot checkmate by any series of legal moves (proven: " in w["text"]
    assert w["text"].endswith("the game is drawn (FIDE 6.9)")


def test_draw_by_search_where_material_alone_says_nothing() -> None:
    # a lone bishop cannot mate against a rook (proof by the solver)
    w = words("4k3/8/8/8/8/8/r7/4KB2 w - - 0 1", chess.BLACK)
    assert w["result"] == "1/2-1/2" and "proven" in w["proof"]


def test_us_chess_draw_with_a_lone_knight() -> None:
    w = words("4k3/r7/8/8/8/5N2/8/4K3 b - - 0 1", chess.BLACK, "uscf")
    assert w["result"] == "1/2-1/2" and w["article"] == "US Chess 14E" and w["rules"] == "uscf"
    assert "White has only king and knight and no pawns are on the board" in w["text"]
    two = words("4k3/r7/8/8/8/5N2/8/4K1N1 b - - 0 1", chess.BLACK, "uscf")
    assert "king and two knights" in two["text"]
    assert words("4k3/n7/8/8/8/8/8/4K2B b - - 0 1", chess.BLACK, "uscf")["proof"].startswith(
        "White has only king and bishop"
    )


def test_us_chess_still_a_loss_with_a_rook() -> None:
    """Under US Chess rules the words cite those rules, never FIDE 6.9:
    the banner, the panel's flag table and the Arbiter view's sentence."""
    from pychessdraw.web.present import flag_view

    w = words("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", chess.BLACK, "uscf")
    assert w["result"] == "1-0" and w["article"] == "US Chess rules" and "FIDE" not in w["text"]
    assert (
        flag_view("1-0", chess.BLACK, "yes", "uscf")["text"]
        == "1-0 (White wins: White can still checkmate, US Chess rules)"
    )
    assert flag_view("1-0", chess.BLACK, "yes", "fide")["text"].endswith("FIDE 6.9)")
    assert flag_view("1/2-1/2", chess.BLACK, "yes", "uscf")["text"] == "1/2-1/2 (draw: US Chess 14E)"


def test_a_long_mating_line_is_cut_with_its_length() -> None:
    w = words("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", chess.BLACK)
    assert w["result"] == "1-0"
    shown = w["proof"].removeprefix("a mating line: ")
    assert len(shown.split(" … ")[0].split()) <= 10 and shown.endswith("plies in all)")
