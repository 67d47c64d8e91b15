# SPDX-License-Identifier: GPL-3.0-or-later
"""Known mate patterns for small material, and the targets they give.

``PATTERNS`` holds, for every material of at most three men besides the
kings, without pawns, that can mate at all, a few checkmates with the
defender's king in the corner a8 (the mating side White, the defender to
move).  They were found by a search over the placements near the corner
(every placement for one or two men, a sample for three), the most compact
kept for each colour of the bishops; K+N+B v K keeps all 64 of its mates
(its walks are long, and more targets halve them), and K+N+B v K+Q,
besides its four, each of them with the queen on the square furthest from the corner where the
mate holds (measured: for K+N+B against a rook, a bishop or a knight the
longer list costs more than it saves), and K+B v K+B its checking
bishop on every square of the long diagonal (a third of the nodes);
``tests/test_material.py`` checks
that each one is a checkmate of its material.  Materials with no entry are
those ``material.material_cannot_mate`` proves can never mate (a lone
knight or bishop against queens, bishops of one colour with nothing to
block the other colour, ...).

``pattern_targets`` turns them into targets for ``directed.walk_to``: every
pattern of the material on the board (pawns counted as the pieces they can
promote to on their own file), turned by the board's eight symmetries and
the colours swapped where Black mates (``placements``, once per material),
and, where the mating side has a surplus piece (or two), the patterns of
the material without it, that piece standing still (``_frozen``),
cheapest first.

Limits: patterns for at most five men; a target needs every man of the
board in it (no capture is planned), a surplus piece on its own square.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Sequence
from typing import Final

import chess

from .budget import Budget
from .directed import FAR, TOTAL, Target, best_first, man_steps, piece_steps, walk_to
from .distances import DISTANCE

MAX_MEN: Final = 5  # kings included
PIECE_LETTERS: Final = "NBRQ"

PATTERNS: Final[dict[str, tuple[str, ...]]] = {
    "KQ/K": (
        "k1K5/1Q6/8/8/8/8/8/8",
        "k7/1Q6/1K6/8/8/8/8/8",
    ),
    "KR/K": (
        "k1K5/8/R7/8/8/8/8/8",
        "k1R5/8/1K6/8/8/8/8/8",
    ),
    "KB/KB": (
        "k1K5/bB6/8/8/8/8/8/8",
        "k7/bBK5/8/8/8/8/8/8",
        "kb6/8/K1B5/8/8/8/8/8",
        "kb6/8/K7/3B4/8/8/8/8",
        "kb6/8/K7/8/4B3/8/8/8",
        "kb6/8/K7/8/8/5B2/8/8",
        "kb6/8/K7/8/8/8/6B1/8",
        "kb6/8/K7/8/8/8/8/7B",
        "kb6/8/1KB5/8/8/8/8/8",
        "kb6/8/1K6/3B4/8/8/8/8",
        "kb6/8/1K6/8/4B3/8/8/8",
        "kb6/8/1K6/8/8/5B2/8/8",
        "kb6/8/1K6/8/8/8/6B1/8",
        "kb6/8/1K6/8/8/8/8/7B",
    ),
    "KB/KN": (
        "k7/nBK5/8/8/8/8/8/8",
        "kn6/1B6/1K6/8/8/8/8/8",
    ),
    "KBB/K": (
        "k7/BB6/1K6/8/8/8/8/8",
        "k7/BB6/K7/8/8/8/8/8",
    ),
    "KBQ/K": (
        "k1K5/BQ6/8/8/8/8/8/8",
        "k7/BQ6/1K6/8/8/8/8/8",
        "k7/QB6/1K6/8/8/8/8/8",
        "k7/QB6/K7/8/8/8/8/8",
    ),
    "KBR/K": (
        "kB6/R1K5/8/8/8/8/8/8",
        "kBK5/R7/8/8/8/8/8/8",
        "k1K5/1B6/R7/8/8/8/8/8",
        "k1R5/1B6/1K6/8/8/8/8/8",
    ),
    "KN/KB": (
        "k1K5/b1N5/8/8/8/8/8/8",
        "kb6/8/KN6/8/8/8/8/8",
    ),
    "KN/KN": (
        "k7/n1K5/1N6/8/8/8/8/8",
        "kn6/2N5/1K6/8/8/8/8/8",
    ),
    "KN/KR": (
        "k1K5/r7/1N6/8/8/8/8/8",
        "kr6/2N5/K7/8/8/8/8/8",
    ),
    "KNB/K": (
        "k7/8/KN6/8/8/8/7B/8",
        "k7/8/KN6/8/8/6B1/8/8",
        "k7/8/KN6/8/5B2/8/8/8",
        "k7/8/KN6/4B3/8/8/8/8",
        "k7/8/KN1B4/8/8/8/8/8",
        "k7/B7/KN6/8/8/8/8/8",
        "k7/2B5/KN6/8/8/8/8/8",
        "k7/1B6/K1N5/8/8/8/8/8",
        "k7/B1N5/K7/8/8/8/8/8",
        "k7/3N4/K7/8/8/8/8/7B",
        "k7/3N4/K7/8/8/8/6B1/8",
        "k7/3N4/K7/8/8/5B2/8/8",
        "k7/3N4/K7/8/4B3/8/8/8",
        "k7/3N4/K7/3B4/8/8/8/8",
        "k7/3N4/K1B5/8/8/8/8/8",
        "k7/1B1N4/K7/8/8/8/8/8",
        "k7/8/NK6/8/8/8/8/7B",
        "k7/8/NK6/8/8/8/6B1/8",
        "k7/8/NK6/8/8/5B2/8/8",
        "k7/8/NK6/8/4B3/8/8/8",
        "k7/8/NK6/3B4/8/8/8/8",
        "k7/8/NKB5/8/8/8/8/8",
        "k7/1B6/NK6/8/8/8/8/8",
        "k7/1B6/1KN5/8/8/8/8/8",
        "k7/B1N5/1K6/8/8/8/8/8",
        "k7/3N4/1K6/8/8/8/8/7B",
        "k7/3N4/1K6/8/8/8/6B1/8",
        "k7/3N4/1K6/8/8/5B2/8/8",
        "k7/3N4/1K6/8/4B3/8/8/8",
        "k7/3N4/1K6/3B4/8/8/8/8",
        "k7/3N4/1KB5/8/8/8/8/8",
        "k7/1B1N4/1K6/8/8/8/8/8",
        "k7/2K5/8/1N6/8/8/8/7B",
        "k7/2K5/8/1N6/8/8/6B1/8",
        "k7/2K5/8/1N6/8/5B2/8/8",
        "k7/2K5/8/1N6/4B3/8/8/8",
        "k7/2K5/8/1N1B4/8/8/8/8",
        "k7/2K5/2B5/1N6/8/8/8/8",
        "k7/1BK5/8/1N6/8/8/8/8",
        "kB6/2K5/1N6/8/8/8/8/8",
        "k7/1BK5/2N5/8/8/8/8/8",
        "k1N5/2K5/8/8/8/8/8/7B",
        "k1N5/2K5/8/8/8/8/6B1/8",
        "k1N5/2K5/8/8/8/5B2/8/8",
        "k1N5/2K5/8/8/4B3/8/8/8",
        "k1N5/2K5/8/3B4/8/8/8/8",
        "k1N5/2K5/2B5/8/8/8/8/8",
        "k1N5/1BK5/8/8/8/8/8/8",
        "k1K5/8/8/1N6/8/8/8/7B",
        "k1K5/8/8/1N6/8/8/6B1/8",
        "k1K5/8/8/1N6/8/5B2/8/8",
        "k1K5/8/8/1N6/4B3/8/8/8",
        "k1K5/8/8/1N1B4/8/8/8/8",
        "k1K5/8/2B5/1N6/8/8/8/8",
        "k1K5/1B6/8/1N6/8/8/8/8",
        "kBK5/8/1N6/8/8/8/8/8",
        "k1K5/1B6/2N5/8/8/8/8/8",
        "k1K5/2N5/8/8/8/8/8/6B1",
        "k1K5/2N5/8/8/8/8/5B2/8",
        "k1K5/2N5/8/8/8/4B3/8/8",
        "k1K5/2N5/8/8/3B4/8/8/8",
        "k1K5/2N5/8/2B5/8/8/8/8",
        "k1K5/2N5/1B6/8/8/8/8/8",
        "kBK5/2N5/8/8/8/8/8/8",
    ),
    "KNN/K": (
        "k1K5/2N5/2N5/8/8/8/8/8",
        "k1K5/8/1NN5/8/8/8/8/8",
    ),
    "KNQ/K": (
        "k1K5/NQ6/8/8/8/8/8/8",
        "k7/NQ6/1K6/8/8/8/8/8",
    ),
    "KNR/K": (
        "k1K5/1N6/R7/8/8/8/8/8",
        "k1K5/1R6/1N6/8/8/8/8/8",
    ),
    "KQ/KB": (
        "k1K5/bQ6/8/8/8/8/8/8",
        "k7/bQ6/2K5/8/8/8/8/8",
        "k7/Qb6/1K6/8/8/8/8/8",
        "kQ6/1bK5/8/8/8/8/8/8",
    ),
    "KQ/KN": (
        "k7/Qn6/1K6/8/8/8/8/8",
        "k7/Qn6/K7/8/8/8/8/8",
    ),
    "KQ/KQ": (
        "k1q5/Q7/1K6/8/8/8/8/8",
        "kQ6/2K5/q7/8/8/8/8/8",
    ),
    "KQ/KR": (
        "kQK5/r7/8/8/8/8/8/8",
        "kr6/Q7/K7/8/8/8/8/8",
    ),
    "KQQ/K": (
        "k1K5/QQ6/8/8/8/8/8/8",
        "k7/QQ6/1K6/8/8/8/8/8",
    ),
    "KR/KB": (
        "k1K5/2b5/R7/8/8/8/8/8",
        "k1R5/8/Kb6/8/8/8/8/8",
        "k1K5/8/R1b5/8/8/8/8/8",
        "k1R5/8/1Kb5/8/8/8/8/8",
    ),
    "KR/KN": (
        "kR6/n1K5/8/8/8/8/8/8",
        "kn6/R7/1K6/8/8/8/8/8",
    ),
    "KR/KQ": (
        "k1K5/8/R7/3q4/8/8/8/8",
        "k1R5/8/1K6/3q4/8/8/8/8",
    ),
    "KR/KR": (
        "kRK5/r7/8/8/8/8/8/8",
        "kr6/R7/K7/8/8/8/8/8",
    ),
    "KRQ/K": (
        "k1K5/QR6/8/8/8/8/8/8",
        "k1K5/RQ6/8/8/8/8/8/8",
    ),
    "KRR/K": (
        "k1K5/RR6/8/8/8/8/8/8",
        "k7/RR6/1K6/8/8/8/8/8",
    ),
    "KB/KBB": (
        "kbK5/bB6/8/8/8/8/8/8",
        "kb6/1Bb5/K7/8/8/8/8/8",
        "k1K5/bB6/8/1b6/8/8/8/8",
        "kb6/1B1b4/K7/8/8/8/8/8",
    ),
    "KB/KBQ": (
        "k1K5/b7/2B5/4q3/8/8/8/8",
        "kb6/8/K1B5/4q3/8/8/8/8",
    ),
    "KB/KBR": (
        "k7/bBK5/r7/8/8/8/8/8",
        "k1K5/bB6/3r4/8/8/8/8/8",
    ),
    "KB/KNB": (
        "kb6/nB6/1K6/8/8/8/8/8",
        "knK5/bB6/8/8/8/8/8/8",
        "k7/nBK5/8/1b6/8/8/8/8",
        "k3b3/nBK5/8/8/8/8/8/8",
    ),
    "KB/KNN": (
        "kn6/nB6/1K6/8/8/8/8/8",
        "kn6/nBK5/8/8/8/8/8/8",
    ),
    "KB/KNQ": (
        "k7/nBK5/8/8/3q4/8/8/8",
        "kn6/1B6/1K6/4q3/8/8/8/8",
    ),
    "KB/KNR": (
        "kn6/1B6/1K6/2r5/8/8/8/8",
        "kn6/1B6/1K6/r7/8/8/8/8",
    ),
    "KBB/KB": (
        "kBK5/bB6/8/8/8/8/8/8",
        "k1K5/bB6/1B6/8/8/8/8/8",
        "k7/BB1b4/1K6/8/8/8/8/8",
        "k7/BB6/1K6/1b6/8/8/8/8",
        "k7/b1K5/B1B5/8/8/8/8/8",
        "k7/bBK5/8/1B6/8/8/8/8",
    ),
    "KBB/KN": (
        "k1n5/BB6/K7/8/8/8/8/8",
        "k7/BB6/K1n5/8/8/8/8/8",
        "k7/nBK5/B7/8/8/8/8/8",
        "k7/nBK5/8/1B6/8/8/8/8",
    ),
    "KBB/KQ": (
        "k2q4/1BB5/K7/8/8/8/8/8",
        "k3q3/BB6/1K6/8/8/8/8/8",
    ),
    "KBB/KR": (
        "kB6/1BK5/r7/8/8/8/8/8",
        "k7/1BK5/rB6/8/8/8/8/8",
    ),
    "KBBB/K": (
        "kB6/BB6/1K6/8/8/8/8/8",
        "kB6/BB6/2K5/8/8/8/8/8",
        "k1B5/BB6/K7/8/8/8/8/8",
        "k7/BB6/BK6/8/8/8/8/8",
    ),
    "KBBQ/K": (
        "kB6/BQ6/K7/8/8/8/8/8",
        "k7/BQ6/KB6/8/8/8/8/8",
        "kB6/QB6/2K5/8/8/8/8/8",
        "kQK5/BB6/8/8/8/8/8/8",
        "k7/QB6/1KB5/8/8/8/8/8",
        "kQ6/1BK5/B7/8/8/8/8/8",
    ),
    "KBBR/K": (
        "kR6/B1K5/1B6/8/8/8/8/8",
        "k1R5/B1B5/K7/8/8/8/8/8",
        "k1R5/BB6/K7/8/8/8/8/8",
        "k7/BB6/R1K5/8/8/8/8/8",
        "k1K5/1B6/R7/3B4/8/8/8/8",
        "k1R5/1B1B4/1K6/8/8/8/8/8",
    ),
    "KBQ/KB": (
        "k7/bQB5/2K5/8/8/8/8/8",
        "k7/bQK5/1B6/8/8/8/8/8",
        "kB6/Q1K5/b7/8/8/8/8/8",
        "kQ6/1bB5/1K6/8/8/8/8/8",
        "kQ6/bBK5/8/8/8/8/8/8",
        "kQK5/bB6/8/8/8/8/8/8",
        "kQK5/1B6/b7/8/8/8/8/8",
        "kQb5/1BK5/8/8/8/8/8/8",
    ),
    "KBQ/KN": (
        "kB6/nQ6/K7/8/8/8/8/8",
        "kBK5/Qn6/8/8/8/8/8/8",
        "kQ6/nBK5/8/8/8/8/8/8",
        "k1B5/Qn6/1K6/8/8/8/8/8",
    ),
    "KBQ/KQ": (
        "k2q4/BQ6/K7/8/8/8/8/8",
        "kB6/Q1K5/8/3q4/8/8/8/8",
        "kq6/QB6/K7/8/8/8/8/8",
        "k1q5/QB6/1K6/8/8/8/8/8",
    ),
    "KBQ/KR": (
        "kBr5/Q7/K7/8/8/8/8/8",
        "k1K5/1QB5/2r5/8/8/8/8/8",
        "kQ6/1BK5/1r6/8/8/8/8/8",
        "kQK5/1B6/1r6/8/8/8/8/8",
    ),
    "KBQQ/K": (
        "kB6/QQ6/2K5/8/8/8/8/8",
        "kB6/QQ6/K7/8/8/8/8/8",
        "k1B5/QQK5/8/8/8/8/8/8",
        "k7/QB6/1QK5/8/8/8/8/8",
    ),
    "KBR/KB": (
        "k1K5/R1b5/1B6/8/8/8/8/8",
        "kBK5/2b5/R7/8/8/8/8/8",
        "kB6/R1K5/2b5/8/8/8/8/8",
        "kR6/1bK5/1B6/8/8/8/8/8",
        "kb6/1BR5/1K6/8/8/8/8/8",
        "k1K5/1B6/Rb6/8/8/8/8/8",
        "k1B5/2K5/R1b5/8/8/8/8/8",
        "k2R4/1B6/K1b5/8/8/8/8/8",
    ),
    "KBR/KN": (
        "kR6/Bn6/K7/8/8/8/8/8",
        "k7/RnB5/K7/8/8/8/8/8",
        "k1R5/nB6/1K6/8/8/8/8/8",
        "kRB5/n1K5/8/8/8/8/8/8",
    ),
    "KBR/KQ": (
        "k1q5/R1B5/1K6/8/8/8/8/8",
        "kB6/R1K5/8/1q6/8/8/8/8",
        "k1K5/qB6/R7/8/8/8/8/8",
        "kq6/R7/K7/3B4/8/8/8/8",
    ),
    "KBR/KR": (
        "kB6/R1K5/1r6/8/8/8/8/8",
        "kR6/B7/1K6/r7/8/8/8/8",
        "kRK5/r7/2B5/8/8/8/8/8",
        "kr6/1B6/RK6/8/8/8/8/8",
    ),
    "KBRQ/K": (
        "kB6/QR6/1K6/8/8/8/8/8",
        "kB6/RQ6/1K6/8/8/8/8/8",
        "k1B5/QRK5/8/8/8/8/8/8",
        "k7/QB6/RK6/8/8/8/8/8",
    ),
    "KBRR/K": (
        "kB6/RRK5/8/8/8/8/8/8",
        "kBK5/RR6/8/8/8/8/8/8",
        "k1K5/RR6/B7/8/8/8/8/8",
        "k7/RR6/B1K5/8/8/8/8/8",
    ),
    "KN/KBB": (
        "kb6/4b3/KN6/8/8/8/8/8",
        "k1K5/b1N5/2b5/8/8/8/8/8",
        "k1K5/b1N5/8/1b6/8/8/8/8",
    ),
    "KN/KBQ": (
        "k1K5/b1N5/8/8/3q4/8/8/8",
        "kb6/8/KN6/4q3/8/8/8/8",
    ),
    "KN/KBR": (
        "k1K5/b1N5/r7/8/8/8/8/8",
        "k1K5/b1N5/8/r7/8/8/8/8",
        "kr6/1bN5/1K6/8/8/8/8/8",
        "k1K5/r7/1N6/8/4b3/8/8/8",
    ),
    "KN/KNB": (
        "kb6/8/KN6/n7/8/8/8/8",
        "k1K5/b1N5/8/4n3/8/8/8/8",
        "k7/n1K5/1N2b3/8/8/8/8/8",
    ),
    "KN/KNN": (
        "k7/nnK5/1N6/8/8/8/8/8",
        "k7/n1K5/1N1n4/8/8/8/8/8",
    ),
    "KN/KNQ": (
        "k1K5/qnN5/8/8/8/8/8/8",
        "k7/n1K5/1N6/8/q7/8/8/8",
    ),
    "KN/KNR": (
        "k1K5/rnN5/8/8/8/8/8/8",
        "kr6/1n6/KN6/8/8/8/8/8",
    ),
    "KN/KRQ": ("kr6/2N5/K7/8/4q3/8/8/8",),
    "KN/KRR": (
        "k1K5/r2r4/1N6/8/8/8/8/8",
        "k1K5/r7/1N6/r7/8/8/8/8",
    ),
    "KNB/KB": (
        "kb6/B7/KN6/8/8/8/8/8",
        "k7/B7/KN1b4/8/8/8/8/8",
        "k1K5/2N5/1Bb5/8/8/8/8/8",
        "k1K5/2N5/2b5/2B5/8/8/8/8",
        "kNK5/bB6/8/8/8/8/8/8",
        "kb6/NB6/1K6/8/8/8/8/8",
        "k7/1BK5/2N5/3b4/8/8/8/8",
        "k1K5/1B6/2N5/8/4b3/8/8/8",
    ),
    "KNB/KN": (
        "k7/BnN5/K7/8/8/8/8/8",
        "k7/n1B5/KN6/8/8/8/8/8",
        "k7/nB6/1KN5/8/8/8/8/8",
        "kn6/1BN5/1K6/8/8/8/8/8",
    ),
    "KNB/KQ": (
        "kB6/2K5/1N6/3q4/8/8/8/8",
        "k7/2Bq4/KN6/8/8/8/8/8",
        "k1K5/qB6/1N6/8/8/8/8/8",
        "k1K5/q1N5/2B5/8/8/8/8/8",
        "k7/8/KN6/8/8/8/7B/2q5",
        "k7/8/KN6/8/8/6B1/8/2q5",
        "k7/8/KN6/8/5B2/8/8/2q5",
        "k7/8/KN6/4B3/8/8/8/2q5",
        "k7/8/KN1B4/8/8/8/8/2q5",
        "k7/B7/KN6/8/8/8/8/2q5",
        "k7/2B5/KN6/8/8/8/8/2q5",
        "k7/1B6/K1N5/8/8/8/8/2q5",
        "k7/B1N5/K7/8/8/8/8/1q6",
        "k2q4/3N4/K7/8/8/8/8/7B",
        "k6q/3N4/K7/8/8/8/6B1/8",
        "k7/3N4/K7/8/8/5B2/8/6q1",
        "k7/3N4/K7/8/4B3/8/8/6q1",
        "k7/3N4/K7/3B4/8/8/8/4q3",
        "k7/3N4/K1B5/8/8/8/8/3q4",
        "k7/1B1N4/K7/8/8/8/8/2q5",
        "k7/8/NK6/8/8/8/6B1/q7",
        "k7/8/NK6/8/8/5B2/8/q7",
        "k7/8/NK6/8/4B3/8/8/q7",
        "k7/8/NK6/3B4/8/8/8/q7",
        "k7/8/NKB5/8/8/8/8/q7",
        "k7/1B6/NK6/8/8/8/8/q7",
        "k7/1B6/1KN5/8/8/8/8/q7",
        "k7/B1N5/1K6/8/8/8/8/q7",
        "k7/3N4/1K6/8/8/8/6B1/q7",
        "k7/3N4/1K6/8/8/5B2/8/q7",
        "k7/3N4/1K6/8/4B3/8/8/q7",
        "k7/3N4/1K6/3B4/8/8/8/q7",
        "k7/3N4/1KB5/8/8/8/8/q7",
        "k7/1B1N4/1K6/8/8/8/8/q7",
        "k7/2K5/8/1N6/8/8/6B1/q7",
        "k7/2K5/8/1N6/8/5B2/8/q7",
        "k7/2K5/8/1N6/4B3/8/8/q7",
        "k7/2K5/8/1N1B4/8/8/8/q7",
        "k7/2K5/2B5/1N6/8/8/8/q7",
        "k7/1BK5/8/1N6/8/8/8/q7",
        "kB6/2K5/1N6/8/8/8/8/q7",
        "k7/1BK5/2N5/8/8/8/8/q7",
        "k1N5/2K5/8/8/8/8/6B1/q7",
        "k1N5/2K5/8/8/8/5B2/8/q7",
        "k1N5/2K5/8/8/4B3/8/8/q7",
        "k1N5/2K5/8/3B4/8/8/8/q7",
        "k1N5/2K5/2B5/8/8/8/8/q7",
        "k1N5/1BK5/8/8/8/8/8/q7",
        "k1K5/8/8/qN6/8/8/8/7B",
        "k1K5/8/8/1N6/8/8/6B1/q7",
        "k1K5/8/8/1N6/8/5B2/8/q7",
        "k1K5/8/8/1N6/4B3/8/8/q7",
        "k1K5/8/8/1N1B4/8/8/8/q7",
        "k1K5/8/2B5/1N6/8/8/8/q7",
        "k1K5/1B6/8/1N6/8/8/8/q7",
        "kBK5/8/1N6/8/8/8/8/q7",
        "k1K5/1B6/2N5/8/8/8/8/q7",
        "k1K5/2N5/8/8/8/8/8/q5B1",
        "k1K5/2N5/8/8/8/8/5B2/q7",
        "k1K5/2N5/8/8/8/4B3/8/q7",
        "k1K5/2N5/8/8/3B4/8/8/q7",
        "k1K5/2N5/8/2B5/8/8/8/q7",
        "k1K5/2N5/1B6/8/8/8/8/q7",
        "kBK5/2N5/8/8/8/8/8/q7",
    ),
    "KNB/KR": (
        "kr6/B1N5/K7/8/8/8/8/8",
        "kBK5/2N5/r7/8/8/8/8/8",
        "k7/rBK5/1N6/8/8/8/8/8",
        "kr6/1BN5/K7/8/8/8/8/8",
    ),
    "KNBB/K": (
        "kB6/B7/KN6/8/8/8/8/8",
        "k7/B1B5/KN6/8/8/8/8/8",
        "kN6/BB6/1K6/8/8/8/8/8",
        "k1K5/BB6/2N5/8/8/8/8/8",
        "k1B5/1B6/NK6/8/8/8/8/8",
        "k1B5/1B1N4/1K6/8/8/8/8/8",
    ),
    "KNBQ/K": (
        "k1K5/NQ6/1B6/8/8/8/8/8",
        "k1N5/BQ6/K7/8/8/8/8/8",
        "k1B5/NQ6/K7/8/8/8/8/8",
        "k1K5/QB6/2N5/8/8/8/8/8",
    ),
    "KNBR/K": (
        "kBK5/RN6/8/8/8/8/8/8",
        "k1R5/BN6/1K6/8/8/8/8/8",
        "kNK5/1B6/R7/8/8/8/8/8",
        "k1K5/1N6/R1B5/8/8/8/8/8",
    ),
    "KNN/KB": (
        "k1K5/bNN5/8/8/8/8/8/8",
        "kb6/1N6/KN6/8/8/8/8/8",
        "k1b5/2N5/1KN5/8/8/8/8/8",
        "k2K4/1b6/1NN5/8/8/8/8/8",
    ),
    "KNN/KN": (
        "k7/nNK5/1N6/8/8/8/8/8",
        "k1K5/1nN5/2N5/8/8/8/8/8",
    ),
    "KNN/KQ": (
        "k1K5/qNN5/8/8/8/8/8/8",
        "k1K5/2N5/2N5/1q6/8/8/8/8",
    ),
    "KNN/KR": (
        "kr6/1NN5/1K6/8/8/8/8/8",
        "kr6/1NN5/K7/8/8/8/8/8",
    ),
    "KNNB/K": (
        "kB6/1NK5/1N6/8/8/8/8/8",
        "kBK5/N7/1N6/8/8/8/8/8",
        "k1K5/NB6/2N5/8/8/8/8/8",
        "k1N5/NBK5/8/8/8/8/8/8",
    ),
    "KNNN/K": (
        "k1K5/N7/1NN5/8/8/8/8/8",
        "k7/1NN5/1KN5/8/8/8/8/8",
    ),
    "KNNQ/K": (
        "kN6/NQ6/K7/8/8/8/8/8",
        "kN6/QN6/K7/8/8/8/8/8",
    ),
    "KNNR/K": (
        "k1K5/NR6/1N6/8/8/8/8/8",
        "kN6/1RN5/K7/8/8/8/8/8",
    ),
    "KNQ/KB": (
        "k1K5/NQ6/1b6/8/8/8/8/8",
        "k1K5/bQ6/2N5/8/8/8/8/8",
        "k1N5/QbK5/8/8/8/8/8/8",
        "k7/QN6/bK6/8/8/8/8/8",
    ),
    "KNQ/KN": (
        "kN6/Qn6/K7/8/8/8/8/8",
        "kQ6/NnK5/8/8/8/8/8/8",
    ),
    "KNQ/KQ": (
        "kq6/1Q6/KN6/8/8/8/8/8",
        "kq6/1QN5/1K6/8/8/8/8/8",
    ),
    "KNQ/KR": (
        "k1K5/rQ6/1N6/8/8/8/8/8",
        "k1Q5/rN6/1K6/8/8/8/8/8",
    ),
    "KNQQ/K": (
        "kQ6/NQ6/1K6/8/8/8/8/8",
        "kQ6/QN6/2K5/8/8/8/8/8",
    ),
    "KNR/KB": (
        "kb6/1R6/1NK5/8/8/8/8/8",
        "k1R5/N7/Kb6/8/8/8/8/8",
        "k1N5/R1K5/b7/8/8/8/8/8",
        "k2K4/Rb6/2N5/8/8/8/8/8",
    ),
    "KNR/KN": (
        "kR6/nNK5/8/8/8/8/8/8",
        "k7/nR6/KN6/8/8/8/8/8",
    ),
    "KNR/KQ": (
        "kRK5/q1N5/8/8/8/8/8/8",
        "k1R5/q1N5/2K5/8/8/8/8/8",
    ),
    "KNR/KR": (
        "kRK5/r7/1N6/8/8/8/8/8",
        "kr6/1RN5/2K5/8/8/8/8/8",
    ),
    "KNRQ/K": (
        "kNK5/RQ6/8/8/8/8/8/8",
        "kQ6/NR6/K7/8/8/8/8/8",
    ),
    "KNRR/K": (
        "k1K5/RR6/1N6/8/8/8/8/8",
        "k1N5/RR6/K7/8/8/8/8/8",
    ),
    "KQ/KBB": (
        "kb6/bQ6/K7/8/8/8/8/8",
        "k1K5/bQb5/8/8/8/8/8/8",
        "kb6/1Q6/1K6/1b6/8/8/8/8",
        "kbK5/1Q6/8/1b6/8/8/8/8",
        "k7/Qb6/bK6/8/8/8/8/8",
        "kQ6/2K5/b1b5/8/8/8/8/8",
    ),
    "KQ/KBQ": (
        "k1K5/bQ6/8/q7/8/8/8/8",
        "k2q4/bQ6/K7/8/8/8/8/8",
        "kQ6/1bK5/q7/8/8/8/8/8",
        "kQ6/2K5/q1b5/8/8/8/8/8",
    ),
    "KQ/KBR": (
        "kQK5/r7/1b6/8/8/8/8/8",
        "k1K5/1Qb5/2r5/8/8/8/8/8",
        "kr6/Qb6/1K6/8/8/8/8/8",
        "k1r5/Q7/K1b5/8/8/8/8/8",
    ),
    "KQ/KNB": (
        "k1K5/bQ6/n7/8/8/8/8/8",
        "k7/bQK5/1n6/8/8/8/8/8",
        "k1b5/Qn6/K7/8/8/8/8/8",
        "k7/Qn6/1Kb5/8/8/8/8/8",
    ),
    "KQ/KNN": (
        "kQ6/nnK5/8/8/8/8/8/8",
        "kn6/nQ6/1K6/8/8/8/8/8",
    ),
    "KQ/KNQ": (
        "k7/Qn6/1K6/3q4/8/8/8/8",
        "kQ6/1nK5/8/1q6/8/8/8/8",
    ),
    "KQ/KNR": (
        "k1K5/1Qn5/2r5/8/8/8/8/8",
        "k1r5/1Q6/nK6/8/8/8/8/8",
    ),
    "KQ/KQQ": (
        "kQ6/2K5/q7/3q4/8/8/8/8",
        "k1q1q3/Q7/1K6/8/8/8/8/8",
    ),
    "KQ/KRQ": (
        "k1K5/1Q6/r7/q7/8/8/8/8",
        "k1q5/Q7/1K6/2r5/8/8/8/8",
    ),
    "KQ/KRR": (
        "kQK5/r7/r7/8/8/8/8/8",
        "kQK5/r7/8/3r4/8/8/8/8",
    ),
    "KQQ/KB": (
        "kQ6/bQ6/K7/8/8/8/8/8",
        "kb6/QQ6/K7/8/8/8/8/8",
        "k1b5/QQK5/8/8/8/8/8/8",
        "k7/QQ6/1Kb5/8/8/8/8/8",
    ),
    "KQQ/KN": (
        "kQ6/Qn6/K7/8/8/8/8/8",
        "kQK5/Qn6/8/8/8/8/8/8",
    ),
    "KQQ/KQ": (
        "kQ6/qQ6/2K5/8/8/8/8/8",
        "kq6/QQ6/1K6/8/8/8/8/8",
    ),
    "KQQ/KR": (
        "kQK5/Qr6/8/8/8/8/8/8",
        "kr6/QQK5/8/8/8/8/8/8",
    ),
    "KQQQ/K": (
        "k7/QQ6/1KQ5/8/8/8/8/8",
        "k7/QQ6/KQ6/8/8/8/8/8",
    ),
    "KR/KBB": (
        "k1Kb4/8/R7/b7/8/8/8/8",
        "k1R5/4b3/Kb6/8/8/8/8/8",
        "k1R5/8/K1b5/2b5/8/8/8/8",
        "k1R5/8/Kb6/3b4/8/8/8/8",
        "k1K5/8/R1b5/8/4b3/8/8/8",
        "k1K5/8/R1b5/8/b7/8/8/8",
    ),
    "KR/KBQ": (
        "k1K5/2b5/R7/8/1q6/8/8/8",
        "k1R5/8/K7/b2q4/8/8/8/8",
        "k1K5/8/R1b5/3q4/8/8/8/8",
        "k1K5/8/R1bq4/8/8/8/8/8",
    ),
    "KR/KBR": (
        "k1R5/r7/2K5/b7/8/8/8/8",
        "kr6/8/R1K5/b7/8/8/8/8",
        "kr6/2K5/R1b5/8/8/8/8/8",
        "kr6/R2b4/K7/8/8/8/8/8",
    ),
    "KR/KNB": (
        "k1K5/1nb5/R7/8/8/8/8/8",
        "kn6/R7/1K1b4/8/8/8/8/8",
        "kR6/n1K5/b7/8/8/8/8/8",
        "kRb5/n1K5/8/8/8/8/8/8",
    ),
    "KR/KNN": (
        "kR6/nnK5/8/8/8/8/8/8",
        "kRn5/n1K5/8/8/8/8/8/8",
    ),
    "KR/KNQ": (
        "kR6/n1K5/q7/8/8/8/8/8",
        "kR6/n1K5/8/3q4/8/8/8/8",
    ),
    "KR/KNR": (
        "kr6/Rn6/K7/8/8/8/8/8",
        "k1R5/rnK5/8/8/8/8/8/8",
    ),
    "KR/KQQ": (
        "k1R5/4q3/1K6/3q4/8/8/8/8",
        "k1R5/8/1K6/3q4/4q3/8/8/8",
    ),
    "KR/KRQ": (
        "kRK5/r7/8/3q4/8/8/8/8",
        "kr6/R7/K7/4q3/8/8/8/8",
    ),
    "KR/KRR": (
        "kRK5/r7/8/r7/8/8/8/8",
        "k1R5/r7/1K6/3r4/8/8/8/8",
    ),
    "KRQ/KB": (
        "kb6/RQ6/K7/8/8/8/8/8",
        "k1K5/QRb5/8/8/8/8/8/8",
        "k1K5/RQ6/2b5/8/8/8/8/8",
        "k1b5/QR6/K7/8/8/8/8/8",
    ),
    "KRQ/KN": (
        "kQ6/nR6/1K6/8/8/8/8/8",
        "kn6/QRK5/8/8/8/8/8/8",
    ),
    "KRQ/KQ": (
        "kq6/RQ6/1K6/8/8/8/8/8",
        "k1q5/RQ6/1K6/8/8/8/8/8",
    ),
    "KRQ/KR": (
        "kRK5/rQ6/8/8/8/8/8/8",
        "kr6/QR6/1K6/8/8/8/8/8",
    ),
    "KRQQ/K": (
        "kQ6/QR6/K7/8/8/8/8/8",
        "k1K5/QQ6/2R5/8/8/8/8/8",
    ),
    "KRR/KB": (
        "k7/RRb5/2K5/8/8/8/8/8",
        "kR6/1R6/1bK5/8/8/8/8/8",
        "k1K5/RR6/b7/8/8/8/8/8",
        "k7/RR6/b1K5/8/8/8/8/8",
    ),
    "KRR/KN": (
        "kR6/nR6/1K6/8/8/8/8/8",
        "kR6/nRK5/8/8/8/8/8/8",
    ),
    "KRR/KQ": (
        "kRK5/1R6/q7/8/8/8/8/8",
        "kRK5/q7/R7/8/8/8/8/8",
    ),
    "KRR/KR": (
        "kr6/RR6/2K5/8/8/8/8/8",
        "kr6/RR6/K7/8/8/8/8/8",
    ),
    "KRRQ/K": (
        "kQ6/RR6/2K5/8/8/8/8/8",
        "kQ6/RR6/K7/8/8/8/8/8",
    ),
    "KRRR/K": (
        "kRK5/RR6/8/8/8/8/8/8",
        "k1K5/RR6/1R6/8/8/8/8/8",
    ),
}


def material_key(board: chess.BaseBoard, color: chess.Color, promoted: dict[chess.Square, str]) -> str:
    """``"KNN/K"``: ``color``'s pieces, then the other side's, with the pawns
    as ``promoted`` names them."""
    sides = []
    for side in (color, not color):
        letters = []
        for square in chess.SquareSet(board.occupied_co[side] & ~board.kings):
            symbol = promoted.get(square) or chess.piece_symbol(board.piece_type_at(square) or chess.PAWN).upper()
            letters.append(symbol)
        sides.append("K" + "".join(sorted(letters, key=PIECE_LETTERS.index)))
    return "/".join(sides)


def symmetric(square: chess.Square, turn: int) -> chess.Square:
    """``square`` under the board's symmetry number ``turn`` (0 to 7)."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    if turn & 1:
        file = 7 - file
    if turn & 2:
        rank = 7 - rank
    if turn & 4:
        file, rank = rank, file
    return chess.square(file, rank)


@functools.cache
def placements(key: str, color: chess.Color) -> tuple[tuple[Target, ...], ...]:
    """Every pattern of the material ``key`` under the board's eight
    symmetries, as targets for ``color`` to mate (computed once per
    material and side, on first use: a material of many patterns, as
    K+N+B v K's 64, would cost milliseconds a question)."""
    out = []
    seen: set[frozenset[Target]] = set()
    for fen in PATTERNS.get(key, ()):
        placed = chess.BaseBoard(fen).piece_map()
        for turn in range(8):
            targets = [
                (piece.piece_type, color if piece.color == chess.WHITE else not color, symmetric(square, turn))
                for square, piece in placed.items()
            ]
            # A pattern that is another's mirror image along the diagonal
            # (K+N v K+R's two) gives each placement twice: kept once, so
            # that the walk's targets are all different.
            if frozenset(targets) in seen:
                continue
            seen.add(frozenset(targets))
            targets.sort(key=lambda target: target[0] != chess.KING)  # the kings first (``_fit``)
            out.append(tuple(targets))
    return tuple(out)


def pattern_targets(
    board: chess.BaseBoard, color: chess.Color, limit: int | None = None
) -> list[tuple[int, str, Sequence[Target]]]:
    """Every pattern that fits the material on ``board``, as targets for
    ``color`` to mate: ``(steps, key, targets)``, the fewest steps first
    (ties in the order found).  Pawns of ``color`` are planned as queens,
    the other side's as any piece.  With ``limit``, the first ``limit`` are
    the same, and a placement of a material's patterns or of a surplus
    piece's (``_frozen``) that can no longer be among them is not fitted
    to the end (``_Nearest``): K+N+B v K+Q has 512."""
    if chess.popcount(board.occupied) > MAX_MEN:
        return []
    pawns = list(chess.SquareSet(board.pawns))
    choices = ["Q" if board.color_at(square) == color else PIECE_LETTERS for square in pawns]
    kings = {side: board.king(side) for side in chess.COLORS}
    men = [
        (square, board.piece_type_at(square) or chess.PAWN, color if board.occupied_co[color] & bit else not color)
        for square, bit in (
            (square, chess.BB_SQUARES[square]) for square in chess.SquareSet(board.occupied & ~board.kings)
        )
    ]
    found: list[tuple[int, str, Sequence[Target]]] = []
    nearest = _Nearest(limit)
    distinct = _distinct(men)
    for names in itertools.product(*choices):
        promoted = dict(zip(pawns, names, strict=True))
        key = material_key(board, color, promoted)
        for targets in placements(key, color):
            bound = nearest.bound()
            steps = _fit(kings, men, targets, bound, distinct)
            if steps < bound:
                found.append((steps, key, targets))
                nearest.add(steps)
        found += _frozen(color, kings, men, promoted, nearest)
        found += _defender_kept(color, kings, men, promoted)
    found.sort(key=lambda item: item[0])
    return found


class _Nearest:
    """The ``limit`` fewest steps of the targets found so far (None: no
    limit).  A target as far or further comes after each of them in
    ``pattern_targets``'s stable sort, so it need not be fitted to the end."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.heap: list[int] = []  # the steps negated: the largest first

    def bound(self) -> int:
        """The steps from which a target is no longer among them."""
        return -self.heap[0] if self.limit is not None and len(self.heap) >= self.limit else FAR

    def add(self, steps: int) -> None:
        """A target found ``steps`` away."""
        if self.limit is not None:
            heapq.heappush(self.heap, -steps)
            if len(self.heap) > self.limit:
                heapq.heappop(self.heap)


def _frozen(
    color: chess.Color,
    kings: dict[chess.Color, chess.Square | None],
    men: list[tuple[chess.Square, chess.PieceType, chess.Color]],
    promoted: dict[chess.Square, str],
    nearest: _Nearest,
) -> list[tuple[int, str, Sequence[Target]]]:
    """``pattern_targets``'s targets of a surplus man or two: where
    ``color`` has two men or more besides the king, a pattern of the
    material without one of its pieces (not a pawn), that piece kept on
    its square (K+N+B v K's 64 mates for K+N+N+B v K, one knight standing
    still).  An extra man of the mating side rarely spoils a mate (it may
    block one of its own lines: the walk meets a real mate or none).
    Against any defender's men: once only against knights and bishops (a
    rook, a queen or a pawn led the walk astray), but since the walk
    weighs the defender's steps more (``directed.DEFENDER``) these targets
    help there too (measured on random positions of at most five men, as
    the rest: questions over 400 nodes 91 to 84).  Not for two bishops of
    one colour alone (K+B+B v K+N): the material's own patterns use both,
    and K+B v K+N's mates with the other bishop standing still, fewer steps
    away, drew the walk from them (8,944 nodes against 121 for
    ``2n5/8/7B/2k5/7K/8/8/B7 b - -``).  Where ``color`` has three men
    or more, the patterns without two of its pieces too, both kept (K+R v
    K's mates for K+N+B+R v K, the knight and the bishop standing still):
    the material's own patterns put every man on a square of its own, a
    longer walk (measured: questions over 400 nodes 102 to 91, those of a
    lone king 45 to 34).  ``promoted``: the pawns' names, as in
    ``material_key``."""
    ours = [man for man in men if man[2] == color]
    if len(ours) < 2:
        return []
    if _one_coloured_bishops(ours):
        return []
    found: list[tuple[int, str, Sequence[Target]]] = []
    pieces = [index for index, (_, piece, side) in enumerate(men) if side == color and piece != chess.PAWN]
    kept_sets: list[tuple[int, ...]] = [(index,) for index in pieces]
    if len(ours) > 2:
        kept_sets += itertools.combinations(pieces, 2)
    for kept_at in kept_sets:
        key, others = "", men
        for index in sorted(kept_at, reverse=True):  # the later first: the earlier keeps its index
            key, others = _without(others, index, color, promoted)
        kept: list[Target] = [(men[index][1], color, men[index][0]) for index in kept_at]
        squares = {square for _, _, square in kept}
        name = key + "".join(f"+{chess.piece_symbol(piece).upper()}" for piece, _, _ in kept)
        distinct = _distinct(others)
        for targets in placements(key, color):
            bound = nearest.bound()
            steps = _fit(kings, others, targets, bound, distinct)
            if steps < bound and all(end not in squares for _, _, end in targets):
                found.append((steps, name, (*targets, *kept)))
                nearest.add(steps)
    return found


def _without(
    men: list[tuple[chess.Square, chess.PieceType, chess.Color]],
    index: int,
    color: chess.Color,
    promoted: dict[chess.Square, str],
) -> tuple[str, list[tuple[chess.Square, chess.PieceType, chess.Color]]]:
    """The material key (``material_key``'s) of ``men`` without the one at
    ``index``, and the others.  From the list, not a board: no copy (whose
    move stack the compiled copy of python-chess cannot copy)."""
    others = men[:index] + men[index + 1 :]  # by index: mypyc's tuples have no identity
    sides = []
    for side in (color, not color):
        letters = [
            promoted.get(square) or chess.piece_symbol(piece).upper()
            for square, piece, owner in others
            if owner == side
        ]
        sides.append("K" + "".join(sorted(letters, key=PIECE_LETTERS.index)))
    return "/".join(sides), others


def _one_coloured_bishops(ours: list[tuple[chess.Square, chess.PieceType, chess.Color]]) -> bool:
    """Whether the men ``ours`` (square, piece, colour) are two bishops on
    squares of one colour."""
    if len(ours) != 2 or any(piece != chess.BISHOP for _, piece, _ in ours):
        return False
    first, second = (bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square]) for square, _, _ in ours)
    return first == second


HEAVY: Final = (chess.ROOK, chess.QUEEN)


def _defender_kept(
    color: chess.Color,
    kings: dict[chess.Color, chess.Square | None],
    men: list[tuple[chess.Square, chess.PieceType, chess.Color]],
    promoted: dict[chess.Square, str],
) -> list[tuple[int, str, Sequence[Target]]]:
    """``pattern_targets``'s targets of the defender's rook or queen kept
    on its square: the patterns of the material without it that stay
    checkmates with it there (``_still_mates``; a rook or queen mostly
    parries, so each one is tested): K+B v K+N+Q, K+B v K+N's mates with
    the queen standing still; K+B+B v K+R, K+B+B v K's.  A material's own
    patterns put such a piece on one square; these targets need no move
    of it (K+B+B v K+R's ``3B4/7K/8/8/8/4k3/B4r2/8 b - -``: 90 nodes, 5,624
    with its own patterns only).  ``promoted``: the pawns' names, as in
    ``material_key``.  A lone one only where the mating side has two men
    or more: with one, the walk's nodes saved cost less than the targets
    (measured on random positions of at most five men)."""
    mine = sum(1 for man in men if man[2] == color)
    if mine < 2 and len(men) - mine < 2:
        return []
    found: list[tuple[int, str, Sequence[Target]]] = []
    for index, (square, piece, side) in enumerate(men):
        if side == color or piece not in HEAVY:
            continue
        key, others = _without(men, index, color, promoted)
        for steps, targets in _nearest_mates(kings, others, placements(key, color), color, piece, square):
            found.append((steps, f"{key}+{chess.piece_symbol(piece)}", (*targets, (piece, side, square))))
    return found


def _nearest_mates(
    kings: dict[chess.Color, chess.Square | None],
    men: list[tuple[chess.Square, chess.PieceType, chess.Color]],
    placed: tuple[tuple[Target, ...], ...],
    color: chess.Color,
    piece: chess.PieceType,
    square: chess.Square,
) -> list[tuple[int, tuple[Target, ...]]]:
    """``_defender_kept``'s placements of ``placed`` that stay mates with
    the defender's ``piece`` on ``square`` (``color`` mating): the ``TRIED_TARGETS`` fewest
    steps away (``_fit``), ties in ``placed``'s order.  Each placement is
    ranked first by its kings' steps alone, a bound on ``_fit``: K+N+B v
    K's 512 placements, each fitted and tested for a mate, cost
    milliseconds a question."""
    white, black = kings[chess.WHITE], kings[chess.BLACK]
    if white is None or black is None:
        return []
    start = {chess.WHITE: white, chess.BLACK: black}
    bounds = sorted(
        (DISTANCE[start[targets[0][1]]][targets[0][2]] + DISTANCE[start[targets[1][1]]][targets[1][2]], index)
        for index, targets in enumerate(placed)
    )
    kept: list[tuple[int, int]] = []
    distinct = _distinct(men)
    for bound, index in bounds:
        # one as far as the last kept may still come before it (a lower index)
        last = kept[TRIED_TARGETS - 1][0] + 1 if len(kept) >= TRIED_TARGETS else FAR
        if bound >= last:
            break
        steps = _fit(kings, men, placed[index], last, distinct)
        if steps < last and _still_mates(placed[index], color, piece, square):
            kept.append((steps, index))
            kept.sort()
    return [(steps, placed[index]) for steps, index in kept[:TRIED_TARGETS]]


@functools.lru_cache(maxsize=8192)
def _still_mates(targets: tuple[Target, ...], color: chess.Color, piece: chess.PieceType, square: chess.Square) -> bool:
    """Whether the placement ``targets`` (``color`` mating) stays a
    checkmate with a ``piece`` of the defender's added on ``square``
    (cached: the nearest placements of one question are often the next
    one's)."""
    if any(end == square for _, _, end in targets):
        return False
    mate = chess.Board(None)
    for kind, side, end in targets:
        mate.set_piece_at(end, chess.Piece(kind, side))
    mate.set_piece_at(square, chess.Piece(piece, not color))
    mate.turn = not color
    return mate.is_checkmate() and not mate.was_into_check()


def _fit(
    kings: dict[chess.Color, chess.Square | None],
    men: list[tuple[chess.Square, chess.PieceType, chess.Color]],
    targets: Sequence[Target],
    bound: int = FAR,
    distinct: bool = False,
) -> int:
    """``directed.assign``'s moves in all for the men ``men`` (square, piece,
    colour) and the kings ``kings`` of one board, FAR where they do not
    fit, and ``bound`` or more (not the count) where they need as many.
    The men are listed once per board: ``assign`` would list them again
    for each of a material's hundreds of placements.  ``distinct``
    (``_distinct(men)``, the caller's, once per board): each man has one
    target, no other order is tried."""
    total = 0
    for _, side, end in targets[:2]:  # the kings (``placements`` puts them first)
        king = kings[side]
        if king is None:
            return FAR
        total += piece_steps(chess.KING, king, end)
    others = targets[2:]
    if len(others) != len(men):
        return FAR
    if total >= bound:
        return bound
    if distinct:
        for square, piece, side in men:
            home = next((end for kind, owner, end in others if kind == piece and owner == side), None)
            if home is None:
                return FAR
            total += piece_steps(piece, square, home)
            if total >= bound:
                return bound
        return total
    best = bound
    for order in itertools.permutations(others):
        cost = total
        for (square, piece, side), target in zip(men, order, strict=True):
            cost += man_steps(piece, side, square, target)
            if cost >= best:
                break
        best = min(best, cost)
    return best


def _distinct(men: list[tuple[chess.Square, chess.PieceType, chess.Color]]) -> bool:
    """Are no two of ``men`` (square, piece, colour) of one kind and side, and none a pawn?"""
    kinds = {(piece, side) for _, piece, side in men}
    return len(kinds) == len(men) and all(piece != chess.PAWN for piece, _ in kinds)


# The cheapest targets walked towards, each with its share of the nodes.
# (Measured on random positions of at most five men, against 16: 81
# questions over 400 nodes instead of 84, no more over 300 or 500; 6 or
# 12 targets are no better than 16.)
TRIED_TARGETS: Final = 8
# The best-first walk towards all of them at once comes first, with this
# many positions (measured on random positions of at most five men: it
# finds most lines within them; the deepening walk then gets its turn).
BEST_FIRST_NODES: Final = 1_000
DEPTH_FIRST_NODES: Final = 2_600  # then the depth-first walk, each target in turn; then best-first again


def plan_mate(board: chess.Board, color: chess.Color, budget: Budget) -> tuple[list[chess.Move], str] | None:
    """A line to a mate by ``color`` walked towards the nearest known
    pattern (``directed.walk_to``), and the pattern's material; None when
    no pattern fits or none is reached within ``budget``, shared among the
    ``TRIED_TARGETS`` nearest: first the best-first walk towards all of
    them (``directed.best_first``), then the depth-first one towards each
    in turn (``directed.walk_to``), then the best-first walk again with
    the rest of ``budget`` (it finds the longer lines).  The line is not yet checked: the
    caller replays it (``verify``)."""
    found = pattern_targets(board, color, TRIED_TARGETS)[:TRIED_TARGETS]
    if not found:
        return None
    plans = [targets for _, _, targets in found]
    sub = budget.share(1.0)
    sub.limit = min(sub.limit, BEST_FIRST_NODES)
    walked = best_first(board, color, plans, sub)
    budget.absorb(sub)
    if walked is not None:
        return walked[0], found[walked[1]][1]
    deep = budget.share(1.0)
    deep.limit = min(deep.limit, DEPTH_FIRST_NODES)
    for tried, (_, key, targets) in enumerate(found):
        sub = deep.share(1 / (len(found) - tried))
        line = walk_to(board, color, targets, sub)
        deep.absorb(sub)
        if line is not None:
            budget.absorb(deep)
            return line, key
    budget.absorb(deep)
    walked = best_first(board, color, plans, budget, TOTAL)  # again, with the rest: a longer walk
    return None if walked is None else (walked[0], found[walked[1]][1])
