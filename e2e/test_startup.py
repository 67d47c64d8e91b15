# SPDX-License-Identifier: GPL-3.0-or-later
"""How the page starts: the memory snapshot, the service worker (repeat visits,
offline, updates to a new build) and what web/serve.py sends.

Each test uses a fresh browser context (empty HTTP cache, no service worker),
so that it sees a first visit; the shared page of test_web.py is not touched.
No timing is asserted here (benchmarks/web_bench.py measures): the tests check
which start-up path was taken, from the worker's marks in window.__boot.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
BOOT_TIMEOUT_MS = 120_000


def _web_module(name: str):
    sys.path.insert(0, str(WEB))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


@pytest.fixture()
def fresh(browser):
    """A page in a new context: a first visit."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    yield ctx, page
    ctx.close()


@pytest.fixture(scope="session")
def boot_manifest(site_dir: Path) -> dict:
    return json.loads((site_dir / "boot.json").read_text())


def wait_ready(page) -> dict:
    page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)
    return page.evaluate("() => window.__boot.worker")


def wait_offline_ready(page) -> None:
    page.wait_for_selector("body[data-offline-ready=true]", state="attached", timeout=BOOT_TIMEOUT_MS)


def play(page, move: str, ply: int) -> None:
    box = page.get_by_test_id("move-input")
    box.fill(move)
    box.press("Enter")
    expect(page.get_by_test_id("draw-panel")).to_have_attribute("data-ply", str(ply), timeout=20_000)


def cached_files(page) -> dict:
    return page.evaluate(
        """async () => {
          const names = await caches.keys();
          const out = {};
          for (const n of names) {
            const c = await caches.open(n);
            out[n] = (await c.keys()).map((r) => new URL(r.url).pathname);
          }
          return out;
        }"""
    )


def sw_manifest(site: Path) -> dict:
    """The manifest in dist/sw.js: the build id (esbuild's define) and the
    files with their sha256 (the JSON list workbox-build's injectManifest wrote in)."""
    text = (site / "sw.js").read_text()
    build = re.search(r'build: "([0-9a-f]+)"', text)
    assert build, "dist/sw.js holds no build id"
    entries, _ = json.JSONDecoder().raw_decode(text, text.index('[{"'))
    return {"build": build.group(1), "files": {e["url"]: e["revision"] for e in entries}}


# ------------------------------------------------------------------ cold, repeat, offline
def test_cold_load_restores_the_snapshot_and_caches_the_whole_site(fresh, base_url, site_dir, boot_manifest):
    ctx, page = fresh
    page.goto(base_url)
    marks = wait_ready(page)
    assert marks["path"] == ("snapshot" if boot_manifest["snapshot"] else "boot"), marks
    assert "snapshot_error" not in marks, marks
    assert page.locator("[data-testid=board] cg-board piece").count() == 32
    assert page.evaluate("() => !!navigator.serviceWorker.controller") is False  # a first visit
    wait_offline_ready(page)
    man = sw_manifest(site_dir)
    cached = cached_files(page)
    assert list(cached) == [f"pychessdraw-{man['build']}"], cached
    files = set(cached[f"pychessdraw-{man['build']}"])
    want = {"/" + f for f in man["files"]}
    assert want <= files, f"not cached: {sorted(want - files)[:10]}"
    # every file of the build is in the manifest (sw.js itself aside)
    on_disk = {p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()}
    assert on_disk - set(man["files"]) <= {"sw.js", ".nojekyll"}
    play(page, "e4", 1)


def test_repeat_visit_comes_from_the_service_worker(fresh, base_url, boot_manifest):
    ctx, page = fresh
    page.goto(base_url)
    wait_ready(page)
    wait_offline_ready(page)
    page.reload()
    marks = wait_ready(page)
    assert page.evaluate("() => window.__pcdBoot.sw.controlled") is True
    assert page.evaluate("() => !!navigator.serviceWorker.controller") is True
    assert marks["path"] == ("snapshot" if boot_manifest["snapshot"] else "boot"), marks
    play(page, "d4", 1)


def test_offline_reload_loads_and_plays(fresh, base_url):
    ctx, page = fresh
    page.goto(base_url)
    wait_ready(page)
    wait_offline_ready(page)
    ctx.set_offline(True)
    try:
        with pytest.raises(PlaywrightError):  # the network is really off
            page.evaluate("() => fetch('/no-such-file-' + Math.random()).then(r => r.status)")
        page.reload()
        wait_ready(page)
        play(page, "e4", 1)
        play(page, "e5", 2)
        page.evaluate("() => { document.getElementById('pgn-box').open = true; }")
        page.get_by_test_id("export-pgn").click()
        expect(page.get_by_test_id("pgn-output")).to_have_value(__import__("re").compile(r"1\. e4 e5"))
    finally:
        ctx.set_offline(False)


def test_imports_after_a_restore_find_their_files(fresh, base_url, boot_manifest):
    """The snapshot holds the modules but not their files: a standard-library
    module and a python-chess module that the snapshot never imported still
    import (the stdlib zip arrives after "ready", the wheels unpack on a miss)."""
    if not boot_manifest["snapshot"]:
        pytest.skip("this build has no snapshot (see web/build.py's output)")
    ctx, page = fresh
    page.goto(base_url + "?nosw")
    marks = wait_ready(page)
    assert marks["path"] == "snapshot"
    worker = next(w for w in page.workers if w.url.split("?")[0].endswith("/worker.js"))
    out = json.loads(
        worker.evaluate(
            """() => self.__pychessdraw.pyodide().runPython(`
import json, sys
before = [m for m in ("fractions", "chess.polyglot") if m in sys.modules]
import fractions, chess.polyglot
json.dumps([before, str(fractions.Fraction(1, 3) * 3), chess.polyglot.__file__])
`)"""
        )
    )
    assert out[0] == [], out  # neither was in the snapshot
    assert out[1] == "1" and out[2].endswith("site-packages/chess/polyglot.py"), out


# ------------------------------------------------------------------ the board first
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


class Gate:
    """Holds back the requests whose URL matches `pattern` until release()."""

    def __init__(self, ctx, pattern: str):
        self.held: list = []
        self.open = False
        ctx.route(re.compile(pattern), self._request)

    def _request(self, route) -> None:
        if self.open:
            route.continue_()
        else:
            self.held.append(route)

    def release(self) -> None:
        self.open = True
        for route in self.held:
            route.continue_()
        self.held.clear()


class PythonGate(Gate):
    """Holds back Python's wasm (so the referee stays "loading") until release()."""

    def __init__(self, ctx):
        super().__init__(ctx, r".*/pyodide\.asm\.wasm$")


def board_squares(page) -> dict:
    """What chessground shows: square -> 'white pawn', ..."""
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-testid=board] cg-board piece')]"
        ".map((p) => [p.cgKey, p.className]))"
    )


def boot_marks(page) -> dict:
    return page.evaluate("() => ({...window.__boot, engine: document.body.dataset.engine})")


def test_board_is_drawn_before_the_referee_is_ready(fresh, base_url):
    """A cold load: the board (and its marks) come while Python is still held back."""
    ctx, page = fresh
    gate = PythonGate(ctx)
    page.goto(base_url + "?nosw")
    page.wait_for_function("() => window.__boot && window.__boot.board_ms != null")
    page.wait_for_selector("[data-testid=engine-wait]", state="visible")  # the rest of the page is there too
    marks = boot_marks(page)
    assert marks["engine"] == "loading" and marks["ready_ms"] is None, marks
    assert marks["board_known"] is True
    assert page.get_by_test_id("board").get_attribute("data-fen") == START_FEN
    assert len(board_squares(page)) == 32
    assert page.evaluate("() => performance.getEntriesByName('board-drawn').length") == 1
    assert page.evaluate("() => performance.getEntriesByName('engine-ready').length") == 0
    gate.release()
    wait_ready(page)
    marks = boot_marks(page)
    assert marks["board_ms"] < marks["ready_ms"], marks
    play(page, "e4", 1)


def test_saved_position_is_drawn_before_the_referee_is_ready(fresh, base_url):
    ctx, page = fresh
    page.goto(base_url + "?nosw")
    wait_ready(page)
    play(page, "e4", 1)
    play(page, "e5", 2)
    expect(page.get_by_test_id("board")).to_have_attribute("data-fen", AFTER_E4_E5)
    gate = PythonGate(ctx)
    page.reload()
    page.wait_for_function("() => window.__boot && window.__boot.board_ms != null")
    marks = boot_marks(page)
    assert marks["engine"] == "loading" and marks["board_known"] is True, marks
    assert page.get_by_test_id("board").get_attribute("data-fen") == AFTER_E4_E5
    squares = board_squares(page)
    assert squares.get("e4") == "white pawn" and squares.get("e5") == "black pawn" and "e2" not in squares, squares
    # a move before the referee is kept, shown, and judged once it is ready
    box = page.get_by_test_id("move-input")
    box.fill("Nf3")
    box.press("Enter")
    expect(page.get_by_test_id("queued-moves")).to_contain_text("Nf3")
    assert page.get_by_test_id("draw-panel").get_attribute("data-ply") == "0"
    gate.release()
    wait_ready(page)
    expect(page.get_by_test_id("draw-panel")).to_have_attribute("data-ply", "3")
    expect(page.get_by_test_id("queued-moves")).to_be_empty()


def test_enter_before_the_controls_are_mounted_is_not_lost(fresh, base_url):
    """The move box is in the first paint; its controls come with the page's
    second chunk. A move entered in between is queued once they mount."""
    ctx, page = fresh
    python = PythonGate(ctx)
    controls = Gate(ctx, r".*/chunks/page-[^/]*\.js$")
    page.goto(base_url + "?nosw")
    page.wait_for_function("() => window.__boot && window.__boot.board_ms != null")
    box = page.get_by_test_id("move-input")
    box.fill("e4")
    box.press("Enter")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.__boot.page_ms") is None  # the controls really were not there
    assert page.get_by_test_id("queued-moves").inner_text() == ""
    controls.release()
    expect(page.get_by_test_id("queued-moves")).to_contain_text("e4")
    expect(box).to_have_value("")
    python.release()
    wait_ready(page)
    expect(page.get_by_test_id("board")).to_have_attribute("data-fen", AFTER_E4)
    expect(page.get_by_test_id("queued-moves")).to_be_empty()


def test_a_link_to_a_game_from_elsewhere_counts_as_drawn_once_replayed(fresh, base_url):
    """Its moves are known but not the position they lead to: the board shows
    the game's start meanwhile, and board_ms is not taken until the referee
    has replayed them."""
    ctx, page = fresh
    gate = PythonGate(ctx)
    page.goto(base_url + "?nosw#m=e2e4,e7e5")
    page.wait_for_selector("[data-testid=board] cg-board piece")
    page.wait_for_selector("[data-testid=engine-wait]", state="visible")
    marks = boot_marks(page)
    assert marks["engine"] == "loading" and marks["board_known"] is False and marks["board_ms"] is None, marks
    assert page.get_by_test_id("board").get_attribute("data-fen") == START_FEN
    gate.release()
    wait_ready(page)
    marks = boot_marks(page)
    assert marks["board_ms"] is not None and marks["board_ms"] >= marks["ready_ms"], marks
    assert page.get_by_test_id("board").get_attribute("data-fen") == AFTER_E4_E5


# ------------------------------------------------------------------ the start position in index.html
# A first visit sees the start position drawn by index.html itself (web/start_board.py),
# before app.js has been fetched; chessground then takes the board over in place.
PIECE_BOXES = """() => [...document.querySelectorAll('[data-testid=board] cg-board piece')].map((p) => {
  const r = p.getBoundingClientRect();
  return [p.classList[0] + ' ' + p.classList[1], r.x, r.y, r.width, r.height];
}).sort((a, b) => a[1] - b[1] || a[2] - b[2])"""
COORD_BOXES = """() => [...document.querySelectorAll('[data-testid=board] coords coord')].map((c) => {
  const r = c.getBoundingClientRect();
  return [c.textContent, c.className, r.x, r.y];
})"""


def _without_app(ctx) -> None:
    """The page as the browser draws it before app.js runs (app.js never comes)."""
    ctx.route("**/app.js", lambda route: route.abort())


def _csp_violations(page) -> list:
    return page.evaluate("() => window.__cspViolations")


CSP_WATCH = (
    "window.__cspViolations = [];"
    "document.addEventListener('securitypolicyviolation', (e) => "
    "window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"
)


def test_a_first_visit_sees_the_start_position_before_any_script(fresh, base_url):
    ctx, page = fresh
    ctx.add_init_script(CSP_WATCH)
    _without_app(ctx)
    page.goto(base_url + "?nosw")
    pieces = [box[0] for box in page.evaluate(PIECE_BOXES)]
    assert len(pieces) == 32
    assert sorted(set(pieces)) == sorted(
        f"{c} {r}" for c in ("white", "black") for r in ("pawn", "knight", "bishop", "rook", "queen", "king")
    )
    assert page.locator("[data-testid=board] coords coord").count() == 16
    assert _csp_violations(page) == []  # the guard script is allowed by its hash
    assert page.evaluate("() => window.__boot") is None  # no script of the page ran


@pytest.mark.parametrize("width,height,scale", [(1280, 800, 1), (390, 844, 3), (1000, 700, 2)])
def test_chessground_takes_over_the_drawn_board_in_place(browser, base_url, width, height, scale):
    """Every piece and coordinate stays where index.html drew it (no jump)."""

    def boxes(block_app: bool):
        ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
        try:
            if block_app:
                _without_app(ctx)
            page = ctx.new_page()
            page.goto(base_url + "?nosw")
            if not block_app:
                page.wait_for_function("() => window.__boot && window.__boot.board_ms != null")
                wait_ready(page)  # the page's layout as it stays
            return page.evaluate(PIECE_BOXES), page.evaluate(COORD_BOXES)
        finally:
            ctx.close()

    drawn, coords_drawn = boxes(True)
    mounted, coords_mounted = boxes(False)
    assert len(drawn) == len(mounted) == 32
    for a, b in zip(drawn, mounted, strict=True):
        assert a[0] == b[0] and all(abs(x - y) < 0.5 for x, y in zip(a[1:], b[1:], strict=True)), (a, b)
    assert coords_drawn == coords_mounted


@pytest.mark.parametrize("how", ["saved game", "link", "board flipped"])
def test_a_visit_starting_elsewhere_never_shows_the_start_position_first(fresh, base_url, how):
    """A saved game, a link with moves or a board turned to Black: the guard
    removes the drawn start position before the first paint, and app.js
    draws the real one."""
    ctx, page = fresh
    ctx.add_init_script(CSP_WATCH)
    url = base_url + "?nosw"
    page.goto(url)
    wait_ready(page)
    if how == "saved game":
        play(page, "e4", 1)
    elif how == "board flipped":
        page.get_by_test_id("flip").click()
        expect(page.get_by_test_id("board")).to_have_attribute("data-orientation", "black")
    else:
        url += "#m=e2e4,e7e5"
    _without_app(ctx)
    page.goto("about:blank")
    page.goto(url)
    expect(page.get_by_test_id("board")).to_be_attached()
    assert page.evaluate(PIECE_BOXES) == []
    assert _csp_violations(page) == []
    ctx.unroute("**/app.js")
    page.reload()
    wait_ready(page)
    assert len(board_squares(page)) == 32
    if how != "link":  # a link's moves are replayed: covered above
        want = "black" if how == "board flipped" else "white"
        assert page.get_by_test_id("board").get_attribute("data-orientation") == want


# ------------------------------------------------------------------ fallbacks
def test_a_broken_snapshot_falls_back_to_a_normal_boot(fresh, base_url, boot_manifest):
    if not boot_manifest["snapshot"]:
        pytest.skip("this build has no snapshot (see web/build.py's output)")
    ctx, page = fresh
    ctx.route(
        "**/pyodide/snapshot-*.gz",
        lambda route: route.fulfill(status=200, body=gzip.compress(b"\0" * 4096), content_type="application/gzip"),
    )
    page.goto(base_url + "?nosw")
    marks = wait_ready(page)
    assert marks["path"] == "boot" and marks.get("snapshot_error"), marks
    play(page, "c4", 1)


def test_missing_snapshot_falls_back_to_a_normal_boot(fresh, base_url, boot_manifest):
    if not boot_manifest["snapshot"]:
        pytest.skip("this build has no snapshot (see web/build.py's output)")
    ctx, page = fresh
    ctx.route("**/pyodide/snapshot-*.gz", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(base_url + "?nosw")
    marks = wait_ready(page)
    assert marks["path"] == "boot" and "404" in marks.get("snapshot_error", ""), marks
    play(page, "Nf3", 1)


# ------------------------------------------------------------------ a new build
@pytest.fixture()
def own_site(site_dir: Path, tmp_path: Path):
    """A copy of the build served by its own server (its own origin)."""
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    serve = _web_module("serve")
    srv = serve.make_server(site, "127.0.0.1", 0, warm_up=False)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield site, f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


def test_update_to_a_new_build(fresh, own_site):
    site, url = own_site
    ctx, page = fresh
    build = _web_module("build")
    old = sw_manifest(site)["build"]
    page.goto(url)
    wait_ready(page)
    wait_offline_ready(page)
    assert page.evaluate("() => window.__pcdBoot.sw.build") == old
    play(page, "e4", 1)

    # deploy build B: a changed page, its new service worker
    index = site / "index.html"
    index.write_text(index.read_text().replace("</body>", "<p id=build-b>build B</p>\n</body>"))
    new = build.write_service_worker(site)
    assert new != old

    page.reload()  # served by build A; its check finds B, which takes over and reloads the page
    deadline = time.monotonic() + 180  # installing B copies and checks 20 MB: slow on a loaded machine
    while True:
        try:
            if page.evaluate("() => !!document.getElementById('build-b') && window.__pcdBoot.sw.build") == new:
                break
        except Exception:  # noqa: BLE001  (the page reloaded under us)
            pass
        if time.monotonic() > deadline:
            state = page.evaluate(
                "async () => { const r = await navigator.serviceWorker.getRegistration();"
                " return [window.__pcdBoot.sw, await caches.keys(),"
                " ['installing', 'waiting', 'active'].map((k) => r && r[k] && r[k].state)]; }"
            )
            raise AssertionError(f"the new build {new} did not take over the page: {state}")
        time.sleep(0.2)
    wait_ready(page)
    assert list(cached_files(page)) == [f"pychessdraw-{new}"]  # build A's cache is gone
    assert page.get_by_test_id("draw-panel").get_attribute("data-ply") == "1"  # the game survived
    play(page, "e5", 2)


# ------------------------------------------------------------------ the server
def _get(url: str, headers: dict | None = None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        return urllib.request.urlopen(req)
    except urllib.error.HTTPError as e:  # 304 and 404 land here
        return e


def test_server_sends_gzip_like_a_static_host(base_url, site_dir, boot_manifest):
    gz = {"Accept-Encoding": "gzip, deflate, br"}
    r = _get(base_url + "pyodide/pyodide.asm.wasm", gz)
    assert r.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in r.headers["Vary"]
    assert r.headers["Content-Type"] == "application/wasm"
    body = r.read()
    assert gzip.decompress(body) == (site_dir / "pyodide/pyodide.asm.wasm").read_bytes()
    assert int(r.headers["Content-Length"]) == len(body) < (site_dir / "pyodide/pyodide.asm.wasm").stat().st_size / 2
    # without Accept-Encoding: as it is
    r = _get(base_url + "app.js")
    assert r.headers.get("Content-Encoding") is None
    assert r.read() == (site_dir / "app.js").read_bytes()
    # zips and the gzipped snapshot are never encoded twice
    for rel in ["pyodide/python_stdlib.zip", boot_manifest["wheels"][0]] + (
        [boot_manifest["snapshot"]] if boot_manifest["snapshot"] else []
    ):
        r = _get(base_url + rel, gz)
        assert r.headers.get("Content-Encoding") is None, rel
    # revalidation, and long caching only for content-hashed names
    r = _get(base_url + "index.html", gz)
    assert r.headers["Cache-Control"] == "no-cache"
    etag = r.headers["ETag"]
    assert _get(base_url + "index.html", {**gz, "If-None-Match": etag}).status == 304
    if boot_manifest["snapshot"]:
        r = _get(base_url + boot_manifest["snapshot"], gz)
        assert "immutable" in r.headers["Cache-Control"]
    assert _get(base_url + "no-such-file.js", gz).status == 404
