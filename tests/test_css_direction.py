# SPDX-License-Identifier: GPL-3.0-or-later
"""Right-to-left ready: the page's style sheet places things by the start
and end of a line (``padding-inline-start``, ``text-align: start``), not by
left and right, except on the board, which reads the same in every script
(its squares, coordinates and pieces, chessground's own placement) and
keeps ``direction: ltr`` in a right-to-left page."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[1] / "web" / "src" / "app.css"
#: Rules that may say left or right: the board and what sits on it, the
#: claim meters' thresholds (a scale, not text), a dialog centred by a
#: translate (left: 50% and -50%: the same either way).
BOARD = re.compile(r"\.board|\.cg-wrap|coords|piece|\.meter|\.premove-badge")
PHYSICAL = re.compile(
    r"(?<![\w-])(?:(?:margin|padding|border)-(?:left|right)(?:-\w+)?|left|right)\s*:|text-align\s*:\s*(?:left|right)"
)


def rules(css: str) -> list[tuple[str, str]]:
    """(selector, declarations) of every rule, comments removed, at-rules' bodies flattened."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"([^{}]+)\{([^{}]*)\}", css)]


def test_nothing_outside_the_board_is_placed_by_left_or_right() -> None:
    found = [
        f"{selector}: {PHYSICAL.search(body).group(0)}"  # type: ignore[union-attr]
        for selector, body in rules(CSS.read_text(encoding="utf-8"))
        if PHYSICAL.search(body) and not BOARD.search(selector) and "translate(" not in body
    ]
    assert found == []


def test_the_board_keeps_left_to_right_in_a_right_to_left_page() -> None:
    assert any(
        selector == ".cg-wrap" and re.search(r"direction\s*:\s*ltr", body)
        for selector, body in rules(CSS.read_text(encoding="utf-8"))
    )


def test_the_check_finds_a_physical_property() -> None:
    assert PHYSICAL.search("padding-left: 4px") and PHYSICAL.search(" text-align: right;")
    assert PHYSICAL.search("border-left-color: red") and PHYSICAL.search("; left: 0")
    assert not PHYSICAL.search("padding-inline-start: 4px; text-align: start; border-inline-end: 0")
