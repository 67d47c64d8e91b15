# SPDX-License-Identifier: GPL-3.0-or-later
"""Screenshots of the Play view at the four window sizes of
test_board_layout.SIZES, in two
states: (a) clocks running and a claim available, (b) a game over by a flag
fall. In each: both clocks touch the board's top and bottom edges, nothing
is clipped (clock faces, the panel's counters, the buttons), the claim
button and the panel's counters (once over, the result and how the game
ended) are on the first screen, and axe finds
nothing. Then the Review view with a game of a file opened: its move list
beside the board (on the first screen) or, on a phone, below it, nothing
clipped, axe. The pictures go to e2e/artifacts/shots_*.png, to be looked at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_board_layout import SIZES, assert_at_board
from test_page import ARTIFACTS, KNIGHTS, _axe
from test_review_file import MADE, open_row, review
from viewkit import open_view, type_time_control


def clipped(app) -> list[str]:
    """Clock faces, counters and buttons whose content is wider than their box."""
    return app.page.evaluate("""() => {
      const sel = '[data-testid^=clock-], [data-testid=counters] li, .draw-panel button, .actions button, '
        + '.nav button, #move-form button';
      return [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 0.5)
        .map((e) => `${e.dataset.testid || e.id || e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
    }""")


def on_first_screen(app, names: list[str]) -> None:
    app.page.evaluate("() => window.scrollTo(0, 0)")
    vw, vh = app.page.viewport_size["width"], app.page.viewport_size["height"]
    for name in names:
        box = app.tid(name).bounding_box()
        assert box is not None, f"{name} is not shown"
        # on a phone the counters and the ended panel begin on the first screen (the move
        # strip and the clock faces come first; the result banner is whole on it)
        bottom = box["y"] + (24 if name in ("counters", "panel-ended") and vw < 500 else box["height"])
        assert box["y"] >= 0 and bottom <= vh, (name, box, vh)
        assert box["x"] >= 0 and box["x"] + box["width"] <= vw, (name, box, vw)


def check(app, state: str) -> None:
    w, h = app.page.viewport_size["width"], app.page.viewport_size["height"]
    app.page.evaluate("() => window.scrollTo(0, 0)")
    app.page.screenshot(path=str(ARTIFACTS / f"shots_{w}x{h}_{state}.png"))
    assert_at_board(app, "black", "white")
    assert clipped(app) == []
    # once the game is over the panel says how it ended instead of the counters and the claim buttons
    on_first_screen(app, ["claim-any", "counters", "claims"] if state == "claim" else ["result", "panel-ended"])
    assert _axe(app.page) == [], f"axe, {state}"


@pytest.fixture()
def sized(app, request):
    w, h = request.param
    open_view(app.page, "play")
    app.page.set_viewport_size({"width": w, "height": h})
    yield app
    type_time_control(app.page, "untimed")
    app.page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=[f"{w}x{h}" for w, h in SIZES])
def test_play_view_at_every_size(sized):
    app = sized
    type_time_control(app.page, "5+3")
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")
    assert app.page.locator("[data-testid=claims] button[data-move='f6g8']").count() == 1
    check(app, "claim")

    app.new_game()
    type_time_control(app.page, "0.05+0")
    app.type_move("e4")
    expect(app.tid("result")).to_be_visible(timeout=10_000)
    app.wait_seq(-1)
    expect(app.tid("clock-black")).to_have_attribute("data-state", "flagged")
    check(app, "flag")


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=[f"{w}x{h}" for w, h in SIZES])
def test_review_view_with_an_opened_game_at_every_size(sized, tmp_path):
    app = sized
    w, h = app.page.viewport_size["width"], app.page.viewport_size["height"]
    path = tmp_path / "shuffle.pgn"
    path.write_text(MADE[3][1], encoding="utf-8")
    open_view(app.page, "review")
    try:
        review(app, path)
        open_row(app, 1)
        # the Review's own board and moves (the Play game's stay in Play)
        moves = app.tid("review-moves")
        if w > h:  # beside the board
            on_first_screen(app, ["review-board", "review-verdict", "review-goto"])
            board = app.tid("review-board").bounding_box()
            assert moves.bounding_box()["x"] >= board["x"] + board["width"]
        else:  # a phone held upright: the verdict above the board, the moves below it
            on_first_screen(app, ["review-verdict", "review-goto"])
            moves.scroll_into_view_if_needed()
            board = app.tid("review-board").bounding_box()
            assert moves.bounding_box()["y"] >= board["y"] + board["height"]
        expect(app.tid("review-mark").first).to_be_attached()
        app.page.evaluate("() => window.scrollTo(0, 0)")
        app.page.screenshot(path=str(ARTIFACTS / f"shots_{w}x{h}_review.png"), full_page=True)
        assert clipped(app) == []
        assert _axe(app.page) == [], "axe, the Review view with a game opened"
    finally:
        open_view(app.page, "play")
