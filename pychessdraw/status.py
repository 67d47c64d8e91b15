"""The status of a position: one immutable object, one JSON contract.

The CLI, the browser worker and the tests all see a position through
:class:`Status` and :meth:`Status.to_dict`, whose shape is
:class:`pychessdraw.contract.StatusDict`. Keep the JSON names stable; add
fields freely (and to the contract).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import chess

from . import i18n
from .contract import (
    ByColor,
    ClaimArticle,
    ClaimDict,
    ClaimResultDict,
    ClaimRuleName,
    FlagRulesName,
    LegalMoveDict,
    ResultName,
    StatusDict,
    WinnableDetailDict,
)
from .outcome import Outcome, Termination, claim_article, color_name
from .rules.hints import Hints


@dataclass(frozen=True)
class Claim:
    """A draw the player to move may claim: now (``move`` is None) or by
    declaring ``move`` as the intended move (FIDE 9.2.1.1, 9.3.1)."""

    rule: Termination
    move: chess.Move | None = None
    uci: str | None = None
    san: str | None = None

    @property
    def article(self) -> ClaimArticle:
        return claim_article(self.rule, with_move=self.move is not None)

    @property
    def rule_name(self) -> ClaimRuleName:
        return cast(ClaimRuleName, self.rule.value)  # a claim's rule is one of the two (laws.CLAIM_ARTICLE)

    def to_dict(self) -> ClaimDict:
        return {"rule": self.rule_name, "move": self.uci, "san": self.san, "article": self.article}


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
    winnable_detail: dict[chess.Color, WinnableDetailDict] | None = field(default=None, compare=False)
    flag_results: dict[chess.Color, ResultName] | None = None
    flag_rules: FlagRulesName = "fide"
    legal_moves: tuple[LegalMoveDict, ...] | None = field(default=None, compare=False)

    @property
    def is_game_over(self) -> bool:
        return self.outcome is not None

    def flag_fall(self, color: chess.Color) -> str | None:
        """The result if ``color`` ran out of time now (FIDE 6.9, or US Chess
        rules), or None once the game is over."""
        return None if self.flag_results is None else self.flag_results[color]

    def to_dict(self, *, language: str | None = None) -> StatusDict:
        """The JSON contract: :class:`pychessdraw.contract.StatusDict`; the
        outcome's reason in ``language`` (None: the current one,
        :mod:`pychessdraw.i18n`). Codes and field names never change."""
        with i18n.language(language):
            return self._to_dict()

    def _to_dict(self) -> StatusDict:
        d: StatusDict = {
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
            "insufficient_material": {"white": self.cannot_mate[chess.WHITE], "black": self.cannot_mate[chess.BLACK]},
            "flag_fall": None
            if self.flag_results is None
            else cast(
                ByColor[ResultName], {"white": self.flag_results[chess.WHITE], "black": self.flag_results[chess.BLACK]}
            ),
            "flag_rules": self.flag_rules,
            "hints": {
                "can_force_mate": {
                    "white": self.hints.can_force_mate[chess.WHITE],
                    "black": self.hints.can_force_mate[chess.BLACK],
                },
                "practical_draw": self.hints.practical_draw,
                "notes": list(self.hints.notes),
            },
        }
        if self.winnable is not None:
            d["winnable"] = {"white": self.winnable.get(chess.WHITE), "black": self.winnable.get(chess.BLACK)}
        if self.winnable_detail is not None:
            d["winnable_detail"] = {
                "white": self.winnable_detail[chess.WHITE],
                "black": self.winnable_detail[chess.BLACK],
            }
        if self.legal_moves is not None:
            d["legal_moves"] = list(self.legal_moves)
        return d


@dataclass(frozen=True)
class ClaimResult:
    """The arbiter's answer to a draw claim (FIDE 9.5).

    ``accepted``: the claim ended the game as a draw under ``rule``.
    ``move``: the intended move in UCI, when one was declared (it is
    played either way). ``ended_by``: the intended move ended the game by
    itself (checkmate, stalemate...), which comes before the claim."""

    accepted: bool
    rule: Termination | None
    move: str | None
    reason: str
    ended_by: Termination | None = None

    def to_dict(self) -> ClaimResultDict:
        return {
            "accepted": self.accepted,
            "rule": None if self.rule is None else cast(ClaimRuleName, self.rule.value),
            "move": self.move,
            "reason": self.reason,
            "ended_by": None if self.ended_by is None else self.ended_by.value,
        }
