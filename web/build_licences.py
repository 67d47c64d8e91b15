# SPDX-License-Identifier: GPL-3.0-or-later
"""The licence notices of everything the page ships (dist/LICENSES/), and
the computer opponent's engine files with theirs."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from build_common import NM, SRC, WEB, copy, die, say
from build_wheels import CHESS_VERSION, MICROPIP_VERSION


def wheel_member(whl: Path, suffixes: tuple[str, ...]) -> bytes | None:
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            if ".dist-info/" in n and n.split("/")[-1].upper().startswith(suffixes):
                return z.read(n)
    return None


LICENSE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; style-src 'self'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pychessdraw web: licences</title><link rel="stylesheet" href="../app.css"></head>
<body class="licenses"><main>
<h1>Licences of the software in this page</h1>
<p>This site is pychessdraw (GPL-3.0-or-later) running in your browser. It ships, unmodified,
the following packages. Sources: the links below.</p>
<table><thead><tr><th>Package</th><th>Version</th><th>Licence</th><th>Text</th><th>Source</th></tr></thead>
<tbody>
{rows}
</tbody></table>
<p><a href="../index.html">Back to the board</a></p>
</main></body></html>
"""


def write_licenses(dist: Path, chess_whl: Path, micropip_whl: Path, project: Path) -> None:
    ldir = dist / "LICENSES"
    ldir.mkdir(exist_ok=True)
    gpl = (NM / "@lichess-org/chessground/LICENSE").read_text()
    if "GNU GENERAL PUBLIC LICENSE" not in gpl or "Version 3" not in gpl:
        die("chessground LICENSE is not the GPL-3.0 text any more; check licences")
    mpl = wheel_member(micropip_whl, ("LICENSE",))
    if not mpl or b"Mozilla Public License" not in mpl:
        die("micropip wheel carries no MPL-2.0 text")
    chess_lic = wheel_member(chess_whl, ("LICENSE", "COPYING"))
    own = None
    for n in ("LICENSE", "COPYING", "LICENSE.txt"):
        if (project / n).exists():
            own = (project / n).read_text()
            break
    header = (
        "pychessdraw: a chess referee for draws\n"
        "Licence: GPL-3.0-or-later\n\n"
        "This program is free software: you can redistribute it and/or modify it under the\n"
        "terms of the GNU General Public License as published by the Free Software Foundation,\n"
        "either version 3 of the License, or (at your option) any later version.\n\n"
        "This program is distributed in the hope that it will be useful, but WITHOUT ANY\n"
        "WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR A\n"
        "PARTICULAR PURPOSE. See the GNU General Public License below for more details.\n\n"
    )
    files = {
        "pychessdraw.txt": header + (own if own else gpl),
        "chessground.txt": "@lichess-org/chessground: GPL-3.0-or-later\n"
        "https://github.com/lichess-org/chessground\n\n" + gpl,
        "python-chess.txt": "python-chess (chess): GPL-3.0-or-later\n"
        "https://github.com/niklasf/python-chess\n\n" + (chess_lic.decode() if chess_lic else gpl),
        "pyodide.txt": "Pyodide: MPL-2.0 (CPython inside it: PSF licence, see python_stdlib.zip)\n"
        "https://github.com/pyodide/pyodide\n\n" + mpl.decode(),
        "micropip.txt": "micropip: MPL-2.0 (vendors packaging: Apache-2.0 or BSD-2-Clause)\n"
        "https://github.com/pyodide/micropip\n\n" + mpl.decode(),
        "figurines.txt": "fonts/figurines.woff: five glyphs of DejaVu Sans (Bitstream Vera licence;"
        " DejaVu changes in the public domain), renamed as the licence asks\n"
        "https://dejavu-fonts.github.io/\n\n" + (SRC / "fonts" / "LICENSE-DejaVu.txt").read_text(),
    }
    for name, text in files.items():
        (ldir / name).write_text(text)
    cg_ver = json.loads((NM / "@lichess-org/chessground/package.json").read_text())["version"]
    py_ver = json.loads((NM / "pyodide/package.json").read_text())["version"]
    rows = [
        ("pychessdraw", "", "GPL-3.0-or-later", "pychessdraw.txt", "https://github.com/"),
        (
            "@lichess-org/chessground",
            cg_ver,
            "GPL-3.0-or-later",
            "chessground.txt",
            "https://github.com/lichess-org/chessground",
        ),
        (
            "python-chess",
            CHESS_VERSION,
            "GPL-3.0-or-later",
            "python-chess.txt",
            "https://github.com/niklasf/python-chess",
        ),
        ("Pyodide", py_ver, "MPL-2.0", "pyodide.txt", "https://github.com/pyodide/pyodide"),
        ("micropip", MICROPIP_VERSION, "MPL-2.0", "micropip.txt", "https://github.com/pyodide/micropip"),
        ("DejaVu Sans (figurines)", "2.37", "Bitstream Vera", "figurines.txt", "https://dejavu-fonts.github.io/"),
    ]
    html_rows = "\n".join(
        f'<tr><td>{n}</td><td>{v}</td><td>{lic}</td><td><a href="{f}">{f}</a></td><td><a href="{u}">{u}</a></td></tr>'
        for n, v, lic, f, u in rows
        if n != "pychessdraw"
    )
    html_rows = (
        "<tr><td>pychessdraw</td><td></td><td>GPL-3.0-or-later</td>"
        '<td><a href="pychessdraw.txt">pychessdraw.txt</a></td>'
        '<td>the wheel in <a href="../wheels/">wheels/</a> holds the source</td></tr>\n' + html_rows
    )
    (ldir / "index.html").write_text(LICENSE_PAGE.replace("{rows}", html_rows))
    say(f"licences: {len(files)} notices in {ldir.relative_to(dist.parent)}/")


ENGINE_PKG = NM / "stockfish"
ENGINE_FILES = {
    "stockfish.js": "bin/stockfish-19-lite-single.js",
    "stockfish.wasm": "bin/stockfish-19-lite-single.wasm",
}


def copy_engine(dist: Path) -> None:
    """Stockfish 19 lite, single-threaded (no SharedArrayBuffer, so no COOP/COEP
    headers needed), to dist/engine/, with its GPL-3.0 notice in dist/LICENSES/.
    The page loads it only when a visitor plays the computer; without these
    files it says so and the game goes on between humans."""
    for dst, src in ENGINE_FILES.items():
        if not (ENGINE_PKG / src).exists():
            die(f"node_modules/stockfish/{src} missing; run 'npm ci' in {WEB}")
        copy(ENGINE_PKG / src, dist / "engine" / dst)
    text = (ENGINE_PKG / "Copying.txt").read_text()
    if "GNU GENERAL PUBLIC LICENSE" not in text or "Version 3" not in text:
        die("stockfish Copying.txt is not the GPL-3.0 text any more; check licences")
    version = json.loads((ENGINE_PKG / "package.json").read_text())["version"]
    (dist / "LICENSES" / "stockfish.txt").write_text(
        f"Stockfish.js {version} (npm 'stockfish', lite single-threaded build): GPL-3.0\n"
        "Stockfish.js (c) Chess.com, LLC, https://github.com/nmrugg/stockfish.js\n"
        "Stockfish (c) T. Romstad, M. Costalba, J. Kiiski, G. Linscott and other contributors,\n"
        "https://github.com/official-stockfish/Stockfish; NNUE network nn-61e7af4bb97d by sscg13.\n\n" + text
    )
    index = dist / "LICENSES" / "index.html"
    row = (
        f"<tr><td>Stockfish.js (engine/)</td><td>{version}</td><td>GPL-3.0</td>"
        '<td><a href="stockfish.txt">stockfish.txt</a></td><td><a href="https://github.com/nmrugg/stockfish.js">'
        "https://github.com/nmrugg/stockfish.js</a></td></tr>\n"
    )
    page = index.read_text()
    if "stockfish.txt" not in page:
        index.write_text(page.replace("</tbody>", row + "</tbody>", 1))
    say(f"engine: Stockfish.js {version} lite single-threaded -> dist/engine/, licence notice")
