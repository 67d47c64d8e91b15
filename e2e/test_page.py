# SPDX-License-Identifier: GPL-3.0-or-later
"""The page as a user meets it: one truthful status,
nothing lost without asking, claims on the board, errors in chess words,
layout on desktop, phone and landscape, and accessibility (axe-core)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from viewkit import choose

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WEB = Path(__file__).resolve().parent.parent / "web"

KNIGHTS = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")]
AXE = WEB / "node_modules" / "axe-core" / "axe.min.js"


def box(app, testid: str) -> dict:
    b = app.tid(testid).bounding_box()
    assert b is not None, f"{testid} is not shown"
    return b


# ------------------------------------------------------------------ one status
def test_dead_position_every_part_of_the_panel_agrees(app):
    app.set_fen("4k3/8/8/p2p2p1/P2P2P1/8/8/4K3 w - - 0 1")
    result = app.tid("result")
    assert result.get_attribute("data-termination") == "dead_position"
    win = app.tid("winnable")
    assert win.get_attribute("data-white") == "false" and win.get_attribute("data-black") == "false"
    assert app.text("mat-white") == "No" and app.text("mat-black") == "No"
    panel = app.text("draw-panel")
    assert "Mate still possible" not in panel and "not met" not in panel
    assert "dead position" in app.text("dead-line").lower()
    hints = app.text("hints")
    assert "play for a win" not in hints and "can still" not in hints
    assert app.claims() == []


def test_after_checkmate_the_hints_do_not_contradict(app):
    for mv in ["f3", "e5", "g4", "Qh4#"]:
        app.type_move(mv)
    assert app.tid("result").get_attribute("data-termination") == "checkmate"
    assert app.tid("result").get_attribute("data-result") == "0-1"
    assert "play for a win" not in app.text("hints")
    assert app.tid("winnable").get_attribute("data-black") == "true"
    # the move box takes no move after the end, and says so; Undo opens it again
    expect(app.tid("move-input")).to_be_disabled()
    expect(app.tid("move-input")).to_have_attribute("placeholder", "The game is over")
    expect(app.page.locator("#move-play")).to_be_disabled()
    app.tid("undo").click()
    app.page.wait_for_function("() => document.body.dataset.idle === '1'")
    expect(app.tid("move-input")).to_be_enabled()
    expect(app.tid("move-input")).not_to_have_attribute("placeholder", "The game is over")
    expect(app.page.locator("#move-play")).to_be_enabled()
    app.type_move("Nc6")
    assert app.tid("result").get_attribute("data-termination") != "checkmate"
    expect(app.tid("move-input")).to_be_enabled()


def test_undecided_position_is_proven_dead_in_the_background(app):
    app.set_fen("2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1")
    # the quick search leaves it open; deeper searches follow off the move path
    app.page.wait_for_function(
        "() => document.querySelector('[data-testid=result]').dataset.termination === 'dead_position'", timeout=30_000
    )
    win = app.tid("winnable")
    assert win.get_attribute("data-white") == "false" and win.get_attribute("data-black") == "false"


# ------------------------------------------------------------------ imported games
def test_imported_result_shown_and_exported_as_recorded(app):
    app.load_pgn("1. e4 e5 1-0")
    result = app.tid("result")
    assert result.get_attribute("data-termination") == "unknown" and result.get_attribute("data-result") == "1-0"
    assert "reason not recorded" in result.inner_text() and "resign" not in result.inner_text().lower()
    app.open_pgn()
    app.click("export-pgn")
    out = app.tid("pgn-output").input_value()
    assert '[Result "1-0"]' in out and "Termination" not in out and "resign" not in out.lower()
    app.load_pgn('[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2')
    assert result.get_attribute("data-termination") == "unknown" and "agreement" not in result.inner_text().lower()
    # the recorded result survives a reload
    app.page.reload()
    app.wait_ready()
    assert app.tid("result").get_attribute("data-termination") == "unknown"
    assert app.tid("result").get_attribute("data-result") == "1/2-1/2"


def test_pgn_going_on_after_fivefold_loads_whole_and_marks_the_rest(app):
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 "
    app.load_pgn(f"{shuffle}9. e4 e5 10. Nf3 1/2-1/2")
    assert len(app.sans()) == 19
    result = app.tid("result")
    assert result.get_attribute("data-termination") == "fivefold_repetition"
    assert "after 8...Ng8" in result.inner_text()
    marked = app.page.locator("[data-testid=move-list] button.after-end")
    assert marked.count() == 3


def test_a_file_with_two_games_lets_the_player_pick(app):
    text = '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 *\n\n[White "Cid"]\n[Black "Dee"]\n\n1. d4 d5 2. c4 *\n'
    app.open_pgn()
    app.tid("pgn-input").fill(text)
    app.click_replacing("load-pgn")
    picker = app.tid("pgn-games")
    expect(picker).to_be_visible()
    assert picker.locator("option").count() == 2
    assert app.sans() == []
    picker.select_option(index=1)
    app.click("pgn-games-load")
    assert app.sans() == ["d4", "d5", "c4"]
    assert "Cid" in app.text("game-tags")


# ------------------------------------------------------------------ claims on the board
def test_following_the_claim_arrow_asks_to_claim(app):
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    assert (
        app.page.locator("[data-testid=board] svg.cg-shapes line, [data-testid=board] svg.cg-shapes path").count() >= 1
    )
    app.click_move("f6", "g8", claim=None)
    prompt = app.tid("claim-prompt")
    expect(prompt).to_be_visible()
    assert "Ng8 repeats the position a third time" in prompt.inner_text()
    assert len(app.sans()) == 7  # nothing played yet
    app.screenshot("claim_prompt")
    app.acting(lambda: app.tid("claim-prompt-claim").click())
    assert app.tid("result").get_attribute("data-termination") == "threefold_repetition"
    assert app.sans()[-1] == "Ng8"


def test_just_play_keeps_the_game_going(app):
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    app.type_move("Ng8", claim=None)
    expect(app.tid("claim-prompt")).to_be_visible()
    app.page.keyboard.press("Escape")  # neither: nothing played
    expect(app.tid("claim-prompt")).to_be_hidden()
    assert len(app.sans()) == 7
    app.type_move("Ng8", claim=False)
    expect(app.tid("result")).to_be_hidden()
    assert len(app.sans()) == 8 and app.repetitions() == 3


def test_fifty_move_claim_at_clock_99_is_said_once(app):
    app.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    claims = app.claims()
    assert len(claims) > 10 and all(c["rule"] == "fifty_moves" and c["move"] for c in claims)
    assert app.page.locator("[data-testid=claims] button").count() == 1  # one way to pick a move
    assert app.page.locator("[data-testid=board] svg.cg-shapes g *").count() == 0  # no arrows
    text = app.text("claims")
    assert text.count("Any move that is not a pawn move or a capture lets White claim") == 1
    live = app.text("live")
    assert live.count("claim") <= 2
    picker = app.page.locator("[data-testid=claims] select")
    picker.select_option("a1a2")
    app.acting(lambda: app.page.locator("[data-testid=claims] button").click())
    assert app.tid("result").get_attribute("data-termination") == "fifty_moves"
    assert app.sans() == ["Ra2"]


def test_draw_offer_comes_from_the_player_who_has_just_moved(app):
    app.type_move("e4")
    app.tid("offer-draw").click()
    assert app.text("offer-text").startswith("White offers a draw")
    app.click("agree")
    assert app.tid("result").get_attribute("data-termination") == "agreement"


# ------------------------------------------------------------------ nothing lost
def test_new_game_import_and_setup_ask_first(app):
    for mv in ["e4", "e5"]:
        app.type_move(mv)
    app.open_pgn()
    for control, fill in (
        ("new-game", None),
        ("load-fen", ("fen-input", "8/8/8/8/8/8/8/K1k5 w - - 0 1")),
        ("load-pgn", ("pgn-input", "1. d4 *")),
    ):
        if fill:
            app.tid(fill[0]).fill(fill[1])
        app.tid(control).click()
        dlg = app.tid("confirm-dialog")
        expect(dlg).to_be_visible()
        app.tid("confirm-no").click()
        expect(dlg).to_be_hidden()
        assert app.sans() == ["e4", "e5"], control
    app.tid("new-game").click()
    app.page.keyboard.press("Escape")
    expect(app.tid("confirm-dialog")).to_be_hidden()
    assert app.sans() == ["e4", "e5"]


def test_a_bad_fen_is_refused_before_asking_and_a_set_up_clears_the_box(app):
    """A FEN that cannot be set up is said at once, without the question
    whether to replace the game; a position set up leaves the box empty (its
    placeholder is the position on the board, never a stale FEN); a position
    over at once (stalemate) has nothing to take back."""
    for mv in ["e4", "e5"]:
        app.type_move(mv)
    box = app.tid("fen-input")
    box.fill("8/8/8/8/8/8/8/K1k5 w - - 0 1 extra")
    app.tid("load-fen").click()
    expect(app.tid("error")).to_contain_text("bad FEN")
    expect(app.tid("confirm-dialog")).to_be_hidden()
    assert app.sans() == ["e4", "e5"]
    box.fill("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # Black is stalemated
    app.tid("load-fen").click()
    app.acting(lambda: app.tid("confirm-yes").click())
    assert box.input_value() == "" and box.get_attribute("placeholder") == "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    expect(app.tid("undo")).to_be_disabled()


def test_back_returns_to_the_previous_game(app):
    for mv in ["e4", "e5", "Nf3"]:
        app.type_move(mv)
    app.new_game()
    assert app.sans() == []
    app.acting(lambda: app.page.go_back())
    assert app.sans() == ["e4", "e5", "Nf3"]
    assert app.page.url.startswith(app.base_url)


def test_corrupted_saved_game_never_locks_the_page(app):
    app.page.evaluate("() => localStorage.setItem('pychessdraw.game.v1', '{\"fen\":5}')")
    app.page.goto(app.base_url)
    app.wait_ready()
    err = app.tid("error")
    expect(err).to_be_visible()
    assert "could not be restored" in err.inner_text()
    assert app.page.locator("[data-testid=board] cg-board piece").count() == 32
    app.page.reload()
    app.wait_ready()  # and again: the broken record is gone
    expect(app.tid("error")).to_be_hidden()


def test_reload_restores_in_one_request(app):
    for mv in ["e4", "e5", "Nf3", "Nc6", "Bb5"]:
        app.type_move(mv)
    app.page.reload()
    app.wait_ready()
    ops = app.page.evaluate("() => window.__perf.map(r => r.op)")
    assert ops.count("restore") == 1 and "play" not in ops
    assert app.sans() == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


# ------------------------------------------------------------------ move list
def test_current_move_stays_in_view_in_a_long_game(app):
    app.load_pgn(
        "1. a3 a6 2. a4 a5 3. b3 b6 4. b4 b5 5. c3 c6 6. c4 c5 7. d3 d6 8. d4 d5 9. e3 e6 10. e4 e5 "
        "11. f3 f6 12. f4 f5 13. g3 g6 14. g4 g5 15. h3 h6 16. h4 h5 17. Nc3 Nc6 18. Nf3 Nf6 19. Rb1 Rb8 "
        "20. Rg1 Rg8 21. Ra1 Ra8 22. Rh1 Rh8 23. Nb1 Nb8 24. Ng1 Ng8 25. Nc3 Nc6 26. Nf3 Nf6 *"
    )
    assert len(app.sans()) == 52
    lst = app.tid("move-list")

    def current_visible() -> bool:
        return app.page.evaluate("""() => {
          const l = document.querySelector('[data-testid=move-list]');
          const c = l.querySelector('[aria-current=true]');
          const a = l.getBoundingClientRect(), b = c.getBoundingClientRect();
          return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
        }""")

    assert app.page.evaluate(
        "() => { const l = document.querySelector('[data-testid=move-list]'); return l.scrollHeight > l.clientHeight; }"
    )
    assert current_visible()
    app.page.locator("body").click(position={"x": 5, "y": 5})
    app.acting(lambda: app.page.keyboard.press("Home"))
    assert current_visible() and lst.locator("[aria-current=true]").get_attribute("data-ply") == "0"
    app.page.keyboard.press("End")
    assert current_visible() and lst.locator("[aria-current=true]").get_attribute("data-ply") == "52"


# ------------------------------------------------------------------ errors
def test_errors_in_chess_words_short_and_closable(app):
    for mv in ["e4", "e5", "Nf3"]:
        app.type_move(mv)
    app.type_move("Qxz9")
    err = app.tid("error")
    expect(err).to_be_visible()
    assert re.search(r"2\.\.\.Qxz9 is not", err.inner_text()) and "/" not in err.inner_text()
    # the error does not cover the move box
    a, b = box(app, "error"), box(app, "move-input")
    assert a["y"] >= b["y"] + b["height"] or a["y"] + a["height"] <= b["y"]
    app.page.keyboard.press("Escape")
    expect(err).to_be_hidden()
    # a pasted PGN in the FEN box: a short message, its close button on screen
    app.tid("fen-input").fill("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 " * 40)
    app.click_replacing("load-fen")
    expect(err).to_be_visible()
    assert len(err.inner_text()) < 200
    close = box(app, "error-close")
    vh = app.page.viewport_size["height"]
    assert 0 <= close["y"] and close["y"] + close["height"] <= vh + app.page.evaluate("() => window.scrollY")
    app.tid("error-close").click()
    expect(err).to_be_hidden()
    assert app.sans() == ["e4", "e5", "Nf3"]
    # an illegal move in an imported game set up from a FEN: named by its move, no FEN dump
    app.load_pgn(
        '[SetUp "1"]\n[FEN "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"]\n\n'
        "4. O-O O-O 5. Qxf7 *"
    )
    expect(err).to_be_visible()
    assert "5.Qxf7" in err.inner_text() and "/" not in err.inner_text() and "ply" not in err.inner_text()


def test_promotion_typed_without_a_piece_asks_for_it(app):
    app.set_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    app.type_move("e8")
    dlg = app.page.locator("#promotion")
    expect(dlg).to_be_visible()
    expect(app.tid("error")).to_be_hidden()
    app.page.keyboard.press("Escape")
    expect(dlg).to_be_hidden()
    app.type_move("e8")
    app.acting(lambda: dlg.locator("button[data-promotion='q']").click())
    assert app.sans() == ["e8=Q"]


# ------------------------------------------------------------------ screen readers
def test_board_is_named_and_described_and_browsing_is_announced(app):
    board = app.tid("board")
    assert board.get_attribute("aria-label") == "Chess board"
    desc = app.text("board-desc")
    assert "White to move" in desc and "king e1" in desc
    app.type_move("e4")
    assert "pawns a2, b2, c2, d2, e4" in app.text("board-desc")
    app.type_move("e5")
    app.page.locator("body").click(position={"x": 5, "y": 5})
    app.acting(lambda: app.page.keyboard.press("ArrowLeft"))
    assert "1.e4" in app.text("live")
    assert app.tid("move-list").locator("[aria-current=true]").get_attribute("data-ply") == "1"


def test_the_check_shown_is_the_browsed_positions(app):
    """The king in check is marked in the position on the board, not in the
    current one: at once on browsing, and still once its facts have come."""

    def checked() -> int:  # after chessground's next frame (it redraws on one, and hides squares it may reuse)
        return app.page.evaluate("""() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() =>
          r([...document.querySelectorAll('[data-testid=board] square.check')]
            .filter((e) => getComputedStyle(e).display !== 'none').length))))""")

    for mv in ["e4", "f5", "Qh5+"]:
        app.type_move(mv)
    assert checked() == 1  # Black is in check now
    app.page.locator("body").click(position={"x": 5, "y": 5})
    before = app.seq()
    app.page.keyboard.press("Home")
    assert checked() == 0  # the start position: no check (its facts may not have come yet)
    app.wait_seq(before)
    assert checked() == 0
    app.page.keyboard.press("End")  # back to the current position: no request
    app.type_move("g6")
    assert checked() == 0
    app.page.locator("body").click(position={"x": 5, "y": 5})
    before = app.seq()
    app.page.keyboard.press("ArrowLeft")
    assert checked() == 1  # after 2.Qh5+, though the current position is no check
    app.wait_seq(before)
    assert checked() == 1


# ------------------------------------------------------------------ layout
def _layout(app, w: int, h: int) -> dict:
    app.page.set_viewport_size({"width": w, "height": h})
    app.page.evaluate("() => window.scrollTo(0, 0)")
    app.page.wait_for_timeout(100)
    return {name: app.tid(name).bounding_box() for name in ("board", "draw-panel", "claims", "move-list", "result")}


@pytest.fixture()
def sized(app):
    yield app
    app.page.set_viewport_size({"width": 1280, "height": 900})


def test_first_screen_at_1280x800_and_the_banner_does_not_move_the_board(sized):
    app = sized
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    boxes = _layout(app, 1280, 800)
    assert boxes["board"]["y"] + boxes["board"]["height"] <= 800
    assert boxes["claims"]["y"] + boxes["claims"]["height"] <= 800
    assert boxes["move-list"]["y"] + 40 <= 800, "the move list starts on the first screen"
    app.screenshot("desktop_1280x800_claim")
    board_y = boxes["board"]["y"]
    app.acting(lambda: app.page.locator("[data-testid=claims] button[data-move='f6g8']").click())
    boxes = _layout(app, 1280, 800)
    assert boxes["board"]["y"] == board_y
    assert boxes["result"]["y"] + boxes["result"]["height"] <= 800
    app.page.screenshot(path=str(ARTIFACTS / "desktop_1280x800_over.png"))


def test_phone_portrait_board_claim_and_result_on_the_first_screen(sized):
    app = sized
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    boxes = _layout(app, 390, 844)
    assert boxes["board"]["width"] >= 360
    assert boxes["claims"]["y"] + boxes["claims"]["height"] <= 844, boxes["claims"]
    app.page.screenshot(path=str(ARTIFACTS / "phone_390x844_claim.png"))
    app.acting(lambda: app.page.locator("[data-testid=claims] button[data-move='f6g8']").click())
    boxes = _layout(app, 390, 844)
    assert boxes["result"]["y"] + boxes["result"]["height"] <= 844


def test_on_a_phone_the_claim_verdict_comes_into_view(sized):
    """The claim buttons sit below the panel on a phone: after a tap the
    verdict is brought on screen, not left above the fold."""
    app = sized
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    app.page.set_viewport_size({"width": 390, "height": 844})
    app.tid("claim-any").scroll_into_view_if_needed()
    app.acting(lambda: app.tid("claim-any").click())
    verdict = app.tid("claim-result")
    expect(verdict).to_have_attribute("data-accepted", "false")  # only 2 occurrences without the move
    expect(verdict).to_be_in_viewport()


def test_landscape_phone_and_large_screen_boards_fit(sized):
    app = sized
    boxes = _layout(app, 844, 390)
    b = boxes["board"]
    assert b["height"] <= 390 and b["y"] + b["height"] <= 390 and b["width"] >= 300
    app.page.screenshot(path=str(ARTIFACTS / "phone_844x390.png"))
    boxes = _layout(app, 1920, 1080)
    assert boxes["board"]["width"] > 700 and boxes["board"]["y"] + boxes["board"]["height"] <= 1080
    size = app.page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('[data-testid=board] coords coord')).fontSize)"
    )
    assert size >= 12


def test_while_the_engine_starts_controls_say_why(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    held = []
    ctx.route(re.compile(r".*/pyodide\.asm\.wasm$"), lambda route: held.append(route))  # never answered
    page = ctx.new_page()
    try:
        page.goto(base_url)
        page.wait_for_selector("[data-testid=board] cg-board piece")
        assert page.locator("body").get_attribute("data-engine") == "loading"
        expect(page.get_by_test_id("engine-wait")).to_be_visible()
        for name in ("new-game", "claim-any", "undo", "load-pgn"):
            expect(page.get_by_test_id(name)).to_be_disabled()
            assert "Waiting for the referee" in (page.get_by_test_id(name).get_attribute("title") or "")
        assert page.locator("#engine-progress").is_visible()
        b = page.locator("[data-testid=board] cg-board").bounding_box()
        s = b["width"] / 8
        # a move is kept while the referee starts, not refused
        page.mouse.click(b["x"] + 4.5 * s, b["y"] + 6.5 * s)  # e2
        page.mouse.click(b["x"] + 4.5 * s, b["y"] + 4.5 * s)  # e4
        expect(page.get_by_test_id("queued-moves")).to_have_text("Waiting for the referee: e2e4")
        expect(page.get_by_test_id("error")).to_be_hidden()
        page.screenshot(path=str(ARTIFACTS / "loading.png"))
        assert _axe(page) == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ axe-core
def _axe(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make site` (npm ci in web/) first", pytrace=False)
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text() + "\n;0")
    res = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
    }""")
    return res


def test_axe_no_violations_in_the_main_states(sized):
    app = sized
    report = {}
    report["ready"] = _axe(app.page)
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    report["claim offered"] = _axe(app.page)
    app.type_move("Ng8", claim=None)
    report["claim prompt"] = _axe(app.page)
    app.acting(lambda: app.tid("claim-prompt-claim").click())
    report["game over"] = _axe(app.page)
    app.set_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    app.type_move("e8")
    report["promotion dialog"] = _axe(app.page)
    app.page.keyboard.press("Escape")
    app.type_move("Qxz9")
    report["error shown"] = _axe(app.page)
    app.tid("new-game").click()
    report["confirm dialog"] = _axe(app.page)
    app.tid("confirm-no").click()
    app.page.set_viewport_size({"width": 390, "height": 844})
    report["phone"] = _axe(app.page)
    (ARTIFACTS / "axe.json").write_text(json.dumps(report, indent=1))
    bad = {state: v for state, v in report.items() if v}
    assert not bad, json.dumps(bad, indent=1)


def test_newcomer_plays_to_a_claimed_draw_on_a_phone(browser, base_url):
    """Taps only, on a phone-sized touch screen: the knight shuffle, then the
    claim offered as the repeating move is played."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = ctx.new_page()
    try:
        page.goto(base_url)
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        board = page.locator("[data-testid=board] cg-board").bounding_box()
        s = board["width"] / 8

        def tap(sq: str) -> None:
            f, r = "abcdefgh".index(sq[0]), int(sq[1])
            page.touchscreen.tap(board["x"] + (f + 0.5) * s, board["y"] + (8 - r + 0.5) * s)

        def seq() -> int:
            return int(page.evaluate("() => Number(document.body.dataset.seq)"))

        def settle(before: int) -> None:
            page.wait_for_function(
                f"() => Number(document.body.dataset.seq) > {before} && document.body.dataset.idle === '1'"
            )

        for frm, to in KNIGHTS + KNIGHTS[:3]:
            before = seq()
            tap(frm)
            tap(to)
            settle(before)
        claim = page.locator("[data-testid=claims] button[data-move='f6g8']")
        cb = claim.bounding_box()
        assert cb and cb["y"] + cb["height"] <= 844, "the claim is on the first screen"
        before = seq()
        tap("f6")
        tap("g8")
        settle(before)
        prompt = page.get_by_test_id("claim-prompt")
        expect(prompt).to_be_visible()
        before = seq()
        page.get_by_test_id("claim-prompt-claim").tap()
        settle(before)
        result = page.get_by_test_id("result")
        assert result.get_attribute("data-termination") == "threefold_repetition"
        rb = result.bounding_box()
        assert rb and rb["y"] >= 0 and rb["y"] + rb["height"] <= 844 + page.evaluate("() => window.scrollY")
        page.screenshot(path=str(ARTIFACTS / "phone_claimed.png"))
    finally:
        ctx.close()


# ------------------------------------------------------------------ controls that fit the game
def test_resignation_asks_once(app):
    app.type_move("e4")
    app.tid("resign-white").click()
    dialog = app.tid("confirm-dialog")
    expect(dialog).to_be_visible()
    assert "Resign for White" in dialog.inner_text()
    expect(app.tid("result")).to_be_hidden()
    app.tid("confirm-no").click()  # Keep playing
    expect(dialog).to_be_hidden()
    expect(app.tid("result")).to_be_hidden()
    expect(app.tid("resign-white")).to_be_focused()
    app.tid("resign-white").click()
    app.acting(lambda: app.tid("confirm-yes").click())
    assert app.tid("result").get_attribute("data-termination") == "resignation"
    assert "0-1" in app.text("result")
    expect(dialog).to_be_hidden()  # once: no second question
    assert app.page.evaluate("() => document.activeElement !== document.body"), "the focus stays on a control"


def test_against_the_computer_the_visitor_acts_only_for_their_side(app):
    level = app.tid("engine-level")
    old_level = level.input_value()
    try:
        # 2 s a move: the computer, White, is still thinking when its turn is looked at
        # (at a faster level it may have moved already, and then the visitor may claim)
        choose(app.page, "engine-level", "5")
        choose(app.page, "opponent", "computer-black")
        expect(app.tid("resign-black")).to_be_hidden()
        expect(app.tid("resign-white")).to_be_visible()
        choose(app.page, "opponent", "computer-white")
        expect(app.tid("resign-white")).to_be_hidden()
        expect(app.tid("resign-black")).to_be_visible()
        # White (the computer) to move: the visitor has no claim to make for it
        assert app.sans() == [], "the computer moved before its turn could be looked at"
        expect(app.tid("claim-any")).to_be_disabled()
    finally:
        choose(app.page, "opponent", "human")
        choose(app.page, "engine-level", old_level)
        if app.tid("board").get_attribute("data-orientation") == "black":
            app.tid("flip").click()
    expect(app.tid("resign-black")).to_be_visible()


def test_the_computers_note_follows_undo(app):
    """After Undo the computer's note no longer names the move
    taken back (the score in it is White's point of view: web/test/policy.test.js)."""
    level = app.tid("engine-level")
    old_level = level.input_value()
    try:
        choose(app.page, "engine-level", "1")
        choose(app.page, "opponent", "computer-black")
        app.type_move("e4")
        app.page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=move-list] button.ply[data-ply=\"2\"]').length === 1"
            " && document.body.dataset.idle === '1'",
            timeout=60_000,
        )
        reply = app.sans()[1]
        note = app.tid("engine-note")
        expect(note).to_contain_text(f"Black plays {reply}")
        app.click("undo")  # takes back the computer's reply, and the visitor's move with it
        app.page.wait_for_function(
            "() => !document.querySelector('[data-testid=move-list] button.ply[data-ply=\"1\"]')"
            " && document.body.dataset.idle === '1'",
            timeout=20_000,
        )
        expect(note).not_to_contain_text(reply)
        expect(note).to_be_hidden()
    finally:
        choose(app.page, "opponent", "human")
        choose(app.page, "engine-level", old_level)


def test_a_claim_from_the_keyboard_keeps_the_focus_on_a_control(app):
    """After a claim made with the keyboard the focus stays on a control, not the page body."""
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    claim = app.page.locator("[data-testid=claims] button[data-move='f6g8']")
    app.acting(lambda: claim.press("Enter"))
    assert app.tid("result").get_attribute("data-termination") == "threefold_repetition"
    focused = app.page.evaluate("() => document.activeElement.dataset.testid || document.activeElement.tagName")
    assert focused == "undo", f"the focus is on {focused}"


def test_claim_with_an_empty_move_box_puts_the_keyboard_there(app):
    """'Claim with typed move' and no move typed: the message says what to
    do, and the keyboard is in the move box, where the move goes."""
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    app.tid("move-input").fill("")
    app.tid("claim-typed").click()
    expect(app.tid("error")).to_contain_text("Type the move you intend to play")
    assert app.page.evaluate("() => document.activeElement.dataset.testid") == "move-input"


def test_a_draw_offer_to_the_computer_is_the_computers_to_answer(app):
    """Against the computer the visitor offers for their own side only: the
    offer goes with their move, and they get no Accept for the computer."""
    level = app.tid("engine-level")
    old_level = level.input_value()
    try:
        choose(app.page, "engine-level", "5")  # 2 s a move: time to look at the offer
        choose(app.page, "opponent", "computer-black")
        app.tid("offer-draw").click()
        expect(app.tid("engine-note")).to_contain_text("with your next move")
        app.type_move("e4")
        expect(app.tid("offer-box")).to_be_visible()
        # looked at once, while the offer stands (the computer answers it by moving)
        shown = app.page.evaluate("""() => ['offer-box', 'agree', 'decline'].map((t) =>
          !!document.querySelector(`[data-testid=${t}]`).offsetParent)""")
        assert shown[0], "the computer answered before the page could be looked at"
        assert shown[1:] == [False, False], "Accept/Decline offered to the visitor for the computer"
    finally:
        choose(app.page, "opponent", "human")
        choose(app.page, "engine-level", old_level)
        app.page.keyboard.press("Escape")
