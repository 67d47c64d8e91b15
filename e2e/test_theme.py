# SPDX-License-Identifier: GPL-3.0-or-later
"""The page's colours: the dark theme from prefers-color-scheme, the switch
(system / light / dark, data-testid theme) remembered across reloads, axe
clean in both themes, and the board's coordinates (lowercase, in the
square's contrast colour)."""

from __future__ import annotations

import json

import pytest
from conftest import ARTIFACTS, fresh_app
from playwright.sync_api import expect
from test_page import KNIGHTS, _axe
from viewkit import choose, settings

# the brown board's squares (chessground.brown.css: #f0d9b5, and black at 0.2 over it)
LIGHT_SQUARE, DARK_SQUARE = (240, 217, 181), (192, 174, 145)


def _luminance(rgb: tuple[int, ...]) -> float:
    c = [x / 255 for x in rgb[:3]]
    c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _rgb(css: str) -> tuple[int, ...]:
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 0.5)' -> (1, 2, 3)."""
    return tuple(int(float(x)) for x in css[css.index("(") + 1 : -1].split(",")[:3])


def _body_colours(page) -> tuple[tuple[int, ...], tuple[int, ...]]:
    bg, fg = page.evaluate("() => { const s = getComputedStyle(document.body); return [s.backgroundColor, s.color]; }")
    return _rgb(bg), _rgb(fg)


@pytest.fixture
def themed(browser, base_url, request):
    """A fresh page (own storage) in the colour scheme the test names, at the size it names."""
    scheme, width, height = request.param
    ctx, app = fresh_app(browser, base_url, viewport={"width": width, "height": height}, color_scheme=scheme)
    yield app
    ctx.close()


@pytest.mark.parametrize("themed", [("dark", 1280, 800), ("dark", 390, 844)], indirect=True, ids=["desktop", "phone"])
def test_a_dark_system_gives_a_dark_page_with_axe_clean(themed):
    app = themed
    expect(app.page.locator("html")).to_have_attribute("data-theme", "dark")
    bg, fg = _body_colours(app.page)
    assert _luminance(bg) < 0.05 and _luminance(fg) > 0.6, (bg, fg)
    report = {"ready": _axe(app.page)}
    app.type_move("Qxz9")
    report["error shown"] = _axe(app.page)
    app.tid("error-close").click()
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.type_move(frm + to)
    report["claim offered"] = _axe(app.page)
    app.type_move("Ng8", claim=None)
    report["claim prompt"] = _axe(app.page)
    app.acting(lambda: app.tid("claim-prompt-claim").click())
    report["game over"] = _axe(app.page)
    app.screenshot(f"dark-game-over-{app.page.viewport_size['width']}")
    with settings(app.page):
        report["settings"] = _axe(app.page)
    (ARTIFACTS / f"axe-dark-{app.page.viewport_size['width']}.json").write_text(json.dumps(report, indent=1))
    bad = {state: v for state, v in report.items() if v}
    assert not bad, json.dumps(bad, indent=1)


@pytest.mark.parametrize("themed", [("light", 1280, 800)], indirect=True)
def test_the_switch_overrides_the_system_and_is_remembered(themed):
    app, html = themed, themed.page.locator("html")
    expect(html).to_have_attribute("data-theme", "light")
    light_bg, _ = _body_colours(app.page)
    choose(app.page, "theme", "dark")
    expect(html).to_have_attribute("data-theme", "dark")
    assert _luminance(_body_colours(app.page)[0]) < _luminance(light_bg) / 4
    app.load()
    expect(html).to_have_attribute("data-theme", "dark")
    with settings(app.page):
        expect(app.tid("theme")).to_have_value("dark")
    # back to the system's: light now, dark as soon as the system turns dark
    choose(app.page, "theme", "system")
    expect(html).to_have_attribute("data-theme", "light")
    app.page.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-theme", "dark")
    choose(app.page, "theme", "light")
    expect(html).to_have_attribute("data-theme", "light")
    app.page.emulate_media(color_scheme="light")


def test_coordinates_are_lowercase_in_the_squares_contrast_colour(app):
    """Every file and rank label: lowercase, and at least 4.5:1 (WCAG AA)
    against the square it sits on, in both orientations."""
    for flip in (False, True):
        if flip:
            app.tid("flip").click()
        orientation = app.tid("board").get_attribute("data-orientation")
        labels = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=board] coords coord')].map(c => {
          const b = c.getBoundingClientRect(), s = getComputedStyle(c);
          return {text: c.innerText, color: s.color, x: b.left + 2, y: b.top + 2};
        })""")
        board = app.page.locator("[data-testid=board] cg-board").bounding_box()
        size = board["width"] / 8
        assert len(labels) == 16, labels
        for lab in labels:
            assert lab["text"] == lab["text"].lower(), lab
            col, row = int((lab["x"] - board["x"]) // size), int((lab["y"] - board["y"]) // size)
            # the square under the label's corner: a1 (column 0, row 7 from the top, as White sees it) is dark
            light = (col + row) % 2 == 0
            square = LIGHT_SQUARE if light else DARK_SQUARE
            assert _contrast(_rgb(lab["color"]), square) >= 4.5, (orientation, lab, "light" if light else "dark")
    app.tid("flip").click()


# ------------------------------------------------------------------ figurine notation
FIGURINE_FONT = '"pychessdraw figurines"'


def _drawn_with(page, selector: str) -> list[str]:
    return page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map((e) => getComputedStyle(e).fontFamily)", selector
    )


def test_figurine_notation_draws_the_move_lists_pieces_as_figurines_and_is_remembered(browser, base_url):
    """Off by default; ticked in the Display settings, Play's move table and
    strip draw their moves in the figurine font (which holds the figurines
    for K Q R B N: its glyphs are not the letters'), the start button and the
    sentences do not; the text is SAN still (copied and read as "Nf3");
    remembered after a reload."""
    ctx, app = fresh_app(browser, base_url, viewport={"width": 1280, "height": 900})
    try:
        page = app.page
        for frm, to in KNIGHTS[:2]:
            app.type_move(frm + to)
        assert page.evaluate("() => document.documentElement.dataset.notation") == "letters"
        assert not any(FIGURINE_FONT in f for f in _drawn_with(page, "#move-list .ply"))
        with settings(page):
            app.tid("figurines").check()
        expect(page.locator("html")).to_have_attribute("data-notation", "figurine")
        moves = _drawn_with(page, "#move-list .ply:not([data-ply='0']), #move-strip .ply")
        assert moves and all(f.startswith(FIGURINE_FONT) for f in moves), moves
        assert all(FIGURINE_FONT not in f for f in _drawn_with(page, "#move-list .ply[data-ply='0'], #draw-panel"))
        assert app.sans()[:2] == ["Nf3", "Nf6"]  # the text itself is SAN
        # the font is there and draws N otherwise than the page's own font does
        widths = page.evaluate("""async () => {
            await document.fonts.load('20px "pychessdraw figurines"', 'N');
            const c = document.createElement('canvas').getContext('2d');
            const w = (font) => { c.font = font; return c.measureText('N').width; };
            const fig = '20px "pychessdraw figurines"';
            return [document.fonts.check(fig, 'N'), w(fig + ', serif'), w('20px serif')];
        }""")
        assert widths[0] is True and abs(widths[1] - widths[2]) > 0.5, widths
        page.reload()
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        expect(page.locator("html")).to_have_attribute("data-notation", "figurine")
        with settings(page):
            expect(app.tid("figurines")).to_be_checked()
            app.tid("figurines").uncheck()
        expect(page.locator("html")).to_have_attribute("data-notation", "letters")
    finally:
        ctx.close()
