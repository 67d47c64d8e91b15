# SPDX-License-Identifier: GPL-3.0-or-later
"""The Review view as an analysis board, with real lichess games taken at
test time from the shared corpus (the first games that carry ``[%clk]``):
opening reviewed games never touches the Play game; the clock faces are the
file's ``%clk`` at the ply shown; the verdict and "go to the move" are on the
first screen at 1280x800, 390x844 and 844x390; every mark of the move list
sits at a ply ``scan`` names; a check is marked on the board; at 1920x1080 the
move list has room and the file's games stay beside it; no cell of the table
breaks a number. With
real flag falls (lichess.FLAG_FALLS): the mating line plays on the Review's
board and leaves the game as it was, a side that cannot mate has its pieces
marked, and on a phone the browser's Back returns from the board to the list."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import chess.pgn
import pytest
from lichess import FLAG_FALL_VERDICT, FLAG_FALLS, as_file, clocks_of, face, first_clocked, games_at
from playwright.sync_api import expect
from viewkit import open_view

ROOT = Path(__file__).resolve().parent.parent
GAMES = 10


@pytest.fixture(scope="module")
def lichess_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("lichess") / "lichess-clk.pgn"
    path.write_text(first_clocked(GAMES), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def scan(lichess_file: Path) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "--no-progress", str(lichess_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def reviewed(app, path: Path, games: int = GAMES) -> None:
    """The Review view shown with ``path`` reviewed (once per page)."""
    open_view(app.page, "review")
    summary = app.tid("review-summary")
    if summary.get_attribute("data-total") != str(games) or app.page.evaluate("() => !window.__review"):
        app.tid("pgn-file").set_input_files(str(path))
    expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(summary).to_have_attribute("data-total", str(games))


def open_game(app, n: int) -> None:
    if app.tid("review-back").is_visible():  # a phone showing a game: back to the list first
        app.tid("review-back").click()
    app.page.locator(f"[data-testid=review-games] tr[data-game='{n}'] button").click()
    expect(app.tid("review-stage")).to_have_attribute("data-state", "open", timeout=30_000)
    expect(app.tid("review-stage")).to_have_attribute("data-game", str(n))
    expect(app.tid("review-stage")).to_have_attribute("data-ply", re.compile(r"\d+"))


@pytest.fixture()
def review_page(app, lichess_file):
    reviewed(app, lichess_file)
    yield app
    app.page.set_viewport_size({"width": 1280, "height": 900})
    open_view(app.page, "play")


def test_play_game_untouched(app, lichess_file):
    open_view(app.page, "play")
    app.type_move("e4")
    app.type_move("c5")
    sans, saved = app.sans(), app.state()
    reviewed(app, lichess_file)
    for n in (1, 2, 3):
        open_game(app, n)
        assert not app.tid("confirm-dialog").is_visible(), "opening a reviewed game asked to replace the Play game"
        app.page.keyboard.press("ArrowLeft")  # the keys browse the Review's board, not the Play game
        app.page.keyboard.press("Home")
        expect(app.tid("review-stage")).to_have_attribute("data-ply", "0")
    open_view(app.page, "play")
    assert app.sans() == sans == ["e4", "c5"]
    assert app.state() == saved


def test_clock_faces_are_the_files_clk(review_page, lichess_file):
    app = review_page
    text = lichess_file.read_text(encoding="utf-8")
    game = text.split("\n[Event ")[0]
    clk = clocks_of(game)
    assert len(clk) > 20
    open_game(app, 1)
    expect(app.tid("review-clock-white")).to_be_visible()
    for ply in (1, 2, len(clk) // 2 + 1, len(clk)):
        app.page.locator(f"[data-testid=review-moves] button[data-ply='{ply}']").click()
        expect(app.tid("review-stage")).to_have_attribute("data-ply", str(ply))
        # the time each side had after its last move: White moves at odd plies
        white = clk[ply - 1] if ply % 2 else clk[ply - 2]
        black = clk[ply - 1] if ply % 2 == 0 else (clk[ply - 2] if ply > 1 else None)
        expect(app.tid("review-clock-white")).to_have_text(face(white))
        expect(app.tid("review-clock-black")).to_have_text(face(black) if black else "–")
        button = app.page.locator(f"[data-testid=review-moves] button[data-ply='{ply}'] .rclk")
        expect(button).to_have_text(face(clk[ply - 1]))


def test_marks_at_the_plies_scan_names(review_page, scan):
    app = review_page
    assert len(scan) == GAMES
    checked = 0
    for report in scan:
        expected = {e["ply"] for e in report["events"]}
        if report.get("time_forfeit"):
            expected.add(report["plies"])
        if not expected and checked >= 3:
            continue
        open_game(app, report["game"])
        marks = app.page.locator("[data-testid=review-stage] [data-testid=review-mark]")
        expect(marks).to_have_count(len(expected))
        plies = {int(m.get_attribute("data-ply")) for m in marks.all()}
        assert plies == expected, report["game"]
        for m in marks.all():  # each on its own move's button, with its words
            ply = m.get_attribute("data-ply")
            assert m.evaluate("(e, p) => e.closest('button[data-ply]').dataset.ply === p", ply)
            assert m.get_attribute("title")
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("size", [(1280, 800), (390, 844), (844, 390)])
def test_verdict_and_goto_on_the_first_screen(review_page, scan, size):
    app = review_page
    app.page.set_viewport_size({"width": size[0], "height": size[1]})
    app.page.evaluate("() => window.scrollTo(0, 0)")
    lost = next(r for r in scan if r.get("time_forfeit"))
    open_game(app, lost["game"])
    app.page.evaluate("() => window.scrollTo(0, 0)")
    for hook in ("review-verdict", "review-goto"):
        box = app.tid(hook).bounding_box()
        assert box is not None and box["width"] > 0, hook
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (hook, box, size)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (hook, box, size)
    expect(app.tid("review-verdict")).to_contain_text(lost["headers"]["Result"])
    app.tid("review-nav-first").click()
    app.tid("review-goto").click()
    expect(app.tid("review-stage")).to_have_attribute("data-ply", str(lost["plies"]))
    if size[0] < 900 or size[1] < 560:  # a phone: the board took the list's turn; Back returns to it
        expect(app.tid("review-games")).to_be_hidden()
        app.tid("review-back").click()
        expect(app.tid("review-games")).to_be_visible()


def checks_of(game_text: str) -> list[int]:
    """The plies of a game after which the side to move is in check (python-chess, not the page)."""
    game = chess.pgn.read_game(io.StringIO(game_text))
    assert game is not None
    board, plies = game.board(), []
    for ply, move in enumerate(game.mainline_moves(), start=1):
        board.push(move)
        if board.is_check():
            plies.append(ply)
    return plies


def test_a_check_is_marked_on_the_review_board(review_page, lichess_file):
    app = review_page
    game = lichess_file.read_text(encoding="utf-8").split("\n[Event ")[0]
    checks = checks_of(game)
    assert checks, "the first clocked game has a check"
    open_game(app, 1)
    # chessground hides a square it no longer needs rather than removing it
    square = app.tid("review-board").locator("cg-board square.check:visible")
    for ply in (checks[0], checks[-1]):
        app.page.locator(f"[data-testid=review-moves] button[data-ply='{ply}']").click()
        expect(app.tid("review-stage")).to_have_attribute("data-ply", str(ply))
        expect(square).to_have_count(1)
    calm = next(p for p in range(1, checks[-1]) if p not in checks)
    app.page.locator(f"[data-testid=review-moves] button[data-ply='{calm}']").click()
    expect(app.tid("review-stage")).to_have_attribute("data-ply", str(calm))
    expect(square).to_have_count(0)


def test_a_wide_screen_gives_the_moves_room_and_keeps_the_games_beside(review_page):
    """1920x1080, as lichess's analysis board: the board, a move list column of
    at least 380 px, the file's games beside it, all on the first screen."""
    app = review_page
    app.page.set_viewport_size({"width": 1920, "height": 1080})
    open_game(app, 1)
    app.page.evaluate("() => window.scrollTo(0, 0)")
    board, moves = app.tid("review-board").bounding_box(), app.tid("review-moves").bounding_box()
    games, verdict = app.tid("review-games").bounding_box(), app.tid("review-verdict").bounding_box()
    assert board and moves and games and verdict
    assert board["width"] >= 760, board
    assert moves["width"] >= 380 and moves["x"] >= board["x"] + board["width"], (moves, board)
    assert games["x"] >= moves["x"] + moves["width"] and games["width"] >= 440, (games, moves)
    # the games' first rows on the first screen
    assert games["y"] < 1080 - 60 and games["x"] + games["width"] <= 1920, games
    for hook in ("review-verdict", "review-goto", "review-nav-last", "review-continue"):
        box = app.tid(hook).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 1080, (hook, box)


def test_no_cell_breaks_a_number_and_the_verdict_is_never_cut(review_page):
    """The number, players and result cells on one line; the verdict's cell
    wraps between its words, read whole (no ellipsis, nothing hidden), and
    no number in it (a move number, a result) is broken across lines."""
    app = review_page
    app.page.set_viewport_size({"width": 1280, "height": 800})
    cells = app.page.eval_on_selector_all(
        "[data-testid=review-games] tbody td",
        r"""tds => tds.map(td => {
            // each run of text, and each number in it, on one line: broken across lines it has two boxes
            const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
            let lines = 0, broken = [];
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                const tops = (r) => new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size;
                const r = document.createRange(); r.selectNodeContents(n);
                lines = Math.max(lines, tops(r));
                for (const m of n.data.matchAll(/\d[\d\/.\-:]*\d|\d/g)) {
                    const w = document.createRange(); w.setStart(n, m.index); w.setEnd(n, m.index + m[0].length);
                    if (tops(w) > 1) broken.push(m[0]);
                }
            }
            return {text: td.textContent, lines, broken, verdict: td.classList.contains("verdict-cell"),
                    ws: getComputedStyle(td).whiteSpace,
                    cut: td.scrollWidth > td.clientWidth + 1 || td.scrollHeight > td.clientHeight + 1};
        })""",
    )
    assert cells and any(c["verdict"] for c in cells)
    for c in cells:
        assert c["broken"] == [], c
        if c["verdict"]:
            assert c["ws"] == "normal" and not c["cut"], c
        else:
            assert c["ws"] == "nowrap" and c["lines"] <= 1, c


def test_the_verdict_is_in_the_pages_language(review_page):
    """The review's worker is asked for the page's language before it judges the game opened."""
    app = review_page
    try:
        app.tid("language").select_option("de")
        expect(app.page.locator("html")).to_have_attribute("lang", "de")
        open_game(app, 1)
        expect(app.tid("review-verdict")).to_contain_text("Notiert")
    finally:
        app.tid("language").select_option("en")
        expect(app.page.locator("html")).to_have_attribute("lang", "en")
    open_game(app, 2)
    expect(app.tid("review-verdict")).to_contain_text("Recorded")


@pytest.fixture(scope="module")
def flag_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("flags") / "lichess-flag-falls.pgn"
    path.write_text(as_file(games_at(FLAG_FALLS)), encoding="utf-8")
    return path


@pytest.fixture()
def flag_page(app, flag_file):
    reviewed(app, flag_file, len(FLAG_FALLS))
    yield app
    app.page.set_viewport_size({"width": 1280, "height": 900})
    open_view(app.page, "play")


def review_moves(app) -> list[str]:
    return app.page.eval_on_selector_all(
        "[data-testid=review-moves] button[data-ply]", "bs => bs.map(b => b.dataset.ply + ' ' + b.textContent)"
    )


def test_a_flag_falls_mating_line_plays_on_the_review_board(app, flag_file):
    open_view(app.page, "play")
    app.type_move("d4")
    sans, saved = app.sans(), app.state()
    reviewed(app, flag_file, len(FLAG_FALLS))
    open_game(app, 1)
    stage, board = app.tid("review-stage"), app.tid("review-board")
    expect(app.tid("review-verdict")).to_have_text(FLAG_FALL_VERDICT)
    expect(stage).to_have_attribute("data-ply", "163")  # opened at the flag fall, after the last move
    moves, fen = review_moves(app), board.get_attribute("data-fen")
    play = stage.locator("[data-testid=proof-play][data-color=white]")
    expect(play).to_be_visible()
    assert stage.locator("[data-testid=proof-play][data-color=black]").count() == 0  # not proven: no line
    play.click()
    expect(board).to_have_attribute("data-proof", "1", timeout=30_000)
    expect(stage.locator("[data-testid=proof-title]")).to_contain_text("White can checkmate")
    at = stage.locator("[data-testid=proof-at]")
    expect(at).to_contain_text("82...")  # the line starts with Black to move, where the flag fell
    first = board.get_attribute("data-fen")
    assert first != fen
    stage.locator("[data-testid=proof-next]").click()
    expect(board).not_to_have_attribute("data-fen", first)
    stage.locator("[data-testid=proof-prev]").click()
    expect(board).to_have_attribute("data-fen", first)
    app.page.keyboard.press("ArrowRight")  # the keys step through the line while it is shown
    expect(board).not_to_have_attribute("data-fen", first)
    app.tid("review-nav-prev").click()  # so do the board's step buttons
    expect(board).to_have_attribute("data-fen", first)
    stage.locator("[data-testid=proof-last]").click()
    expect(at).to_contain_text("#")
    expect(board.locator("cg-board square.check")).to_have_count(1)  # the mated king
    expect(stage).to_have_attribute("data-ply", "163")  # the game's ply stays the one shown
    stage.locator("[data-testid=proof-leave]").click()
    expect(board).not_to_have_attribute("data-proof", "1")
    expect(board).to_have_attribute("data-fen", fen)
    assert review_moves(app) == moves  # the game's moves unchanged
    play.click()  # open again; a click on the game's own move (the one shown) leaves the line
    expect(board).to_have_attribute("data-proof", "1", timeout=30_000)
    app.page.locator("[data-testid=review-moves] button[data-ply='163']").click()
    expect(board).not_to_have_attribute("data-proof", "1")
    expect(board).to_have_attribute("data-fen", fen)
    app.tid("review-nav-prev").click()  # browsing the game again
    expect(stage).to_have_attribute("data-ply", "162")
    open_view(app.page, "play")
    assert app.sans() == sans == ["d4"]  # and the Play game untouched
    assert app.state() == saved


def test_a_side_that_cannot_mate_has_its_pieces_marked(flag_page):
    app = flag_page
    open_game(app, 2)
    stage, board = app.tid("review-stage"), app.tid("review-board")
    show = stage.locator("[data-testid=proof-show][data-color=black]")  # the flagger's lone king
    expect(show).to_be_visible()
    show.click()
    expect(stage.locator("[data-testid=proof-legend]")).to_contain_text("cannot checkmate")
    expect(board.locator(".cg-shapes circle")).to_have_count(1)  # Black's one piece, the king
    stage.locator("[data-testid=proof-leave]").click()
    expect(board.locator(".cg-shapes circle")).to_have_count(0)


def test_the_browsers_back_returns_from_the_board_to_the_list_on_a_phone(flag_page):
    app = flag_page
    app.page.set_viewport_size({"width": 390, "height": 844})
    address = app.page.url
    open_game(app, 1)
    expect(app.tid("review-games")).to_be_hidden()  # the board took the list's turn
    app.page.go_back()
    expect(app.tid("review-games")).to_be_visible()
    expect(app.tid("review-stage")).to_be_hidden()
    expect(app.page.locator("html")).to_have_attribute("data-view", "review")
    assert app.page.url == address  # the view and the game's part of the address as they were
    app.page.go_forward()  # Forward shows the board again
    expect(app.tid("review-stage")).to_be_visible()
    expect(app.tid("review-games")).to_be_hidden()
    app.tid("review-back").click()  # the page's own Back is the same step back
    expect(app.tid("review-games")).to_be_visible()
    assert app.page.url == address
    open_game(app, 2)
    app.page.go_back()
    expect(app.tid("review-games")).to_be_visible()
    # the Play view's address still follows its game
    open_view(app.page, "play")
    app.type_move("e4")
    app.page.wait_for_function("() => location.hash.includes('e2e4')")
    app.page.go_back()  # Back from Play returns to the Review, its list
    expect(app.page.locator("html")).to_have_attribute("data-view", "review")
    expect(app.tid("review-games")).to_be_visible()
    app.page.go_forward()  # and Forward to Play, its game as the address holds it
    expect(app.page.locator("html")).to_have_attribute("data-view", "play")
    expect(app.page.locator("[data-testid=move-list] button.ply[data-ply='1']")).to_be_visible()
    assert app.sans() == ["e4"]
