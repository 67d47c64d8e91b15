#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the static pychessdraw web site into web/dist/.

Usage: python3 web/build.py [--out DIR] [--project-dir DIR] [--skip-npm]

Steps (each prints what it did):
  1. npm ci in web/ when node_modules is missing or older than package-lock.json
  2. wheels: pychessdraw (from the repo root), python-chess (the version installed
     here, within pyproject.toml's range; built from the sdist once, cached in
     web/.cache/), micropip 0.11.1 (downloaded once, cached);
     the first two get CPython 3.14 bytecode added by Pyodide's own interpreter
     running under node (web/precompile.mjs), so that the browser imports faster
  3. Pyodide core files copied from node_modules/pyodide, the lock file rewritten so
     that its micropip entry names the wheel shipped in dist (file name and sha256)
  4. the UI bundled with esbuild (app.js draws the board, chunks/ hold the rest of
     the page), index.html with its CSS (chessground's and app.css) inlined and
     the start position drawn in its board element, the worker and pages copied
  5. licence notices of everything shipped, in dist/LICENSES/
  6. the Pyodide memory snapshot (web/snapshot.mjs under node: Python booted from
     dist/pyodide/ with the wheels of dist/wheels/ unpacked and pychessdraw
     imported), gzipped, cached by the hash of those inputs; boot.json tells the
     worker its name (null when it could not be made: the page then boots Python)
  7. the service worker dist/sw.js, holding the sha256 of every other file of
     dist/ (a new build is a new sw.js: browsers pick it up and swap caches)
Only the Python standard library is needed here; node and npm must be installed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

import start_board  # web/start_board.py: the start position drawn into index.html

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
SRC = WEB / "src"
CACHE = WEB / ".cache"
NM = WEB / "node_modules"

# Not repeated here: the python-chess that pyproject.toml's range installed in
# this Python (make venv), the one the tests run on.
CHESS_VERSION = importlib.metadata.version("chess")
MICROPIP_VERSION = "0.11.1"
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]


def say(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def die(msg: str) -> None:
    print(f"[build] ERROR: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(cmd: list[str], cwd: Path | None = None) -> None:
    say("$ " + " ".join(cmd))
    r = subprocess.run(cmd, cwd=cwd)
    if r.returncode != 0:
        die(f"command failed with exit code {r.returncode}: {' '.join(cmd)}")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def need_tool(name: str, hint: str) -> str:
    path = shutil.which(name)
    if not path:
        die(f"'{name}' not found on PATH. Install it: {hint}")
    return path


# ---------------------------------------------------------------- npm
def ensure_node_modules(skip: bool) -> None:
    lock = WEB / "package-lock.json"
    stamp = NM / ".package-lock.json"  # written by npm on every install
    if skip:
        say("npm: skipped (--skip-npm)")
    elif NM.is_dir() and stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        say("npm: node_modules up to date, npm ci skipped")
    else:
        need_tool("node", "Node.js 20+ (apt-get install nodejs npm, or https://nodejs.org)")
        npm = need_tool("npm", "npm (apt-get install npm, or install Node.js 20+ which includes it)")
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB)
    for rel in ["pyodide/pyodide.mjs", "@lichess-org/chessground/dist/chessground.js", "esbuild/bin/esbuild"]:
        if not (NM / rel).exists():
            die(f"node_modules/{rel} missing; run 'npm ci' in {WEB}")


# ---------------------------------------------------------------- wheels
def project_hash(project: Path) -> str:
    h = hashlib.sha256()
    files = [project / "pyproject.toml"]
    for base in ("pychessdraw",):
        for p in sorted((project / base).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc",):
                files.append(p)
    for extra in ("README.md", "LICENSE", "COPYING"):
        if (project / extra).exists():
            files.append(project / extra)
    for p in files:
        if p.exists():
            h.update(str(p.relative_to(project)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def can_build_offline() -> bool:
    """setuptools with bdist_wheel present here: skip pip's isolated build env."""
    try:
        import setuptools

        if tuple(int(x) for x in setuptools.__version__.split(".")[:2]) >= (70, 1):
            return True
        import wheel  # noqa: F401

        return True
    except (ImportError, ValueError):
        return False


def pip_wheel(args: list[str], out: Path, cwd: Path | None = None) -> Path:
    """pip wheel into an empty temp dir, return the single wheel made."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp]
        if can_build_offline():
            cmd.append("--no-build-isolation")
        run(cmd + args, cwd=cwd)
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            die(f"expected one wheel from pip, got {wheels}")
        dest = out / wheels[0].name
        shutil.copy2(wheels[0], dest)
        return dest


def build_pychessdraw_wheel(project: Path) -> Path:
    if not (project / "pyproject.toml").exists():
        die(f"no pyproject.toml in {project}")
    key = project_hash(project)
    cdir = CACHE / f"pychessdraw-{key}"
    cached = list(cdir.glob("*.whl")) if cdir.is_dir() else []
    if cached:
        say(f"pychessdraw wheel: sources unchanged, reusing {cached[0].name}")
        return cached[0]
    for old in CACHE.glob("pychessdraw-*"):
        shutil.rmtree(old, ignore_errors=True)
    cdir.mkdir(parents=True)
    # build from a copy so that no build/ or *.egg-info lands in the checkout
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        patterns = shutil.ignore_patterns(
            ".git",
            "e2e",
            "node_modules",
            "dist",
            "build",
            "*.egg-info",
            "__pycache__",
            ".venv",
            ".cache",
            "benchmarks",
            "tests",
            ".pytest_cache",
            ".hypothesis",
        )

        def ignore(folder: str, names: list[str]) -> set[str]:
            # web/ (this folder) is left out at the top only: pychessdraw/web/ is the bridge
            top = {"web"} & set(names) if Path(folder) == project else set()
            return set(patterns(folder, names)) | top

        shutil.copytree(project, src, ignore=ignore)
        whl = pip_wheel([str(src)], cdir)
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
    if not any(n.startswith("pychessdraw/web/bridge.py") for n in names):
        say("WARNING: the pychessdraw wheel has no pychessdraw/web/bridge.py; the page will fail to start")
    say(f"pychessdraw wheel: built {whl.name}")
    return whl


def chess_wheel() -> Path:
    CACHE.mkdir(exist_ok=True)
    found = list(CACHE.glob(f"chess-{CHESS_VERSION}-*.whl"))
    if found:
        say(f"python-chess wheel: cached {found[0].name}")
        return found[0]
    whl = pip_wheel([f"chess=={CHESS_VERSION}"], CACHE)
    say(f"python-chess wheel: built {whl.name} from the PyPI sdist")
    return whl


def micropip_wheel() -> Path:
    CACHE.mkdir(exist_ok=True)
    name = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    if (CACHE / name).exists():
        say(f"micropip wheel: cached {name}")
        return CACHE / name
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "-q",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            f"micropip=={MICROPIP_VERSION}",
            "-d",
            str(CACHE),
        ]
    )
    if not (CACHE / name).exists():
        die(f"pip download did not produce {name}")
    say(f"micropip wheel: downloaded {name}")
    return CACHE / name


def precompile(wheels: list[Path]) -> list[Path]:
    """Same wheels plus CPython 3.14 bytecode made by Pyodide's own interpreter
    (web/precompile.mjs under node): the browser then skips compiling the
    sources at import. Cached by content; on failure the plain wheels are used."""
    h = hashlib.sha256()
    for w in wheels:
        h.update(w.name.encode() + sha256(w).encode())
    h.update((WEB / "precompile.mjs").read_bytes())
    h.update((NM / "pyodide/package.json").read_bytes())
    cdir = CACHE / f"pyc-{h.hexdigest()[:16]}"
    outs = [cdir / w.name for w in wheels]
    if all(o.exists() for o in outs):
        say("bytecode: wheels unchanged, reusing precompiled wheels")
        return outs
    for old in CACHE.glob("pyc-*"):
        shutil.rmtree(old, ignore_errors=True)
    node = need_tool("node", "Node.js 20+ (apt-get install nodejs npm, or https://nodejs.org)")
    say("bytecode: compiling the wheels' modules with Pyodide's CPython (node web/precompile.mjs)")
    r = subprocess.run(
        [node, str(WEB / "precompile.mjs"), str(cdir), *map(str, wheels)], cwd=WEB, capture_output=True, text=True
    )
    if r.returncode != 0 or not all(o.exists() for o in outs):
        say(
            "WARNING: precompiling failed, shipping the plain wheels (slower first import):\n"
            + (r.stderr or r.stdout)[-2000:]
        )
        shutil.rmtree(cdir, ignore_errors=True)
        return wheels
    for line in r.stdout.splitlines():
        say("bytecode: " + line)
    return outs


# ---------------------------------------------------------------- helpers
def copy(src: Path, dst: Path) -> bool:
    """Copy when content differs; return True when copied."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() and dst.stat().st_size == src.stat().st_size and dst.read_bytes() == src.read_bytes():
        return False
    shutil.copy2(src, dst)
    return True


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


# ---------------------------------------------------------------- engine
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


# ---------------------------------------------------------------- UI bundle
def bundle_ui(dist: Path, dev: bool) -> list[str]:
    """dist/app.js and dist/chunks/*.js (esbuild, code splitting): app.js holds
    what draws the board (chessground, the controller, the board view) and
    imports the rest of the page (chunks/page-<hash>.js) once the board is on
    screen; code both use goes to shared chunks. Returns the chunks app.js
    imports statically, which index.html preloads (no request waterfall
    before the board). Stale chunks of earlier builds are removed first, so
    the service worker's manifest lists only this build's files."""
    chunks = dist / "chunks"
    shutil.rmtree(chunks, ignore_errors=True)
    for old in dist.glob("app.js*"):
        old.unlink()
    meta = CACHE / "esbuild-meta.json"
    CACHE.mkdir(parents=True, exist_ok=True)
    esbuild = NM / "esbuild/bin/esbuild"
    cmd = [
        str(esbuild),
        str(SRC / "app.js"),
        "--bundle",
        "--splitting",
        "--format=esm",
        "--target=es2020",
        f"--outdir={dist}",
        "--entry-names=[name]",
        "--chunk-names=chunks/[name]-[hash]",
        f"--metafile={meta}",
        "--log-level=warning",
        "--legal-comments=linked",
    ]
    cmd += ["--sourcemap"] if dev else ["--minify"]
    run(cmd, cwd=WEB)  # the metafile's paths are relative to it
    outputs = json.loads(meta.read_text())["outputs"]
    entry = next(o for path, o in outputs.items() if Path(path).name == "app.js")
    static = [
        (WEB / i["path"]).resolve().relative_to(dist).as_posix()
        for i in entry["imports"]
        if i["kind"] == "import-statement" and not i.get("external")
    ]
    if not any(Path(p).name.startswith("page-") for p in outputs):
        die("esbuild made no chunks/page-*.js: src/app.js must import('./page.js') after the board")
    return static


STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)">\n')
STYLE_SRC = "style-src 'self' "


def png_icon(size: int) -> bytes:
    """The app's icon as a PNG (the favicon's four squares, light and dark, a
    green band at the foot for the draw), written with zlib alone so that the
    build needs no imaging library."""
    light, dark, green = (0xF0, 0xD9, 0xB5), (0xB5, 0x88, 0x63), (0x14, 0x53, 0x2D)
    half, band = size // 2, size - size // 8
    rows = []
    for y in range(size):
        row = bytearray([0])  # filter: none
        for x in range(size):
            rgb = green if y >= band else light if (x < half) == (y < half) else dark
            row += bytes(rgb)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def write_app_manifest(dist: Path) -> None:
    """The web app manifest (src/manifest.webmanifest) and its icons, 192 and
    512 px, made here: "Add to Home Screen" gives an app that opens offline
    (the service worker caches them with every other file of dist/)."""
    copy(SRC / "manifest.webmanifest", dist / "manifest.webmanifest")
    for size in (192, 512):
        out = dist / f"icon-{size}.png"
        data = png_icon(size)
        if not out.exists() or out.read_bytes() != data:
            out.write_bytes(data)


def write_index(dist: Path, preload: list[str]) -> None:
    """dist/index.html from src/index.html: its stylesheets (chessground's and
    app.css) inlined, minified, in one <style> allowed by its sha256 in the
    page's CSP (no request before the first paint), the start position drawn
    in the board's element for a first visit (start_board.py), and a modulepreload link for each chunk app.js imports
    statically, next to the one for app.js."""
    html = (SRC / "index.html").read_text()
    anchor = '<link rel="modulepreload" href="app.js">'
    if anchor not in html:
        die("web/src/index.html lost its modulepreload link for app.js")
    links = "".join(f'\n<link rel="modulepreload" href="{p}">' for p in preload)
    html = html.replace(anchor, anchor + links, 1)

    sheets = STYLESHEET.findall(html)
    if not sheets or STYLE_SRC not in html:
        die("web/src/index.html lost its stylesheet links or its CSP style-src")
    files = [NM / "@lichess-org/chessground/assets" / h[3:] if h.startswith("cg/") else SRC / h for h in sheets]
    for f in files:
        if not f.exists():
            die(f"{f} missing (a stylesheet of web/src/index.html)")
    CACHE.mkdir(parents=True, exist_ok=True)
    entry, out = CACHE / "inline-entry.css", CACHE / "inline.css"
    entry.write_text("".join(f'@import "{f.as_posix()}";\n' for f in files))
    run(
        [str(NM / "esbuild/bin/esbuild"), str(entry), "--bundle", "--minify", f"--outfile={out}", "--log-level=warning"]
    )
    css = out.read_text().strip()
    if "</" in css:
        die("the inlined CSS holds '</', which would end its <style> element")
    first = True

    def inline(m: re.Match) -> str:
        nonlocal first
        keep, first = first, False
        return f"<style>{css}</style>\n" if keep else ""

    html = STYLESHEET.sub(inline, html)
    if CONNECT_SRC[0] + ";" not in html:
        die("web/src/index.html lost its CSP connect-src 'self'")
    html = html.replace(CONNECT_SRC[0] + ";", CONNECT_SRC[1] + ";", 1)
    html = html.replace(STYLE_SRC, f"{STYLE_SRC}{start_board.csp_hash(css)} ", 1)
    try:
        html = start_board.insert(html, SRC / "persist.js")
    except ValueError as e:
        die(str(e))
    (dist / "index.html").write_text(html)


def with_defines(src: Path, out: Path, defines: dict[str, object]) -> None:
    """``out``: ``src`` with each name of ``defines`` replaced by its JSON
    value, by esbuild's own ``define`` (no bundling: the file stays the one
    module or script it is)."""
    cmd = [str(NM / "esbuild/bin/esbuild"), str(src), f"--outfile={out}", "--log-level=warning"]
    cmd += [f"--define:{name}={json.dumps(value, separators=(',', ':'))}" for name, value in defines.items()]
    run(cmd, cwd=WEB)


# ---------------------------------------------------------------- arbiter
#: Where the Arbiter view may fetch a followed source from: any https host, and
#: plain http only on this machine (a relay such as DGT LiveChess on localhost,
#: the tests' loopback server). Scripts stay the page's own ('self').
CONNECT_SRC = ("connect-src 'self'", "connect-src 'self' https: http://127.0.0.1:* http://localhost:*")


def write_workers(dist: Path, boot: dict[str, object]) -> None:
    """dist/worker.js and dist/arbiter-worker.js from src/worker.js, with the
    wheels and the snapshot written in (one request less before the
    snapshot): the page's answering with pychessdraw.web.bridge.Bridge, the
    arbiter's (same start-up, same snapshot) with pychessdraw.web.follow.Bridge
    (the Arbiter view's follower), so that following a round never waits
    behind the game on the board, nor the other way."""
    for name, module in (("worker.js", "pychessdraw.web.bridge"), ("arbiter-worker.js", "pychessdraw.web.follow")):
        with_defines(SRC / "worker.js", dist / name, {"__PCD_BOOT__": boot, "__PCD_BRIDGE__": module})


# ---------------------------------------------------------------- main
# ---------------------------------------------------------------- snapshot
def make_snapshot(dist: Path, wheel_rels: list[str]) -> str | None:
    """dist/pyodide/snapshot-<key>.gz made from exactly these dist files; its
    path relative to dist, or None (with a warning) when it cannot be made."""
    inputs = [dist / "pyodide" / f for f in PYODIDE_FILES] + [dist / w for w in wheel_rels]
    h = hashlib.sha256()
    for p in inputs:
        h.update(p.name.encode() + sha256(p).encode())
    h.update((WEB / "snapshot.mjs").read_bytes())
    h.update((WEB / "snapshot_files.py").read_bytes())
    key = h.hexdigest()[:16]
    name = f"snapshot-{key}.gz"
    cached = CACHE / name
    for old in (dist / "pyodide").glob("snapshot-*.gz"):
        if old.name != name:
            old.unlink()
    if not cached.exists():
        node = shutil.which("node")
        if not node:
            say("WARNING: no node on PATH: no snapshot, the page boots Python at every load")
            return None
        say("snapshot: booting Pyodide under node, importing pychessdraw (node web/snapshot.mjs)")
        tmp = CACHE / (name + ".part")
        r = subprocess.run(
            [node, str(WEB / "snapshot.mjs"), str(dist), str(tmp), *wheel_rels], cwd=WEB, capture_output=True, text=True
        )
        if r.returncode != 0 or not tmp.exists():
            say("WARNING: no snapshot (the page will boot Python at every load):\n" + (r.stderr or r.stdout)[-2000:])
            tmp.unlink(missing_ok=True)
            return None
        for line in r.stdout.splitlines():
            say(line)
        for old in CACHE.glob("snapshot-*.gz"):
            old.unlink()
        tmp.rename(cached)
    else:
        say(f"snapshot: inputs unchanged, reusing {name}")
    copy(cached, dist / "pyodide" / name)
    return f"pyodide/{name}"


# ---------------------------------------------------------------- service worker
SW_SKIP = {"sw.js", ".nojekyll"}


def write_service_worker(dist: Path) -> str:
    """dist/sw.js from src/sw.js with the manifest of every other file of dist,
    and dist/boot.js from src/boot.js with the build id written in (so that a
    page can tell whether the service worker in charge holds its build); returns
    the build id: a hash of every file but sw.js and boot.js."""

    def manifest() -> dict[str, str]:
        return {
            p.relative_to(dist).as_posix(): sha256(p)
            for p in sorted(dist.rglob("*"))
            if p.is_file() and p.relative_to(dist).as_posix() not in SW_SKIP
        }

    files = manifest()
    files.pop("boot.js", None)
    build = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    with_defines(SRC / "boot.js", dist / "boot.js", {"__PCD_BUILD__": build})
    files = manifest()
    with_defines(SRC / "sw.js", dist / "sw.js", {"__PCD_MANIFEST__": {"build": build, "files": files}})
    size = sum((dist / f).stat().st_size for f in files)
    say(f"service worker: dist/sw.js caches {len(files)} files ({size / 1e6:.1f} MB), build {build}")
    return build


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=WEB / "dist")
    ap.add_argument("--project-dir", type=Path, default=ROOT, help="where pyproject.toml of pychessdraw is")
    ap.add_argument("--skip-npm", action="store_true", help="never run npm ci")
    ap.add_argument("--dev", action="store_true", help="unminified bundle with source maps")
    ap.add_argument("--no-precompile", action="store_true", help="ship the wheels without added bytecode")
    ap.add_argument("--no-snapshot", action="store_true", help="ship no memory snapshot (the page boots Python)")
    a = ap.parse_args()
    t0 = time.monotonic()
    dist: Path = a.out.resolve()
    dist.mkdir(parents=True, exist_ok=True)

    ensure_node_modules(a.skip_npm)

    # wheels
    wdir = dist / "wheels"
    wdir.mkdir(exist_ok=True)
    pcd = build_pychessdraw_wheel(a.project_dir.resolve())
    chess = chess_wheel()
    mp = micropip_wheel()
    if not a.no_precompile:
        pcd, chess = precompile([pcd, chess])
    for old in wdir.glob("*.whl"):
        if old.name not in (pcd.name, chess.name):
            old.unlink()
    for w in (pcd, chess):
        copy(w, wdir / w.name)
    (dist / "wheels.json").write_text(
        json.dumps({"chess": "wheels/" + chess.name, "pychessdraw": "wheels/" + pcd.name}, indent=1) + "\n"
    )
    say(f"wheels: {pcd.name}, {chess.name} -> dist/wheels/, manifest dist/wheels.json")

    # pyodide
    pdir = dist / "pyodide"
    n = 0
    for f in PYODIDE_FILES:
        src = NM / "pyodide" / f
        if not src.exists():
            die(f"{src} missing (pyodide npm package layout changed?)")
        if f != "pyodide-lock.json":
            n += copy(src, pdir / f)
    lock = json.loads((NM / "pyodide/pyodide-lock.json").read_text())
    entry = lock["packages"].get("micropip")
    if entry is None:
        die("pyodide-lock.json has no micropip entry")
    entry["file_name"] = mp.name
    entry["sha256"] = sha256(mp)
    (pdir / "pyodide-lock.json").write_text(json.dumps(lock))
    n += copy(mp, pdir / mp.name)
    say(
        f"pyodide: core files in dist/pyodide/ ({n} updated); lock entry micropip -> {mp.name} sha256 {entry['sha256'][:12]}…"
    )

    # chessground's CSS goes into index.html (write_index); earlier builds copied it to dist/cg/
    shutil.rmtree(dist / "cg", ignore_errors=True)

    # UI bundle: app.js draws the board, then imports the rest (chunks/page-*.js)
    preload = bundle_ui(dist, a.dev)
    for f in ("app.css", "favicon.svg"):
        if (SRC / f).exists():
            copy(SRC / f, dist / f)
    for f in ("bare.html", "bare.js", "bare-worker.js"):  # the benchmark's page: web/bench/, not the public site
        (dist / f).unlink(missing_ok=True)
    write_index(dist, preload)
    write_app_manifest(dist)
    (dist / ".nojekyll").write_text("")
    say(
        f"ui: app.js + {len(list((dist / 'chunks').glob('*.js')))} chunks bundled (esbuild), "
        "index.html (CSS inlined, module preloads), app.css copied"
    )

    write_licenses(dist, chess, mp, a.project_dir.resolve())
    copy_engine(dist)

    # the worker unpacks the wheels in this order, as the snapshot was made
    wheel_rels = ["wheels/" + chess.name, "wheels/" + pcd.name]
    snap = None
    if a.no_snapshot:
        for old in (dist / "pyodide").glob("snapshot-*.gz"):
            old.unlink()
        say("snapshot: none (--no-snapshot)")
    else:
        snap = make_snapshot(dist, wheel_rels)
    boot = {"wheels": wheel_rels, "snapshot": snap}
    (dist / "boot.json").write_text(json.dumps(boot, indent=1) + "\n")
    write_workers(dist, boot)
    write_service_worker(dist)
    size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    say(f"done in {time.monotonic() - t0:.1f} s: {dist} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
