"""How a game ended: a Termination, the winner, and the FIDE article."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import cast

import chess

from .contract import ColorName, OutcomeDict, ResultName, TerminationName


class Termination(str, enum.Enum):
    """Why a game ended. The values are the JSON contract's names."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    DEAD_POSITION = "dead_position"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    THREEFOLD_REPETITION = "threefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time_forfeit"


ARTICLE = {
    Termination.CHECKMATE: "5.1.1",
    Termination.STALEMATE: "5.2.1",
    Termination.INSUFFICIENT_MATERIAL: "5.2.2",
    Termination.DEAD_POSITION: "5.2.2",
    Termination.FIVEFOLD_REPETITION: "9.6.1",
    Termination.SEVENTYFIVE_MOVES: "9.6.2",
    Termination.THREEFOLD_REPETITION: "9.2",
    Termination.FIFTY_MOVES: "9.3",
    Termination.AGREEMENT: "5.2.3",
    Termination.RESIGNATION: "5.1.2",
    Termination.TIME_FORFEIT: "6.9",
}

_LABEL = {
    Termination.CHECKMATE: "Checkmate",
    Termination.STALEMATE: "Stalemate",
    Termination.INSUFFICIENT_MATERIAL: "Insufficient material: neither side can checkmate",
    Termination.DEAD_POSITION: "Dead position: no series of legal moves can end in checkmate",
    Termination.FIVEFOLD_REPETITION: "Fivefold repetition",
    Termination.SEVENTYFIVE_MOVES: "Seventy-five moves without a pawn move or capture",
    Termination.THREEFOLD_REPETITION: "Threefold repetition, claimed",
    Termination.FIFTY_MOVES: "Fifty moves without a pawn move or capture, claimed",
    Termination.AGREEMENT: "Draw by agreement",
}

AUTOMATIC = frozenset({
    Termination.CHECKMATE, Termination.STALEMATE, Termination.INSUFFICIENT_MATERIAL,
    Termination.DEAD_POSITION, Termination.FIVEFOLD_REPETITION, Termination.SEVENTYFIVE_MOVES,
})


def color_name(color: chess.Color) -> ColorName:
    return "white" if color else "black"


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``winner`` is None for a draw.

    ``claimed`` is True when a player ended the game (a claim, an agreement,
    a resignation, a flag fall), False when the rules did on their own.
    ``move`` is the intended move of a claim made with one (FIDE 9.2.1.1).
    """

    termination: Termination
    winner: chess.Color | None
    claimed: bool = False
    move: chess.Move | None = None

    def result(self) -> ResultName:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")

    @property
    def article(self) -> str:
        return ARTICLE[self.termination]

    def reason(self) -> str:
        t = self.termination
        if t is Termination.RESIGNATION:
            return f"{color_name(not self.winner).capitalize()} resigns"
        if t is Termination.TIME_FORFEIT:
            if self.winner is None:
                return "Flag fall, but the opponent cannot checkmate by any series of legal moves"
            return f"{color_name(not self.winner).capitalize()} lost on time"
        return _LABEL[t]

    def to_dict(self) -> OutcomeDict:
        return {
            "termination": self.termination.value,
            "winner": None if self.winner is None else color_name(self.winner),
            "result": self.result(),
            "article": self.article,
            "reason": self.reason(),
            "claimed": self.claimed,
        }
