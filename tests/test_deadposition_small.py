# SPDX-License-Identifier: GPL-3.0-or-later
"""Small material: the mate patterns, the theorems, and random positions of
at most five men decided, each line replayed by python-chess, each answer
compared with CHA's where CHA is built (``../cha-build/cha``, ``cha`` on
PATH, or ``PYCHESSDRAW_CHA``; ``benchmarks/bench_cha.py`` builds it there from
the fetched mirrors, as ``../shared/tools/build_cha.sh`` does).

The random sample is 300 positions (600 questions) in the standard suite
and 10,000 with ``PYCHESSDRAW_FULL=1``; every question decided, every
"can mate" replayed, the CPU time of each measured (printed, never
asserted: ``benchmarks/bench_small.py`` states it), and the answers
compared with CHA's where CHA is built."""

from __future__ import annotations

import functools
import itertools
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from pychessdraw.deadposition.material import material_cannot_mate
from pychessdraw.deadposition.patterns import PATTERNS, material_key, pattern_targets, placements
from pychessdraw.deadposition.solver import can_checkmate
from pychessdraw.deadposition.verify import verify_line
from pychessdraw.rules.dead import DEEP

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_small import questions as bench_questions  # noqa: E402  (the benchmark's sample, drawn the same way)

ROOT = Path(__file__).resolve().parents[1]
FULL = bool(os.environ.get("PYCHESSDRAW_FULL"))
SAMPLE = 10_000 if FULL else 300
# A node budget, not the clock: the answers must not depend on the machine's load.
NODES = 100_000
# Two knights against a lone king: "can Black mate?" (yes, by a helpmate).
# Where CHA's answer is wrong, ours with its proof: (FEN, the side asked) -> our answer.
CHA_WRONG: dict[tuple[str, chess.Color], bool] = {}
KNIGHTS = ["1n2k1n1/8/8/8/8/8/8/4K3 w - -", "k7/nn6/8/8/8/8/8/K7 w - -"]


@pytest.mark.parametrize("key", sorted(PATTERNS))
def test_every_pattern_is_a_mate_with_its_material(key: str) -> None:
    for fen in PATTERNS[key]:
        board = chess.Board(f"{fen} b - - 0 1")
        assert board.is_valid() and board.is_checkmate(), fen
        assert material_key(board, chess.WHITE, {}) == key, fen


def _materials() -> list[tuple[str, str]]:
    """Every pawnless material of one to three men besides the kings, as
    (the mating side's letters, the defender's)."""
    men = [(letter, side) for side in "MD" for letter in "NBRQ"]
    found = []
    for size in range(1, 4):
        for combo in itertools.combinations_with_replacement(men, size):
            found.append(("".join(m for m, s in combo if s == "M"), "".join(m for m, s in combo if s == "D")))
    return found


def _placed(mine: str, theirs: str, rng: random.Random) -> list[chess.Board]:
    """Boards with this material (White mating), each colour of each bishop,
    the men placed at random (legal, White to move)."""
    boards = []
    letters = [(m, chess.WHITE) for m in mine] + [(m, chess.BLACK) for m in theirs]
    bishops = [i for i, (m, _) in enumerate(letters) if m == "B"]
    for colours in itertools.product((chess.BB_LIGHT_SQUARES, chess.BB_DARK_SQUARES), repeat=len(bishops)):
        while True:
            board = chess.Board(None)
            free = list(chess.SQUARES)
            rng.shuffle(free)
            board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.BLACK))
            shade = dict(zip(bishops, colours, strict=True))
            for i, (letter, side) in enumerate(letters):
                square = next(s for s in free if i not in shade or chess.BB_SQUARES[s] & shade[i])
                free.remove(square)
                board.set_piece_at(square, chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), side))
            if board.is_valid():
                boards.append(board)
                break
    return boards


@pytest.mark.parametrize("mine, theirs", _materials())
def test_every_small_material_has_a_pattern_or_a_proof_never_both(mine: str, theirs: str) -> None:
    """Without pawns, at most five men: the material either has a known mate
    pattern of its bishops' colours, or ``material_cannot_mate`` proves that
    no mate exists (then no pattern may exist: it would be a mate)."""
    for board in _placed(mine, theirs, random.Random(f"{mine}/{theirs}")):
        proof = material_cannot_mate(board, chess.WHITE)
        fits = pattern_targets(board, chess.WHITE)
        assert (proof is None) == bool(fits), (board.fen(), proof)


@pytest.mark.parametrize("fen", KNIGHTS)
def test_two_knights_mate_a_lone_king_within_the_default_budget(fen: str) -> None:
    board = chess.Board(fen)
    # the default budget's nodes without its clock: the answer must not depend on the load (215 and 231 nodes)
    verdict = can_checkmate(board, chess.BLACK, nodes=DEEP.nodes)
    assert verdict.winnable and verdict.line is not None
    assert "mate pattern KNN/K" in verdict.reason and len(verdict.line) <= 40
    assert verify_line(board, chess.BLACK, verdict.line)


def find_cha() -> str | None:
    given = os.environ.get("PYCHESSDRAW_CHA")
    beside = ROOT.parent / "cha-build" / "cha"
    return given or (str(beside) if beside.exists() else shutil.which("cha"))


def cha_answers(cha: str, questions: list[tuple[chess.Board, chess.Color]]) -> list[bool | None]:
    """CHA's answer to each question: True (winnable), False, None
    (undetermined, or no answer); CHA names the question at the end of its line."""
    asked = [f"{board.fen()} {'white' if color else 'black'}" for board, color in questions]
    done = subprocess.run([cha], input="\n".join(asked) + "\n", capture_output=True, text=True, timeout=900, check=True)
    said: dict[str, bool] = {}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("winnable", "unwinnable") and rest.endswith(")") and "(" in rest:
            said[rest[rest.rindex("(") + 1 : -1]] = word == "winnable"
    assert said, done.stdout[-500:]
    return [said.get(question) for question in asked]


@functools.cache
def random_answers() -> tuple[tuple[tuple[chess.Board, chess.Color], ...], tuple[tuple[bool | None, float], ...]]:
    """The random sample's questions and, for each, our answer and its CPU
    seconds (computed once for the tests below); every line replayed."""
    questions = tuple(bench_questions(SAMPLE, 41))
    ours = []
    for board, color in questions:
        start = time.process_time()
        verdict = can_checkmate(board, color, nodes=NODES)
        seconds = time.process_time() - start
        if verdict.winnable:
            assert verdict.line is not None and verify_line(board, color, verdict.line), (board.fen(), color)
        ours.append((verdict.winnable, seconds))
    return questions, tuple(ours)


def test_random_small_positions_are_all_decided_with_lines_that_replay() -> None:
    """Every question decided; every "can mate" replayed by python-chess
    (``random_answers``).  The CPU time of each is measured and printed,
    not asserted (``benchmarks/bench_small.py`` states the figures)."""
    questions, ours = random_answers()
    undecided = [(b.fen(), c) for (b, c), (w, _) in zip(questions, ours, strict=True) if w is None]
    assert undecided == []
    times = sorted(t for _, t in ours)
    print(f"{len(times)} questions; over 10 ms: {sum(t > 0.01 for t in times)}; worst {times[-1] * 1e3:.1f} ms")


def test_random_small_positions_agree_with_cha() -> None:
    """Each answer equal to CHA's where CHA decides, but where CHA is shown
    wrong (``CHA_WRONG``: the line that replays, or the theorem)."""
    cha = find_cha()
    if cha is None:
        pytest.skip(
            "CHA not built (../cha-build/cha, PYCHESSDRAW_CHA or cha on PATH; "
            "benchmarks/bench_cha.py builds it there from the fetched D3-Chess and Stockfish mirrors)"
        )
    questions, ours = random_answers()
    theirs = cha_answers(cha, list(questions))
    differ = {
        (b.fen(), c): (o, t)
        for (b, c), (o, _), t in zip(questions, ours, theirs, strict=True)
        if t is not None and o != t
    }
    assert {question: ours for question, (ours, _) in differ.items()} == {
        question: answer for question, answer in CHA_WRONG.items() if question in differ
    }


def test_the_steps_a_man_needs_on_an_empty_board() -> None:
    from pychessdraw.deadposition.directed import FAR, pawn_steps, piece_steps

    assert piece_steps(chess.KNIGHT, chess.A1, chess.B3) == 1
    assert piece_steps(chess.KNIGHT, chess.A1, chess.H8) == 6
    assert piece_steps(chess.KNIGHT, chess.A1, chess.B2) == 4  # the corner's diagonal neighbour
    assert piece_steps(chess.KING, chess.A1, chess.H8) == 7
    assert piece_steps(chess.BISHOP, chess.A1, chess.H8) == 1
    assert piece_steps(chess.BISHOP, chess.A1, chess.C1) == 2
    assert piece_steps(chess.BISHOP, chess.A1, chess.B1) == FAR  # the other colour
    assert piece_steps(chess.ROOK, chess.A1, chess.H8) == 2 and piece_steps(chess.QUEEN, chess.A1, chess.H8) == 1
    assert pawn_steps(chess.WHITE, chess.E2, chess.QUEEN, chess.E8) == 6
    assert pawn_steps(chess.BLACK, chess.E7, chess.KNIGHT, chess.D3) == 6 + 1  # e1 to d3
    assert pawn_steps(chess.WHITE, chess.E2, chess.KING, chess.E8) == FAR
    # e8 is light, c7 dark: another file needs a capture, and no walk captures
    assert pawn_steps(chess.WHITE, chess.E2, chess.BISHOP, chess.C7) == FAR


def test_the_defenders_king_is_counted_round_the_squares_the_men_home_guard() -> None:
    from pychessdraw.deadposition.directed import WALLED_OFF, _detours, _guards

    a7, b7, b8 = (chess.BB_SQUARES[square] for square in (chess.A7, chess.B7, chess.B8))
    assert set(_detours(0, chess.A8)) == {0}
    open_a7 = _detours(b7 | b8, chess.A8)
    assert open_a7[chess.C6] == 1  # c6, b6, a7, a8: one step more than its distance
    assert open_a7[chess.A6] == 0 and open_a7[chess.B7] == 0  # b7 guarded: the king steps off it
    assert _detours(a7 | b7 | b8, chess.A8)[chess.C6] == WALLED_OFF
    assert _detours(chess.BB_SQUARES[chess.A8], chess.A8)[chess.H1] == WALLED_OFF  # the check itself
    # K+N+B v K's mate Ka8, Kc8, Bb7, Nc6 (White mates): the knight's squares
    # and the king's wall the king in; the bishop's check does not count (a
    # slider's line may be closed meanwhile), its other squares do
    mate = (
        (chess.KING, chess.BLACK, chess.A8),
        (chess.KING, chess.WHITE, chess.C8),
        (chess.BISHOP, chess.WHITE, chess.B7),
        (chess.KNIGHT, chess.WHITE, chess.C6),
    )
    bits, walls, king = _guards(mate, chess.WHITE)
    assert king == chess.A8 and len(bits) == 3 and len(walls) == 8
    bishop, knight = bits[mate[2]], bits[mate[3]]
    assert not walls[bishop] & chess.BB_SQUARES[chess.A8] and walls[bishop] & a7 == 0
    assert walls[knight] & a7 and walls[knight] & b8 and walls[knight | bishop] == walls[knight] | walls[bishop]


@pytest.mark.parametrize(
    "fen, color",
    [
        ("8/8/4k1n1/8/8/4K3/8/6N1 w - - 0 1", chess.WHITE),  # K+N v K+N
        ("8/8/4kb2/8/8/4K3/8/5B2 w - - 0 1", chess.BLACK),  # K+B v K+B, opposite colours
        ("8/8/4k3/8/8/4K3/1p6/6N1 w - - 0 1", chess.WHITE),  # K+N v K+P: the pawn becomes the blocker
    ],
)
def test_the_directed_search_reaches_a_pattern_with_a_line_that_replays(fen: str, color: chess.Color) -> None:
    from pychessdraw.deadposition.budget import Budget
    from pychessdraw.deadposition.patterns import plan_mate

    board = chess.Board(fen)
    planned = plan_mate(board, color, Budget(20_000, None))
    assert planned is not None
    line, key = planned
    assert verify_line(board, color, line), (key, board.variation_san(line))
    assert board.fen() == chess.Board(fen).fen()  # the caller's board is left as it was


def test_the_walks_moves_are_the_legal_moves_that_capture_nothing() -> None:
    """``directed._quiet_steps`` lists its moves legal by construction (the
    king's flights, pins, checks): on 3,000 of the benchmark's random
    positions (pins are rare) or the full sample, with every man's
    target its own square (a pawn's: a queen on its file's last rank),
    exactly python-chess's legal moves that capture nothing (no castling,
    no en passant; a promotion to a queen only)."""
    from pychessdraw.deadposition.directed import _quiet_steps

    for board, _ in bench_questions(max(SAMPLE, 3_000), 41)[::2]:  # pins are rare: a larger sample
        last = 7 if board.turn == chess.WHITE else 0
        where = {
            square: (chess.QUEEN, board.turn, chess.square(chess.square_file(square), last))
            if piece.piece_type == chess.PAWN
            else (piece.piece_type, piece.color, square)
            for square, piece in board.piece_map().items()
        }
        ours = {(fr, to, promotion) for fr, to, promotion, _, _ in _quiet_steps(board, where)}
        legal = {
            (move.from_square, move.to_square, move.promotion or 0)
            for move in board.generate_legal_moves()
            if not board.is_capture(move) and not board.is_castling(move) and move.promotion in (None, chess.QUEEN)
        }
        assert ours == legal, board.fen()


def test_the_nearest_targets_are_the_same_with_a_limit() -> None:
    """``pattern_targets``'s ``limit`` cuts the fitting short, never the
    answer: the first targets are those of the whole list, in its order."""
    compared = 0
    for board, color in bench_questions(400, 5):
        whole = pattern_targets(board, color)
        for limit in (1, 4, 16):
            assert pattern_targets(board, color, limit)[:limit] == whole[:limit], (board.fen(), color, limit)
        compared += len(whole) > 16
    assert compared > 50  # many boards with more targets than the walk takes


def test_the_placements_of_a_material_are_all_different() -> None:
    """A pattern that is another's mirror image along the diagonal (K+N v
    K+R's two) gives its placements once: the walk's targets all differ."""
    for key in PATTERNS:
        for color in chess.COLORS:
            targets = placements(key, color)
            assert len({frozenset(target) for target in targets}) == len(targets), key
    assert len(placements("KN/KR", chess.WHITE)) == 8


@pytest.mark.parametrize(
    "fen, color, main_nodes",
    [
        # K+N+B+B v K, "can Black mate?": 19,050 nodes before (the walk
        # towards K+N+B+B v K's own six mates failed, the general search found one)
        ("8/3b4/3K2k1/8/5n2/1b6/8/8 w - - 0 1", chess.BLACK, 19_050),
        # K+B v K+P, "can White mate?": the pawn becomes a knight on its own
        # file (4,456 nodes before: the walk went for bishops that need a capture)
        ("2k4K/8/8/2B5/4p3/8/8/8 w - - 0 1", chess.WHITE, 4_456),
        # K+N v K+R+Q, "can Black mate?": K+N v K+R's mate, White's queen
        # standing still (282 nodes before)
        ("5R2/7Q/k7/8/8/7n/7K/8 b - - 0 1", chess.BLACK, 282),
        # K+B+B v K+N, bishops of one colour, "can White mate?": the
        # material's own mates (8,944 nodes with K+B v K+N's, a bishop
        # standing still, ahead of them; 121 without)
        ("2n5/8/7B/2k5/7K/8/8/B7 b - - 0 1", chess.WHITE, 8_944),
        # K+B+B v K+R, "can White mate?": K+B+B v K's mates, the rook
        # standing still (5,624 nodes with the material's own mates only)
        ("3B4/7K/8/8/8/4k3/B4r2/8 b - - 0 1", chess.WHITE, 5_624),
        # K+N+B v K, "can Black mate?": the knight, on its square too soon,
        # must leave and come back for White's king to reach h1 (5,405
        # nodes before the walk counted it so: ``directed.WALLED_OFF``)
        ("8/b7/7K/8/8/8/5k2/7n b - - 0 1", chess.BLACK, 5_405),
        # the defender's king's steps counted round the squares the mating
        # side's men already home guard (``directed._detours``): K+B+B+B v K,
        # "can White mate?" (3,904 nodes before, counting a knight's check only),
        ("1B6/8/1K6/5B2/1kB5/8/8/8 b - - 0 1", chess.WHITE, 3_904),
        # K+N+B v K, "can White mate?" (591 before)
        ("3N4/1K6/8/1B6/8/8/8/2k5 w - - 0 1", chess.WHITE, 591),
        # K+Q v K+N+B, "can Black mate?" (1,800 before)
        ("8/8/1n1b4/3K1Q2/8/8/7k/8 w - - 0 1", chess.BLACK, 1_800),
    ],
)
def test_the_pattern_walk_finds_these_mates_within_a_few_hundred_nodes(
    fen: str, color: chess.Color, main_nodes: int
) -> None:
    board = chess.Board(fen)
    verdict = can_checkmate(board, color, nodes=2_000 if main_nodes > 1_000 else 200)
    assert verdict.winnable and verdict.line is not None, verdict
    assert "mate pattern" in verdict.reason and verdict.nodes < main_nodes / 5
    assert verify_line(board, color, verdict.line)


def test_a_surplus_piece_stands_still_while_the_others_walk_to_a_smaller_materials_mate() -> None:
    """K+N+B+B v K: besides its own mates, K+N+B v K's 64 with the other
    bishop kept on its square."""
    board = chess.Board("8/3b4/3K2k1/8/5n2/1b6/8/8 w - - 0 1")
    kept = [targets for _, key, targets in pattern_targets(board, chess.BLACK) if key == "KNB/K+B"]
    assert kept
    for targets in kept:
        bishops = [square for kind, _, square in targets if kind == chess.BISHOP]
        assert chess.B3 in bishops or chess.D7 in bishops
    against_a_rook = {
        key for _, key, _ in pattern_targets(chess.Board("8/8/8/8/8/1k6/2r5/KB1N4 w - - 0 1"), chess.WHITE)
    }
    assert "KN/KR+B" in against_a_rook  # against a rook too (the rook kept: lower case, ``KNB/K+r``)


def test_the_defenders_rook_or_queen_is_kept_only_where_the_mate_holds_with_it() -> None:
    board = chess.Board("5R2/7Q/k7/8/8/7n/7K/8 b - - 0 1")  # K+N v K+R+Q: can Black mate?
    kept = [targets for _, key, targets in pattern_targets(board, chess.BLACK) if key == "KN/KR+q"]
    assert kept
    for targets in kept:
        assert (chess.QUEEN, chess.WHITE, chess.H7) in targets
        mate = chess.Board(None)
        for kind, side, square in targets:
            mate.set_piece_at(square, chess.Piece(kind, side))
        mate.turn = chess.WHITE
        assert mate.is_checkmate(), mate.fen()
