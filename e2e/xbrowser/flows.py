# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's main flows, written once against drivers.Driver and run in
each browser engine by e2e/test_xbrowser.py. They use the same data-testid
hooks as the Playwright tests (e2e/conftest.py, test_page.py, test_clocks.py,
test_review_file.py) and act as a user would: clicks on squares and
controls, typing in the move box, a file chosen in the file picker.

Views: before using a hook inside a view, a flow clicks the view's tab
(`[data-testid=view-<name>]`) if the page has one, so the flows work on the
one-section page and on the page split into Play and Review.
"""

from __future__ import annotations

import abc
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import lichess  # e2e/lichess.py: the real games of the shared corpus

from .drivers import ENTER, Driver, wait_for

BOOT_TIMEOUT = 180.0  # Pyodide boots slowly in these engines
ANSWER_TIMEOUT = 30.0
KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]  # the claim is made with 4...Ng8
# A fool's mate (ok), a fivefold repetition played on (ended_earlier), an illegal move (error).
REVIEW_PGN = (
    "1. f3 e5 2. g4 Qh4# 0-1\n\n"
    '[Result "1-0"]\n\n' + " ".join(f"{i}. Nf3 Nf6 {i + 1}. Ng1 Ng8" for i in range(1, 9, 2)) + " 9. d4 1-0\n\n"
    '[Result "*"]\n\n1. d4 d5 2. Kd3 *\n'
)
REVIEW_VERDICTS = ["ok", "ended_earlier", "error"]
_PLIES = "\"[data-testid=move-list] button.ply[data-ply]:not([data-ply='0'])\""  # the move list's moves


class Server(abc.ABC):
    """What the offline flow needs of the web server: stop it, start it again."""

    @abc.abstractmethod
    def stop(self) -> None: ...

    @abc.abstractmethod
    def start(self) -> None: ...


class XApp:
    """The page in one browser, with helpers that act as a user would."""

    def __init__(self, driver: Driver, base_url: str, server: Server, tmp: Path) -> None:
        self.d = driver
        self.base_url = base_url
        self.server = server
        self.tmp = tmp

    # -- reading the page --------------------------------------------------
    def attr(self, testid: str, name: str) -> str | None:
        value: str | None = self.d.js(
            "(t, n) => { const e = document.querySelector(`[data-testid=${t}]`);"
            " return e ? e.getAttribute(n) : null; }",
            testid,
            name,
        )
        return value

    def visible(self, testid: str) -> bool:
        return bool(
            self.d.js(
                "(t) => { const e = document.querySelector(`[data-testid=${t}]`);"
                " return !!e && e.getClientRects().length > 0"
                " && getComputedStyle(e).visibility !== 'hidden'; }",
                testid,
            )
        )

    def text(self, testid: str) -> str:
        return str(self.d.js("(t) => document.querySelector(`[data-testid=${t}]`).innerText", testid))

    def sans(self) -> list[str]:
        return list(
            self.d.js("() => [...document.querySelectorAll(" + _PLIES + ")].map((b) => b.firstChild.textContent)")
        )

    def seq(self) -> int:
        return int(self.d.js("() => Number(document.body.dataset.seq || 0)"))

    def wait(self, src: str, what: str, *args: Any, timeout: float = ANSWER_TIMEOUT) -> Any:
        """Until the JavaScript function `src` returns a true value."""
        return wait_for(lambda: self.d.js(src, *args), timeout, what)

    def wait_seq(self, before: int, timeout: float = ANSWER_TIMEOUT) -> None:
        """Until the page has shown an answer newer than `before` and is idle again."""
        self.wait(
            "(n) => Number(document.body.dataset.seq || 0) > n && document.body.dataset.idle === '1'",
            f"an answer of the referee after seq {before}",
            before,
            timeout=timeout,
        )

    def wait_ready(self) -> None:
        """Until the referee has started and the page is idle (its first analysis
        changes the panel's height, and with it where the buttons are)."""
        self.wait(
            "() => document.body && document.body.dataset.engine === 'ready' && document.body.dataset.idle === '1'",
            "the referee ready",
            timeout=BOOT_TIMEOUT,
        )
        self.d.watch_errors()

    # -- acting ---------------------------------------------------------------
    def show_view(self, name: str) -> None:
        """Click the tab of view `name` if the page has views."""
        if self.d.js("(v) => !!document.querySelector(`[data-testid=view-${v}]`)", name):
            self.click(f"view-{name}")

    def click(self, testid: str) -> None:
        """A mouse click in the middle of the element, scrolled into view first."""
        self.click_css(f"[data-testid={testid}]")

    def click_css(self, selector: str) -> None:
        """A mouse click in the middle of the first element `selector` finds,
        scrolled into view first, once that point shows the element itself
        (a panel still growing could put another control there)."""
        x, y = self.wait(
            "(s) => { const e = document.querySelector(s);"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " const x = r.x + r.width / 2, y = r.y + r.height / 2, hit = document.elementFromPoint(x, y);"
            " return hit && (hit === e || e.contains(hit)) ? [x, y] : null; }",
            f"{selector} on screen, uncovered",
            selector,
            timeout=10.0,
        )
        self.d.click_at(x, y)

    def acting(self, action: Callable[[], None]) -> None:
        before = self.seq()
        action()
        self.wait_seq(before)

    def click_square(self, sq: str) -> None:
        """A click on square `sq`, once the board has stood still for 100 ms
        (just after a reload the panels around it still settle, and a click
        aimed before a shift lands on another square)."""
        x, y = self.wait(
            """(sq) => new Promise((done) => {
          const b = document.querySelector('[data-testid=board]');
          b.scrollIntoView({block: 'center'});
          const at = () => {
            const r = b.querySelector('cg-board').getBoundingClientRect();
            let f = 'abcdefgh'.indexOf(sq[0]), k = Number(sq[1]);
            if (b.dataset.orientation === 'black') { f = 7 - f; k = 9 - k; }
            return [r.x + (f + 0.5) * r.width / 8, r.y + (8 - k + 0.5) * r.height / 8];
          };
          const first = at();
          setTimeout(() => { const then = at(); done(then[0] === first[0] && then[1] === first[1] ? then : null); }, 100);
        })""",
            f"the board standing still to click {sq}",
            sq,
            timeout=10.0,
        )
        self.d.click_at(x, y)

    def click_move(self, frm: str, to: str) -> None:
        """Click `frm` then `to`; wait until the move list has one more move
        and the page is idle (an answer to another request moves data-seq too)."""
        self.show_view("play")
        self.wait("() => document.body.dataset.idle === '1'", "the page idle before a move")
        before, played = self.seq(), len(self.sans())
        self.click_square(frm)
        self.click_square(to)
        try:
            self.wait_seq(before)
            self.wait(
                "(n) => document.querySelectorAll(" + _PLIES + ").length > n", f"{frm}-{to} in the move list", played
            )
        except AssertionError as e:
            raise AssertionError(f"{e}; {self.state()}") from None

    def state(self) -> str:
        """What a failed step saw: the moves, the board, the error shown."""
        error = self.text("error") if self.visible("error") else ""
        return f"moves {self.sans()}, board {self.attr('board', 'data-fen')}, seq {self.seq()}, error {error!r}"

    def fill(self, testid: str, text: str) -> None:
        """Click the text box, empty it, type `text` (no Enter)."""
        self.click(testid)
        self.d.js("(t) => { const e = document.querySelector(`[data-testid=${t}]`); e.focus(); e.select(); }", testid)
        self.d.keys("\ue003" + text)  # Backspace clears the selection

    def type_move(self, move: str, then: Callable[[], None] | None = None) -> None:
        """Type `move` in the move box and press Enter; wait for the answer.
        A move that allows a claim asks first: `then` answers (default: just play)."""
        self.show_view("play")
        self.fill("move-input", move)
        self.acting(lambda: self.d.keys(ENTER))
        if then is None and self.visible("claim-prompt"):
            self.acting(lambda: self.click("claim-prompt-play"))
        elif then is not None:
            then()

    def new_game(self) -> None:
        """A fresh standard game, confirming the replacement if the page asks."""
        self.show_view("play")
        before = self.seq()
        self.click("new-game")
        asked = self.wait(
            "(n) => { const q = document.querySelector('[data-testid=confirm-dialog]');"
            " return Number(document.body.dataset.seq || 0) > n ? 'done'"
            " : q && q.getClientRects().length ? 'asked' : ''; }",
            "a new game or the question before it",
            before,
        )
        if asked == "asked":
            self.click("confirm-yes")
        self.wait_seq(before)
        assert self.attr("draw-panel", "data-ply") == "0"

    def set_time_control(self, text: str) -> None:
        self.show_view("play")
        if not self.visible("time-control") and self.d.js("() => !!document.querySelector('[data-testid=settings]')"):
            self.click("settings")  # where the settings sit in a dialog
        self.fill("time-control", text)
        self.d.keys(ENTER)
        self.wait(
            "() => document.querySelector('[data-testid=clock-white]').dataset.running === 'false'",
            "the clocks set and stopped",
        )
        if self.d.js("() => !!document.querySelector('dialog[open] [data-testid=time-control]')"):
            if self.visible("settings-close"):
                self.click("settings-close")
            else:
                self.d.keys("\ue00c")  # Escape closes a modal dialog


# ------------------------------------------------------------------ the flows
def load(app: XApp) -> None:
    """1. The page loads until the referee is ready: the board drawn, the panel at the start."""
    app.wait_ready()
    app.show_view("play")
    assert app.d.js("() => document.querySelectorAll('[data-testid=board] cg-board piece').length") == 32
    app.new_game()
    assert str(app.attr("board", "data-fen")).startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert not app.visible("error"), app.text("error")


def play(app: XApp) -> None:
    """2. Moves by clicking squares and by typing in the move box."""
    app.new_game()
    app.click_move("e2", "e4")
    app.type_move("e5")
    app.click_move("g1", "f3")
    app.type_move("Nc6")
    assert app.sans() == ["e4", "e5", "Nf3", "Nc6"], app.state()
    assert app.attr("draw-panel", "data-ply") == "4"
    assert str(app.attr("board", "data-fen")).startswith("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w")
    assert not app.visible("error"), app.text("error")


def claim(app: XApp) -> None:
    """3. A threefold claim with an intended move (FIDE 9.2.1), both ways the
    page has: typing 4...Ng8 asks and "Claim" claims; or 4...Ng8 written in
    the move box, then "Claim with typed move"."""
    for way in ("prompt", "written"):
        app.new_game()
        for move in KNIGHTS:
            app.type_move(move)
        if way == "prompt":
            prompt: list[str] = []
            app.type_move(
                "Ng8", then=lambda p=prompt: p.append(app.text("claim-prompt") if app.visible("claim-prompt") else "")
            )
            assert "Ng8 repeats the position a third time" in prompt[0], prompt
            assert len(app.sans()) == 7  # nothing played yet
            app.acting(lambda: app.click("claim-prompt-claim"))
        else:
            app.fill("move-input", "Ng8")
            app.acting(lambda: app.click("claim-typed"))
        assert app.attr("result", "data-termination") == "threefold_repetition", way
        assert app.sans()[-1] == "Ng8" and len(app.sans()) == 8, way
        assert not app.visible("claim-prompt"), way


def flag_fall(app: XApp) -> None:
    """4. A 3-second time control: White's move starts Black's clock, Black's flag falls, White wins on time."""
    app.new_game()
    try:
        app.set_time_control("0.05+0")
        assert app.attr("clock-white", "data-ms") == "3000"
        app.click_move("e2", "e4")
        assert app.attr("clock-black", "data-running") == "true"
        app.wait(
            "() => !!document.querySelector('[data-testid=result]').getClientRects().length",
            "the result of the flag fall",
            timeout=20,
        )
        app.wait_seq(-1)
        assert app.attr("result", "data-termination") == "time_forfeit"
        assert app.attr("result", "data-result") == "1-0"
        text = app.text("result")
        assert "flag fell" in text.lower() and "6.9" in text, text
        assert app.attr("clock-black", "data-ms") == "0"
        assert "false" == app.attr("clock-black", "data-running") == app.attr("clock-white", "data-running")
    finally:
        app.new_game()
        app.set_time_control("untimed")


def review(app: XApp) -> None:
    """6. A small PGN file chosen in the file picker: the table of verdicts."""
    path = app.tmp / "three-games.pgn"
    path.write_text(REVIEW_PGN, encoding="utf-8")
    app.show_view("review")
    app.d.set_file("[data-testid=pgn-file]", path)
    app.wait(
        "() => document.querySelector('[data-testid=review-progress]').dataset.state === 'done'",
        "the review done",
        timeout=120,
    )
    rows = app.d.js(
        "() => [...document.querySelectorAll('[data-testid=review-games] tbody tr')]"
        ".map((t) => [Number(t.dataset.game), t.dataset.verdict, t.getClientRects().length > 0])"
    )
    assert rows == [[i + 1, v, True] for i, v in enumerate(REVIEW_VERDICTS)], rows
    assert app.attr("review-summary", "data-total") == "3"
    assert "Kd3" in app.d.js(
        "() => document.querySelector(\"[data-testid=review-games] tr[data-game='3']\").textContent"
    )


def review_board(app: XApp) -> None:
    """8. A file of real lichess games (lichess.FLAG_FALLS): a game opened on
    the Review's own board shows the verdict sentence Chromium shows
    (test_review_view) and the game's own clocks, the file's ``%clk``, at the
    ply shown; the move list's buttons browse it."""
    games = lichess.games_at(lichess.FLAG_FALLS)
    path = app.tmp / "lichess-flag-falls.pgn"
    path.write_text(lichess.as_file(games), encoding="utf-8")
    app.show_view("review")
    app.d.set_file("[data-testid=pgn-file]", path)
    app.wait(
        "(n) => { const p = document.querySelector('[data-testid=review-progress]');"
        " const s = document.querySelector('[data-testid=review-summary]');"
        " return p.dataset.state === 'done' && s.dataset.total === String(n); }",
        "the review of the lichess games done",
        len(games),
        timeout=120,
    )
    app.click_css("[data-testid=review-games] tr[data-game='1'] button")
    app.wait(
        "() => { const s = document.querySelector('[data-testid=review-stage]');"
        " return s.dataset.state === 'open' && s.dataset.game === '1'; }",
        "the first game on the Review's board",
    )
    assert app.text("review-verdict") == lichess.FLAG_FALL_VERDICT, app.text("review-verdict")
    clk = lichess.clocks_of(games[0])
    last = len(clk)  # opened at the flag fall, after the last move (Black's 82nd flag: White moved last)
    assert app.attr("review-stage", "data-ply") == str(last)
    assert app.text("review-clock-white") == lichess.face(clk[last - 1])
    assert app.text("review-clock-black") == lichess.face(clk[last - 2])
    for ply in (2, last // 2 + 1):  # White moves at odd plies: each face is its side's last %clk
        app.click_css(f"[data-testid=review-moves] button[data-ply='{ply}']")
        app.wait(
            "(p) => document.querySelector('[data-testid=review-stage]').dataset.ply === String(p)", f"ply {ply}", ply
        )
        white, black = (clk[ply - 1], clk[ply - 2]) if ply % 2 else (clk[ply - 2], clk[ply - 1])
        shown = (app.text("review-clock-white"), app.text("review-clock-black"))
        assert shown == (lichess.face(white), lichess.face(black)), (ply, shown)


def offline(app: XApp) -> None:
    """5. The server stopped, a reload: the service worker serves the page, it boots and plays."""
    app.wait(
        "() => document.body.dataset.offlineReady === 'true'", "the site cached for offline use", timeout=BOOT_TIMEOUT
    )
    app.server.stop()
    try:
        status = app.d.js("() => fetch('/no-such-file-' + Math.random()).then((r) => r.status, () => 'failed')")
        assert status != 404, "the server still answers"
        app.d.reload()
        app.wait_ready()
        assert app.d.js("() => !!navigator.serviceWorker.controller"), "the page did not come from the service worker"
        app.new_game()
        app.type_move("e4")
        app.click_move("e7", "e5")
        assert app.sans() == ["e4", "e5"], app.state()
    finally:
        app.server.start()


class LiveRound:
    """A PGN that grows, on a loopback port of its own with CORS (as a relay
    serves a round): the Arbiter view follows it."""

    def __init__(self, text: str) -> None:
        self.text = text
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                body = owner.text.encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-chess-pgn")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/round.pgn"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


HOSTILE = '<img src=x onerror="window.__pwned=1">'
ROUND_START = (
    f'[White "{HOSTILE}"]\n[Black "B"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n\n'
    '[White "C"]\n[Black "D"]\n\n1. f3 e5 *\n'
)


def arbiter(app: XApp) -> None:
    """7. The Arbiter view follows a round that grows: a board claimable with
    a move, then a mate on the other board logged as it happens; names from
    the source stay text; a second source added while following comes into
    the same grid, its board named by its source's letter."""
    live, second = LiveRound(ROUND_START), LiveRound("")
    try:
        app.click("arbiter-mode")
        app.wait("() => !!document.querySelector('[data-testid=arbiter-follow]')", "the Arbiter view", timeout=60)
        app.fill("arbiter-source", live.url)
        app.click("arbiter-follow")
        states = (
            "() => Object.fromEntries([...document.querySelectorAll('[data-testid=arbiter-board]')]"
            ".map((b) => [b.dataset.game, b.dataset.state]))"
        )
        app.wait(
            f"() => {{ const s = ({states})(); return s['1'] === 'claimable_with_move' && s['2'] === 'playing'; }}",
            "both boards followed",
            timeout=BOOT_TIMEOUT,
        )
        live.text = ROUND_START.replace("1. f3 e5 *", "1. f3 e5 2. g4 Qh4# *")
        app.wait(f"() => ({states})()['2'] === 'must_stop'", "the mate seen on board 2", timeout=60)
        rows = app.d.js(
            "() => [...document.querySelectorAll('[data-testid=arbiter-event]')]"
            ".map((r) => [r.dataset.game, r.dataset.ply, r.dataset.rule, r.dataset.kind])"
        )
        assert ["2", "4", "checkmate", "automatic"] in rows, rows
        assert any(g == "1" and p == "7" and k == "claimable_with_move" for g, p, _, k in rows), rows
        assert HOSTILE in app.d.js("() => document.getElementById('arbiter-view').innerText")
        assert app.d.js("() => document.querySelectorAll('#arbiter-view img').length") == 0
        assert app.d.js("() => window.__pwned === undefined")
        # a second source while following (another section): one grid, the cards named by source
        second.text = '[White "W"]\n[Black "X"]\n\n1. e4 *\n'
        app.click("arbiter-add-source")
        app.d.js(
            "(url) => { const s = document.querySelectorAll('[data-testid=arbiter-source]')[1];"
            " s.value = url; s.dispatchEvent(new Event('change')); }",
            second.url,
        )
        nums = "() => [...document.querySelectorAll('[data-testid=arbiter-board] .arb-num')].map((n) => n.textContent)"
        app.wait(f"() => ({nums})().join() === 'A1,A2,B1'", "the second source's board named B1", timeout=60)
        app.click("arbiter-follow")  # stop following
    finally:
        live.close()
        second.close()
        app.show_view("play")


# In this order: the offline flow reloads the page, so it comes last.
FLOWS: dict[str, Callable[[XApp], None]] = {
    "load": load,
    "play": play,
    "claim": claim,
    "flag_fall": flag_fall,
    "review": review,
    "review_board": review_board,
    "arbiter": arbiter,
    "offline": offline,
}
