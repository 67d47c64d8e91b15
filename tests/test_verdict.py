"""The verdict word of a scanned game (shared by scan, the page's review and audit)."""

from pychessdraw.scan import scan

import pytest


def _one(pgn: str) -> dict:
    return next(scan(pgn.splitlines(keepends=True)))


def test_ok_game() -> None:
    r = _one('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    assert (r["verdict"], r["expected_result"], r["ended_at"]) == ("ok", None, 7)


def test_move_after_mate_is_an_error() -> None:
    r = _one('[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 0-1\n')
    assert r["verdict"] == "error"  # no legal move exists after mate


def test_ended_earlier_by_fivefold() -> None:
    shuffle = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(5))
    r = _one(f'[Result "1-0"]\n\n{shuffle} 11. e4 1-0\n')
    assert r["verdict"] == "ended_earlier"
    assert r["expected_result"] == "1/2-1/2"
    assert r["ended_at"] == 16  # the fifth occurrence of the start position


def test_wrong_result_on_time() -> None:
    # Black lost on time, but a lone bishop cannot mate against a rook (FIDE 6.9).
    r = _one('[FEN "4k3/8/8/8/8/8/r7/4KB2 w - - 0 1"]\n[SetUp "1"]\n[Result "1-0"]\n'
             '[Termination "time forfeit"]\n\n1. Bd3 Kd7 1-0\n')
    assert (r["verdict"], r["expected_result"]) == ("wrong_result", "1/2-1/2")


def test_wrong_result_against_mate_on_board() -> None:
    r = _one('[Result "0-1"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n')
    assert (r["verdict"], r["expected_result"]) == ("wrong_result", "1-0")


def test_error_verdict() -> None:
    r = _one('[Result "*"]\n\n1. e4 e5 2. Qxz9 *\n')
    assert r["verdict"] == "error"


@pytest.mark.parametrize("fen_turn,ply,expected", [("w", 1, "1-0"), ("b", 1, "0-1"), ("w", 2, "0-1")])
def test_mate_result_follows_side_to_move(fen_turn: str, ply: int, expected: str) -> None:
    from pychessdraw.verdict import _result_of
    fen = f"8/8/8/8/8/8/8/8 {fen_turn} - - 0 1"
    assert _result_of("checkmate", ply, {"headers": {"FEN": fen}}) == expected
