"""Dead positions beyond material (FIDE 5.2.2) and flag falls (6.9) as the
referee reports them: status fields, game endings, the scan's audit of
games lost on time, and US Chess rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess

from pychessdraw import Game, Termination
from pychessdraw.records.scan import scan
from pychessdraw.rules import dead

LOCKED = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1"  # from ../shared/dead-positions, labelled "--"


def test_locked_pawn_wall_is_a_dead_position_even_with_the_static_budget() -> None:
    game = Game(LOCKED)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.DEAD_POSITION and outcome.article == "5.2.2"
    status = game.status()
    assert status.winnable == {chess.WHITE: False, chess.BLACK: False}
    assert status.claims == ()


def test_insufficient_material_keeps_its_own_name() -> None:
    outcome = Game("8/8/4k3/8/8/4K3/8/5B2 w - - 0 1").outcome()
    assert outcome is not None and outcome.termination is Termination.INSUFFICIENT_MATERIAL


def test_winnable_comes_with_a_line_that_mates() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 0 1")
    status = game.status(search=dead.DEEP)
    assert status.winnable == {chess.WHITE: True, chess.BLACK: False}
    line = status.winnable_detail[chess.WHITE]["line"]  # type: ignore[index]
    board = chess.Board("8/8/4k3/8/8/4K3/8/R7 w - - 0 1")
    for san in line:
        board.push_san(san)
    assert board.is_checkmate() and board.turn == chess.BLACK


def test_only_legal_move_captures_the_last_mating_piece_dead_now() -> None:
    # Black's only move is Kxh2, leaving two bare kings: dead already, though
    # a material table sees a queen.
    fen = "8/8/8/8/8/5K2/7Q/7k b - - 0 1"
    board = chess.Board(fen)
    assert [board.san(m) for m in board.legal_moves] == ["Kxh2"] and not board.is_insufficient_material()
    outcome = Game(fen, search=dead.PAGE).outcome()
    assert outcome is not None and outcome.termination is Termination.DEAD_POSITION


def test_only_legal_move_captures_the_last_mating_piece_flag_fall() -> None:
    # The same with a black rook: Black can still mate, White cannot, so a
    # black flag fall is a draw (FIDE 6.9), not a loss.
    fen = "r7/8/8/8/8/5K2/7Q/7k b - - 0 1"
    board = chess.Board(fen)
    assert [board.san(m) for m in board.legal_moves] == ["Kxh2"]
    game = Game(fen)
    status = game.status(search=dead.DEEP)
    assert status.outcome is None
    assert status.winnable == {chess.WHITE: False, chess.BLACK: True}
    assert status.flag_fall(chess.BLACK) == "1/2-1/2" and status.flag_fall(chess.WHITE) == "0-1"
    assert not board.has_insufficient_material(chess.WHITE)  # the material table says White wins
    assert game.flag(chess.BLACK).result() == "1/2-1/2"


def test_uscf_minor_piece_does_not_win_on_time() -> None:
    fen = "8/8/4k3/8/8/4K3/8/4N3 w - - 0 1"  # KN v K: FIDE dead by material already
    assert Game(fen).outcome().termination is Termination.INSUFFICIENT_MATERIAL  # type: ignore[union-attr]
    fen = "8/8/4kr2/8/8/4K3/8/4N3 w - - 0 1"  # KN v KR: a self-block mate exists
    fide, uscf = Game(fen).status(), Game(fen, flag_rules="uscf").status()
    assert fide.flag_fall(chess.BLACK) == "1-0"
    assert uscf.flag_fall(chess.BLACK) == "1/2-1/2"
    assert uscf.to_dict()["flag_rules"] == "uscf"
    with_pawn = Game("8/8/4kr2/8/8/4K3/7P/4N3 w - - 0 1", flag_rules="uscf").status()
    assert with_pawn.flag_fall(chess.BLACK) == "1-0"  # pawns on the board: US Chess counts it


PGN = """[Event "flag against a bare king"]
[Result "1-0"]
[Termination "time forfeit"]
[FEN "8/8/4k3/8/8/4K3/8/R7 b - - 0 1"]
[SetUp "1"]

1... Kd6 2. Ra6+ 1-0

[Event "flag against a rook"]
[Result "0-1"]
[TerminationDetails "White loses on time"]
[FEN "8/8/4k3/8/8/4K3/8/R7 b - - 0 1"]
[SetUp "1"]

1... Kd6 2. Ra6+ 0-1
"""


def test_scan_reports_games_lost_on_time_that_should_be_draws() -> None:
    reports = list(scan(PGN.splitlines(keepends=True)))
    first, second = reports[0]["time_forfeit"], reports[1]["time_forfeit"]
    assert first["flagged"] == "black" and first["by_rule"] == "1-0" and not first["should_be_draw"]
    assert second["flagged"] == "white" and second["by_rule"] == "1/2-1/2" and second["should_be_draw"]
    done = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan"],
        input=PGN,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=120,
    )
    assert "1 game(s) lost on time should have been draws (fide): 2" in done.stderr
    assert [json.loads(line)["game"] for line in done.stdout.splitlines()] == [1, 2]


def test_scan_final_status_is_searched_deeply() -> None:
    report = next(scan(PGN.splitlines(keepends=True)))
    assert report["final"]["winnable"] == {"white": True, "black": False}
    assert report["final"]["winnable_detail"]["white"]["line"]


def test_a_deeper_answer_is_kept_for_the_position() -> None:
    game = Game("8/8/4k3/8/8/4K3/8/R7 w - - 0 1")
    assert game.status().winnable[chess.WHITE] is None  # type: ignore[index]  # static proofs only
    assert game.status(search=dead.DEEP).winnable[chess.WHITE] is True  # type: ignore[index]
    assert game.status().winnable[chess.WHITE] is True  # type: ignore[index]  # not forgotten
    game.play("Ra2")
    assert game.status().winnable[chess.WHITE] is None  # type: ignore[index]  # a new position
