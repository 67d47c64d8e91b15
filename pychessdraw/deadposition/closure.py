# SPDX-License-Identifier: GPL-3.0-or-later
"""Exhaustive exploration of every reachable position (no depth limit).

Many dead positions are dead because play is confined: kings shuffle behind
locked pawns, a rook is stuck under its own king, pawns run into each other.
Their game tree is infinite but the set of reachable *positions* is small, so
a depth-first walk that never revisits a position visits them all.  If the
walk finishes without finding a mate by the winner, mate is impossible.
Positions where the material or the reachability proof already rules out a
mate are not expanded (the reachability proof is only re-run after captures
and pawn moves, the only moves that change it much, and only while some
pawns are locked head-on).

Limits: only useful when the reachable set fits the node budget; the walk
finds *a* helpmate, not the shortest.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Final

import chess

from .budget import Budget
from .helpmate import mating_move
from .keys import Key, child_key, key
from .legal import Order, checkers_mask, has_free_flights, legal_moves, legality
from .material import material_cannot_mate
from .ordering import staged_moves
from .reach import reach_cannot_mate
from .static import head_on_pawns, reach_applicable
from .verify import verify_played


def explore(
    board: chess.Board,
    winner: chess.Color,
    budget: Budget,
    *,
    reach_proofs: bool = True,
    mate_probes: bool = False,
    order: Order = staged_moves,
) -> tuple[bool | None, list[chess.Move]]:
    """Walk every reachable position from ``board`` (mutated, restored on return).

    ``reach_proofs=False`` prunes only by material: a short dive looking for
    a mate does not pay a millisecond per capture for a proof it rarely uses
    (positions are then walked instead of pruned, which is as sound).
    ``mate_probes=True`` looks for a mate in one (checking moves only)
    before expanding a position where ``winner`` is to move: a dive then
    ends at the first mate within reach instead of wandering on.
    ``order``: the moves' order (``ordering.dive_moves`` for a dive).

    Returns ``(True, line)`` on a mate by ``winner``, ``(False, [])`` when the
    reachable set is exhausted without one, ``(None, [])`` when the budget ran out.
    A line is returned only once python-chess has checked it on this board
    (``verify_played``); one it refused is withheld as ``(None, [])``.
    """
    visited: set[Key] = {key(board)}
    path: list[chess.Move] = []
    # Children are generated lazily (most are never tried): a generator may
    # be advanced only while ``board`` is at its position.
    dive = order is not staged_moves  # a dive's order (see below)

    stack = [legal_moves(board, winner, order, checkers_mask(board))]
    # Looked up once: the loop runs once a node.
    push, pop, spend, seen = board.push, board.pop, budget.spend, visited.add
    try:
        while stack:
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if path:
                    path.pop()
                    pop()
                continue
            if spend():
                return None, []
            # The dive seldom meets a known position: it plays first and keys after.
            after = None if dive else child_key(board, move)
            if after is not None and after in visited:
                continue  # known position: no need to play the move
            push(move)
            if after is None:
                after = key(board)
                if after in visited:
                    pop()
                    continue
            seen(after)
            path.append(move)
            turn = board.turn
            checkers = checkers_mask(board)
            # The loser in check: mated or not, ``_replies`` tells (sooner).
            in_check = checkers and turn != winner
            replies = _replies(board, winner, order, checkers) if in_check else None
            if in_check and replies is None:
                return _proven(board, winner, path)
            # past the first ply, a quiet move keeps ``dead_end``'s verdict (see there)
            if (board.halfmove_clock == 0 or len(path) == 1) and dead_end(board, winner, reach_proofs):
                path.pop()
                pop()
                continue
            mate, legal = _probe(board, winner, checkers) if mate_probes and turn == winner else (None, None)
            if mate is not None:
                push(mate)
                path.append(mate)
                return _proven(board, winner, path)  # the probe's own parry test: python-chess asked again
            stack.append(replies or legal_moves(board, winner, order, checkers, legal))
        return False, []
    finally:
        for _ in range(len(path)):
            board.pop()


def _proven(board: chess.Board, winner: chess.Color, path: list[chess.Move]) -> tuple[bool | None, list[chess.Move]]:
    """``explore``'s answer on a mate by ``winner`` reached by ``path``: the
    line once ``verify_played`` has checked it (``path`` emptied, ``board``
    unwound to the walk's start), else ``(None, [])``."""
    line = list(path)
    path.clear()  # unwound here, not by the walk's ``finally``
    return (True, line) if verify_played(board, winner, len(line)) else (None, [])


def _replies(board: chess.Board, winner: chess.Color, order: Order, checkers: int) -> Iterator[chess.Move] | None:
    """The legal moves of ``board`` in ``order`` (as ``legal_moves``), or
    None where there is none: the walk's own generator finds a first move
    sooner than python-chess's (which ``verify_played`` still asks of a mate)."""
    replies = legal_moves(board, winner, order, checkers)
    first = next(replies, None)
    return None if first is None else itertools.chain((first,), replies)


def _probe(
    board: chess.Board, winner: chess.Color, checkers: int
) -> tuple[chess.Move | None, Callable[[chess.Move], bool] | None]:
    """A mate in one for ``winner`` (to move) where the loser's king is
    boxed in, and the position's legality test if one was made for it (the
    walk's moves from here reuse it)."""
    if not _boxed_in(board, winner):
        return None, None
    legal = legality(board, checkers)
    return mating_move(board, winner, checkers, legal)[0], legal


FREE_FLIGHTS: Final = 2


def _boxed_in(board: chess.Board, winner: chess.Color) -> bool:
    """Is the loser's king short of flight squares (fewer than
    ``FREE_FLIGHTS`` neither blocked by its own pieces nor attacked)? Only
    then is a mate in one worth looking for (a heuristic: it only decides
    where the dive looks, never what it proves)."""
    king = board.kings & board.occupied_co[not winner] & ~board.promoted  # ``board.king(not winner)``
    return bool(king) and not has_free_flights(board, winner, king.bit_length() - 1, FREE_FLIGHTS)


def dead_end(board: chess.Board, winner: chess.Color, reach_proofs: bool = True) -> bool:
    """Is this freshly reached position proven to be without mate?

    After a move that takes nothing and moves no pawn the answer is the one
    of the position before (``explore`` asks again only after a capture or a
    pawn move, and on the first ply): the material is the same, the
    reachability proof runs only after such a move, and the one proof that
    reads the position (``material._always_parried``: no double check) can
    change only from a position set up in double check, a walk's start."""
    if material_cannot_mate(board, winner):
        return True
    if reach_proofs and _zeroing(board) and head_on_pawns(board) and reach_applicable(board):
        return reach_cannot_mate(board, winner) is not None
    return False


def _zeroing(board: chess.Board) -> bool:
    """Was the last move a capture or pawn move (halfmove clock reset)?"""
    return board.halfmove_clock == 0
