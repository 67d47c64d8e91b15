# SPDX-License-Identifier: GPL-3.0-or-later
"""Playing the computer as on the chess sites, in Chromium: a premove made
on the board while the computer thinks is played right after its reply (a
click cancels one); a move typed meanwhile is kept the same way; paused
clocks hold the computer, after a reload too (a right click cancels a
premove). And the claims: the
auto-claim setting claims threefold repetition through the referee, and the
record says so; a refused claim's verdict names the claimer."""

from __future__ import annotations

import time

import pytest
from conftest import fresh_app
from playwright.sync_api import expect
from viewkit import choose, type_time_control

THINK_TIMEOUT = 60.0
STRONG = "5"  # two seconds a move: time to premove while it thinks


@pytest.fixture()
def vs_computer(app):
    """The shared page against the computer as Black, thinking a second a move."""
    choose(app.page, "engine-level", STRONG)
    choose(app.page, "opponent", "computer-black")
    yield app
    choose(app.page, "opponent", "human")
    choose(app.page, "engine-level", "1")


def move_and_wait_thinking(app, move: str) -> None:
    """Play a move (Enter in the box) and wait until the computer thinks about its reply."""
    box = app.tid("move-input")
    box.fill(move)
    box.press("Enter")
    expect(app.tid("engine-status")).to_have_attribute("data-state", "thinking", timeout=THINK_TIMEOUT * 1000)
    assert len(app.sans()) == 1


def wait_moves(app, count: int) -> list[str]:
    end = time.monotonic() + THINK_TIMEOUT
    while len(app.sans()) < count:
        assert time.monotonic() < end, f"no move {count}: {app.sans()}"
        time.sleep(0.02)
    return app.sans()


def test_a_premove_is_played_right_after_the_computers_reply(vs_computer):
    app = vs_computer
    move_and_wait_thinking(app, "e4")
    premove = app.tid("premove")
    app.click_square("d2")
    app.click_square("d4")
    expect(premove).to_have_text("Premove d2-d4")  # present while it is set
    sans = wait_moves(app, 3)
    assert sans[0] == "e4" and sans[2] == "d4", sans
    expect(premove).to_be_hidden()


def test_a_move_typed_while_the_computer_thinks_is_kept(vs_computer):
    app = vs_computer
    move_and_wait_thinking(app, "e4")
    box = app.tid("move-input")
    box.fill("Nf3")
    box.press("Enter")
    expect(app.tid("premove")).to_have_text("Premove Nf3")
    expect(app.tid("queued-moves")).to_contain_text("Nf3")
    assert box.input_value() == "", "taken from the box"
    sans = wait_moves(app, 3)
    assert sans[2] == "Nf3", sans
    expect(app.tid("premove")).to_be_hidden()


def test_auto_claim_claims_a_threefold_and_the_record_says_so(app):
    choose(app.page, "auto-claim", "always")
    try:
        for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
            app.type_move(move)
        app.type_move("Ng8", claim=None)  # the page would ask; the setting claims
        expect(app.tid("result")).to_be_visible()
        verdict = app.tid("claim-result")
        expect(verdict).to_contain_text("Black's claim accepted")
        expect(verdict).to_contain_text("made automatically")
        assert app.state()["ending"] == {"op": "claim", "color": "black", "auto": True}
        app.open_pgn()  # the PGN section, closed until opened
        app.click("export-pgn")
        pgn = app.tid("pgn-output").input_value()
        assert "Black's claim was made automatically, by the page's auto-claim setting." in pgn
        assert '[Result "1/2-1/2"]' in pgn
    finally:
        choose(app.page, "auto-claim", "never")


def test_auto_claim_is_off_by_default_and_remembered(app):
    from viewkit import settings

    with settings(app.page):
        expect(app.tid("auto-claim")).to_have_value("never")
    choose(app.page, "auto-claim", "under30")
    try:
        assert app.page.evaluate("() => localStorage.getItem('pychessdraw.autoclaim.v1')") == "under30"
    finally:
        choose(app.page, "auto-claim", "never")


def test_a_refused_claim_names_the_claimer(app):
    app.type_move("e4")
    app.click("claim-any")  # Black claims: no rule allows it
    verdict = app.tid("claim-result")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("Black's claim refused.")


def test_paused_clocks_hold_the_computer_after_a_reload_too(browser, base_url):
    ctx, app = fresh_app(browser, base_url, viewport={"width": 1280, "height": 900})
    try:
        type_time_control(app.page, "5+0")
        choose(app.page, "engine-level", "1")
        app.type_move("e4")  # Black's clock runs
        app.tid("clock-pause").click()
        expect(app.tid("clock-black")).to_have_attribute("data-state", "paused")
        choose(app.page, "opponent", "computer-black")
        expect(app.tid("engine-status")).to_have_attribute("data-state", "idle", timeout=THINK_TIMEOUT * 1000)
        app.page.wait_for_timeout(1500)
        assert app.sans() == ["e4"], "paused: the computer waits"
        app.load(app.page.url)
        expect(app.tid("clock-black")).to_have_attribute("data-state", "paused")
        expect(app.tid("engine-status")).to_have_attribute("data-state", "idle", timeout=THINK_TIMEOUT * 1000)
        app.page.wait_for_timeout(1500)
        assert app.sans() == ["e4"], "reloaded with the clocks paused: the computer still waits"
        # meanwhile a premove: a right click cancels it, another is played after the reply
        premove = app.tid("premove")
        app.click_square("g1")
        app.click_square("f3")
        expect(premove).to_have_text("Premove g1-f3")
        x, y = app.square_xy("a5")
        app.page.mouse.click(x, y, button="right")
        expect(premove).to_be_hidden()
        app.click_square("d2")
        app.click_square("d4")
        expect(premove).to_have_text("Premove d2-d4")
        app.tid("clock-pause").click()  # Resume
        sans = wait_moves(app, 3)
        assert sans[0] == "e4" and sans[2] == "d4", sans
        expect(premove).to_be_hidden()
    finally:
        ctx.close()
