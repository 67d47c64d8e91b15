# SPDX-License-Identifier: GPL-3.0-or-later
"""Once the game is over, only what applies: the result banner on the first
screen at the four window sizes after each ending (checkmate, a claimed
threefold repetition, a resignation), wherever the page had been scrolled;
the panel says how the game ended instead of running counters and claim
buttons, and its
details stay closed until the player opens them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_board_layout import SIZES
from test_page import ARTIFACTS, KNIGHTS
from viewkit import open_view


def _checkmate(app) -> None:
    for mv in ["f3", "e5", "g4", "Qh4#"]:
        app.type_move(mv)


def _claimed_threefold(app) -> None:
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    app.type_move("Ng8", claim=True)


def _resignation(app) -> None:
    app.type_move("e4")
    app.tid("resign-black").click()
    app.acting(lambda: app.tid("confirm-yes").click())


ENDINGS = {"checkmate": _checkmate, "threefold_repetition": _claimed_threefold, "resignation": _resignation}


@pytest.fixture()
def sized(app, request):
    w, h = request.param
    open_view(app.page, "play")
    app.page.set_viewport_size({"width": w, "height": h})
    yield app
    app.page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=[f"{w}x{h}" for w, h in SIZES])
def test_after_each_ending_the_banner_is_on_the_first_screen_and_the_panel_says_how_it_ended(sized):
    app, page = sized, sized.page
    page.evaluate("() => localStorage.removeItem('pychessdraw.panel.v1')")
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    for termination, play in ENDINGS.items():
        app.new_game()
        play(app)
        banner = app.tid("result")
        expect(banner).to_have_attribute("data-termination", termination)
        page.wait_for_timeout(300)  # the frame after which the banner is brought into view
        box = banner.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= h, (termination, box, h)
        assert box["x"] >= 0 and box["x"] + box["width"] <= w, (termination, box, w)
        ended = app.tid("panel-ended")
        expect(ended).to_be_visible()
        assert banner.locator(".r-head").inner_text() in ended.inner_text()
        expect(app.tid("counters")).to_be_hidden()
        expect(app.tid("claim-any")).to_be_hidden()
        expect(app.tid("details")).to_be_hidden()
        # a side not searched once the game is over is not marked as still searching ("… ")
        marks = page.evaluate(
            "() => ['white', 'black'].map((c) => { const e = document.querySelector(`[data-testid=mat-${c}]`);"
            " return [e.className, getComputedStyle(e, '::before').content]; })"
        )
        assert all(mark in ("none", "normal") for cls, mark in marks if "unknown" in cls), (termination, marks)
        page.screenshot(path=str(ARTIFACTS / f"over_{termination}_{w}x{h}.png"))
    # the details open on request, and Undo brings the counters back
    app.tid("details-toggle").click()
    expect(app.tid("details")).to_be_visible()
    app.tid("details-toggle").click()
    app.click("undo")
    expect(app.tid("counters")).to_be_visible()
    expect(app.tid("panel-ended")).to_be_hidden()
    page.evaluate("() => localStorage.removeItem('pychessdraw.panel.v1')")
