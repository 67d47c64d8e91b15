# SPDX-License-Identifier: GPL-3.0-or-later
"""The board as players expect it, at the four window sizes of ``SIZES``
(phone to desktop): a clock face touching the board's top edge (the side at the
top; Flip swaps them) and one touching its bottom edge, faces that never
clip their time ("1:30:00", tenths, a fallen flag), and the note "The first
move starts the opponent's clock" gone once the clocks run."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_page import _axe
from viewkit import settings, type_time_control

SIZES = [(1280, 800), (1920, 1080), (390, 844), (844, 390)]
TOUCH_PX = 2  # a face and the board meet within this many pixels


def set_time_control(app, text: str) -> None:
    type_time_control(app.page, text)
    expect(app.tid("clock-white")).to_have_attribute("data-running", "false")


def boxes(app) -> dict:
    """Viewport boxes of the board and of both faces, measured at one moment,
    with each face's scroll and client widths (also of its parts)."""
    return app.page.evaluate("""() => {
      const get = (t) => {
        const e = document.querySelector(`[data-testid=${t}]`);
        const b = e.getBoundingClientRect();
        const clipped = [e, ...e.querySelectorAll('*')].filter((x) => x.scrollWidth > x.clientWidth + 0.5
          && getComputedStyle(x).display !== 'inline').map((x) => x.className);
        return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                sw: e.scrollWidth, cw: e.clientWidth, clipped, text: e.innerText};
      };
      return {board: get('board'), white: get('clock-white'), black: get('clock-black')};
    }""")


def assert_at_board(app, top: str, bottom: str) -> None:
    b = boxes(app)
    board, up, down = b["board"], b[top], b[bottom]
    assert abs(up["bottom"] - board["top"]) <= TOUCH_PX, (top, up, board)
    assert abs(down["top"] - board["bottom"]) <= TOUCH_PX, (bottom, down, board)
    for face in (up, down):
        # over the board's own width, not beside it
        assert face["left"] >= board["left"] - TOUCH_PX and face["right"] <= board["right"] + TOUCH_PX, (face, board)
        assert face["left"] <= board["left"] + TOUCH_PX, (face, board)
        assert face["sw"] <= face["cw"], f"the face's text overflows it: {face}"
        assert not face["clipped"], f"parts of the face overflow: {face}"


@pytest.fixture()
def sized(app, request):
    """The shared page at a window size, back at 1280x900 and untimed afterwards."""
    w, h = request.param
    app.page.set_viewport_size({"width": w, "height": h})
    yield app
    if app.tid("board").get_attribute("data-orientation") == "black":
        app.tid("flip").click()
    set_time_control(app, "untimed")
    app.page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=[f"{w}x{h}" for w, h in SIZES])
def test_clocks_touch_the_board_at_every_size(sized):
    app = sized
    set_time_control(app, "90+0")
    expect(app.tid("clock-note")).to_contain_text("first move starts")
    app.click_move("e2", "e4")
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")
    assert app.tid("clock-white").locator(".clock-time").inner_text() == "1:30:00"
    assert_at_board(app, "black", "white")
    h = app.page.viewport_size["height"]
    app.page.evaluate("() => window.scrollTo(0, 0)")
    for face in ("clock-white", "clock-black"):  # both clocks (and the bars by them) on the first screen
        box = app.tid(face).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= h, (face, box, h)
    if h > 560:  # not the landscape phone: there the board takes the whole height
        app.page.evaluate("() => window.scrollTo(0, 0)")
        move = app.tid("move-input").bounding_box()
        assert move["y"] + move["height"] <= h, "the move box is on the first screen, below the board and its clocks"
    # the note has nothing to say while the clocks simply run
    with settings(app.page):
        expect(app.tid("clock-note")).to_be_hidden()

    assert _axe(app.page) == [], "axe, clocks running"

    # tenths and then a fallen flag: still nothing clipped
    app.new_game()
    set_time_control(app, "0.05+0")
    app.click_move("e2", "e4")
    assert app.tid("clock-black").locator(".clock-time").inner_text().startswith("0:0")
    assert_at_board(app, "black", "white")
    expect(app.tid("result")).to_be_visible(timeout=10_000)
    app.wait_seq(-1)
    expect(app.tid("clock-black")).to_have_attribute("data-state", "flagged")
    assert app.tid("clock-black").locator(".clock-time").inner_text() == "0:00.0"
    assert_at_board(app, "black", "white")
    assert _axe(app.page) == [], "axe, a game over by a flag fall"

    # Flip: the side at the top has the top clock
    app.tid("flip").click()
    expect(app.tid("board")).to_have_attribute("data-orientation", "black")
    assert_at_board(app, "white", "black")
    app.screenshot(f"board_layout_{app.page.viewport_size['width']}x{app.page.viewport_size['height']}")


def test_low_time_is_marked_and_the_state_is_a_class(app):
    """Under the time control's threshold the face is marked low (a class
    that colours it); the state is a class and an icon, not words on the face."""
    try:
        set_time_control(app, "0.05+0")  # 3 s: low under 2 s
        app.click_move("e2", "e4")
        black = app.tid("clock-black")
        expect(black).to_have_attribute("data-state", "running")
        assert "running" in black.get_attribute("class").split()
        assert black.inner_text().split() == ["Black", black.locator(".clock-time").inner_text()]
        expect(black).to_have_attribute("data-low", "true", timeout=5_000)
        assert "low" in black.get_attribute("class").split()
        colours = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid^=clock-]')]
          .filter((e) => e.matches('.clock')).map((e) => getComputedStyle(e).backgroundColor)""")
        assert colours[0] != colours[1], "the low face is not coloured apart"
    finally:
        set_time_control(app, "untimed")


def test_a_timed_game_reloads_without_the_board_moving(browser, base_url):
    """The room for the faces is there before the clocks feature draws them:
    the board keeps its place and size when the rest of the page mounts."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    held = []
    try:
        page.goto(base_url + "?nosw")
        # saved again on pagehide, after the clocks feature saves its own state there (when
        # the page has mounted it by now, its save on reload would undo this one)
        page.evaluate("""() => {
          const save = () => localStorage.setItem('pychessdraw.clock.v1',
            JSON.stringify({v: 1, tc: '3+2', flag_rules: 'fide', start_fen: null, clock: null}));
          save();
          window.addEventListener('pagehide', save);
        }""")
        page.route("**/chunks/page-*.js", lambda route: held.append(route))  # the page's part waits
        page.reload(wait_until="commit")
        page.wait_for_selector("[data-testid=board] cg-board piece")
        page.wait_for_timeout(300)
        early = page.locator("[data-testid=board]").bounding_box()
        assert held, "the page's part was not held back"
        for route in held:
            route.continue_()
        page.unroute("**/chunks/page-*.js")
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        expect(page.get_by_test_id("clock-white")).to_be_visible()
        late = page.locator("[data-testid=board]").bounding_box()
        assert late == early, (early, late)
        top = page.get_by_test_id("clock-black").bounding_box()
        assert abs(top["y"] + top["height"] - late["y"]) <= TOUCH_PX
    finally:
        ctx.close()


# A 20-move game: the move table's rows down the window's height beside the board.
RUY_LOPEZ_20 = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 "
    "10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 "
    "18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 *"
)


def test_a_wide_window_puts_the_panel_and_the_moves_beside_a_large_board(app):
    """At 1920x1080: the board takes most of the height, the draw panel and
    the move table sit beside it (not under it), the set-up is under the
    panel with its PGN closed, and the move table shows the whole 20-move
    game on the first screen with the current move in view."""
    app.load_pgn(RUY_LOPEZ_20)
    app.page.evaluate("() => { document.getElementById('pgn-box').open = false; }")
    app.page.set_viewport_size({"width": 1920, "height": 1080})
    try:
        app.page.evaluate("() => window.scrollTo(0, 0)")
        box = {n: app.tid(n).bounding_box() for n in ("board", "draw-panel", "move-table", "new-game", "pgn-box")}
        board, panel, table = box["board"], box["draw-panel"], box["move-table"]
        assert board["height"] >= 0.75 * 1080, board  # large: the height less the bars, the turn and the move box
        right = board["x"] + board["width"]
        assert panel["x"] >= right and panel["y"] < board["y"] + 0.25 * board["height"], (panel, board)
        assert table["x"] >= panel["x"] + panel["width"], (table, panel)  # a column of its own
        assert table["y"] < board["y"] + 0.25 * board["height"], (table, board)
        assert table["y"] + table["height"] <= 1080, table
        # every row of the game in the table, none scrolled away
        rows = app.tid("move-list").evaluate("(e) => [e.scrollHeight, e.clientHeight]")
        assert rows[0] <= rows[1] + 1, rows
        # the set-up under the panel, in the panel's column; its PGN boxes closed
        setup = box["new-game"]
        assert setup["x"] >= right and setup["x"] < table["x"] and setup["y"] >= panel["y"] + panel["height"], setup
        assert box["pgn-box"]["y"] + box["pgn-box"]["height"] <= 1080
        expect(app.tid("pgn-input")).to_be_hidden()
    finally:
        app.page.set_viewport_size({"width": 1280, "height": 900})
