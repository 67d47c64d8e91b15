# SPDX-License-Identifier: GPL-3.0-or-later
"""The reachability proof (``deadposition.reach``).

Its fixpoint stops once a pawn of the winner can promote
(``reach.saturate(board, promoter)``): the same answers as the whole
fixpoint, on positions where pawns lock, free and promote.

A side whose only mobile piece is its king, between two squares, keeps
the other king away from them (``reach._shuffling_king``), whether it is
the side asking or the other one (then only where that approach could not
give a discovered check): pinned on hard-set positions, refused where the
premise fails, and never contradicted by a walk that uses no reachability
proof.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import chess
import pytest

from pychessdraw.deadposition import can_checkmate, reach
from pychessdraw.deadposition.bitboards import king_step
from pychessdraw.deadposition.budget import Budget
from pychessdraw.deadposition.closure import explore
from pychessdraw.deadposition.static import reach_applicable

# Locked and half-locked structures (tests/test_deadposition.py and the hard set's
# classes in tests/test_deadposition_classes.py), and the start: random play from them locks, frees and promotes pawns.
STARTS = [
    "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
    "7k/8/4p1p1/1p1pP1Pp/1P1P3P/8/8/2BK4 w - - 0 1",
    "8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1",
    "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1",
    "8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1",
    "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1",
    chess.STARTING_FEN,
]


def random_play(
    starts: list[tuple[str, chess.Color]], playouts: int, plies: int, seed: int
) -> Iterator[tuple[chess.Board, chess.Color]]:
    """Random play from each ``(fen, color)``: every position reached where
    the reachability proof applies (a copy), with its start's colour."""
    rng = random.Random(seed)
    for fen, color in starts:
        for _ in range(playouts):
            board = chess.Board(fen)
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
                if reach_applicable(board):
                    yield board.copy(stack=False), color


def positions(playouts: int = 12, plies: int = 60) -> list[chess.Board]:
    return [board for board, _ in random_play([(fen, chess.WHITE) for fen in STARTS], playouts, plies, 22)]


BOARDS = positions()


def test_the_sample_has_both_outcomes() -> None:
    """The property below is tried where the early stop happens and where it does not."""
    stops = sum(reach.saturate(b, c) is None for b in BOARDS for c in chess.COLORS)
    assert 1_000 < stops < 2 * len(BOARDS) - 1_000


@pytest.mark.parametrize("color", chess.COLORS, ids=["white", "black"])
def test_the_early_stop_is_exactly_a_promoting_pawn_of_that_colour(color: chess.Color) -> None:
    for board in BOARDS:
        whole = reach.saturate(board)
        assert whole is not None
        promotes = any(p.kind == chess.PAWN and p.promoted and p.color == color for p in whole[0])
        early = reach.saturate(board, color)
        assert (early is None) == promotes, board.fen()
        if early is not None:  # otherwise the very same fixpoint
            assert [(p.square, p.reach, p.promoted) for p in early[0]] == [
                (p.square, p.reach, p.promoted) for p in whole[0]
            ]
            assert early[1] == whole[1]


def test_the_proof_gives_the_same_answers_as_with_the_whole_fixpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    early = [reach.reach_cannot_mate(b, c) for b in BOARDS for c in chess.COLORS]
    whole_fixpoint = reach.saturate
    monkeypatch.setattr(
        reach, "saturate", lambda board, promoter=None, keep_out=None: whole_fixpoint(board, None, keep_out)
    )
    whole = [reach.reach_cannot_mate(b, c) for b in BOARDS for c in chess.COLORS]
    assert early == whole
    assert sum(r is not None for r in whole) > 50  # proofs as well as failures


# Hard-set positions (labelled: neither side can mate) left undecided at a
# second a side before: the asking side's king shuffles between two squares
# and the other king, which could take the pawns that free it, may never
# come near (it would leave the shuffling king no move).
SHUFFLING = [
    ("8/b1b5/k6p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", chess.WHITE),  # Kh3-h4; Black's Kxh5 would stalemate
    ("8/8/7p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", chess.WHITE),
    ("8/1p6/1Pp5/k1P5/p1P5/P1K1B3/3B4/8 w - - 0 1", chess.BLACK),  # Ka5-a6
    ("k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7 w - - 0 1", chess.BLACK),
]
# The other side's king shuffles: Black's dark bishops could check on h4,
# but the black king's step next to h3/h4 stalemates White, and no line
# from h3 or h4 runs through a square that step could come from.
OTHER_SHUFFLING = [
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", chess.BLACK),
    ("8/8/3b3p/5p1P/3b1p1K/5Pp1/6P1/5kb1 b - - 0 1", chess.BLACK),
]


@pytest.mark.parametrize(
    ("fen", "color", "whose"),
    [(fen, color, "its own king") for fen, color in SHUFFLING]
    + [(fen, color, "the other king") for fen, color in OTHER_SHUFFLING],
)
def test_a_king_that_only_shuffles_can_neither_mate_nor_be_mated(fen: str, color: chess.Color, whose: str) -> None:
    board = chess.Board(fen)
    reason = reach.reach_cannot_mate(board, color)
    assert reason is not None and reason.endswith(f"({whose} only shuffles between two squares)")
    assert can_checkmate(board, color, nodes=2_000).winnable is False


def shuffle_positions() -> list[chess.Board]:
    """Random play from the pinned positions: many keep a king that only shuffles."""
    return [board for board, _ in random_play(SHUFFLING + OTHER_SHUFFLING, 8, 40, 3)]


def test_a_king_kept_out_only_shrinks_the_reach_sets() -> None:
    """``reach_cannot_mate`` skips the whole fixpoint where a kept-out one
    promotes a pawn: sound because keeping a king out never lets any piece
    reach more, nor thaws more (the fixpoint is monotone)."""
    kept_out = 0
    for board in shuffle_positions() + BOARDS:
        for side in chess.COLORS:
            squares = reach._shuffling_king(board, side)
            if not squares:
                continue
            whole = reach.saturate(board)
            kept = reach.saturate(board, keep_out=(not side, squares | king_step(squares)))
            assert whole is not None and kept is not None
            reach_of = {p.square: p.reach for p in whole[0]}
            assert all(p.reach & ~reach_of[p.square] == 0 for p in kept[0]), board.fen()
            assert all(kept[1][c] & whole[1][c] == whole[1][c] for c in (0, 1)), board.fen()
            kept_out += 1
    assert kept_out > 500


def test_the_proof_skips_nothing_it_needs_where_kings_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same answers as with every fixpoint run in whole (no early stop, no skip)."""
    boards = shuffle_positions() + BOARDS
    early = [reach.reach_cannot_mate(b, c) for b in boards for c in chess.COLORS]
    whole_fixpoint = reach.saturate
    monkeypatch.setattr(
        reach, "saturate", lambda board, promoter=None, keep_out=None: whole_fixpoint(board, None, keep_out)
    )
    assert early == [reach.reach_cannot_mate(b, c) for b in boards for c in chess.COLORS]
    assert sum(r is not None and "shuffles" in r for r in early) > 20


def test_the_other_kings_shuffle_is_not_assumed_where_the_approach_could_check() -> None:
    """Black's king on a5/a6: White's king stepping to a7 or b7 stalemates
    it, unless the step uncovers a bishop's check along a5-b6-c7 (from c7),
    which the frozen pawn on b6 blocks; without that block, no proof."""
    board = chess.Board("8/1p6/1Pp5/k1P5/p1P5/P1K1B3/3B4/8 w - - 0 1")
    squares = chess.BB_A5 | chess.BB_A6
    frozen = [board.occupied_co[chess.BLACK], board.occupied_co[chess.WHITE]]
    assert reach._approach_never_checks(board, chess.WHITE, squares, frozen)
    frozen[chess.WHITE] &= ~chess.BB_B6
    assert not reach._approach_never_checks(board, chess.WHITE, squares, frozen)
    castling = chess.Board("8/1p6/1Pp5/k1P5/p1P5/P1B1B3/8/4K2R w K - 0 1")
    assert not reach._approach_never_checks(castling, chess.WHITE, squares, frozen)  # the rook's move


@pytest.mark.parametrize(
    "fen",
    [
        "8/b1b5/k6p/5p1P/5p2/5PpK/P5P1/8 w - - 0 1",  # a free a-pawn: White has other moves, and promotes
        "8/b1b5/7p/5p1P/5pk1/5Pp1/6P1/7K w - - 0 1",  # the black king is next to the squares already
    ],
)
def test_the_shuffle_is_not_assumed_where_it_does_not_hold(fen: str) -> None:
    board = chess.Board(fen)
    reason = reach.reach_cannot_mate(board, chess.WHITE)
    assert reason is None or "shuffles" not in reason


def test_a_walk_without_reachability_proofs_never_finds_a_mate_the_shuffle_rules_out() -> None:
    """Random play from the pinned positions; wherever the rule proves that
    a side cannot mate, the material-only walk finds no mate for it."""
    checked = exhausted = 0
    for board, color in random_play(SHUFFLING + OTHER_SHUFFLING, 3, 30, 5):
        reason = reach.reach_cannot_mate(board, color)
        if reason is None or "shuffles" not in reason:
            continue
        found, line = explore(board, color, Budget(1_000, None), reach_proofs=False)  # a copy already
        assert found is not True, (board.fen(), line)
        checked += 1
        exhausted += found is False
    assert checked > 100 and exhausted >= 2  # some walks end: no mate at all
