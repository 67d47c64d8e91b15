# SPDX-License-Identifier: GPL-3.0-or-later
"""The answer type shared by every part of the dead-position solver."""

from __future__ import annotations

from dataclasses import dataclass

import chess


@dataclass(frozen=True)
class Verdict:
    """Can ``color`` still checkmate, by any series of legal moves?

    ``winnable`` is ``True`` only with a replay-verified ``line`` ending in
    checkmate delivered by ``color``; ``False`` only when impossibility is
    proven; ``None`` when the budget ran out first.
    """

    winnable: bool | None
    line: tuple[chess.Move, ...] | None
    nodes: int
    reason: str


def undecided(nodes: int, reason: str = "budget exhausted") -> Verdict:
    """A verdict that claims nothing."""
    return Verdict(None, None, nodes, reason)


def unwinnable(nodes: int, reason: str) -> Verdict:
    """A verdict proving that mate is impossible."""
    return Verdict(False, None, nodes, reason)
