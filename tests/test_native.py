# SPDX-License-Identifier: GPL-3.0-or-later
"""The compiled search (``pychessdraw-native``, ``native/``) against the pure one.

The test suite runs the pure search everywhere (``conftest.py`` sets
``PYCHESSDRAW_PURE``: it is what the page runs); here the compiled one must
give the very same verdicts (answer, line, nodes and reason, on node
budgets, with its walk in compiled Python rather than in C) on random games, Chess960 included, on corpus games at every few
plies and on the hard set, and its lines must replay to mate in python-chess
itself.  These skip, saying why, where it is not installed (``make native``;
``make test`` builds it where the machine can compile).  The build's own
steps (``native/generate.py``) are tested without compiling.
"""

from __future__ import annotations

import copy
import importlib
import random
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import chess
import chess.pgn
import pytest

from pychessdraw.deadposition import native, solver
from pychessdraw.deadposition.verify import verify_line

ROOT = Path(__file__).resolve().parents[1]
NODES = 3_000  # a node budget, not a clock: both searches must stop at the same node


@pytest.fixture
def dispatching(compiled: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``native``'s public functions, answering by the compiled search, its
    walk in compiled Python (the C walk's own tests: ``test_native_walk.py``)."""
    monkeypatch.setattr(native, "NATIVE", compiled)
    monkeypatch.setattr(importlib.import_module("pychessdraw_native.deadposition.fastwalk"), "C_WALK", None)
    return compiled


def _random_positions(rng: random.Random, games: int, chess960: bool) -> Iterator[chess.Board]:
    """Every third position of ``games`` random games (up to 160 plies): the
    late ones sparse, with promotions, en passant and castling on the way."""
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for ply in range(160):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if ply % 3 == 2:
                yield board.copy(stack=False)


def _corpus_positions(shared: object, every: int, games: int) -> Iterator[chess.Board]:
    path = shared("corpus", "tcec-dev.pgn")  # type: ignore[operator]
    with open(path, encoding="utf-8") as handle:
        for _ in range(games):
            game = chess.pgn.read_game(handle)
            if game is None:
                return
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                board.push(move)
                if ply % every == every - 1:
                    yield board.copy(stack=False)


def _differences(positions: Iterator[chess.Board]) -> tuple[int, list[str]]:
    """Questions asked, and those where the two searches differ."""
    asked, differ = 0, []
    for board in positions:
        for color in chess.COLORS:
            pure = solver.can_checkmate(board, color, nodes=NODES)
            compiled = native.can_checkmate(board, color, nodes=NODES)
            asked += 1
            if compiled != pure:
                differ.append(f"{board.fen()} {color}: pure {pure}, compiled {compiled}")
    return asked, differ


def test_random_games_get_the_same_verdicts(dispatching: ModuleType, full: bool) -> None:
    rng = random.Random(22)
    games = 60 if full else 12
    positions = [*_random_positions(rng, games, False), *_random_positions(rng, games // 2, True)]
    asked, differ = _differences(iter(positions))
    assert asked > 1_000
    assert differ == []


@pytest.mark.slow
def test_corpus_games_get_the_same_verdicts(dispatching: ModuleType, shared: object, full: bool) -> None:
    asked, differ = _differences(_corpus_positions(shared, 3 if full else 9, 200 if full else 25))
    assert asked > 500
    assert differ == []


@pytest.mark.slow
def test_the_hard_set_gets_the_same_verdicts(dispatching: ModuleType, shared: object, full: bool) -> None:
    rows = shared("dead-positions", "positions.txt").read_text().splitlines()  # type: ignore[operator]
    fens = [line[3:].strip() for line in rows if len(line) > 5 and not line.startswith("#")]
    sample = fens if full else random.Random(5).sample(fens, 120)
    asked, differ = _differences(chess.Board(fen) for fen in sample)
    assert asked == 2 * len(sample)
    assert differ == []


def test_small_material_gets_the_same_verdicts(dispatching: ModuleType) -> None:
    """Random positions of at most five men (the pattern walk's), and one
    whose first forced move left a move stack on the board the walk's
    targets were drawn from (the compiled copy's ``Board.copy`` copies the
    stack with ``copy.copy``, which its moves once refused)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_small import random_small_position

    rng = random.Random(41)
    positions = [random_small_position(rng) for _ in range(150)]
    asked, differ = _differences(iter([*positions, chess.Board("8/8/7k/8/4B3/8/1B6/5q1K w - - 0 1")]))
    assert asked == 302
    assert differ == []


def test_compiled_lines_mate_when_python_chess_replays_them(dispatching: ModuleType) -> None:
    found = 0
    for board in _random_positions(random.Random(7), 8, False):
        for color in chess.COLORS:
            verdict = native.can_checkmate(board, color, nodes=NODES)
            if verdict.winnable:
                assert verdict.line is not None and all(type(m) is chess.Move for m in verdict.line)
                assert verify_line(board, color, verdict.line), board.fen()
                found += 1
    assert found > 100


def test_is_dead_answers_as_the_pure_search(dispatching: ModuleType) -> None:
    fens = [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",  # bare kings
        "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1",  # a locked wall
        "7k/8/8/8/8/8/8/KQ6 w - - 0 1",  # alive
        "k7/8/1K6/8/8/8/8/1N6 w - - 0 1",  # a lone knight against a bare king
    ]
    for fen in fens:
        board = chess.Board(fen)
        assert native.is_dead(board, nodes=NODES) == solver.is_dead(board, nodes=NODES), fen


def _assert_same_moves(copy: chess.Board, board: chess.Board) -> None:
    """A copy's board (compiled or patched) generates python-chess's moves, in its order, and checks."""
    for generated in ("generate_legal_moves", "generate_pseudo_legal_moves", "generate_castling_moves"):
        ours = [m.uci() for m in getattr(copy, generated)()]
        assert ours == [m.uci() for m in getattr(board, generated)()], (generated, board.fen())
    assert copy.checkers_mask() == board.checkers_mask() and copy.is_checkmate() == board.is_checkmate()


def test_the_compiled_board_is_the_same_position(compiled: ModuleType) -> None:
    boards = [
        chess.Board("r3k2r/pppq1ppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 12"),  # castling and en passant
        chess.Board("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", chess960=True),
        *_random_positions(random.Random(3), 2, True),
    ]
    for board in boards:
        copy = native.to_native(board, compiled)
        assert copy.fen(en_passant="fen") == board.fen(en_passant="fen")
        assert copy.chess960 == board.chess960
        _assert_same_moves(copy, board)


def test_a_board_of_another_class_is_answered_by_the_pure_search(dispatching: ModuleType) -> None:
    class Marked(chess.Board):
        pass

    board = Marked("7k/8/8/8/8/8/8/KQ6 w - - 0 1")
    assert native._usable(board) is None
    assert native.can_checkmate(board, chess.WHITE, nodes=NODES) == solver.can_checkmate(
        board, chess.WHITE, nodes=NODES
    )


def test_a_stale_build_is_left_alone_with_a_warning(compiled: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    assert native.load() is compiled
    monkeypatch.setattr(compiled, "SOURCE_HASH", "built from something else")
    with pytest.warns(RuntimeWarning, match="other sources"):
        assert native.load() is None


def test_the_pure_variable_turns_it_off(compiled: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native.load() is None


# -- the build's steps, without compiling -------------------------------------
@pytest.fixture(scope="module")
def generate() -> ModuleType:
    sys.path.insert(0, str(ROOT / "native"))
    try:
        return importlib.import_module("generate")
    finally:
        sys.path.remove(str(ROOT / "native"))


def test_the_patched_python_chess_has_no_membership_test_on_a_generator(generate: ModuleType) -> None:
    if generate._release(chess.__version__) < (1, 11):
        pytest.skip(f"python-chess {chess.__version__}: the native build needs 1.11 (its refusal is tested below)")
    source = Path(chess.__file__).read_text(encoding="utf-8")
    assert "if move in self.generate_castling_moves():" in source  # what mypyc cannot compile
    patched = generate.patch_chess(source)
    assert "if move in self.generate_castling_moves():" not in patched
    assert "any(_m == move for _m in self.generate_castling_moves())" in patched
    assert "    def push_xboard(self, san: str) -> Move:" in patched
    compile(patched, "_chess.py", "exec")  # still Python


def _patched_module(generate: ModuleType) -> ModuleType:
    """The patched python-chess core, run by CPython (no compiler needed)."""
    if generate._release(chess.__version__) < (1, 11):
        pytest.skip(f"python-chess {chess.__version__}: the native build needs 1.11 (its refusal is tested below)")
    module = ModuleType("patched_chess")
    sys.modules["patched_chess"] = module  # the annotations of its dataclasses are looked up there
    try:
        exec(
            compile(generate.patch_chess(Path(chess.__file__).read_text(encoding="utf-8")), "_chess.py", "exec"),
            module.__dict__,
        )
    finally:
        del sys.modules["patched_chess"]
    return module


def _assert_moves_behave_as_python_chess(move_class: type) -> None:
    """``move_class`` (a copy's ``Move``) compares, hashes, prints and parses as python-chess's."""
    ucis = ["e2e4", "e7e8q", "e7e8n", "a2a1r", "0000", "h1a8"]
    ours = [move_class.from_uci(u) for u in ucis]  # type: ignore[attr-defined]
    theirs = [chess.Move.from_uci(u) for u in ucis]
    for a, pa in zip(ours, theirs, strict=True):
        assert (a.from_square, a.to_square, a.promotion, a.drop) == (
            pa.from_square,
            pa.to_square,
            pa.promotion,
            pa.drop,
        )
        assert hash(a) == hash(pa)
        assert bool(a) == bool(pa) and a.uci() == pa.uci() and repr(a) == repr(pa) and str(a) == str(pa)
        assert a != pa  # another class, as python-chess's dataclass answers
        assert a != a.uci() and not (a == None)  # noqa: E711 (the == itself is tested)
        for b, pb in zip(ours, theirs, strict=True):
            assert (a == b) == (pa == pb) and (a != b) == (pa != pb)
    assert move_class(12, 28) == move_class.from_uci("e2e4")  # type: ignore[attr-defined]
    assert move_class(52, 60, promotion=chess.QUEEN) in set(ours)
    assert move_class(52, 60, chess.KNIGHT) != move_class(52, 60, chess.QUEEN)
    assert {move_class(12, 28): 1}[move_class(12, 28)] == 1
    assert move_class.null() == move_class(0, 0) and not move_class.null()  # type: ignore[attr-defined]
    assert [copy.copy(move) for move in ours] == ours


def test_the_patched_move_is_the_dataclass_written_out(generate: ModuleType) -> None:
    patched = _patched_module(generate)
    assert not hasattr(patched.Move, "__dataclass_fields__")  # its methods are the class's own, for mypyc
    _assert_moves_behave_as_python_chess(patched.Move)


def test_the_patched_constants_are_final_and_unchanged(generate: ModuleType) -> None:
    patched = _patched_module(generate)
    source = generate.patch_chess(Path(chess.__file__).read_text(encoding="utf-8"))
    constants = re.findall(r"^([A-Z][A-Z0-9_]*)\b(.*?)=", source, flags=re.MULTILINE)
    assert len(constants) > 150
    assert [name for name, annotation in constants if not annotation.startswith(": Final")] == []
    for name, _ in constants:
        assert getattr(patched, name) == getattr(chess, name), name
    assert patched.BB_DIAG_ATTACKS == chess.BB_DIAG_ATTACKS and patched.BB_RANK_MASKS == chess.BB_RANK_MASKS


def test_the_patched_board_gives_python_chess_s_attackers_and_moves_in_its_order(generate: ModuleType) -> None:
    patched = _patched_module(generate)
    boards = [
        chess.Board("r3k2r/pppq1ppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 12"),  # castling and en passant
        *_random_positions(random.Random(5), 6, False),
        *_random_positions(random.Random(6), 3, True),
    ]
    assert any(not (b.queens | b.rooks) & b.occupied_co[c] for b in boards for c in chess.COLORS)  # the skip is taken
    for board in boards:
        copy = patched.Board(board.fen(), chess960=board.chess960)
        for color in chess.COLORS:
            for square in chess.SQUARES:
                for occupied in (None, board.occupied ^ board.kings, board.occupied & ~chess.BB_RANK_4):
                    assert copy.attackers_mask(color, square, occupied) == board.attackers_mask(color, square, occupied)
        _assert_same_moves(copy, board)


def test_the_compiled_move_behaves_as_python_chess_s(compiled: ModuleType) -> None:
    _assert_moves_behave_as_python_chess(compiled.chess.Move)


def test_python_chess_1_10_is_refused_by_the_build_with_what_to_install(
    generate: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(generate.chess, "__version__", "1.10.0")
    with pytest.raises(generate.PatchError, match=r"needs 1\.11 or newer.*pip install 'chess>=1\.11,<2'"):
        generate.patch_chess(Path(chess.__file__).read_text(encoding="utf-8"))


def test_a_search_module_importing_from_chess_otherwise_stops_the_build(generate: ModuleType) -> None:
    assert generate.rewrite_search("x.py", "import chess\n") == "import pychessdraw_native._chess as chess\n"
    with pytest.raises(generate.PatchError, match="from chess import Move"):
        generate.rewrite_search("x.py", "import chess\nfrom chess import Move\n")


def test_the_source_hash_follows_every_compiled_module(tmp_path: Path) -> None:
    for path in native.compiled_sources():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "native.py").write_text("# the loader is not compiled\n")
    assert native.source_hash(tmp_path) == native.source_hash()
    (tmp_path / "budget.py").write_text((tmp_path / "budget.py").read_text() + "\n# an edit\n")
    assert native.source_hash(tmp_path) != native.source_hash()
