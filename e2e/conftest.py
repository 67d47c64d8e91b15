# SPDX-License-Identifier: GPL-3.0-or-later
"""Browser tests of the pychessdraw web page (pytest + Playwright, sync API).

The site is (re)built incrementally by web/build.py (set E2E_NO_BUILD=1 to use
web/dist as it is), served on loopback by web/serve.py in a thread, and opened
in ONE Chromium page shared by the tests, so that Pyodide boots once.
Browser: $CHROMIUM, else /usr/bin/chromium, else Playwright's own Chromium.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import chromium  # e2e/chromium.py: the executable and its flags, shared with the benchmarks
import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = WEB / "dist"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
BOOT_TIMEOUT_MS = 120_000

try:
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover
    pytest.fail("the Python package 'playwright' is missing: pip install playwright", pytrace=False)


# ------------------------------------------------------------------ site
@pytest.fixture(scope="session")
def site_dir() -> Path:
    if os.environ.get("E2E_NO_BUILD") != "1" or not (DIST / "index.html").exists():
        r = subprocess.run([sys.executable, str(WEB / "build.py")], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"web/build.py failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}", pytrace=False)
    assert (DIST / "index.html").exists()
    return DIST


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> str:
    sys.path.insert(0, str(WEB))
    try:
        import serve  # web/serve.py
    finally:
        sys.path.pop(0)
    # web/bench/ served beside the site, as benchmarks/web_bench.py does: test_web opens its bare page
    srv = serve.make_server(site_dir, "127.0.0.1", 0, overlay=WEB / "bench")
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    host, port = srv.server_address[:2]
    yield f"http://{host}:{port}/"
    srv.shutdown()
    srv.server_close()


# ------------------------------------------------------------------ browser
@pytest.fixture(scope="session")
def browser():
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        try:
            b = chromium.launch(p)
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{chromium.INSTALL_HINT}\n(launch error: {str(exc).splitlines()[0]})", pytrace=False)
        yield b
        b.close()


class App:
    """The shared page plus helpers that act as a user would."""

    def __init__(self, page: Page, base_url: str):
        self.page = page
        self.base_url = base_url
        self.console: list[str] = []
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))

    # -- waiting ---------------------------------------------------------
    def seq(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.seq || 0)"))

    def idle(self) -> bool:
        return self.page.evaluate("() => document.body.dataset.idle === '1'")

    def wait_seq(self, after: int, timeout: float = 15.0) -> None:
        """Until the UI has applied an answer newer than `after`, and the
        follow-up analysis of the position has come back too."""
        end = time.monotonic() + timeout
        while self.seq() <= after or not self.idle():
            if time.monotonic() > end:
                raise AssertionError(f"the page did not answer within {timeout} s (seq {self.seq()})")
            time.sleep(0.02)

    def acting(self, fn) -> None:
        """Run a user action that sends one request, wait until the UI shows its answer."""
        before = self.seq()
        fn()
        self.wait_seq(before)

    def load(self, url: str | None = None) -> None:
        self.page.goto(url or self.base_url)
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=BOOT_TIMEOUT_MS)

    # -- getters ---------------------------------------------------------
    def tid(self, name: str):
        return self.page.get_by_test_id(name)

    def text(self, name: str) -> str:
        return self.tid(name).inner_text()

    def sans(self) -> list[str]:
        return self.page.eval_on_selector_all(
            "[data-testid=move-list] button.ply[data-ply]:not([data-ply='0'])",
            "bs => bs.map(b => b.firstChild.textContent)",
        )

    def fen(self) -> str:
        return self.tid("board").get_attribute("data-fen")

    def panel_ply(self) -> int:
        return int(self.tid("draw-panel").get_attribute("data-ply"))

    def halfmove(self) -> int:
        return int(re.match(r"\d+", self.text("halfmove-clock")).group())

    def repetitions(self) -> int:
        return int(re.match(r"\d+", self.text("repetition-count")).group())

    def claims(self) -> list[dict]:
        """One entry per claim: the claim buttons, and the options of a claim
        picker (when many moves allow the same claim)."""
        return self.page.eval_on_selector_all(
            "[data-testid=claims] [data-rule]",
            "bs => bs.map(b => ({rule: b.dataset.rule, move: b.dataset.move, text: b.textContent}))",
        )

    def prompt_visible(self) -> bool:
        return self.tid("claim-prompt").is_visible()

    def answer_prompt(self, claim: bool | None) -> None:
        """If the page asks "claim a draw with this move?", answer it:
        True claims, False just plays the move, None leaves the question open."""
        if claim is None or not self.prompt_visible():
            return
        self.acting(lambda: self.tid("claim-prompt-claim" if claim else "claim-prompt-play").click())

    def confirm_if_asked(self, yes: bool = True) -> bool:
        """Answer the "the current game will be replaced" question, if shown."""
        dlg = self.tid("confirm-dialog")
        if dlg.is_visible():
            self.tid("confirm-yes" if yes else "confirm-no").click()
            return True
        return False

    # -- actions ---------------------------------------------------------
    def square_xy(self, sq: str) -> tuple[float, float]:
        box = self.page.locator("[data-testid=board] cg-board").bounding_box()
        f, r = "abcdefgh".index(sq[0]), int(sq[1])
        if self.tid("board").get_attribute("data-orientation") == "black":
            f, r = 7 - f, 9 - r
        size = box["width"] / 8
        return box["x"] + (f + 0.5) * size, box["y"] + (8 - r + 0.5) * size

    def click_square(self, sq: str) -> None:
        self.tid("board").scroll_into_view_if_needed()
        x, y = self.square_xy(sq)
        self.page.mouse.click(x, y)

    def click_move(self, frm: str, to: str, claim: bool | None = False) -> None:
        """Click the piece, then its destination; wait for the referee's answer.
        A move that would allow a draw claim asks first: ``claim`` answers
        (False: just play it, the default; True: claim; None: leave it open)."""
        before = self.seq()
        self.click_square(frm)
        self.click_square(to)
        self.wait_seq(before)
        self.answer_prompt(claim)

    def drag_move(self, frm: str, to: str, claim: bool | None = False) -> None:
        before = self.seq()
        self.tid("board").scroll_into_view_if_needed()
        x0, y0 = self.square_xy(frm)
        x1, y1 = self.square_xy(to)
        m = self.page.mouse
        m.move(x0, y0)
        m.down()
        for i in range(1, 9):  # chessground starts a drag on an animation frame
            m.move(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
            self.page.wait_for_timeout(16)
        self.page.wait_for_timeout(50)
        m.up()
        self.wait_seq(before)
        self.answer_prompt(claim)

    def type_move(self, move: str, claim: bool | None = False) -> None:
        box = self.tid("move-input")
        box.fill(move)
        self.acting(lambda: box.press("Enter"))
        self.answer_prompt(claim)

    def click(self, name: str) -> None:
        self.acting(lambda: self.tid(name).click())

    def click_replacing(self, name: str) -> None:
        """Click a control that replaces the game (new game, set-up, import),
        confirming the question the page asks when a game would be lost."""
        before = self.seq()
        self.tid(name).click()
        # the question may come after a check (a FEN is checked before asking), or not at all
        end = time.monotonic() + 10
        while self.seq() <= before and time.monotonic() < end:
            if self.confirm_if_asked(True):
                break
            time.sleep(0.02)
        self.wait_seq(before)

    def new_game(self) -> None:
        self.click_replacing("new-game")
        assert self.panel_ply() == 0

    def set_fen(self, fen: str) -> None:
        self.tid("fen-input").fill(fen)
        self.click_replacing("load-fen")

    def open_pgn(self) -> None:
        """Open the PGN section (closed until the player opens it)."""
        self.page.evaluate("() => { document.getElementById('pgn-box').open = true; }")

    def load_pgn(self, pgn: str) -> None:
        self.open_pgn()
        self.tid("pgn-input").fill(pgn)
        self.click_replacing("load-pgn")

    def screenshot(self, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        self.page.evaluate("() => window.scrollTo(0, 0)")
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def state(self) -> dict:
        return json.loads(self.page.evaluate("() => localStorage.getItem('pychessdraw.game.v1')") or "null")


def fresh_app(browser, base_url, init_script: str | None = None, **context):
    """A loaded page in a new context (its own storage): ``(context, app)``;
    ``context`` takes Playwright's options (viewport, color_scheme...)."""
    ctx = browser.new_context(**context)
    if init_script is not None:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    app = App(page, base_url)
    app.load()
    return ctx, app


@pytest.fixture(scope="session")
def shared_app(browser, base_url) -> App:
    ctx, app = fresh_app(browser, base_url, viewport={"width": 1280, "height": 900})
    yield app
    ctx.close()


@pytest.fixture()
def app(shared_app: App) -> App:
    """The shared page, on a fresh standard game, error cleared, board not flipped."""
    a = shared_app
    if a.page.evaluate("() => document.body.dataset.engine") != "ready":
        a.load()
    if a.tid("board").get_attribute("data-orientation") == "black":
        a.tid("flip").click()
    a.page.keyboard.press("Escape")  # close whatever a test left open
    a.page.keyboard.press("Escape")
    a.new_game()
    if a.tid("error").is_visible():
        a.tid("error-close").click()
    expect(a.tid("error")).to_be_hidden()
    return a
