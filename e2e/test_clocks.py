# SPDX-License-Identifier: GPL-3.0-or-later
"""Chess clocks on the page, as players use them: time controls, flag falls
decided by the referee at once (FIDE 6.9, US Chess), the two-minute bonus of
a wrong claim (FIDE 9.5.3), pause, reload, and [%clk] in PGN. The short
controls (0.05+0 is 3 s) keep the tests quick."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from viewkit import open_view, settings, type_time_control


def set_time_control(app, text: str) -> None:
    type_time_control(app.page, text)
    expect(app.tid("clock-white")).to_have_attribute("data-running", "false")


def ms(app, color: str) -> int:
    value = app.tid(f"clock-{color}").get_attribute("data-ms")
    assert value not in (None, ""), f"clock-{color} shows no time"
    return int(value)


def running(app, color: str) -> bool:
    return app.tid(f"clock-{color}").get_attribute("data-running") == "true"


def wait_result(app, timeout: float = 15.0):
    banner = app.tid("result")
    expect(banner).to_be_visible(timeout=timeout * 1000)
    app.wait_seq(-1)
    return banner


def set_flag_rules(app, rules: str) -> None:
    before = app.seq()
    with settings(app.page):
        app.tid("flag-rules").select_option(rules)
    app.wait_seq(before)


@pytest.fixture()
def clocks(app):
    """A fresh game, FIDE flag rules, untimed again afterwards."""
    if app.tid("flag-rules").input_value() != "fide":
        set_flag_rules(app, "fide")
    yield app
    set_time_control(app, "untimed")


def test_untimed_by_default_and_presets(clocks):
    app = clocks
    set_time_control(app, "untimed")
    app.click_move("e2", "e4")
    assert not running(app, "white") and not running(app, "black")
    assert app.tid("clock-white").get_attribute("data-ms") == ""
    assert app.tid("clock-white").locator(".clock-time").text_content() == "–"
    expect(app.tid("clock-white")).to_be_hidden()  # an untimed game keeps the first screen as it was
    app.new_game()
    with settings(app.page):
        app.tid("clock-settings").get_by_role("button", name="3+2", exact=True).click()
        assert app.tid("time-control").input_value() == "3+2"
    expect(app.tid("clock-white")).to_be_visible()
    assert ms(app, "white") == ms(app, "black") == 180_000
    assert "3:00" in app.text("clock-white")
    with settings(app.page):
        app.tid("time-control").fill("3 plus 2")
        app.tid("time-control").press("Enter")
        expect(app.tid("clock-note")).to_contain_text("not understood")
    assert ms(app, "white") == 180_000


def test_flag_fall_is_a_loss_decided_at_once(clocks):
    app = clocks
    set_time_control(app, "0.05+0")
    assert ms(app, "white") == 3_000 and not running(app, "white")
    app.click_move("e2", "e4")  # White's first move starts Black's clock
    assert running(app, "black") and not running(app, "white")
    app.page.wait_for_timeout(1_200)
    assert re.fullmatch(r"0:0[0-2]\.\d", app.tid("clock-black").locator(".clock-time").inner_text())
    assert app.tid("clock-black").get_attribute("data-low") == "true"
    banner = wait_result(app, 10)
    assert banner.get_attribute("data-termination") == "time_forfeit"
    assert banner.get_attribute("data-result") == "1-0"
    assert "6.9" in banner.inner_text()
    assert ms(app, "black") == 0 and not running(app, "black") and not running(app, "white")
    app.screenshot("clock_flag_loss")


def test_flag_fall_is_a_draw_when_the_opponent_cannot_mate(clocks):
    app = clocks
    app.set_fen("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1")
    set_time_control(app, "0.05+0")
    app.click_move("e8", "d7")  # White's clock runs: its flag falls, Black has a lone king
    banner = wait_result(app, 10)
    assert banner.get_attribute("data-termination") == "time_forfeit"
    assert banner.get_attribute("data-result") == "1/2-1/2"
    text = banner.inner_text()
    assert "6.9" in text and "cannot checkmate" in text.lower()
    app.screenshot("clock_flag_draw")


@pytest.mark.parametrize("rules,result", [("fide", "1-0"), ("uscf", "1/2-1/2")])
def test_flag_fall_under_fide_and_us_chess_rules(clocks, rules, result):
    """K+N against K+R: under FIDE 6.9 the knight can mate (the rook may
    block), so Black's flag fall loses; under US Chess a lone knight does not
    win on time."""
    app = clocks
    set_flag_rules(app, rules)
    app.set_fen("4k3/r7/8/8/8/8/8/4K1N1 w - - 0 1")
    set_time_control(app, "0.05+0")
    app.click_move("g1", "f3")
    banner = wait_result(app, 10)
    assert banner.get_attribute("data-result") == result
    if rules == "uscf":
        assert "US Chess" in banner.inner_text()
    else:
        assert "6.9" in banner.inner_text()


def test_wrong_claim_gives_the_opponent_two_minutes(clocks):
    app = clocks
    set_time_control(app, "3+0")
    app.click_move("e2", "e4")
    app.click_move("e7", "e5")
    black_before = ms(app, "black")
    app.click("claim-any")  # White claims a draw: nothing to claim
    result = app.tid("claim-result")
    expect(result).to_be_visible()
    assert "refused" in result.inner_text().lower()
    assert "Two minutes were added to Black's clock (FIDE 9.5.3)" in result.inner_text()
    assert black_before + 120_000 - 50 <= ms(app, "black") <= black_before + 120_000
    assert running(app, "white")


def test_pause_resume_and_reload_restores_paused(clocks):
    app = clocks
    set_time_control(app, "1+0")
    app.click_move("e2", "e4")
    app.page.wait_for_timeout(600)
    app.tid("clock-pause").click()
    expect(app.tid("clock-pause")).to_have_text("Resume")
    paused_at = ms(app, "black")
    assert 58_000 <= paused_at <= 59_600
    app.page.wait_for_timeout(500)
    assert ms(app, "black") == paused_at and not running(app, "black")
    app.tid("clock-pause").click()
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")
    app.page.reload()
    app.wait_ready()
    app.wait_seq(-1)
    expect(app.tid("clock-pause")).to_have_text("Resume")
    assert not running(app, "black") and not running(app, "white")
    after = ms(app, "black")
    assert 57_000 <= after <= paused_at
    assert app.tid("time-control").input_value() == "1+0"
    app.page.wait_for_timeout(400)
    assert ms(app, "black") == after
    app.click_move("e7", "e5")  # a move resumes the clocks
    assert running(app, "white")


def test_leaving_play_pauses_the_clocks_and_says_so(clocks):
    """Nobody plays in the Review view: a running clock pauses when the
    player leaves Play (no flag falls unseen there), and Resume goes on."""
    app = clocks
    set_time_control(app, "0.05+0")
    app.click_move("e2", "e4")
    assert running(app, "black")
    open_view(app.page, "review")
    open_view(app.page, "play")
    expect(app.tid("clock-pause")).to_have_text("Resume")
    expect(app.tid("clock-note")).to_contain_text("paused when you left Play")
    paused_at = ms(app, "black")
    app.page.wait_for_timeout(3_200)  # longer than the whole 3 s control
    assert ms(app, "black") == paused_at and not app.tid("result").is_visible()
    app.tid("clock-pause").click()
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")


def test_game_over_stops_the_clocks(clocks):
    app = clocks
    app.set_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    set_time_control(app, "0.05+0")
    app.click_move("d1", "d8")  # mate
    assert app.tid("result").get_attribute("data-termination") == "checkmate"
    app.page.wait_for_timeout(3_500)
    assert app.tid("result").get_attribute("data-termination") == "checkmate"
    assert not running(app, "white") and not running(app, "black")


def test_clk_round_trip_export_then_import_and_browse(clocks):
    app = clocks
    set_time_control(app, "1+2")
    for frm, to in [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6")]:
        app.click_move(frm, to)
        app.page.wait_for_timeout(300)
    app.open_pgn()
    app.click("export-pgn")
    pgn = app.tid("pgn-output").input_value()
    assert '[TimeControl "60+2"]' in pgn
    clks = re.findall(r"\[%clk (\d+):(\d\d):(\d\d)\]", pgn)
    assert len(clks) == 4
    seconds = [int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in clks]
    assert seconds[0] == 60 and 58 <= seconds[2] <= 62
    app.new_game()
    set_time_control(app, "untimed")
    app.load_pgn(pgn)
    assert app.sans() == ["e4", "e5", "Nf3", "Nc6"]
    app.page.locator("[data-testid=move-list] button[data-ply='2']").click()
    expect(app.tid("clock-black")).to_have_attribute("data-ms", str(seconds[1] * 1000))
    assert ms(app, "white") == seconds[0] * 1000
    app.page.locator("[data-testid=move-list] button[data-ply='3']").click()
    expect(app.tid("clock-white")).to_have_attribute("data-ms", str(seconds[2] * 1000))
    expect(app.tid("clock-note")).to_contain_text("%clk")
    app.screenshot("clock_clk_browse")


# ------------------------------------------------------------------ controls that fit a timed game
KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]


def test_no_flag_controls_in_untimed_games(clocks):
    """Only what applies: an untimed game has no flag to fall (no buttons,
    no "If its flag fell now" column); a timed one shows the column, and its
    clocks decide flag falls (still no buttons)."""
    app = clocks
    set_time_control(app, "untimed")
    app.page.evaluate("() => { document.getElementById('dp-details').hidden = false; }")
    column = app.page.locator(".mat th.flag-col")
    expect(column).to_be_hidden()
    expect(app.tid("flag-white")).to_be_hidden()
    assert app.page.get_by_role("button", name=re.compile("flag fell", re.I)).count() == 0
    set_time_control(app, "3+2")
    expect(column).to_be_visible()
    expect(app.tid("flag-black")).to_be_visible()
    assert app.page.get_by_role("button", name=re.compile("flag fell", re.I)).count() == 0
    set_time_control(app, "untimed")
    expect(column).to_be_hidden()


def test_the_claim_prompt_closes_when_the_flag_falls(clocks):
    """The prompt "claim a draw with this move?" open while the
    flag falls: the game is over, so the prompt closes and its claim button
    cannot be pressed."""
    app = clocks
    set_time_control(app, "0.1+0")  # 6 s a side
    for mv in KNIGHTS:
        app.type_move(mv)
    app.type_move("Ng8", claim=None)  # a third occurrence: the page asks, and Black's clock runs on
    expect(app.tid("claim-prompt")).to_be_visible()
    banner = wait_result(app, 10)
    assert banner.get_attribute("data-termination") == "time_forfeit"
    expect(app.tid("claim-prompt")).to_be_hidden()
    expect(app.tid("claim-prompt-claim")).to_be_hidden()
    assert app.page.evaluate("() => document.activeElement !== document.body"), "the focus went to the page body"


def test_a_claim_stops_the_clocks_while_it_is_judged(clocks):
    """The claimant stops the clocks while the arbiter decides (FIDE 9.5.1):
    the referee's answer is held back here to see it."""
    app = clocks
    set_time_control(app, "1+0")
    app.click_move("e2", "e4")
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")
    app.page.evaluate("""() => {
      const send = Worker.prototype.postMessage;
      window.__send = send;
      Worker.prototype.postMessage = function (m, ...rest) {
        if (m && m.op === 'claim') { setTimeout(() => send.call(this, m, ...rest), 1500); return; }
        return send.call(this, m, ...rest);
      };
    }""")
    try:
        before = app.seq()
        app.tid("claim-any").click()  # Black claims with nothing to claim
        expect(app.tid("clock-black")).to_have_attribute("data-running", "false")
        stopped = ms(app, "black")
        app.page.wait_for_timeout(600)
        assert app.seq() == before, "the answer came too early to see the clocks stopped"
        assert ms(app, "black") == stopped
        expect(app.tid("clock-note")).to_contain_text("judges the claim")
        app.wait_seq(before)
    finally:
        app.page.evaluate("() => { Worker.prototype.postMessage = window.__send; }")
    expect(app.tid("claim-result")).to_contain_text("refused")
    expect(app.tid("clock-black")).to_have_attribute("data-running", "true")
