# SPDX-License-Identifier: GPL-3.0-or-later
"""The pychessdraw page as a user sees it: board clicks, the move box, buttons."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


KNIGHTS = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")]


def test_page_boots_with_board_and_csp(app):
    page = app.page
    assert page.locator("body").get_attribute("data-engine") == "ready"
    csp = page.locator("meta[http-equiv='Content-Security-Policy']").get_attribute("content")
    assert (
        "default-src 'self'" in csp
        and "'wasm-unsafe-eval'" in csp
        and "'unsafe-eval'" not in csp.replace("'wasm-unsafe-eval'", "")
    )
    # the one inline script (web/start_board.py's guard) is pinned by its hash
    assert "'unsafe-inline'" not in csp
    inline = page.evaluate("() => [...document.querySelectorAll('script:not([src])')].map(s => s.textContent)")
    assert len(inline) == 1 and "replaceChildren" in inline[0], inline
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert page.locator("[onclick], [onload], [onerror]").count() == 0, "no inline handlers"
    assert page.locator("[data-testid=board] cg-board piece").count() == 32
    assert app.halfmove() == 0 and app.repetitions() == 1
    dup = page.evaluate(
        "() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
        " return ids.filter((x, i) => ids.indexOf(x) !== i && !x.startsWith('cg-')); }"
    )
    assert dup == [], f"duplicate ids {dup}"
    violations = [c for c in app.console if "Content Security Policy" in c]
    assert not violations, violations
    assert page.get_by_test_id("licenses-link").get_attribute("href") == "LICENSES/index.html"
    # the markup cites its articles from the laws the referee sends: none is left unfilled
    assert app.tid("claim-typed").get_attribute("title").endswith("claim with it (FIDE 9.2.1.1, 9.3.1)")
    assert page.locator("#dp-mat-title").text_content().endswith("Can each side still checkmate? (FIDE 5.2.2, 6.9)")
    left = page.evaluate(
        "() => [...document.querySelectorAll('[data-i18n], [data-i18n-attr]')].flatMap(e => [e.textContent,"
        " ...(e.getAttribute('data-i18n-attr') || '').split(/\\s+/).filter(Boolean).map(a => e.getAttribute(a))])"
        ".filter(text => /\\{\\w+\\}/.test(text || ''))"
    )
    assert left == [], left


def test_knight_shuffle_threefold_claim_with_intended_move(app):
    for frm, to in KNIGHTS + KNIGHTS[:3]:
        app.click_move(frm, to)
    assert app.sans() == ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    assert app.panel_ply() == 7
    assert app.repetitions() == 2
    # the earlier occurrence is linked and marked in the move list
    assert app.page.locator("#repetition-links button[data-goto='3']").count() == 1
    assert app.page.locator("[data-testid=move-list] button.rep").count() >= 3
    claims = app.claims()
    assert {"rule": "threefold_repetition", "move": "f6g8"} in [{k: c[k] for k in ("rule", "move")} for c in claims]
    assert any("Ng8" in c["text"] for c in claims)
    # the intended move is drawn as an arrow on the board
    assert (
        app.page.locator("[data-testid=board] svg.cg-shapes line, [data-testid=board] svg.cg-shapes path").count() >= 1
    )
    app.screenshot("threefold_offered")
    app.acting(lambda: app.page.locator("[data-testid=claims] button[data-move='f6g8']").click())
    banner = app.tid("result")
    expect(banner).to_be_visible()
    assert "1/2-1/2" in banner.inner_text()
    assert "hreefold" in banner.inner_text() and "9.2" in banner.inner_text()
    assert banner.get_attribute("data-termination") == "threefold_repetition"
    assert app.sans()[-1] == "Ng8"
    assert app.claims() == []
    app.screenshot("threefold_claimed")
    # a reload keeps the claimed ending
    app.page.reload()
    app.wait_ready()
    assert app.tid("result").get_attribute("data-termination") == "threefold_repetition"
    assert app.sans()[-1] == "Ng8" and len(app.sans()) == 8
    # the board takes no more moves
    n = len(app.sans())
    app.click_square("g1")
    app.click_square("f3")
    app.page.wait_for_timeout(300)
    assert len(app.sans()) == n
    assert "Game over" in app.page.locator("#turn").inner_text()


def test_fifty_move_pgn_claim(app):
    pgn = '[Event "fifty"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 96 80"]\n\n80. Ra2 Kd8 81. Ra1 *\n'
    app.load_pgn(pgn)
    assert app.sans() == ["Ra2", "Kd8", "Ra1"]
    assert app.halfmove() == 99
    assert "99" in app.text("halfmove-clock") and "100" in app.text("halfmove-clock")
    claims = app.claims()
    assert claims and all(c["rule"] == "fifty_moves" and c["move"] for c in claims)
    # a claim now is refused (99 < 100) and the game goes on
    app.click("claim-any")
    expect(app.tid("claim-result")).to_contain_text("refused")
    expect(app.tid("result")).to_be_hidden()
    assert app.sans() == ["Ra2", "Kd8", "Ra1"]
    # a king move makes 100: claim now becomes available
    app.type_move("Ke8", claim=False)  # asked "claim with this move?": just play it
    assert app.halfmove() == 100
    now = [c for c in app.claims() if c["move"] == ""]
    assert now and now[0]["rule"] == "fifty_moves"
    app.screenshot("fifty_offered")
    app.acting(lambda: app.page.locator("[data-testid=claims] button[data-move='']").first.click())
    expect(app.tid("result")).to_contain_text("1/2-1/2")
    assert app.tid("result").get_attribute("data-termination") == "fifty_moves"
    app.open_pgn()
    app.click("export-pgn")
    out = app.tid("pgn-output").input_value()
    assert '[Result "1/2-1/2"]' in out and "Termination" in out and "fifty" in out.lower()
    app.screenshot("fifty_claimed")


def test_seventyfive_moves_is_automatic(app):
    app.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
    assert app.halfmove() == 149
    app.type_move("Ra2")
    assert app.tid("result").get_attribute("data-termination") == "seventyfive_moves"
    assert "9.6.2" in app.text("result")


def test_capture_down_to_king_and_bishop(app):
    app.set_fen("k7/8/8/8/8/8/1r6/K1B5 w - - 0 1")
    assert app.tid("mat-black").inner_text().startswith("Yes")
    # The follow-up analysis searches with a time budget: on a loaded machine
    # it may leave Black's question open, but it must never call it wrong.
    app.page.wait_for_function("() => document.body.dataset.idle === '1'", timeout=15000)
    proven = app.text("winnable")
    # K+R v K+B: Black can mate (the bishop's king boxed in), a lone bishop cannot.
    assert "Black cannot checkmate" not in proven and "White can still checkmate" not in proven
    assert "checkmate" not in app.text("hints")  # proven facts stand with the rules, not the hints
    app.click_move("a1", "b2")  # Kxb2
    assert app.sans() == ["Kxb2"]
    banner = app.tid("result")
    expect(banner).to_be_visible()
    assert banner.get_attribute("data-termination") == "insufficient_material"
    assert "5.2.2" in banner.inner_text() and "1/2-1/2" in banner.inner_text()
    assert app.tid("mat-white").inner_text().startswith("No")
    assert app.tid("mat-black").inner_text().startswith("No")
    app.screenshot("insufficient_material")


def test_dead_position_set_up(app):
    app.set_fen("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    banner = app.tid("result")
    expect(banner).to_be_visible()
    assert banner.get_attribute("data-termination") == "dead_position"
    assert "1/2-1/2" in banner.inner_text()
    assert app.claims() == []


def test_stalemate_by_typed_move(app):
    app.set_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    app.type_move("Qf7")
    banner = app.tid("result")
    assert banner.get_attribute("data-termination") == "stalemate"
    assert "Stalemate" in banner.inner_text() and "1/2-1/2" in banner.inner_text()
    assert app.tid("move-input").input_value() == ""
    live = app.tid("live").inner_text()
    assert "Stalemate" in live


def test_fivefold_is_automatic(app):
    for _ in range(4):
        for frm, to in KNIGHTS:
            app.type_move(frm + to)  # UCI in the move box
    assert len(app.sans()) == 16
    assert app.repetitions() == 5
    banner = app.tid("result")
    assert banner.get_attribute("data-termination") == "fivefold_repetition"
    assert "9.6.1" in banner.inner_text()
    # the move list marks the repeated positions with their count
    assert "↻5" in app.tid("move-list").inner_text()
    app.screenshot("fivefold")


def test_reload_and_link_restore_the_game(app):
    for mv in ["e4", "e5", "Nf3"]:
        app.type_move(mv)
    app.tid("resign-black").click()
    app.click("confirm-yes")  # resigning asks once
    expect(app.tid("result")).to_contain_text("1-0")
    fen = app.fen()
    url = app.page.url
    assert "m=e2e4" in url and "end=resign" in url
    app.page.reload()
    app.wait_ready()
    assert app.sans() == ["e4", "e5", "Nf3"]
    assert app.fen() == fen
    assert app.tid("result").get_attribute("data-termination") == "resignation"
    # the shared link alone (no localStorage) gives the same game
    app.page.evaluate("() => localStorage.clear()")
    app.page.goto("about:blank")
    app.load(url)
    assert app.sans() == ["e4", "e5", "Nf3"]
    assert app.tid("result").get_attribute("data-termination") == "resignation"
    app.page.goto(app.base_url)  # back to a clean URL for the other tests
    app.wait_ready()


def test_bad_fen_and_bad_pgn_keep_the_game(app):
    app.type_move("d4")
    app.type_move("d5")
    fen = app.fen()
    app.set_fen("this is not a fen")
    err = app.tid("error")
    expect(err).to_be_visible()
    assert "fen" in err.inner_text().lower()
    assert app.sans() == ["d4", "d5"] and app.fen() == fen
    app.load_pgn("1. e4 e5 2. Ke3 *")
    expect(err).to_be_visible()
    assert "2.Ke3" in err.inner_text() and "ply" not in err.inner_text()
    assert app.sans() == ["d4", "d5"] and app.fen() == fen
    # PGN tag text is shown as text, never as HTML
    assert app.page.locator("[data-testid=error] *").count() == 0
    # an illegal typed move also keeps the game
    app.type_move("Qxf7")
    expect(err).to_be_visible()
    assert app.sans() == ["d4", "d5"]
    app.screenshot("bad_input")
    # the next good action clears the message
    app.type_move("c4")
    expect(err).to_be_hidden()


def test_pgn_tags_are_text_not_html(app):
    evil = "<img src=x id=pwned onerror=document.body.dataset.pwned=1>"
    app.load_pgn(f'[White "{evil}"]\n[Black "Bob"]\n\n1. e4 e5 *\n')
    assert app.sans() == ["e4", "e5"]
    tags = app.tid("game-tags")
    expect(tags).to_be_visible()
    assert evil in tags.inner_text() and "Bob" in tags.inner_text()
    assert app.page.locator("#pwned").count() == 0
    app.page.wait_for_timeout(200)
    assert app.page.evaluate("() => document.body.dataset.pwned") is None


def test_undo_after_game_end(app):
    app.type_move("e4")
    app.tid("offer-draw").click()
    app.click("agree")
    expect(app.tid("result")).to_contain_text("1/2-1/2")
    assert app.tid("result").get_attribute("data-termination") == "agreement"
    app.click("undo")  # lifts the agreement, keeps the move
    expect(app.tid("result")).to_be_hidden()
    assert app.sans() == ["e4"]
    # an automatic ending is lifted by taking back the move
    app.set_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    app.type_move("Qf7")
    assert app.tid("result").get_attribute("data-termination") == "stalemate"
    app.click("undo")
    expect(app.tid("result")).to_be_hidden()
    assert app.sans() == []
    assert len(app.page.locator("[data-testid=board] cg-board piece").all()) == 3


def test_wrong_claim_with_move_plays_the_move(app):
    app.tid("move-input").fill("e4")
    app.click("claim-typed")
    res = app.tid("claim-result")
    expect(res).to_be_visible()
    assert "refused" in res.inner_text().lower() and res.get_attribute("data-accepted") == "false"
    assert app.sans() == ["e4"]  # FIDE 9.5.3: the intended move stands
    expect(app.tid("result")).to_be_hidden()
    app.screenshot("claim_refused")


def test_what_a_flag_fall_would_give_against_a_lone_king(app):
    app.set_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1")
    # (the column is shown with clocks only; its words are there all the same)
    assert app.tid("flag-white").text_content().startswith("0-1")
    assert app.tid("flag-black").text_content().startswith("1/2-1/2")
    assert app.tid("mat-white").text_content().startswith("No")


def test_promotion_chooser(app):
    app.set_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    app.click_square("e7")
    app.click_square("e8")
    dlg = app.page.locator("#promotion")
    expect(dlg).to_be_visible()
    assert dlg.locator("button[data-promotion]").count() == 4
    app.acting(lambda: dlg.locator("button[data-promotion='n']").click())
    assert app.sans() == ["e8=N+"]


def test_drag_move_and_castling(app):
    for mv in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]:
        app.type_move(mv)
    app.drag_move("e1", "g1")
    assert app.sans()[-1] == "O-O"
    assert app.fen().startswith("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1")


def test_chess960_castling_king_takes_rook(app):
    app.tid("fen-960").check()
    app.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")
    app.tid("fen-960").uncheck()
    assert app.tid("board").get_attribute("data-chess960") == "1"
    app.click_move("e1", "b1")  # the king takes its own rook: O-O-O
    assert app.sans() == ["O-O-O"]
    assert app.fen().split()[0].endswith("/2KR2R1")


def test_check_is_highlighted_and_fen_copied(app):
    for mv in ["e4", "f5", "Qh5+"]:
        app.type_move(mv)
    assert app.page.locator("[data-testid=board] cg-board square.check").count() == 1
    assert "(check)" in app.page.locator("#turn").inner_text()
    app.tid("copy-fen").click()
    assert app.tid("fen-input").input_value() == app.fen()
    assert app.fen().split()[1] == "b"


def test_navigation_and_status_at(app):
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        app.type_move(mv)
    assert app.repetitions() == 2
    app.page.locator("body").click(position={"x": 5, "y": 5})
    app.acting(lambda: app.page.keyboard.press("Home"))
    assert app.panel_ply() == 0
    assert app.repetitions() == 1
    app.acting(lambda: app.page.keyboard.press("ArrowRight"))
    assert app.panel_ply() == 1
    assert "not the current position" in app.tid("draw-panel").inner_text()
    app.acting(lambda: app.tid("nav-next").click())
    assert app.panel_ply() == 2
    app.tid("nav-last").click()
    assert app.panel_ply() == 4 and app.repetitions() == 2
    # a link to the earlier occurrence browses there
    app.acting(lambda: app.page.locator("#repetition-links button[data-goto='0']").click())
    assert app.panel_ply() == 0


def test_flip_board(app):
    app.tid("flip").click()
    assert app.tid("board").get_attribute("data-orientation") == "black"
    app.type_move("e4")
    app.click_move("e7", "e5")  # coordinates follow the orientation
    assert app.sans() == ["e4", "e5"]
    app.tid("flip").click()


def test_micropip_installs_the_wheels(browser, base_url):
    """A third-party Pyodide app installs pychessdraw with micropip from the site."""
    import json as _json
    import urllib.request

    wheels = _json.loads(urllib.request.urlopen(base_url + "wheels.json").read())
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(base_url + "bare.html")
        result = page.evaluate(
            """async ([chess, pcd]) => {
              const { loadPyodide } = await import('./pyodide/pyodide.mjs');
              const py = await loadPyodide({ indexURL: new URL('pyodide/', location.href).href });
              await py.loadPackage('micropip');
              const micropip = py.pyimport('micropip');
              await micropip.install([new URL(chess, location.href).href, new URL(pcd, location.href).href]);
              micropip.destroy();
              return py.runPython(`
import json
from pychessdraw.web.bridge import Bridge
b = Bridge()
for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
    r = json.loads(b.handle(json.dumps({"op": "play", "args": {"move": m}})))
json.dumps([m for g in r["facts"]["claims"] for m in g["moves"]])
`);
            }""",
            [wheels["chess"], wheels["pychessdraw"]],
        )
    finally:
        ctx.close()
    claims = _json.loads(result)
    assert any(c["uci"] == "f6g8" and "third time" in c["question"] for c in claims)


def test_phone_viewport_no_horizontal_scroll(browser, base_url):
    ctx = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page = ctx.new_page()
    try:
        page.goto(base_url)
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        sw, cw = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert sw <= cw, f"horizontal scroll: {sw} > {cw}"
        box = page.locator("[data-testid=board] cg-board").bounding_box()
        assert box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= cw

        # a tap move works
        def tap(sq):
            f, r = "abcdefgh".index(sq[0]), int(sq[1])
            s = box["width"] / 8
            page.touchscreen.tap(box["x"] + (f + 0.5) * s, box["y"] + (8 - r + 0.5) * s)

        tap("e2")
        tap("e4")
        expect(page.locator("[data-testid=move-list] button[data-ply='1']")).to_have_text(re.compile("^e4"))
        page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    finally:
        ctx.close()


@pytest.mark.parametrize("missing", [r"pyodide\.asm\.wasm", r"pychessdraw-[^/]*\.whl"])
def test_missing_file_reports_failure(browser, base_url, missing):
    ctx = browser.new_context()
    ctx.route(re.compile(rf".*/{missing}$"), lambda route: route.fulfill(status=404, body="missing"))
    page = ctx.new_page()
    try:
        page.goto(base_url)
        page.wait_for_selector("body[data-engine=failed]", state="attached", timeout=60_000)
        msg = page.locator("#engine-text").inner_text()
        assert "could not start" in msg
        assert ("wasm" in msg) if "wasm" in missing else ("pychessdraw" in msg and "404" in msg), msg
        # the board is still drawn
        assert page.locator("[data-testid=board] cg-board piece").count() == 32
    finally:
        ctx.close()
