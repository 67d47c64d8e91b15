"""Every position decided when shown, and proofs played on the board."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from viewkit import type_time_control

RUY_LOPEZ = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *"
# White K+B against K+B+P: Black's flag fall loses (1.Bb5 Bb8 2.Bc6#, found at once even on a loaded machine)
KB_V_KBP = "k7/2b5/K7/7p/8/8/8/5B2 w - - 0 1"
LOCKED = "3k4/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3K4 w - - 0 1"
UNDECIDED = "Not decided yet"


def _decided_within(app, ply: int, seconds: float) -> float:
    """Seconds until both sides' "can mate" at ``ply`` is decided."""
    t0 = time.monotonic()
    while True:
        words = (app.text("mat-white"), app.text("mat-black"))
        if app.panel_ply() == ply and UNDECIDED not in words and words[0] and words[1]:
            return time.monotonic() - t0
        if time.monotonic() - t0 > seconds:
            raise AssertionError(f"ply {ply}: still {words} after {seconds} s")
        time.sleep(0.02)


def test_every_browsed_position_is_decided(app):
    assert _decided_within(app, 0, 1.0) < 1.0  # the start position at once
    app.load_pgn(RUY_LOPEZ)
    assert len(app.sans()) == 12
    app.page.locator("body").click(position={"x": 2, "y": 2})  # the keys browse, outside any text box
    took = []
    for ply in range(11, -1, -1):
        app.page.keyboard.press("ArrowLeft")
        took.append(_decided_within(app, ply, 2.0))
    assert app.text("mat-white") == "Yes" and app.text("mat-black") == "Yes"
    # browsed again: known at once
    app.page.keyboard.press("ArrowRight")
    assert _decided_within(app, 1, 0.5) < 0.5
    app.page.keyboard.press("End")
    print("seconds to decide per ply:", [round(x, 2) for x in took])


def _open_details(app) -> None:
    if app.tid("details-toggle").get_attribute("aria-expanded") != "true":
        app.tid("details-toggle").click()


def test_a_lost_flag_fall_plays_its_mating_line(app):
    app.set_fen(KB_V_KBP)
    # decided by the page's search before the flag falls (the flag's own search is a second, which a
    # loaded machine may not give it)
    expect(app.tid("mat-white")).to_contain_text("Yes", timeout=10_000)
    type_time_control(app.page, "0.05+0")  # 3 s a side
    try:
        app.click_move("f1", "b5")  # Black's clock runs out: White can mate, so 1-0
        fen = app.fen()
        banner = app.tid("result")
        expect(banner).to_contain_text("1-0", timeout=15_000)
        _open_details(app)
        play = app.tid("proof").locator("[data-testid=proof-play][data-color=white]")
        expect(play).to_be_visible()
        play.click()
        board = app.tid("board")
        expect(board).to_have_attribute("data-proof", "1")
        first = board.get_attribute("data-fen")
        assert first != fen
        expect(app.tid("proof").get_by_test_id("proof-at")).to_contain_text("1.")
        app.tid("proof").get_by_test_id("proof-next").click()
        expect(board).not_to_have_attribute("data-fen", first)
        app.tid("proof").get_by_test_id("proof-prev").click()
        expect(board).to_have_attribute("data-fen", first)
        app.page.keyboard.press("ArrowRight")  # the keys step through the line while it is shown
        expect(board).not_to_have_attribute("data-fen", first)
        app.tid("nav-prev").click()  # so do the board's step buttons
        expect(board).to_have_attribute("data-fen", first)
        app.tid("proof").get_by_test_id("proof-last").click()
        expect(app.tid("proof").get_by_test_id("proof-at")).to_contain_text("#")
        assert app.page.locator("cg-board square.check").count() == 1  # the mated king
        app.screenshot("proof_line")
        assert app.sans() == ["Bb5"]  # the game is untouched
        app.tid("proof").get_by_test_id("proof-leave").click()
        expect(board).not_to_have_attribute("data-proof", "1")
        expect(board).to_have_attribute("data-fen", fen)
        assert app.sans() == ["Bb5"]
        expect(banner).to_contain_text("1-0")
    finally:
        type_time_control(app.page, "untimed")


def test_cannot_mate_squares_are_marked(app):
    app.set_fen(LOCKED)
    _open_details(app)
    show = app.tid("proof").locator("[data-testid=proof-show][data-color=white]")
    expect(show).to_be_visible()
    show.click()
    expect(app.tid("proof").get_by_test_id("proof-legend")).to_be_visible()
    # the locked pawns circled, the black king's squares shaded
    region = "() => [...document.querySelectorAll('cg-board square.proof-region')].filter(s => s.style.display !== 'none').length"
    app.page.wait_for_function(f"() => ({region})() > 0")
    assert app.page.locator(".cg-shapes circle").count() >= 16  # every pawn of the wall
    app.screenshot("proof_marks")
    app.tid("proof").get_by_test_id("proof-leave").click()
    app.page.wait_for_function(f"() => ({region})() === 0")  # chessground hides the squares it no longer marks
    assert app.page.locator(".cg-shapes circle").count() == 0
