# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves and players as chess sites show them: the move table (one row per
move number, the current move kept in view, a click browses), the move
strip by the board on a phone, the player bars (names, the computer's level,
the material difference from the bridge) and the exported PGN's tags."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import expect
from viewkit import choose

# 30 moves: more rows than the table shows at once
LONG = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 "
    "10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 "
    "18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 "
    "25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 *"
)


def in_box(inner: dict, outer: dict) -> bool:
    return inner["y"] >= outer["y"] - 1 and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1


def test_the_move_table_has_a_row_per_move_and_keeps_the_current_move_in_view(app):
    for mv in ["e4", "e5", "Nf3", "Nc6", "Bb5"]:
        app.type_move(mv)
    rows = app.page.locator("[data-testid=move-table] li.pair")
    expect(rows).to_have_count(3)
    assert rows.nth(2).locator("button.ply").all_inner_texts() == ["Bb5"]
    assert rows.nth(0).locator(".num").inner_text().startswith("1")
    # a long game: the table scrolls, the current move (the last) is in view
    app.load_pgn(LONG)
    expect(rows).to_have_count(30)
    table = app.tid("move-list")
    assert table.evaluate("e => e.scrollHeight > e.clientHeight"), "the table scrolls"
    current = app.page.locator("[data-testid=move-table] button[aria-current=true]")
    assert current.get_attribute("data-ply") == "60"
    assert in_box(current.bounding_box(), table.bounding_box())
    # White's and Black's moves in their own columns
    white, black = rows.nth(9).locator("button.ply").all()
    assert white.bounding_box()["x"] < black.bounding_box()["x"]
    assert abs(white.bounding_box()["y"] - black.bounding_box()["y"]) < 2
    # Home: the start in view; a click on a move browses to it
    app.tid("nav-first").click()
    expect(app.page.locator("[data-testid=move-table] button[aria-current=true]")).to_have_attribute("data-ply", "0")
    app.page.locator("[data-testid=move-table] button[data-ply='3']").click()
    assert app.panel_ply() == 3
    assert in_box(
        app.page.locator("[data-testid=move-table] button[data-ply='3']").bounding_box(), table.bounding_box()
    )
    app.tid("nav-last").click()


def test_the_move_strip_by_the_board_on_a_phone(app):
    app.load_pgn(LONG)
    page = app.page
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("() => window.scrollTo(0, 0)")
        strip = app.tid("move-strip")
        expect(strip).to_be_visible()
        expect(strip.locator("button.ply")).to_have_count(60)
        box, board = strip.bounding_box(), app.tid("board").bounding_box()
        assert box["height"] <= 40, "one line"
        assert box["y"] + box["height"] <= board["y"] and board["y"] - box["y"] < 100, "right by the board"
        assert box["y"] + box["height"] <= 844, "on the first screen"
        current = strip.locator("button[aria-current=true]")
        expect(current).to_have_attribute("data-ply", "60")
        cur = current.bounding_box()
        assert cur["x"] >= box["x"] - 1 and cur["x"] + cur["width"] <= box["x"] + box["width"] + 1, (cur, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, "the page does not scroll sideways"
        strip.locator("button[data-ply='1']").click()  # scrolled back by hand, then browsed
        assert app.panel_ply() == 1
        assert strip.evaluate("e => e.scrollLeft") < 20
        app.screenshot("move_strip_390x844")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    expect(app.tid("move-strip")).to_be_hidden()  # on a desktop: the move table
    app.tid("nav-last").click()


def test_player_bars_names_material_and_the_exported_tags(app):
    app.new_game()
    white, black = app.tid("player-white"), app.tid("player-black")
    expect(app.tid("player-name-white")).to_have_value("White")
    expect(app.tid("player-name-black")).to_have_value("Black")
    # White at the bottom of the board, Black at the top
    board = app.tid("board").bounding_box()
    assert black.bounding_box()["y"] < board["y"] < board["y"] + board["height"] <= white.bounding_box()["y"] + 1
    # the computer's side is named by its level (White to move: it does not move)
    try:
        choose(app.page, "opponent", "computer-black")
        expect(black).to_contain_text(re.compile(r"Stockfish level \d"))
        expect(app.tid("player-name-black")).to_be_hidden()
    finally:
        choose(app.page, "opponent", "human")
    expect(app.tid("player-name-black")).to_be_visible()
    for mv in ["e4", "d5", "exd5"]:
        app.type_move(mv)
    expect(app.tid("material-white")).to_have_text("♟ +1")
    expect(app.tid("material-black")).to_have_text("")
    app.tid("nav-prev").click()  # the position shown: level again
    expect(app.tid("material-white")).to_have_text("")
    app.tid("nav-last").click()
    name = app.tid("player-name-white")
    try:
        name.fill("Ann Example")
        name.press("Enter")
        name.blur()
        app.open_pgn()
        app.click("export-pgn")
        pgn = app.tid("pgn-output").input_value()
        today = datetime.date.today().strftime("%Y.%m.%d")
        assert '[White "Ann Example"]' in pgn and '[Black "Black"]' in pgn, pgn
        assert f'[Date "{today}"]' in pgn and '[Event "Casual game"]' in pgn, pgn
    finally:
        name.fill("")
        name.press("Enter")
        name.blur()
    expect(app.tid("player-name-white")).to_have_value("White")
