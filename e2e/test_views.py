# SPDX-License-Identifier: GPL-3.0-or-later
"""Views as chess sites have them: Play and Review reached by
tabs and by the address (#play, #review), kept by Back, Forward and a reload;
a view joins with markup only; the settings in a dialog beside the board;
on a phone the first screen of Play holds the board, both clocks, the move
box and the claim button; the draw panel's counters at a glance, its details
one click away (remembered on the device) and open by themselves only when
they matter."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect
from test_page import KNIGHTS, _axe
from test_startup import PythonGate
from viewkit import choose, open_view, settings, type_time_control


@pytest.fixture(autouse=True)
def back_to_play(request):
    """The shared page left on Play, whatever a test did (the next tests use its hooks)."""
    uses_app = "app" in request.fixturenames
    shared = request.getfixturevalue("shared_app") if uses_app else None
    yield
    if shared is not None:
        open_view(shared.page, "play")


def shown(app, testid: str) -> bool:
    return app.tid(testid).is_visible()


def test_tabs_and_the_address_choose_the_view_and_keep_the_game(app):
    page = app.page
    app.type_move("e4")
    expect(page.locator("html")).to_have_attribute("data-view", "play")
    assert shown(app, "draw-panel") and not shown(app, "review-drop")
    app.tid("view-review").click()
    expect(app.tid("review-drop")).to_be_visible()
    assert not shown(app, "draw-panel")
    assert not shown(app, "board"), "the Review view has its own board: the Play game's stays in Play"
    assert re.search(r"#review&m=e2e4$", page.url), page.url
    assert app.tid("view-review").get_attribute("aria-current") == "page"
    assert app.tid("view-play").get_attribute("aria-current") is None
    assert _axe(page) == [], "axe, the Review view"
    # Back: Play, the game as it was
    page.go_back()
    expect(page.locator("html")).to_have_attribute("data-view", "play")
    expect(app.tid("draw-panel")).to_be_visible()
    expect(app.tid("review-drop")).to_be_hidden()
    page.go_forward()
    expect(app.tid("review-drop")).to_be_visible()
    # a reload keeps the view and the game
    page.reload()
    app.wait_ready()
    app.wait_seq(-1)
    expect(page.locator("html")).to_have_attribute("data-view", "review")
    expect(app.tid("review-drop")).to_be_visible()
    assert app.sans() == ["e4"]
    # the Play game's moves are made in Play (the Review has a board of its own); the address keeps them
    open_view(page, "play")
    app.click_move("e7", "e5")
    assert re.search(r"#m=e2e4(,|%2C)e7e5$", page.url), page.url
    open_view(page, "review")
    assert re.search(r"#review&m=e2e4(,|%2C)e7e5$", page.url), page.url
    open_view(page, "play")
    assert app.sans() == ["e4", "e5"]


def test_the_address_opens_a_view(app):
    page = app.page
    page.goto(app.base_url + "#review")
    app.wait_ready()
    expect(app.tid("review-drop")).to_be_visible()
    expect(app.tid("draw-panel")).to_be_hidden()
    page.goto(app.base_url + "#play")
    expect(app.tid("draw-panel")).to_be_visible()
    expect(app.tid("review-drop")).to_be_hidden()


def test_an_address_naming_a_view_only_keeps_the_game(app):
    """An address typed or followed that names a view and no game (#review,
    #play) shows that view with the game on the board, as the tabs do; one
    that names a game loads it; Back and Forward still go through the games."""
    page = app.page
    app.click_move("e2", "e4")
    app.click_move("e7", "e5")
    fen = app.fen()
    page.goto(app.base_url + "#review")  # typed in the address bar: a hashchange
    expect(page.locator("html")).to_have_attribute("data-view", "review")
    expect(app.tid("review-drop")).to_be_visible()
    # the address gets the game back, so that a reload and a copied link keep it too
    expect(page).to_have_url(re.compile(r"#review&m=e2e4(,|%2C)e7e5$"))
    app.wait_seq(-1)
    assert app.sans() == ["e4", "e5"] and app.fen() == fen
    page.evaluate("() => { location.hash = 'play'; }")
    expect(page.locator("html")).to_have_attribute("data-view", "play")
    expect(page).to_have_url(re.compile(r"#m=e2e4(,|%2C)e7e5$"))
    app.wait_seq(-1)
    assert app.sans() == ["e4", "e5"] and app.fen() == fen
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "2")
    # a link that names a game loads it, in the view it names
    app.acting(lambda: page.goto(app.base_url + "#review&m=d2d4"))
    expect(page.locator("html")).to_have_attribute("data-view", "review")
    assert app.sans() == ["d4"]
    # Back: the game before the link; a new game, and Back and Forward across it
    app.acting(lambda: page.go_back())
    assert app.sans() == ["e4", "e5"]
    app.new_game()
    app.acting(lambda: page.go_back())
    assert app.sans() == ["e4", "e5"]
    app.acting(lambda: page.go_forward())
    assert app.sans() == []


def test_a_view_joins_with_markup_only(browser, base_url):
    """A section [data-view=NAME] and a tab [data-view-tab=NAME] in index.html,
    nothing else (the arbiter view joins so): the tab and #NAME open it."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")

    def with_extra_view(route) -> None:
        html = route.fetch().text()
        html = html.replace(
            "</nav>", '<button type="button" data-view-tab="extra" data-testid="extra-tab">Extra</button></nav>', 1
        )
        html = html.replace(
            "</main>", '<section data-view="extra" data-testid="extra-view">An extra view</section></main>', 1
        )
        route.fulfill(body=html, content_type="text/html")

    ctx.route(re.compile(r".*/(index\.html)?$"), with_extra_view)
    page = ctx.new_page()
    tid = page.get_by_test_id
    try:
        page.goto(base_url + "#extra")
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        expect(tid("extra-view")).to_be_visible()
        for other in ("draw-panel", "board", "review-drop"):
            expect(tid(other)).to_be_hidden()
        assert tid("extra-tab").get_attribute("aria-current") == "page"
        tid("view-play").click()
        expect(tid("extra-view")).to_be_hidden()
        expect(tid("board")).to_be_visible()
        tid("extra-tab").click()
        expect(tid("extra-view")).to_be_visible()
        assert page.url.endswith("#extra")
        page.go_back()
        expect(tid("extra-view")).to_be_hidden()
        expect(tid("draw-panel")).to_be_visible()
        page.go_forward()
        expect(tid("extra-view")).to_be_visible()
    finally:
        ctx.close()


def test_settings_in_a_dialog_beside_the_board(app):
    page = app.page
    expect(app.tid("time-control")).to_be_hidden()
    app.tid("settings").click()
    for name in ("time-control", "opponent", "engine-level", "flag-rules", "low-time-sound"):
        expect(app.tid(name)).to_be_visible()
    assert _axe(page) == [], "axe, the settings open"
    # Escape closes it and the keyboard is back on the control that opened it
    page.keyboard.press("Escape")
    expect(app.tid("settings-dialog")).to_be_hidden()
    assert page.evaluate("() => document.activeElement.dataset.testid") == "settings"
    # the computer's line is on the Play view, not in the dialog
    with settings(page):
        assert not app.tid("settings-dialog").locator("[data-testid=engine-note]").count()


def test_phone_first_screen_holds_board_clocks_move_box_and_claim(app):
    page = app.page
    type_time_control(page, "5+3")
    try:
        for frm, to in KNIGHTS + KNIGHTS[:3]:
            app.click_move(frm, to)
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        for name in ("board", "clock-white", "clock-black", "move-input", "claim-any", "claims", "counters"):
            box = app.tid(name).bounding_box()
            assert box is not None, name
            # the counters begin on the first screen (the move strip and the clock faces
            # come first on a phone); all the rest is whole on it
            bottom = box["y"] + (24 if name == "counters" else box["height"])
            assert box["y"] >= 0 and bottom <= 844, (name, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
        type_time_control(page, "untimed")


def test_from_a_claim_on_the_counters_count_to_the_automatic_end(app):
    """Past the claim's threshold a counter counts towards the rule that
    ends the game ("3 of 5, claimable", "100/150, claimable"), never "149/100";
    once the game is over, "Can mate" is not shown."""
    for frm, to in KNIGHTS + KNIGHTS:
        app.click_move(frm, to)
    expect(app.tid("counter-repetition")).to_contain_text("Repetition: 3 of 5, claimable")
    app.set_fen("8/8/4k3/8/8/4K3/8/R7 w - - 100 80")
    expect(app.tid("counter-fifty")).to_contain_text("50-move: 100/150, claimable")
    app.set_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate: the game is over
    expect(app.tid("counter-mate")).to_be_hidden()


def test_counters_at_a_glance_details_one_click_away_and_remembered(app):
    page = app.page
    page.evaluate("() => localStorage.removeItem('pychessdraw.panel.v1')")
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    expect(app.tid("counter-fifty")).to_contain_text("50-move: 7/100")
    expect(app.tid("counter-repetition")).to_contain_text("Repetition: 2 of 3")
    expect(app.tid("counter-mate")).to_contain_text("White: Yes")
    # the opening: nothing that matters in the details, so they are closed
    expect(app.tid("details")).to_be_hidden()
    assert app.tid("details-toggle").get_attribute("aria-expanded") == "false"
    # a side that cannot mate (a lone king against a queen): they open by themselves
    app.set_fen("8/8/4k3/8/8/4K3/8/q7 w - - 0 1")
    expect(app.tid("details")).to_be_visible()
    expect(app.tid("winnable")).to_be_visible()
    # the player closes them there: remembered on the device, across a reload
    app.tid("details-toggle").click()
    expect(app.tid("details")).to_be_hidden()
    assert json.loads(page.evaluate("() => localStorage.getItem('pychessdraw.panel.v1')")) == {"matters": "closed"}
    page.reload()
    app.wait_ready()
    app.wait_seq(-1)
    expect(app.tid("details")).to_be_hidden()
    # opened in a position where they do not matter: open in the next such position too
    app.new_game()
    expect(app.tid("details")).to_be_hidden()
    app.tid("details-toggle").click()
    app.click_move("e2", "e4")
    expect(app.tid("details")).to_be_visible()
    page.evaluate("() => localStorage.removeItem('pychessdraw.panel.v1')")


@contextmanager
def held_boot(browser, url: str):
    """A first visit to url with Python's wasm held back (the referee stays
    "loading") until gate.release(); yields (page, gate) once the board is drawn."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    gate = PythonGate(ctx)
    page = ctx.new_page()
    try:
        page.goto(url)
        page.wait_for_selector("[data-testid=board] cg-board piece")
        # the pieces are in the HTML: wait for the page's controls too (mounted after the first paint)
        page.wait_for_function("() => document.body.dataset.idle !== undefined")
        assert page.locator("body").get_attribute("data-engine") == "loading"
        yield page, gate
    finally:
        ctx.close()


def typed(page, move: str) -> None:
    box = page.get_by_test_id("move-input")
    box.fill(move)
    box.press("Enter")


def test_moves_made_while_the_referee_starts_are_judged_once_it_is_ready(browser, base_url):
    """A move made on the board, and one typed, before the referee
    is ready are kept and shown, then judged in order (a refused one drops
    the rest: web/test/ctrl.test.js)."""
    with held_boot(browser, base_url + "?nosw") as (page, gate):
        tid = page.get_by_test_id
        b = page.locator("[data-testid=board] cg-board").bounding_box()
        s = b["width"] / 8
        page.mouse.click(b["x"] + 4.5 * s, b["y"] + 6.5 * s)  # e2
        page.mouse.click(b["x"] + 4.5 * s, b["y"] + 4.5 * s)  # e4
        typed(page, "e5")
        expect(tid("queued-moves")).to_have_text("Waiting for the referee: e2e4 e5")
        expect(tid("error")).to_be_hidden()
        assert tid("move-input").input_value() == ""
        gate.release()
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        expect(tid("draw-panel")).to_have_attribute("data-ply", "2")
        expect(tid("queued-moves")).to_be_empty()
        sans = page.eval_on_selector_all(
            "[data-testid=move-list] button.ply[data-ply]:not([data-ply='0'])",
            "bs => bs.map(b => b.firstChild.textContent)",
        )
        assert sans == ["e4", "e5"]


def test_no_move_is_kept_while_the_board_shows_another_position(browser, base_url):
    """A link to a game made elsewhere: until the referee has replayed it the
    board shows the game's start, so a move made then is refused, with why."""
    with held_boot(browser, base_url + "?nosw#m=e2e4,e7e5") as (page, gate):
        tid = page.get_by_test_id
        typed(page, "Nf3")
        expect(tid("error")).to_contain_text("still replaying")
        expect(tid("queued-moves")).to_be_empty()
        gate.release()
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        expect(tid("draw-panel")).to_have_attribute("data-ply", "2")


def test_low_time_beeps_once_when_turned_on(app):
    """Off by default; turned on, one beep as the player's clock turns low;
    none while the page's sound control is off."""
    page = app.page
    page.evaluate("() => localStorage.removeItem('pychessdraw.sound.v1')")
    sound = app.tid("low-time-sound")
    try:
        type_time_control(page, "0.05+0")  # 3 s: low under 2 s
        assert not sound.is_checked()
        app.click_move("e2", "e4")
        expect(app.tid("clock-black")).to_have_attribute("data-low", "true", timeout=5_000)
        assert sound.get_attribute("data-beeps") == "0"
        app.new_game()
        with settings(page):
            sound.check()
        type_time_control(page, "0.05+0")
        app.click_move("e2", "e4")
        expect(app.tid("clock-black")).to_have_attribute("data-low", "true", timeout=5_000)
        expect(sound).to_have_attribute("data-beeps", "1")
        assert page.evaluate("() => localStorage.getItem('pychessdraw.sound.v1')") == "on"
        # the page's sound control off: no beep either
        choose(page, "sound", "off")
        app.new_game()
        type_time_control(page, "0.05+0")
        app.click_move("e2", "e4")
        expect(app.tid("clock-black")).to_have_attribute("data-low", "true", timeout=5_000)
        assert sound.get_attribute("data-beeps") == "1"
    finally:
        choose(page, "sound", "normal")
        with settings(page):
            sound.uncheck()
        type_time_control(page, "untimed")


def test_the_web_app_manifest_parses_and_its_icons_load(app, site_dir):
    """Installable as chess sites are: the manifest linked from the page (the
    CSP allows it), standalone, its 192 and 512 px icons load, and the service
    worker caches them so that the installed app opens offline."""
    page = app.page
    got = page.evaluate("""async () => {
      const link = document.querySelector('link[rel=manifest]');
      const csp = document.querySelector('meta[http-equiv=Content-Security-Policy]').content;
      const r = await fetch(link.href);
      const m = await r.json();
      const icons = [];
      for (const i of m.icons) {
        const img = new Image();
        img.src = new URL(i.src, link.href).href;
        await img.decode();
        icons.push([i.sizes, img.naturalWidth, img.naturalHeight]);
      }
      return {m, icons, csp};
    }""")
    m = got["m"]
    assert m["name"] and m["short_name"] == "pychessdraw"
    assert m["display"] == "standalone" and m["theme_color"].startswith("#") and m["start_url"]
    assert got["icons"] == [["192x192", 192, 192], ["512x512", 512, 512]]
    assert "manifest-src 'self'" in got["csp"]
    sw = (site_dir / "sw.js").read_text()
    for name in ("manifest.webmanifest", "icon-192.png", "icon-512.png"):
        assert f'"{name}"' in sw, f"the service worker does not cache {name}"
