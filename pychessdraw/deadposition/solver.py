# SPDX-License-Identifier: GPL-3.0-or-later
"""The public questions: can a side still mate?  Is the position dead?

Pipeline for one side (cheapest first, each step sound on its own):
1. already checkmate / material proof;
2. forced moves are played (a single legal reply is part of every line);
   where at most five men are left and the side's men are all knights
   and bishops, the search towards a known mate pattern (``patterns``,
   ``directed``: a best-first walk towards the nearest patterns, then a
   depth-first one; the helpmates that need the other side's men as
   blockers, which the general search below finds only after many nodes;
   a side with a pawn, rook or queen gets the same walk after the dives);
3. reachability proof over locked pawns where every pawn of the side is
   locked (or, while en passant is legal, the same proof after each legal
   move);
4. where the winner has only pawns, each with a loser's pawn ahead, the
   walk in ``pawnwalk``'s order (the loser sets one free) with a thousand
   nodes; a dive: the walk of step 6 with a hundred nodes (finds the long
   but easy helpmates of real games quickly), then the reachability proof
   for the other positions with pawns locked head-on, then a second dive
   towards the nearest corner on either side of the board; with the
   native build, then the walk of step 6 in C with a small share;
5. iterative-deepening helpmate search (finds a line, or proves by
   exhaustion that every line ends without mate), a small budget share;
6. where pawns are locked head-on, the reachability proof after each
   legal move; then a walk over every reachable position (finds a line, or
   proves that no reachable position is a mate), the rest of the budget
   (in C with the native build, where no castling right is left).
A ``True`` answer is always replayed and verified before it is returned.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Final

import chess

from . import fastwalk, pawnwalk
from .budget import Budget
from .closure import explore
from .forced import play_forced
from .gcpause import paused_gc
from .helpmate import HelpmateSearch
from .legal import Order
from .material import material_cannot_mate, needs_blockers
from .ordering import dive_moves, dive_moves_anywhere
from .patterns import MAX_MEN, plan_mate
from .reach import reach_cannot_mate
from .shorten import shorten
from .static import head_on_pawns, reach_applicable, static_cannot_mate, wall_candidate
from .verdict import Verdict, undecided, unwinnable
from .verify import verify_line
from .walkboard import WalkBoard

# Shares of the budget and caps of each phase; benchmarks/README.md gives
# the measurements behind each value.
SEARCH_SHARE: Final = 0.15  # the iterative deepening's share of a large budget
# The walk towards a known mate pattern (at most ``patterns.MAX_MEN`` men):
# a share of the budget, at most PLAN_NODES positions.
PLAN_SHARE: Final = 0.3
PLAN_NODES: Final = 8_000
# Where the defender has a pawn: the mates the walk misses need a capture
# (a target needs every man) or a long promotion, which the exhaustive walk
# finds within a few hundred positions once the plan gives up.
PAWN_PLAN_NODES: Final = 4_000
# A side with a pawn, rook or queen walks towards the patterns after the
# dives, with this many positions (where the dives found no line).
LATE_PLAN_NODES: Final = 250
SMALL_SEARCH_SHARE: Final = 0.4  # its share of a small one (the page's): it decides more there
# Where pawns are locked head-on the walk proves most positions, so the
# deepening's usual share would mostly be spent in vain.
LOCKED_SEARCH_SHARE: Final = 0.05
# At most ``patterns.MAX_MEN`` men, with a large budget: the walk finds
# the long helpmates the deepening misses (its lines of few men are long),
# so it gets little (measured on random positions of at most five men).
FEW_MEN_SEARCH_SHARE: Final = 0.03
SMALL_NODES: Final = 1_000
SMALL_SECONDS: Final = 0.1
SHORT_LINE: Final = 16  # longer proof lines are shortened (a cheap post-pass)
# A dive's line is already nearly direct: shortening pays only on long ones.
DIVE_SHORT_LINE: Final = 96
# The dive is bounded by its nodes, not by a share of the clock, so that a
# slower runtime (Pyodide) or a loaded machine still finishes the dives it needs.
DIVE_SHARE: Final = 1.0
DIVE_NODES: Final = 100  # legal moves played (illegal ones are never tried)
# Where the dive fails, a second one towards the nearest corner on either
# side (an endgame king is often cut off from its back rank); as the first
# dive it would wander too often, except with at most ``patterns.MAX_MEN``
# men, where it goes first (random positions of at most five men: 23% fewer
# nodes; real games: 1% fewer).
DIVE_ANYWHERE_NODES: Final = 150
# The C walk (native build only) gets this share after the dives, before
# the deepening, and walks again at the end in place of the Python walk.
C_WALK_SHARE: Final = 0.1
# The walk in ``pawnwalk``'s order, after the first dive, where the winner's
# pawns must be set free by the loser (each of them has a loser's pawn
# ahead): it meets such plans after a few hundred positions where the others
# need millions; the dive, cheaper, meets most real-game ones first.
PAWN_WALK_NODES: Final = 1_000


def _terminal(board: chess.Board, color: chess.Color, line: list[chess.Move], nodes: int) -> Verdict:
    """The verdict where the side to move has no legal move."""
    if board.is_check() and board.turn != color:
        return Verdict(True, tuple(line), nodes, "checkmate" if not line else "checkmate after forced moves")
    if board.is_check():
        return unwinnable(nodes, "already checkmated" if not line else "forced into being checkmated")
    return unwinnable(nodes, "stalemate" if not line else "forced into stalemate")


def quick_verdict(board: chess.Board, color: chess.Color) -> Verdict:
    """Static answer only: decides easy cases in microseconds, else ``winnable=None``.

    Covers checkmate on the board, material that can never mate, and (only
    when every pawn of ``color`` is blocked head-on) the locked-wall proof.
    It never searches, so ``True`` is returned only for a mate on the board.
    """
    if board.is_check() and board.is_checkmate():
        if board.turn != color:
            return Verdict(True, (), 0, "checkmate")
        return unwinnable(0, "already checkmated")
    reason = static_cannot_mate(board, color, gated=True)
    if reason:
        return unwinnable(0, reason)
    return undecided(0, "open: needs search")


def _after_each_move(board: chess.Board, color: chess.Color, budget: Budget) -> str | None:
    """Static proof holding after every legal move (also handles en passant).

    Where pawns are locked head-on it runs before the walk: it holds where
    the root's proof fails only because the side to move must move now (a
    king in check that can never come back), and costs a quarter of a
    millisecond where the walk takes tens.
    """
    moves = list(board.generate_legal_moves())
    if not moves:
        return None
    for move in moves:
        if budget.spend():
            return None
        board.push(move)
        try:
            dead = _proven_dead_end(board, color)
        finally:
            board.pop()
        if not dead:
            return None
    return "every legal move leads to a proven dead end"


def _proven_dead_end(board: chess.Board, color: chess.Color) -> bool:
    """``_after_each_move``'s test of the position after one move: no mate by
    ``color`` from here, by the static proofs (a stalemate counts; a mate on
    the board does not: it would need its own verdict, so the answer stays open)."""
    if board.is_checkmate():
        return False
    if not any(board.generate_legal_moves()):
        return True
    if material_cannot_mate(board, color):
        return True
    return reach_applicable(board) and reach_cannot_mate(board, color) is not None


def can_checkmate(
    board: chess.Board, color: chess.Color, *, nodes: int = 20_000, seconds: float | None = None
) -> Verdict:
    """Can ``color`` checkmate by some series of legal moves (helpmate)?

    ``nodes`` and ``seconds`` bound the search; the static proofs run
    regardless (they cost about a millisecond).  The caller's board is never
    modified.  Chess960 positions work as long as ``board.chess960`` is set.
    Python's cyclic garbage collector is paused meanwhile (``gcpause``).
    """
    with paused_gc():
        return _can_checkmate(board, color, nodes, seconds)


def _can_checkmate(board: chess.Board, color: chess.Color, nodes: int, seconds: float | None) -> Verdict:
    """``can_checkmate``'s pipeline (the module's docstring)."""
    b = board.copy(stack=False)
    budget = Budget(nodes, seconds)
    two = list(itertools.islice(b.generate_legal_moves(), 2))
    if not two:
        return _terminal(b, color, [], 0)
    reason = material_cannot_mate(b, color)
    if reason:
        return unwinnable(0, reason)

    prefix, movable = play_forced(b, first=two)
    budget.spend(len(prefix))
    if prefix:
        if not movable:
            return _checked(board, color, _terminal(b, color, prefix, budget.used))
        reason = material_cannot_mate(b, color)
        if reason:
            return unwinnable(budget.used, reason + " (after forced moves)")

    if planned := _planned(board, b, color, prefix, budget):
        return planned

    # ``b`` stays as it is from here (each phase works on its own copy).
    head_on, applicable = bool(head_on_pawns(b)), reach_applicable(b)
    reason, locked = _before_search(b, color, budget, head_on, applicable)
    if reason:
        return unwinnable(budget.used, reason)

    # Order: a dive (the walk, depth first along the best-ordered move), which
    # meets most real-game mates cheaply; the helpmate search, which finds most
    # others within a few hundred nodes; then the walk over every reachable
    # position, which proves the confined dead positions. A lone knight or
    # bishop needs the loser's pieces as blockers, a manoeuvre the deepening
    # does not reach, so the walk follows the dive at once.
    small = nodes <= SMALL_NODES or (seconds is not None and seconds <= SMALL_SECONDS)
    share = SMALL_SEARCH_SHARE if small else LOCKED_SEARCH_SHARE if head_on else SEARCH_SHARE
    if share == SEARCH_SHARE and chess.popcount(b.occupied) <= MAX_MEN:
        share = FEW_MEN_SEARCH_SHARE
    phases: list[tuple[Phase, float, int | None]] = [
        (_dive, DIVE_SHARE, DIVE_NODES),
        (_dive_anywhere, DIVE_SHARE, DIVE_ANYWHERE_NODES),
        (_deepening, share, None),
        (_closure, 1.0, None),
    ]
    if chess.popcount(b.occupied) <= MAX_MEN:
        phases[:2] = phases[1::-1]  # few men: the corner anywhere first (``DIVE_ANYWHERE_NODES``)
    if fastwalk.C_WALK is not None:
        phases.insert(2, (_c_walk, C_WALK_SHARE, None))
    if chess.popcount(b.occupied) <= MAX_MEN and b.occupied_co[color] & (b.pawns | b.rooks | b.queens):
        phases.insert(2, (_plan_walk, PLAN_SHARE, LATE_PLAN_NODES))
    if pawnwalk.applies(b, color):
        phases.insert(1, (_pawn_walk, DIVE_SHARE, PAWN_WALK_NODES))
    elif pawnwalk.king_must_free(b, color):
        phases.insert(1, (_king_frees, DIVE_SHARE, PAWN_WALK_NODES))
    if needs_blockers(b, color):
        phases = [p for p in phases if p[0] is not _deepening]
    for phase, fraction, cap in phases:
        if locked and phase is not _dive:
            reason = static_cannot_mate(b, color, gated=False)
            locked = False
            if reason:
                return unwinnable(budget.used, reason)
        if phase is _closure and head_on and applicable:  # before the walk (``_after_each_move``)
            reason = _after_each_move(b, color, budget)
            if reason:
                return unwinnable(budget.used, reason)
        sub = budget.share(fraction)
        if cap is not None:
            sub.limit = min(sub.limit, cap)
        found, line, how = phase(b, color, sub)
        budget.absorb(sub)
        if found:
            return _line_verdict(board, b, color, prefix + line, len(prefix), phase, budget.used)
        if found is False:
            return unwinnable(budget.used, how)
        if budget.exhausted:
            break

    return undecided(budget.used)


def _planned(
    board: chess.Board, b: chess.Board, color: chess.Color, prefix: list[chess.Move], budget: Budget
) -> Verdict | None:
    """Small material (``patterns.MAX_MEN``): the walk towards a known mate
    pattern, before any search; its line replayed by python-chess."""
    if chess.popcount(b.occupied) > MAX_MEN or b.occupied_co[color] & (b.pawns | b.rooks | b.queens):
        return None  # a pawn, rook or queen mates without help: the dive finds it sooner
    sub = budget.share(PLAN_SHARE)
    sub.limit = min(sub.limit, PAWN_PLAN_NODES if b.pawns else PLAN_NODES)
    planned = plan_mate(b, color, sub)
    budget.absorb(sub)
    if planned is None:
        return None
    line, key = planned
    whole = tuple(prefix + line)
    if not verify_line(board, color, whole):
        return None  # never happens: the walk plays legal moves to a mate; the general search goes on
    return Verdict(True, whole, budget.used, f"helpmate towards the mate pattern {key} ({len(whole)} plies)")


def _before_search(
    b: chess.Board, color: chess.Color, budget: Budget, head_on: bool, applicable: bool
) -> tuple[str | None, bool]:
    """The static proofs worth running before the search: ``(reason, locked)``,
    a proof if one holds, and whether the reachability proof is still to run
    (pawns locked head-on, proof deferred until after the dive).  ``head_on``
    and ``applicable``: ``head_on_pawns(b)`` and ``reach_applicable(b)``."""
    # The reachability proof needs pieces that can never move, and those
    # start from pawns locked head-on: elsewhere it costs a few milliseconds
    # to prove nothing (then the search decides).  Unless every pawn of
    # ``color`` is locked, it waits until after the dive: measured on
    # real-game positions, where the dive meets a mate first, 10% faster
    # overall, and the hard set as fast as before.
    locked = applicable and head_on
    if not applicable:
        return _after_each_move(b, color, budget), False
    if locked and wall_candidate(b, color):
        return static_cannot_mate(b, color, gated=False), False
    return None, locked


Phase = Callable[[chess.Board, chess.Color, Budget], tuple[bool | None, list[chess.Move], str]]


def _line_verdict(
    board: chess.Board,
    b: chess.Board,
    color: chess.Color,
    line: list[chess.Move],
    forced: int,
    phase: Phase,
    nodes: int,
) -> Verdict:
    """The ``True`` verdict for ``line`` (``forced`` moves played on ``b``
    from ``board``, then the ``phase``'s), shortened where long, checked."""
    # The walk's lines come checked by python-chess (the forced prefix is
    # its own legal moves); the deepening search's are replayed below.
    verified = phase is not _deepening and phase is not _plan_walk
    if len(line) > (DIVE_SHORT_LINE if phase in (_dive, _dive_anywhere, _pawn_walk, _king_frees) else SHORT_LINE):
        short = line[:forced] + shorten(b, line[forced:])
        if verify_line(board, color, short):
            line, verified = short, True
    verdict = Verdict(True, tuple(line), nodes, f"helpmate found ({len(line)} plies)")
    return verdict if verified else _checked(board, color, verdict)


def _plan_walk(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """The walk towards a known mate pattern (``patterns.plan_mate``), after the dives."""
    planned = plan_mate(b, color, budget)
    return (None, [], "") if planned is None else (True, planned[0], "")


def _deepening(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """Iterative-deepening helpmate search on a private copy."""
    search = HelpmateSearch(WalkBoard.of(b), color, budget)
    found = search.run()
    return found, list(search.path), "every line ends without mate (exhaustive search)"


def _closure(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """Walk of all reachable positions on a private copy."""
    walked = fastwalk.walk(b, color, budget)
    found, line = walked if walked is not None else explore(WalkBoard.of(b), color, budget)
    return found, line, "no reachable position is a mate (all positions explored)"


def _c_walk(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """The walk in C (``fastwalk``), where the native build has it."""
    walked = fastwalk.walk(b, color, budget)
    found, line = walked if walked is not None else (None, [])
    return found, line, "no reachable position is a mate (all positions explored)"


def _dive(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """The walk with a small budget, pruning by material only."""
    return _dive_along(b, color, budget, dive_moves)


def _dive_anywhere(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """``_dive`` towards the nearest corner on either side of the board."""
    return _dive_along(b, color, budget, dive_moves_anywhere)


def _pawn_walk(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """``_dive`` in ``pawnwalk``'s order (the winner's pawns set free by the loser)."""
    return _dive_along(b, color, budget, pawnwalk.pawn_walk_moves)


def _king_frees(b: chess.Board, color: chess.Color, budget: Budget) -> tuple[bool | None, list[chess.Move], str]:
    """``_dive`` in ``pawnwalk``'s order where the winner's king frees its pawns."""
    return _dive_along(b, color, budget, pawnwalk.king_frees_walk_moves)


def _dive_along(
    b: chess.Board, color: chess.Color, budget: Budget, order: Order
) -> tuple[bool | None, list[chess.Move], str]:
    """A dive in ``order`` on a private copy (mate probes on, reach proofs off)."""
    found, line = explore(WalkBoard.of(b), color, budget, reach_proofs=False, mate_probes=True, order=order)
    return found, line, "no reachable position is a mate (all positions explored)"


def _checked(board: chess.Board, color: chess.Color, verdict: Verdict) -> Verdict:
    """Replay a ``True`` verdict's line; refuse to claim what we cannot verify."""
    if verdict.winnable and (verdict.line is None or not verify_line(board, color, verdict.line)):
        return undecided(verdict.nodes, "internal error: unverified line withheld")
    return verdict


def is_dead(board: chess.Board, *, nodes: int = 20_000, seconds: float | None = None) -> bool | None:
    """FIDE 5.2.2 dead position: True only when neither side can ever mate.

    Returns False as soon as one side has a verified helpmate, None when a
    side stays undecided.  ``nodes``/``seconds`` apply to each side.
    """
    quick = [quick_verdict(board, c) for c in (chess.WHITE, chess.BLACK)]
    if all(v.winnable is False for v in quick):
        return True
    if any(v.winnable for v in quick):
        return False
    results: list[bool | None] = []
    for c, q in zip((chess.WHITE, chess.BLACK), quick, strict=True):
        if q.winnable is False:
            results.append(False)
            continue
        v = can_checkmate(board, c, nodes=nodes, seconds=seconds)
        if v.winnable:
            return False
        results.append(v.winnable)
    if all(r is False for r in results):
        return True
    return None
