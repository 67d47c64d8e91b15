"""Clock times in PGN: the ``[%clk h:mm:ss]`` comment after each move (the
mover's remaining time, as lichess and chess.com write it) and the
``TimeControl`` tag.

``TimeControl`` follows the PGN standard (section 9.6.1) for sudden death
and increment: ``"300"``, ``"180+2"`` (seconds). The standard has no form
for a US Chess delay; it is written ``"300d3"`` (base, ``d``, delay in
seconds), which this module reads back, and other programs may not.
Exported times are whole seconds, cut down (a clock at 2.9 s writes
``0:00:02``); read times keep their fractions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import BadRequestError
from ..game import Game
from ..pgn import PgnGame, export

_CLK = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\s*\]")
_TC = re.compile(r"^\s*(\d+(?:\.\d+)?)(?:([+d])(\d+(?:\.\d+)?))?\s*$")


def parse_clk(comment: str) -> int | None:
    """The time of the first ``[%clk h:mm:ss(.f)]`` in a comment, in ms."""
    m = _CLK.search(comment)
    if m is None:
        return None
    hours, minutes, seconds = int(m.group(1)), int(m.group(2)), float(m.group(3))
    return round((hours * 3600 + minutes * 60 + seconds) * 1000)


def move_clocks(parsed: PgnGame) -> list[int | None]:
    """The ``%clk`` time after each main-line move of a game as read
    (index 0 is ply 1), None where a move has none."""
    return [parse_clk(parsed.comments.get(ply, "")) for ply in range(1, len(parsed.tokens) + 1)]


def format_clk(ms: int) -> str:
    """``[%clk h:mm:ss]`` for a time in ms, cut down to whole seconds."""
    seconds = max(0, int(ms)) // 1000
    return f"[%clk {seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}]"


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def time_control_tag(base_s: float, increment_s: float = 0, delay_s: float = 0) -> str:
    """The ``TimeControl`` tag value: ``"180+2"``, ``"300"``, or ``"300d3"`` for a delay."""
    if base_s <= 0 or increment_s < 0 or delay_s < 0 or (increment_s and delay_s):
        raise BadRequestError("a time control needs a base time over 0 and either an increment or a delay")
    if delay_s:
        return f"{_seconds(base_s)}d{_seconds(delay_s)}"
    if increment_s:
        return f"{_seconds(base_s)}+{_seconds(increment_s)}"
    return _seconds(base_s)


def parse_time_control_tag(tag: str) -> dict[str, float] | None:
    """``{"base_s", "increment_s", "delay_s"}`` from a ``TimeControl`` tag of
    one period; None for "-", "?", multi-period or sandglass controls."""
    m = _TC.match(tag)
    if m is None:
        return None
    base, sign, step = float(m.group(1)), m.group(2), float(m.group(3) or 0)
    if base <= 0:
        return None
    return {"base_s": base, "increment_s": step if sign == "+" else 0.0, "delay_s": step if sign == "d" else 0.0}


def export_with_clocks(
    game: Game,
    headers: Mapping[str, str] | None,
    time_control: Mapping[str, Any] | None,
    clocks: Mapping[int, int],
    note: str | None = None,
) -> str:
    """The game as PGN (see :func:`pychessdraw.pgn.export`) with a
    ``TimeControl`` tag and a ``[%clk]`` comment after each move that has a
    time in ``clocks`` (ply -> the mover's remaining ms); ``note`` after the last
    move's time."""
    tags = dict(headers or {})
    if time_control is not None:
        tags["TimeControl"] = time_control_tag(
            float(time_control.get("base_s", 0)),
            float(time_control.get("increment_s", 0)),
            float(time_control.get("delay_s", 0)),
        )
    comments = {ply: format_clk(ms) for ply, ms in clocks.items() if 1 <= ply <= game.ply}
    if note:  # after the last move's clock, before the ending's words
        comments[game.ply] = " ".join(filter(None, (comments.get(game.ply, ""), note)))
    return export(game, tags, comments)
