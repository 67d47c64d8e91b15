"""The one place the library's public methods check their arguments (a
value of the wrong type or out of its set is a ``bad_request`` naming the
argument, never an exception of Python's deeper down): :class:`pychessdraw.Game`
calls these. The page's requests are checked before they reach the library,
by :mod:`pychessdraw.web.dispatch` against the JSON contract; what is left
to an operation (lengths, ranges) is :mod:`pychessdraw.web.args`.

Limit: a check tests the type and the set, not the position (a legal move,
a legal FEN: the game's own work).
"""

from __future__ import annotations

import chess

from .contract import FlagRulesName
from .errors import BadRequestError, shown
from .outcome import Termination
from .rules import timeout
from .rules.dead import SearchBudget

#: The rules a draw is claimed under.
CLAIM_RULES = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)


def flag_rules(value: object) -> FlagRulesName:
    """``"fide"`` or ``"uscf"``: the rules that decide a flag fall."""
    if not timeout.is_rules(value):
        raise BadRequestError(f"flag rules must be one of {', '.join(timeout.RULES)}, not {shown(value)}")
    return value


def color(color: object, name: str = "color") -> chess.Color:
    """A side as python-chess names it: ``chess.WHITE`` or ``chess.BLACK``."""
    if not isinstance(color, bool):
        raise BadRequestError(f"{name} must be chess.WHITE or chess.BLACK (True or False), not {shown(color)}")
    return color


def claim_rule(rule: object) -> Termination:
    """A rule a draw is claimed under: a Termination or its value."""
    found: Termination | None = None
    if isinstance(rule, Termination):
        found = rule
    elif isinstance(rule, str):
        found = next((t for t in CLAIM_RULES if t.value == rule), None)
    if found is None or found not in CLAIM_RULES:
        raise BadRequestError(f"only threefold_repetition and fifty_moves are claimed, not {shown(rule)}")
    return found


def budget(search: object) -> SearchBudget:
    """A dead-position search budget (:mod:`pychessdraw.rules.dead`)."""
    if not isinstance(search, SearchBudget):
        raise BadRequestError(
            f"search must be a SearchBudget (rules.dead.STATIC, PAGE or DEEP), not {type(search).__name__}"
        )
    return search


def flag(value: object, name: str) -> bool:
    """``True`` or ``False``, nothing that merely behaves like one."""
    if not isinstance(value, bool):
        raise BadRequestError(f"{name} must be true or false, not {type(value).__name__}")
    return value


def move_object(move: chess.Move) -> chess.Move:
    """A chess.Move that can be asked about without crashing python-chess:
    squares and the promotion are ints proper (``True`` and ``5.0`` compare
    equal to squares and pieces but break SAN and export later; ``type() is
    int`` is also the cheapest test, on every push of a scan)."""
    if not (
        type(move.from_square) is int
        and type(move.to_square) is int
        and 0 <= move.from_square < 64
        and 0 <= move.to_square < 64
        and (move.promotion is None or (type(move.promotion) is int and chess.KNIGHT <= move.promotion <= chess.QUEEN))
        and move.drop is None
    ):
        raise BadRequestError(
            f"not a chess move: from {shown(move.from_square)} to {shown(move.to_square)}, "
            f"promotion {shown(move.promotion)}, drop {shown(move.drop)}"
        )
    return move
