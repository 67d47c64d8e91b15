"""A flag fall (FIDE 6.9): the player who runs out of time loses, unless the
opponent cannot checkmate by any series of legal moves; then it is a draw.

Under US Chess rules, king and bishop, king and knight, or king and two
knights, with no pawns on the board, do not win on time either, "unless the
opponent has a forced win". Limit: that exception is not searched, so a
forced mate by such material (a mate in one, say) is still reported as a draw
under US Chess rules.
"""

from __future__ import annotations

from typing import TypeGuard, get_args

import chess

from ..contract import FlagRulesName, ResultName

FIDE: FlagRulesName = "fide"
USCF: FlagRulesName = "uscf"
RULES: tuple[FlagRulesName, ...] = get_args(FlagRulesName)


def is_rules(value: object) -> TypeGuard[FlagRulesName]:
    """``value`` names flag-fall rules (any JSON value may be asked)."""
    return isinstance(value, str) and value in RULES


def uscf_insufficient(board: chess.Board, color: chess.Color) -> bool:
    if board.pawns:
        return False
    ours = board.occupied_co[color] & ~board.kings
    if ours & (board.rooks | board.queens):
        return False
    knights, bishops = chess.popcount(ours & board.knights), chess.popcount(ours & board.bishops)
    return (knights, bishops) in {(0, 1), (1, 0), (2, 0)}


def result_if_flag_falls(
    board: chess.Board, flagged: chess.Color, opponent_cannot_mate: bool, rules: str = FIDE
) -> ResultName:
    """The result if ``flagged`` ran out of time now. ``opponent_cannot_mate``
    is the proven answer of FIDE 6.9 (material or search)."""
    opponent = not flagged
    if opponent_cannot_mate or (rules == USCF and uscf_insufficient(board, opponent)):
        return "1/2-1/2"
    return "1-0" if opponent == chess.WHITE else "0-1"
