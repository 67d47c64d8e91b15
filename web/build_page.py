# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's own files in dist/: the bundle (esbuild), index.html with its
CSS inlined and the start position drawn, the app manifest and its icons,
the workers, and the service worker with the manifest of the build."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import start_board  # web/start_board.py: the start position drawn into index.html
from build_common import CACHE, NM, SRC, WEB, copy, die, run, say, with_defines


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


STYLE_SRC = "style-src 'self' "


class Stylesheets(HTMLParser):
    """The page's <link rel="stylesheet"> tags, as written (whatever their
    attributes' order or quotes), with their href, read by the HTML parser."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, str]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and (a.get("rel") or "").lower() == "stylesheet" and a.get("href"):
            self.tags.append((self.get_starttag_text() or "", a["href"] or ""))


def inline_stylesheets(html: str, css: str) -> str:
    """``html`` with its first stylesheet link replaced by ``<style>css</style>``
    and the others removed (each with the line break after it)."""
    for i, (text, _href) in enumerate(Stylesheets(html).tags):
        html = html.replace(text + "\n", text, 1).replace(text, f"<style>{css}</style>\n" if i == 0 else "", 1)
    return html


def write_app_manifest(dist: Path) -> None:
    """The web app manifest (src/manifest.webmanifest) and its icons, 192 and
    512 px (src/icon-*.png, committed): "Add to Home Screen" gives an app that
    opens offline (the service worker caches them with every other file of dist/)."""
    copy(SRC / "manifest.webmanifest", dist / "manifest.webmanifest")
    for size in (192, 512):
        copy(SRC / f"icon-{size}.png", dist / f"icon-{size}.png")


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

    sheets = [href for _text, href in Stylesheets(html).tags]
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
        # the fonts stay files beside index.html (dist/fonts/), fetched only when a style uses them
        [str(NM / "esbuild/bin/esbuild"), str(entry), "--bundle", "--minify", "--external:*.woff"]
        + [f"--outfile={out}", "--log-level=warning"]
    )
    css = out.read_text().strip()
    if "</" in css:
        die("the inlined CSS holds '</', which would end its <style> element")
    html = inline_stylesheets(html, css)
    if CONNECT_SRC[0] + ";" not in html:
        die("web/src/index.html lost its CSP connect-src 'self'")
    html = html.replace(CONNECT_SRC[0] + ";", CONNECT_SRC[1] + ";", 1)
    html = html.replace(STYLE_SRC, f"{STYLE_SRC}{start_board.csp_hash(css)} ", 1)
    try:
        html = start_board.insert(html, SRC / "persist.js")
    except ValueError as e:
        die(str(e))
    (dist / "index.html").write_text(html)


# ---------------------------------------------------------------- the Arbiter view's sources
#: Where the Arbiter view may fetch a followed source from: any https host, and
#: plain http only on this machine (a relay such as DGT LiveChess on localhost,
#: the tests' loopback server). Scripts stay the page's own ('self').
CONNECT_SRC = ("connect-src 'self'", "connect-src 'self' https: http://127.0.0.1:* http://localhost:*")


def write_workers(dist: Path, boot: dict[str, object]) -> None:
    """dist/worker.js and dist/arbiter-worker.js from src/worker.js, with the
    wheels and the snapshot written in (one request less before the
    snapshot): the page's answering with pychessdraw.web.bridge.Bridge, the
    arbiter's (same start-up, same snapshot) with pychessdraw.web.follow.ArbiterBridge
    (the Arbiter view's follower), so that following a round never waits
    behind the game on the board, nor the other way."""
    for name, module, cls in (
        ("worker.js", "pychessdraw.web.bridge", "Bridge"),
        ("arbiter-worker.js", "pychessdraw.web.follow", "ArbiterBridge"),
    ):
        with_defines(
            SRC / "worker.js",
            dist / name,
            {"__PCD_BOOT__": boot, "__PCD_BRIDGE__": module, "__PCD_BRIDGE_CLASS__": cls},
        )


# ---------------------------------------------------------------- service worker
def write_service_worker(dist: Path) -> str:
    """dist/sw.js with the precache manifest of every other file of dist
    (workbox-build's injectManifest, run by web/precache.mjs) and dist/boot.js,
    both with the build id written in (so that a page can tell whether the
    service worker in charge holds its build); returns the build id: a hash of
    every file but sw.js and boot.js."""
    node = shutil.which("node")
    if not node:
        die("'node' not found on PATH: Node.js 20+ is needed to write the service worker")
    r = subprocess.run([node, str(WEB / "precache.mjs"), str(dist)], cwd=WEB, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"web/precache.mjs failed:\n{(r.stderr or r.stdout)[-3000:]}")
    for line in r.stderr.splitlines():
        say(line)
    done = json.loads(r.stdout.strip().splitlines()[-1])
    say(
        f"service worker: dist/sw.js caches {done['files']} files ({done['bytes'] / 1e6:.1f} MB), build {done['build']}"
    )
    return str(done["build"])
