# SPDX-License-Identifier: GPL-3.0-or-later
"""The checks behind every ``True`` verdict: a line replayed, or a board unwound.

Each is compared with python-chess's ``Board.is_legal`` and ``is_checkmate``
on the same lines; both must refuse a line that ends in mate through an
illegal move (``Board.push`` plays illegal moves without a word)."""

from __future__ import annotations

import random

import chess
import pytest

from pychessdraw.deadposition.verify import verify_line, verify_played

W, B = chess.WHITE, chess.BLACK


def _oracle(start: chess.Board, color: chess.Color, line: list[chess.Move]) -> bool:
    board = start.copy(stack=False)
    for move in line:
        if not board.is_legal(move):
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != color


def _both(start: chess.Board, color: chess.Color, line: list[chess.Move]) -> tuple[bool, bool]:
    played = start.copy(stack=False)
    for move in line:
        played.push(move)
    unwound = verify_played(played, color, len(line))
    assert played == start and not played.move_stack  # unwound, whatever the answer
    return verify_line(start, color, line), unwound


CASES = [
    # fool's mate: Black's, not White's, and not before the last move
    (chess.STARTING_FEN, "f2f3 e7e5 g2g4 d8h4", B, True),
    (chess.STARTING_FEN, "f2f3 e7e5 g2g4 d8h4", W, False),
    (chess.STARTING_FEN, "f2f3 e7e5 g2g4", B, False),
    # the queen jumps over its own pawn on e7: mate on the board, not pseudo-legal
    (chess.STARTING_FEN, "f2f3 a7a6 g2g4 d8h4", B, False),
    # the king steps onto f2, attacked by the pawn on e3; then a real mate
    ("r3k2r/1bp2ppp/1p6/2Bn2b1/8/2PPpP2/PPRNP1PP/4KBNR w Kk - 6 17", "e1f2 g5h4", B, False),
]


@pytest.mark.parametrize("fen,uci,color,expected", CASES)
def test_a_mate_through_an_illegal_move_is_refused(fen: str, uci: str, color: chess.Color, expected: bool) -> None:
    start = chess.Board(fen)
    line = [chess.Move.from_uci(m) for m in uci.split()]
    end = start.copy()
    for move in line:
        end.push(move)
    if not expected and color == B and len(line) > 3:
        assert end.is_checkmate()  # only the illegal move makes it wrong
    assert _oracle(start, color, line) is expected
    assert _both(start, color, line) == (expected, expected)


@pytest.mark.parametrize("seed", range(4))
def test_both_checks_agree_with_python_chess_on_random_lines(seed: int) -> None:
    """Random games, with a pseudo-legal move that may be illegal slipped
    in now and then, and ending in mate as often as random play allows."""
    rng = random.Random(seed)
    verdicts = {True: 0, False: 0}
    for _ in range(60):
        start = chess.Board.from_chess960_pos(rng.randrange(960)) if rng.random() < 0.3 else chess.Board()
        board, line = start.copy(), []
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.generate_pseudo_legal_moves() if rng.random() < 0.03 else board.legal_moves)
            if not moves:
                break
            mates = [m for m in moves if board.gives_check(m) and _oracle(board, board.turn, [m])]
            move = rng.choice(mates or moves)
            board.push(move)
            line.append(move)
            if board.is_checkmate() or board.king(board.turn) is None:
                break
        for color in (W, B):
            expected = _oracle(start, color, line)
            verdicts[expected] += 1
            assert _both(start, color, line) == (expected, expected), (start.fen(), line)
    assert verdicts[True] >= 5 and verdicts[False] >= 5  # both answers were exercised (12-19 mates a seed)


def test_a_walk_that_plays_illegal_moves_reports_no_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk's own legality tests switched off (the full one, and the
    king's steps' attack test that spares it): every move it generates is
    played, illegal ones included.  Its lines are checked by python-chess as
    it unwinds, so every line still reported is legal (some are withheld)."""
    from pychessdraw.deadposition import can_checkmate, legal

    monkeypatch.setattr(legal, "legality", lambda board, checkers=None: lambda move: True)
    monkeypatch.setattr(legal, "attack_test", lambda board, color: lambda square: False)
    rng = random.Random(7)
    reported = 0
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        for color in (W, B):
            v = can_checkmate(board, color, nodes=400)
            if v.winnable:
                reported += 1
                assert _oracle(board, color, list(v.line or ())), (board.fen(), v.line)
    assert reported >= 20


@pytest.mark.parametrize("seed", range(3))
def test_pseudo_legal_answers_as_python_chess_for_every_move(seed: int) -> None:
    """``pseudo_legal`` answers the common moves itself: it must agree with
    ``Board.is_pseudo_legal`` on every from-to pair (each promotion too) of
    random game positions, castling, en passant and Chess960 included."""
    from pychessdraw.deadposition.verify import pseudo_legal

    rng = random.Random(seed)
    kinds = (None, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
    answers = {True: 0, False: 0}
    for _ in range(25):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if rng.random() < 0.3 else chess.Board()
        for _ in range(rng.randrange(0, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        for fr in chess.SQUARES:
            for to in chess.SQUARES:
                for kind in kinds if chess.square_rank(to) in (0, 7) else (None,):
                    move = chess.Move(fr, to, kind)
                    expected = board.is_pseudo_legal(move)
                    answers[expected] += 1
                    assert pseudo_legal(board, move) is expected, (board.fen(), move.uci())
    assert answers[True] >= 500  # the moves it answers itself were exercised
