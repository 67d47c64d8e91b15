# SPDX-License-Identifier: GPL-3.0-or-later
"""The native build's walk in C (``native/walk.c``, ``deadposition.fastwalk``).

Its move generator must give python-chess's legal moves in the Python
walk's order (``ordering.staged_moves``); from the same position it must
walk as the Python walk does (the same verdict, line and nodes where no
pawn can step two squares), never contradict it, its lines must replay to
mate in python-chess, and it must stop on its budget.  These skip, saying why,
where the native build is not installed (``make native``).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

import chess
import chess.pgn
import pytest

from pychessdraw.deadposition import budget, closure, native, solver
from pychessdraw.deadposition import fastwalk as fastwalk_pure
from pychessdraw.deadposition.legal import legal_moves
from pychessdraw.deadposition.material import material_cannot_mate
from pychessdraw.deadposition.ordering import staged_moves
from pychessdraw.deadposition.verify import verify_line


@pytest.fixture(scope="module")
def walk_c(compiled: ModuleType) -> ModuleType:
    """``pychessdraw_native._walk``, from a build of these sources."""
    return importlib.import_module("pychessdraw_native._walk")


@pytest.fixture(scope="module")
def fastwalk(compiled: ModuleType) -> ModuleType:
    """The compiled ``fastwalk``, with the C walk in it (the build's default);
    a skip, saying why, where the native build is missing or stale (``compiled``)."""
    module = importlib.import_module("pychessdraw_native.deadposition.fastwalk")
    assert module.C_WALK is not None
    return module


def _compiled(name: str) -> ModuleType:
    """A module of the native build (its boards and budgets are its own classes)."""
    return importlib.import_module(f"pychessdraw_native.{name}")


def _fields(board: chess.Board) -> tuple[int, ...]:
    return fastwalk_pure.position_fields(board)


def _moves(board: chess.Board) -> list[tuple[int, int, int]]:
    return sorted((m.from_square, m.to_square, m.promotion or 0) for m in board.legal_moves)


def test_the_c_walk_generates_python_chess_s_legal_moves(walk_c: ModuleType) -> None:
    rng = random.Random(35)
    checked = 0
    for game in range(300):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if game % 2 else chess.Board()
        for _ in range(rng.randrange(20, 220)):
            board.castling_rights = 0  # the C walk never sees castling rights
            assert sorted(walk_c.legal_moves(*_fields(board))) == _moves(board), board.fen()
            checked += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    special = [
        "8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1",  # en passant
        "8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1",  # en passant exposing the king along the rank
        "1n5k/P1P5/8/8/8/8/5p1p/K5N1 w - - 0 1",  # promotions, with and without a capture
        "1n5k/P1P5/8/8/8/8/5p1p/K5N1 b - - 0 1",
        "4k3/8/8/8/8/8/3r4/R3K2r w - - 0 1",  # in check by a rook, pinned pieces
    ]
    for fen in special:
        board = chess.Board(fen)
        assert sorted(walk_c.legal_moves(*_fields(board))) == _moves(board), fen
    assert checked > 20_000


def test_the_c_walk_orders_moves_as_the_python_walk(walk_c: ModuleType) -> None:
    rng = random.Random(37)
    checked = 0
    for game in range(120):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if game % 2 else chess.Board()
        for _ in range(rng.randrange(20, 250)):
            board.castling_rights = 0
            for winner in chess.COLORS:
                python = [
                    (m.from_square, m.to_square, m.promotion or 0) for m in legal_moves(board, winner, staged_moves)
                ]
                assert walk_c.ordered_moves(*_fields(board), int(winner)) == python, (board.fen(), winner)
                checked += 1
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]  # towards endings, where the walk works
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
    assert checked > 20_000


# Dead by a walk, mates found by one, from the hard set and its neighbours.
DEAD = [
    "B1B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - - 0 1",  # undecided at 1 s a side before the C walk
    "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1",
    "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
]
ALIVE = [
    "r6r/8/3b1b1p/2p1k1pP/1pPp1pP1/pP1PpP2/P3P3/5K2 w - - 0 1",  # black mates (undecided before)
    "7k/8/8/8/8/8/8/KQ6 w - - 0 1",
]


def test_the_c_walk_never_contradicts_the_python_walk(fastwalk: ModuleType) -> None:
    compiled_chess, nbudget = _compiled("_chess"), _compiled("deadposition.budget")
    positions = [chess.Board(fen) for fen in DEAD + ALIVE] + _sparse_positions(3, 55)
    decided = 0
    for board in positions:
        for color in chess.COLORS:
            python = closure.explore(board.copy(), color, budget.Budget(60_000, None))[0]
            walked = fastwalk.walk(compiled_chess.Board(board.fen()), color, nbudget.Budget(2_000_000, 10.0))
            assert walked is not None
            found, line = walked
            if python is not None and found is not None:
                assert found is python, (board.fen(), color)
                decided += 1
            if python is False:  # the C walk visits the same positions, and more
                assert found is False, (board.fen(), color)
            if found:
                replay = [chess.Move(m.from_square, m.to_square, m.promotion) for m in line]
                assert verify_line(board, color, replay), (board.fen(), color)
    assert decided > 40


def _sparse_positions(seed: int, count: int) -> list[chess.Board]:
    """Random positions of at most 8 men without castling rights, where walks finish."""
    rng = random.Random(seed)
    positions: list[chess.Board] = []
    while len(positions) < count:
        board = chess.Board()
        for _ in range(rng.randrange(60, 200)):
            moves = list(board.legal_moves)
            captures = [m for m in moves if board.is_capture(m)]
            if not moves:
                break
            board.push(rng.choice(captures or moves))
        if not board.castling_rights and chess.popcount(board.occupied) <= 8 and board.legal_moves.count():
            positions.append(board.copy(stack=False))
    return positions


def test_the_c_walk_walks_as_the_python_walk(fastwalk: ModuleType) -> None:
    """With ``PATIENCE`` off, where no pawn can step two squares (no en
    passant square to merge), the very same walk: verdict, line and nodes;
    and the line cut short, as the solver asks for it, still mates."""
    compiled_chess, nbudget = _compiled("_chess"), _compiled("deadposition.budget")
    same = shorter = 0
    for board in _sparse_positions(37, 80):
        doubles = board.pawns & (
            board.occupied_co[chess.WHITE] & chess.BB_RANK_2 | board.occupied_co[chess.BLACK] & chess.BB_RANK_7
        )
        for color in chess.COLORS:
            if doubles or material_cannot_mate(board, color):  # the C walk's root proof: the solver's own
                continue
            spent = budget.Budget(20_000, None)
            python = closure.explore(board.copy(), color, spent)
            c_spent = nbudget.Budget(20_000, None)
            found, line = fastwalk.walk(
                compiled_chess.Board(board.fen()), color, c_spent, patience=1 << 30, direct=False
            )
            moves = [chess.Move(m.from_square, m.to_square, m.promotion) for m in line]
            assert (found, moves, c_spent.used) == (python[0], python[1], spent.used), (board.fen(), color)
            same += found is not None
            if found:  # cut short (the default): no longer, and the same mate
                short = fastwalk.walk(compiled_chess.Board(board.fen()), color, nbudget.Budget(20_000, None))[1]
                replay = [chess.Move(m.from_square, m.to_square, m.promotion) for m in short]
                assert len(replay) <= len(moves) and verify_line(board, color, replay), (board.fen(), color)
                shorter += len(replay) < len(moves)
    assert same > 30 and shorter > 5


def test_the_c_walk_decides_classes_the_python_walk_leaves_open(fastwalk: ModuleType) -> None:
    """Caged bishops (every bishop of the winner behind locked pawns, the
    loser's king free in the corner) and a long helpmate against locked
    pawns: undecided by the compiled search at 1 s a side before the C walk."""
    compiled_chess, nbudget = _compiled("_chess"), _compiled("deadposition.budget")
    cases = [(DEAD[0], chess.WHITE, False), (ALIVE[0], chess.BLACK, True)]
    for fen, color, answer in cases:
        found, line = fastwalk.walk(compiled_chess.Board(fen), color, nbudget.Budget(10_000_000, 20.0))
        assert found is answer, fen
        if found:
            replay = [chess.Move(m.from_square, m.to_square, m.promotion) for m in line]
            assert verify_line(chess.Board(fen), color, replay)


# One question of each class of the hard set that the compiled search left
# undecided at 1 s a side before the depth-first C walk and decides now
# (class: what the asking side has besides king and pawns, its pawns, the
# label), with the hard set's answer.
NEWLY_DECIDED = [
    ("pawns only, one free, winnable", "k7/Pp1p1p1p/1P6/K7/8/8/3P1P1P/8 w - - 0 1", chess.WHITE, True),
    ("pawns only, one free, unwinnable", "1k6/1P5p/BP6/1P1p1p2/8/8/3P1PKP/8 w - - 0 1", chess.BLACK, False),
    ("bishops, locked, winnable", "2b3k1/3p1b2/2pP4/1pPb3p/1P4pP/2B2pPb/1B1B1P2/K1B5 w - - 0 1", chess.BLACK, True),
    ("bishops, free, unwinnable", "B6b/pr6/7b/8/8/P3p1pp/4Pp1p/5K1k w - - 0 1", chess.WHITE, False),
    ("bishops, free, winnable", "B6b/pr6/8/8/7b/4p1pp/P3Pp1p/5K1k w - - 0 1", chess.WHITE, True),
    ("other pieces, locked, winnable", "1k1rrb2/p7/Pp1p1p2/1PpPpPp1/2P1P1Pp/7P/8/2K5 w - - 0 1", chess.BLACK, True),
    ("a queen, free, winnable", "5kBN/1p1p1PRQ/1P1P2PP/3p1p1p/3P1P1P/8/8/2BbB1BK w - - 0 1", chess.WHITE, True),
    ("other pieces, free, winnable", "1b3kBR/4pP1P/1pBpP2P/1P1P1Bp1/1pK1B1P1/1P1B1B2/8/8 b - - 0 1", chess.WHITE, True),
    ("bishops, none, winnable", "k1b5/1b6/b1b5/1b6/1B6/B1B5/1B6/K1B5 w - - 0 1", chess.BLACK, True),
]


@pytest.mark.parametrize(
    ("fen", "color", "answer"), [case[1:] for case in NEWLY_DECIDED], ids=[c[0] for c in NEWLY_DECIDED]
)
def test_the_c_walk_decides_the_hard_set_s_classes_left_open_before(
    fastwalk: ModuleType, fen: str, color: chess.Color, answer: bool
) -> None:
    compiled_chess, nbudget = _compiled("_chess"), _compiled("deadposition.budget")
    found, line = fastwalk.walk(compiled_chess.Board(fen), color, nbudget.Budget(1_000_000, None))
    assert found is answer
    if found:  # fastwalk replayed it already; once more here, by the pure python-chess
        replay = [chess.Move(m.from_square, m.to_square, m.promotion) for m in line]
        assert verify_line(chess.Board(fen), color, replay)


def test_the_c_walk_stops_on_its_budget_and_leaves_castling_and_crowds_to_python(fastwalk: ModuleType) -> None:
    compiled_chess, nbudget = _compiled("_chess"), _compiled("deadposition.budget")
    board = compiled_chess.Board(DEAD[0])
    spent = nbudget.Budget(500, None)
    assert fastwalk.walk(board, chess.WHITE, spent) == (None, [])
    assert spent.used == 500 and board.fen() == DEAD[0]
    castling = compiled_chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert fastwalk.walk(castling, chess.WHITE, nbudget.Budget(1_000, None)) is None
    crowded = compiled_chess.Board("3k1b2/8/8/8/B1B1B1B1/1B1B1B1B/B1B1B1B1/BB1K1B1B w - - 0 1")  # 17 men
    assert fastwalk.walk(crowded, chess.WHITE, nbudget.Budget(1_000, None)) is None


@pytest.mark.slow
def test_the_compiled_search_with_the_c_walk_is_never_wrong_on_the_hard_set(
    walk_c: ModuleType, shared: object, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public search as installed with the native build (the C walk on)
    against the hard set's labels: never a wrong answer, every line a mate
    in python-chess (a sample; every position with ``PYCHESSDRAW_FULL=1``)."""
    monkeypatch.setattr(native, "NATIVE", importlib.import_module("pychessdraw_native"))
    rows = shared("dead-positions", "positions.txt").read_text().splitlines()  # type: ignore[operator]
    labelled = [(line[:2], line[3:].strip()) for line in rows if len(line) > 5 and not line.startswith("#")]
    sample = labelled if full else random.Random(37).sample(labelled, 200)
    wrong, decided = [], 0
    for label, fen in sample:
        board = chess.Board(fen)
        for color, char in ((chess.WHITE, label[0]), (chess.BLACK, label[1])):
            verdict = native.can_checkmate(board, color, nodes=10**9, seconds=0.3 if full else 0.05)
            if verdict.winnable is None:
                continue
            decided += 1
            if verdict.winnable != (char != "-"):
                wrong.append((fen, color, verdict.reason))
            if verdict.winnable:
                assert verdict.line is not None and verify_line(board, color, list(verdict.line)), (fen, color)
    assert wrong == []
    assert decided > 0.85 * 2 * len(sample)  # about 95% at 0.1 s a side (bench_cha.py)


def _game_positions(shared: object, games: int, random_games: int) -> list[chess.Board]:
    """Every position of the first ``games`` TCEC games, then of random
    games (Chess960 among them), where dives fail and the walk has work."""
    positions = []
    with open(shared("corpus", "tcec-dev.pgn"), encoding="utf-8") as handle:  # type: ignore[operator]
        for _ in range(games):
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                positions.append(board.copy(stack=False))
    rng = random.Random(38)
    for game in range(random_games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if game % 2 else chess.Board()
        for _ in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            positions.append(board.copy(stack=False))
    return positions


@pytest.mark.slow
def test_the_c_walk_never_contradicts_the_pure_search_on_games(
    walk_c: ModuleType, shared: object, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every ply of corpus and random games, the compiled search with the
    C walk and the pure search never give opposite answers (each may leave
    open what the other decides), and every line mates in python-chess."""
    monkeypatch.setattr(native, "NATIVE", importlib.import_module("pychessdraw_native"))
    positions = _game_positions(shared, 60 if full else 6, 40 if full else 6)
    decided = 0
    for board in positions:
        for color in chess.COLORS:
            pure = solver.can_checkmate(board, color, nodes=3_000).winnable
            verdict = native.can_checkmate(board, color, nodes=3_000)
            if pure is not None and verdict.winnable is not None:
                assert verdict.winnable == pure, (board.fen(), color)
                decided += 1
            if verdict.winnable:
                assert verdict.line is not None and verify_line(board, color, list(verdict.line)), (board.fen(), color)
    assert decided > 0.9 * 2 * len(positions)
