"""Fifty moves (FIDE 9.3, a claim) and seventy-five moves (9.6.2, automatic),
counted in plies; a mate on the move that completes the series stands."""

from __future__ import annotations

from pychessdraw import Game, Termination

MATE_IN_ONE = "7k/8/6K1/8/8/8/8/R7 w - - {clock} 80"  # Ra8#
STALEMATE_IN_ONE = "7k/8/6K1/8/8/8/8/5Q2 w - - {clock} 80"  # Qf7 stalemates


def test_claim_at_100_not_99() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    assert [(c.rule, c.move is None) for c in game.status().claims] == [(Termination.FIFTY_MOVES, False)] * len(
        game.status().claims
    )
    intended = {c.san for c in game.status().claims}
    assert "Ra2" in intended and "Kd2" in intended
    game.play("Ra2")
    claims = game.status().claims
    assert [(c.rule, c.move) for c in claims] == [(Termination.FIFTY_MOVES, None)]
    assert game.outcome() is None  # a claim, not an ending


def test_intended_moves_exclude_pawn_moves_and_captures() -> None:
    game = Game("8/8/4k3/8/2p5/4K3/1P6/R7 w - - 99 80")
    sans = {c.san for c in game.status().claims}
    assert "b3" not in sans and "b4" not in sans and "Kd4" in sans


def test_mate_on_the_hundredth_ply_is_mate() -> None:
    game = Game(MATE_IN_ONE.format(clock=99))
    game.play("Ra8#")
    status = game.status()
    assert status.halfmove_clock == 100
    assert status.outcome is not None and status.outcome.termination is Termination.CHECKMATE
    assert status.claims == ()


def test_mate_on_the_hundred_fiftieth_ply_stands() -> None:
    game = Game(MATE_IN_ONE.format(clock=149))
    game.play("Ra8#")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE and outcome.result() == "1-0"


def test_seventyfive_moves_is_automatic() -> None:
    game = Game(MATE_IN_ONE.format(clock=149))
    game.play("Ra2")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.SEVENTYFIVE_MOVES
    assert outcome.article == "9.6.2" and not outcome.claimed


def test_stalemate_at_clock_99_is_stalemate() -> None:
    game = Game(STALEMATE_IN_ONE.format(clock=99))
    game.play("Qf7")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.STALEMATE
    assert game.status().claims == ()


def test_claim_now_accepted_at_100() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 b - - 100 80")
    result = game.claim_draw()
    assert result.accepted and result.rule is Termination.FIFTY_MOVES
    assert game.outcome().termination is Termination.FIFTY_MOVES  # type: ignore[union-attr]
    assert game.outcome().claim_article == "9.3.2"  # type: ignore[union-attr]


def test_fifty_claim_with_intended_move() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    result = game.claim_draw("Ra2")
    assert result.accepted and result.move == "a1a2"
    assert game.status().halfmove_clock == 100
    assert game.outcome().claim_article == "9.3.1"  # type: ignore[union-attr]


def test_the_counter_text_says_ply_for_one() -> None:
    """The panel's text reads "1 ply", "2 plies" (it was "1 plies" after a single move)."""
    from pychessdraw.web.present import halfmove

    assert halfmove(1)["text"].startswith("1 ply without a capture")
    assert halfmove(2)["text"].startswith("2 plies without a capture")
    assert halfmove(0)["text"].startswith("0 plies without a capture")
