# SPDX-License-Identifier: GPL-3.0-or-later
"""Distance tables of the walk's move order: king steps and knight jumps between squares."""

from __future__ import annotations

from typing import Final

import chess


def _knight_distances() -> list[list[int]]:
    table = []
    for src in chess.SQUARES:
        dist = [99] * 64
        dist[src] = 0
        frontier = [src]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for s in frontier:
                for t in chess.scan_forward(chess.BB_KNIGHT_ATTACKS[s]):
                    if dist[t] == 99:
                        dist[t] = d
                        nxt.append(t)
            frontier = nxt
        table.append(dist)
    return table


KNIGHT_DISTANCE: Final = _knight_distances()
DISTANCE: Final = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
