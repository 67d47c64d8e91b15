# SPDX-License-Identifier: GPL-3.0-or-later
"""Reviewing a PGN file on the page: open it (file picker, drag-and-drop,
.pgn.gz), the table of games with the referee's verdicts, filters, summary,
opening a game at its first event, downloads (CSV; JSON lines identical to
the CLI's scan), a broken game in the middle, cancel midway, and the board
still answering during a review."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from viewkit import open_view

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SHUFFLE = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(5))
MADE = [
    # ok: a mate, recorded as such
    (
        "ok",
        '[Event "made"]\n[White "Ok, A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n',
    ),
    # wrong_result: a loss on time where the winner has a lone bishop against a rook (FIDE 6.9)
    (
        "wrong_result",
        '[Event "made"]\n[White "C"]\n[Black "D"]\n[FEN "4k3/8/8/8/8/8/r7/4KB2 w - - 0 1"]\n[SetUp "1"]\n'
        '[Result "1-0"]\n[Termination "time forfeit"]\n\n1. Bd3 Kd7 1-0\n',
    ),
    # error: an illegal move in the middle of the file
    ("error", '[Event "made"]\n[White "E"]\n[Black "F"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Ke7 3. Ke2 Kd9 4. d4 *\n'),
    # ended_earlier: fivefold repetition, then a move more
    ("ended_earlier", f'[Event "made"]\n[White "G"]\n[Black "H"]\n[Result "1-0"]\n\n{SHUFFLE} 11. e4 1-0\n'),
    # ok: threefold claimable with a move, then claimable, a draw as recorded
    (
        "ok",
        '[Event "made"]\n[White "I"]\n[Black "J"]\n[Result "1/2-1/2"]\n[Termination "threefold repetition"]\n\n'
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
    ),
]


def corpus_games(n: int, skip: int = 0) -> str:
    path = SHARED / "corpus" / "tcec-dev.pgn"
    if not path.exists():
        pytest.skip(f"{path} not found: this test needs the shared corpus in ../shared beside the checkout")
    out, count = [], 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("[Event "):
                count += 1
                if count > skip + n:
                    break
            if count > skip:
                out.append(line)
    return "".join(out)


def cli_scan(path: Path) -> str:
    """``pychessdraw scan`` as run by default (search auto): the page's review searches the same."""
    proc = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "--no-progress", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return proc.stdout


@pytest.fixture(autouse=True)
def review_view(app):
    """The Review view open for the test (after the fresh game of `app`), Play again after."""
    open_view(app.page, "review")
    yield
    open_view(app.page, "play")


def review(app, path: Path, timeout: float = 240.0) -> None:
    app.tid("pgn-file").set_input_files(str(path))
    expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=timeout * 1000)


def open_row(app, game: int) -> None:
    """Open a game of the table on the board (confirming the replacement of
    the game on the board if the page asks)."""
    before = app.seq()
    app.page.locator(f"[data-testid=review-games] tr[data-game='{game}'] button").click()
    app.page.wait_for_function(
        "(n) => Number(document.body.dataset.seq || 0) > n"
        " || !!document.querySelector('[data-testid=confirm-dialog]:not([hidden])')",
        arg=before,
    )
    app.confirm_if_asked(True)
    app.wait_seq(before)


def rows(app) -> list[dict]:
    return app.page.eval_on_selector_all(
        "[data-testid=review-games] tbody tr",
        "trs => trs.map(t => ({game: +t.dataset.game, verdict: t.dataset.verdict, result: t.dataset.result,"
        " text: t.textContent}))",
    )


@pytest.fixture()
def made_file(tmp_path: Path) -> Path:
    text = (
        "\n".join(pgn for _, pgn in MADE[:2])
        + "\n"
        + corpus_games(3)
        + "\n"
        + "\n".join(pgn for _, pgn in MADE[2:])
        + "\n"
        + corpus_games(2, skip=10)
    )
    path = tmp_path / "made.pgn"
    path.write_text(text, encoding="utf-8")
    return path


def test_review_of_a_file_with_every_verdict(app, made_file: Path):
    review(app, made_file)
    got = rows(app)
    assert [r["game"] for r in got] == list(range(1, 11))
    verdicts = [r["verdict"] for r in got]
    assert verdicts[:2] == ["ok", "wrong_result"]
    assert verdicts[5:8] == ["error", "ended_earlier", "ok"]
    assert [r["result"] for r in got][:2] == ["1-0", "1-0"]
    expected = [json.loads(line)["verdict"] for line in cli_scan(made_file).splitlines()]
    assert verdicts == expected
    # the broken game names its move in chess words, and the games after it are judged
    assert "3...Kd9 (Black's move 3) is not a move" in got[5]["text"]
    summary = app.tid("review-summary")
    assert summary.get_attribute("data-total") == "10"
    for v in ("ok", "wrong_result", "ended_earlier", "undecided", "error"):
        assert summary.get_attribute(f"data-{v}") == str(verdicts.count(v))
    assert "the rules give 1/2-1/2" in got[1]["text"]
    assert "fivefold repetition ended it after Black's move 8: the rules give 1/2-1/2" in got[6]["text"]
    # filters by verdict
    app.tid("review-filter-ok").uncheck()
    assert {r["verdict"] for r in rows(app)} == set(verdicts) - {"ok"}
    app.tid("review-filter-ok").check()
    app.tid("review-filter-error").uncheck()
    assert [r["game"] for r in rows(app)] == [r["game"] for r in got if r["verdict"] != "error"]
    app.tid("review-filter-error").check()
    app.screenshot("review_table")


def test_opening_a_row_loads_the_game_at_its_first_event(app, made_file: Path):
    review(app, made_file)
    open_row(app, 7)
    # the first event: after 4.Ng1, 4...Ng8 would repeat the start a third time
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "7")
    assert len(app.sans()) == 21  # the whole record, the moves after fivefold marked
    timeline = app.tid("review-timeline")
    expect(timeline).to_contain_text("Fivefold repetition ended the game")
    expect(timeline).to_contain_text(
        "Black could claim threefold repetition with move 4..."
    )  # the claimant, not the mover
    marked = app.page.eval_on_selector_all(
        "[data-testid=move-list] button.review-event", "bs => bs.map(b => [+b.dataset.ply, b.dataset.reviewEvent])"
    )
    assert [7, "threefold_repetition"] in marked and [16, "fivefold_repetition"] in marked
    app.page.locator("[data-testid=review-timeline] button[data-ply='16']").click()
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "16")
    app.screenshot("review_opened")


def test_downloads_csv_and_json_lines_as_the_cli(app, made_file: Path):
    review(app, made_file)
    with app.page.expect_download() as info:
        app.tid("review-jsonl").click()
    lines = Path(info.value.path()).read_text(encoding="utf-8")
    assert lines == cli_scan(made_file)
    with app.page.expect_download() as info:
        app.tid("review-csv").click()
    table = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8"), newline="")))
    assert [int(r["game"]) for r in table] == list(range(1, 11))
    assert table[0]["white"] == "Ok, A" and table[1]["verdict"] == "wrong_result"
    assert table[1]["expected_result"] == "1/2-1/2"
    assert "Kd9" in table[5]["error"]


def test_a_broken_game_opens_up_to_its_bad_move(app, made_file: Path):
    review(app, made_file)
    open_row(app, 6)
    assert app.sans() == ["e4", "e5", "Nf3", "Ke7", "Ke2"]
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "5")
    expect(app.tid("review-timeline")).to_contain_text("3...Kd9 (Black's move 3)")
    assert app.tid("result").is_hidden()


def test_gz_file_and_drag_and_drop(app, made_file: Path, tmp_path: Path):
    gz = tmp_path / "made.pgn.gz"
    gz.write_bytes(gzip.compress(made_file.read_bytes()))
    review(app, gz)
    assert [r["verdict"] for r in rows(app)] == [json.loads(x)["verdict"] for x in cli_scan(made_file).splitlines()]
    # a game of a compressed file opens too
    open_row(app, 1)
    assert app.sans()[-1] == "Qxf7#"
    # drag and drop a file onto the review section
    text = MADE[3][1]
    dt = app.page.evaluate_handle(
        "(text) => { const dt = new DataTransfer(); dt.items.add(new File([text], 'dropped.pgn')); return dt; }", text
    )
    app.tid("review-drop").dispatch_event("drop", {"dataTransfer": dt})
    expect(app.tid("review-progress")).to_have_attribute("data-state", "done", timeout=60_000)
    assert [r["verdict"] for r in rows(app)] == ["ended_earlier"]
    expect(app.page.locator(".review-progress-text")).to_have_text(re.compile(r"^Done: 1 game of dropped\.pgn in "))


def test_cancel_midway_and_the_board_answers_during_a_review(app):
    path = SHARED / "corpus" / "tcec-dev.pgn"  # 8,424 games, read in place
    if not path.exists():
        pytest.skip(f"{path} not found: this test needs the shared corpus in ../shared beside the checkout")
    app.tid("pgn-file").set_input_files(str(path))
    expect(app.tid("review-progress")).to_have_attribute("data-state", "running", timeout=120_000)
    app.page.wait_for_function(
        "() => +document.querySelector('[data-testid=review-summary]').dataset.total > 20", timeout=120_000
    )
    # the board's referee is not queued behind the review
    app.click_move("e2", "e4")
    ms = app.page.evaluate("() => window.__perf[window.__perf.length - 1].ms")
    assert ms < 2_000, f"a move took {ms} ms during a review"
    app.tid("review-cancel").click()
    expect(app.tid("review-progress")).to_have_attribute("data-state", "cancelled", timeout=30_000)
    total = int(app.tid("review-summary").get_attribute("data-total"))
    assert 20 < total < 8424
    assert len(rows(app)) == total
    assert [r["game"] for r in rows(app)] == list(range(1, total + 1))
    app.screenshot("review_cancelled")


def in_viewport(app, locator) -> dict:
    """The element's box, asserted wholly inside the window (as it is scrolled)."""
    box = locator.bounding_box()
    vw, vh = app.page.viewport_size["width"], app.page.viewport_size["height"]
    assert box is not None and box["width"] > 0 and box["height"] > 0, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 0.5, (box, vw)
    assert box["y"] >= 0 and box["y"] + box["height"] <= vh + 0.5, (box, vh)
    return box


def current_ply(app, testid: str) -> list[int]:
    return app.page.eval_on_selector_all(
        f"[data-testid={testid}] button[aria-current=true]", "bs => bs.map(b => +b.dataset.ply)"
    )


PLAY_ONLY = ("undo", "move-input", "settings", "resign-white", "offer-draw", "draw-panel", "new-game", "pgn-box")


def test_the_opened_game_is_browsed_in_the_review_view(app, tmp_path: Path):
    """As on an analysis board: the opened game's move list, with the review's
    marks, beside the board; a marked move, the timeline, the arrows and the
    keys browse it and keep each other in step; Play's controls stay in Play."""
    path = tmp_path / "shuffle.pgn"
    path.write_text(MADE[3][1] + "\n" + MADE[4][1], encoding="utf-8")
    review(app, path)
    open_row(app, 1)
    page, moves = app.page, app.tid("move-list")
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(moves).to_be_visible()
    box, board = in_viewport(app, moves), app.tid("board").bounding_box()
    assert box["x"] >= board["x"] + board["width"], ("the moves beside the board", box, board)
    marked = page.locator("[data-testid=move-list] button.review-event")
    assert [int(p) for p in marked.evaluate_all("bs => bs.map(b => b.dataset.ply)")][:1] == [7]
    expect(marked.first).to_be_visible()
    for name in PLAY_ONLY:
        expect(app.tid(name)).to_be_hidden()
    # the game opened at its first event; a marked move shows its position
    assert current_ply(app, "move-list") == [7] and current_ply(app, "review-timeline") == [7]
    fen7 = app.fen()
    event16 = page.locator("[data-testid=move-list] button.review-event[data-ply='16']")
    expect(event16).to_have_attribute("data-review-event", "fivefold_repetition")
    event16.click()
    expect(app.tid("board")).not_to_have_attribute("data-fen", fen7)
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "16")
    expect(page.locator("#viewing")).to_contain_text("Viewing the position")
    assert current_ply(app, "review-timeline") == [16]
    assert current_ply(app, "move-list") == [16]
    # the timeline's entry moves the move list's current move
    page.locator("[data-testid=review-timeline] button[data-ply='7']").click()
    expect(app.tid("board")).to_have_attribute("data-fen", fen7)
    assert current_ply(app, "move-list") == [7] and current_ply(app, "review-timeline") == [7]
    # the keys and the arrows
    page.keyboard.press("ArrowLeft")
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "6")
    assert current_ply(app, "move-list") == [6] and current_ply(app, "review-timeline") == []
    app.tid("nav-next").click()
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "7")
    assert current_ply(app, "review-timeline") == [7]
    page.keyboard.press("End")
    expect(app.tid("draw-panel")).to_have_attribute("data-ply", "21")
    expect(page.locator("#viewing")).to_be_empty()
    # Play: its controls again, the same move list with its marks
    open_view(page, "play")
    for name in PLAY_ONLY:
        expect(app.tid(name)).to_be_visible()
    expect(event16).to_be_visible()
    open_view(page, "review")
    # a phone: the moves below the board
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        moves.scroll_into_view_if_needed()
        expect(moves).to_be_visible()
        box, board = in_viewport(app, moves), app.tid("board").bounding_box()
        assert box["y"] >= board["y"] + board["height"], ("the moves below the board", box, board)
        page.keyboard.press("Home")
        expect(app.tid("draw-panel")).to_have_attribute("data-ply", "0")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
