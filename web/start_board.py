# SPDX-License-Identifier: GPL-3.0-or-later
"""The start position drawn into index.html, so that a first visit sees the
board in the first frame, before app.js has been fetched, parsed and run.

The markup is chessground's own (web/node_modules/@lichess-org/chessground,
dist/wrap.js and render.js): a cg-wrap holding cg-container, cg-board with
its pieces, and the coordinates. Pieces sit by classes (app.css, "the board
drawn into index.html"), since the page's CSP allows no style attribute.
chessground empties the element when app.js mounts it, and draws the same
position in the same place.

A visit that will start from another position (a game saved on this device,
a link with a game, a board turned to Black) must not flash the start
position: an inline script (allowed by its sha256 in the CSP) removes the
pieces before the first paint, and the board is drawn by app.js as before.
Only the start position is known here; nothing parses a FEN.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

FILES = "abcdefgh"
# rank 8 to rank 1, as a FEN's board field lists them
START = ["rnbqkbnr", "pppppppp", "", "", "", "", "PPPPPPPP", "RNBQKBNR"]
ROLES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
BOARD_DIV = re.compile(r'(<div id="board" class=")board(" [^>]*>)(</div>)')
SCRIPT_SRC = "script-src 'self' "


def csp_hash(text: str) -> str:
    """The CSP source that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def storage_keys(persist_js: Path) -> list[str]:
    """The localStorage keys of web/src/persist.js (one place names them)."""
    keys = re.findall(r'export const (?:STORE|PREFS)_KEY = "([^"]+)";', persist_js.read_text())
    if len(keys) != 2:
        raise ValueError(f"{persist_js}: expected STORE_KEY and PREFS_KEY, found {keys}")
    return keys


def pieces() -> str:
    out = []
    for row, line in enumerate(START):
        rank = 8 - row
        for i, ch in enumerate(line):
            color = "white" if ch.isupper() else "black"
            out.append(f'<piece class="{color} {ROLES[ch.lower()]} f{FILES[i]} r{rank}"></piece>')
    return "".join(out)


def coords(labels: str, cls: str, first_light: bool) -> str:
    """chessground's renderCoords: alternate light and dark, starting as told."""
    cells = "".join(
        f'<coord class="coord-{"light" if (i % 2 == 0) == first_light else "dark"}">{c}</coord>'
        for i, c in enumerate(labels)
    )
    return f'<coords class="{cls}">{cells}</coords>'


def board_markup() -> str:
    """The inside of the board's element: white at the bottom, coordinates on,
    the ranks by the a-file (as ui/board.js configures chessground: ranksPosition "left")."""
    return (
        "<cg-container><cg-board>"
        + pieces()
        + "</cg-board>"
        + coords("12345678", "ranks left", False)
        + coords(FILES, "files", False)
        + "</cg-container>"
    )


def guard_script(keys: list[str]) -> str:
    """Removes the drawn start position when the page will not start there."""
    saved = "||".join(f"s.getItem({k!r})" for k in keys)
    return (
        "try{var s=localStorage;"
        f"if(location.hash.length>1||{saved})"
        'document.getElementById("board").replaceChildren()'
        "}catch(e){}"
    )


def insert(html: str, persist_js: Path) -> str:
    """index.html with the start position in its board element, the guard
    script right after it, and the script's sha256 in the CSP."""
    if not BOARD_DIV.search(html) or SCRIPT_SRC not in html:
        raise ValueError("index.html lost its empty board element or its CSP script-src")
    script = guard_script(storage_keys(persist_js))
    html = BOARD_DIV.sub(
        lambda m: f"{m[1]}board cg-wrap orientation-white{m[2]}{board_markup()}{m[3]}\n<script>{script}</script>",
        html,
        count=1,
    )
    return html.replace(SCRIPT_SRC, f"{SCRIPT_SRC}{csp_hash(script)} ", 1)
