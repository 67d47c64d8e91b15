# SPDX-License-Identifier: GPL-3.0-or-later
"""The game's sounds (features/sounds.js): the page's AudioContext is
instrumented (every oscillator started is logged with its frequency), then a
move, a capture and a check each start a sound, the game's end another, and
none starts when the sound control (data-testid sound) is off, which is
remembered across a reload."""

from __future__ import annotations

import pytest
from conftest import fresh_app
from playwright.sync_api import expect
from viewkit import choose, settings

# wraps OscillatorNode.start: window.__sounds gets each note's frequency
LOG_NOTES = """
window.__sounds = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) { window.__sounds.push(this.frequency.value); return start.apply(this, a); };
"""
# features/sounds.js's first note of each sound
FIRST = {"move": 440, "capture": 330, "check": 660, "end": 523}


@pytest.fixture
def audible(browser, base_url):
    ctx, app = fresh_app(browser, base_url, init_script=LOG_NOTES, viewport={"width": 1280, "height": 800})
    yield app
    ctx.close()


def _notes(app) -> list[float]:
    return app.page.evaluate("() => window.__sounds.splice(0)")


def test_a_move_a_capture_a_check_and_the_end_each_start_a_sound_and_none_when_off(audible):
    app = audible
    app.page.mouse.click(5, 5)  # a click readies the audio, as browsers require
    _notes(app)
    app.type_move("e4")
    assert _notes(app)[:1] == [FIRST["move"]]
    app.type_move("d5")
    assert _notes(app)[:1] == [FIRST["move"]]
    app.type_move("exd5")
    assert _notes(app)[:1] == [FIRST["capture"]]
    app.type_move("e6")
    app.type_move("Bb5")
    assert _notes(app)[-2:][:1] == [FIRST["check"]]  # the check's two notes
    # off: nothing, and so it stays after a reload
    choose(app.page, "sound", "off")
    app.type_move("c6")
    app.type_move("dxc6")
    assert _notes(app) == []
    app.load()
    app.page.mouse.click(5, 5)
    with settings(app.page):
        expect(app.tid("sound")).to_have_value("off")
    app.type_move("Qa5")
    assert _notes(app) == []
    # on again: the game's end sounds (fool's mate on a new game)
    choose(app.page, "sound", "normal")
    app.new_game()
    for mv in ["f3", "e5", "g4"]:
        app.type_move(mv)
    _notes(app)
    app.type_move("Qh4#")
    notes = _notes(app)
    assert FIRST["check"] in notes and FIRST["end"] in notes, notes


# counts the AudioContexts made, and whether each was made inside an event (a click, a key)
COUNT_CONTEXTS = """
window.__contexts = [];
const Made = window.AudioContext;
window.AudioContext = class extends Made {
  constructor(...a) { super(...a); window.__contexts.push(window.event ? window.event.type : "idle"); }
};
"""


def test_one_audio_context_made_while_idle_and_none_for_the_arbiters_clicks(browser, base_url):
    """The first AudioContext costs the main thread 50-200 ms: Play makes its
    one context while the page is idle, not on the click or move that needs
    it, and the Arbiter view's clicks make none."""
    ctx, app = fresh_app(browser, base_url, init_script=COUNT_CONTEXTS, viewport={"width": 1280, "height": 800})
    try:
        app.page.wait_for_function("() => window.__contexts.length > 0", polling=200, timeout=15_000)
        app.page.mouse.click(5, 5)
        app.type_move("e4")
        app.type_move("e5")
        assert app.page.evaluate("() => window.__contexts") == ["idle"]
    finally:
        ctx.close()
    arb = browser.new_context(viewport={"width": 1280, "height": 800})
    arb.add_init_script(COUNT_CONTEXTS)
    page = arb.new_page()
    try:
        page.goto(base_url + "#arbiter")
        page.get_by_test_id("arbiter-source").click()
        page.get_by_test_id("arbiter-source").fill("1. e4 e5 *")
        page.get_by_test_id("arbiter-add-source").click()
        page.wait_for_timeout(3500)  # past the idle warm-up's deadline
        assert page.evaluate("() => window.__contexts") == []
    finally:
        arb.close()
