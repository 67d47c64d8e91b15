"""The status of a position: one immutable object, one JSON contract.

The CLI, the browser worker and the tests all see a position through
:class:`Status` and :meth:`Status.to_dict`. Keep the JSON names stable; add
fields freely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from .outcome import Outcome, Termination, color_name
from .rules.hints import Hints

_CLAIM_ARTICLE = {
    (Termination.THREEFOLD_REPETITION, False): "9.2.1.2",
    (Termination.THREEFOLD_REPETITION, True): "9.2.1.1",
    (Termination.FIFTY_MOVES, False): "9.3.2",
    (Termination.FIFTY_MOVES, True): "9.3.1",
}


@dataclass(frozen=True)
class Claim:
    """A draw the player to move may claim: now (``move`` is None) or by
    declaring ``move`` as the intended move (FIDE 9.2.1.1, 9.3.1)."""

    rule: Termination
    move: chess.Move | None = None
    uci: str | None = None
    san: str | None = None

    @property
    def article(self) -> str:
        return _CLAIM_ARTICLE[(self.rule, self.move is not None)]

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule.value, "move": self.uci, "san": self.san, "article": self.article}


@dataclass(frozen=True)
class Status:
    """Everything the referee knows about the current position.

    ``cannot_mate[color]`` is the sound material test of FIDE 6.9 (JSON:
    ``insufficient_material``). ``winnable[color]`` is the dead-position
    answer (True: a mate exists, with the line in ``winnable_detail``; False:
    proven impossible; None: not decided within the budget). ``flag_results``
    gives the result if that side ran out of time now, under ``flag_rules``
    ("fide" or "uscf"). ``hints`` are knowledge, never rules.
    """

    fen: str
    turn: chess.Color
    ply: int
    fullmove_number: int
    halfmove_clock: int
    check: bool
    repetition_count: int
    repetitions: tuple[int, ...]
    outcome: Outcome | None
    claims: tuple[Claim, ...]
    cannot_mate: dict[chess.Color, bool]
    hints: Hints
    winnable: dict[chess.Color, bool | None] | None = None
    winnable_detail: dict[chess.Color, dict[str, Any]] | None = field(default=None, compare=False)
    flag_results: dict[chess.Color, str] | None = None
    flag_rules: str = "fide"
    legal_moves: tuple[dict[str, Any], ...] | None = field(default=None, compare=False)

    @property
    def is_game_over(self) -> bool:
        return self.outcome is not None

    def flag_fall(self, color: chess.Color) -> str | None:
        """The result if ``color`` ran out of time now (FIDE 6.9, or US Chess
        rules), or None once the game is over."""
        return None if self.flag_results is None else self.flag_results[color]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "fen": self.fen,
            "turn": color_name(self.turn),
            "ply": self.ply,
            "fullmove_number": self.fullmove_number,
            "halfmove_clock": self.halfmove_clock,
            "check": self.check,
            "repetition_count": self.repetition_count,
            "repetitions": list(self.repetitions),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "claims": [c.to_dict() for c in self.claims],
            "insufficient_material": {color_name(c): self.cannot_mate[c] for c in chess.COLORS},
            "flag_fall": None if self.flag_results is None else
                {color_name(c): self.flag_results[c] for c in chess.COLORS},
            "flag_rules": self.flag_rules,
            "hints": {
                "can_force_mate": {color_name(c): self.hints.can_force_mate[c] for c in chess.COLORS},
                "practical_draw": self.hints.practical_draw,
                "notes": list(self.hints.notes),
            },
        }
        if self.winnable is not None:
            d["winnable"] = {color_name(c): self.winnable.get(c) for c in chess.COLORS}
        if self.winnable_detail is not None:
            d["winnable_detail"] = {color_name(c): self.winnable_detail[c] for c in chess.COLORS}
        if self.legal_moves is not None:
            d["legal_moves"] = list(self.legal_moves)
        return d


@dataclass(frozen=True)
class ClaimResult:
    """The arbiter's answer to a draw claim (FIDE 9.5)."""

    accepted: bool
    rule: Termination | None
    move: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "rule": None if self.rule is None else self.rule.value,
                "move": self.move, "reason": self.reason}
