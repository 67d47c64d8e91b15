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
    """Open a game of the table on the Review's own board (never the Play
    game's: nothing is asked)."""
    if app.tid("review-back").is_visible():  # a phone showing a game: the list first
        app.tid("review-back").click()
    app.page.locator(f"[data-testid=review-games] tr[data-game='{game}'] button").click()
    stage = app.tid("review-stage")
    expect(stage).to_have_attribute("data-state", "open", timeout=60_000)
    expect(stage).to_have_attribute("data-game", str(game))
    assert not app.tid("confirm-dialog").is_visible()


def review_sans(app) -> list[str]:
    """The SAN of the opened game's moves, in the Review's move list."""
    return app.page.eval_on_selector_all(
        "[data-testid=review-moves] button[data-ply]:not([data-ply='0']) .rsan", "ss => ss.map(s => s.textContent)"
    )


def marks(app) -> dict[int, str]:
    """The opened game's marks: ply -> kind."""
    return dict(
        app.page.eval_on_selector_all(
            "[data-testid=review-mark]", "ms => ms.map(m => [+m.dataset.ply, m.className.replace(/.*kind-/, '')])"
        )
    )


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
    expect(app.tid("review-panel")).to_have_attribute("data-ply", "7")
    expect(app.tid("review-panel")).to_contain_text("Black can claim threefold repetition with Ng8")
    assert len(review_sans(app)) == 21  # the whole record, the moves after fivefold marked
    after = app.page.eval_on_selector_all(
        "[data-testid=review-moves] button.after-end", "bs => bs.map(b => +b.dataset.ply)"
    )
    assert after == [17, 18, 19, 20, 21]
    expect(app.tid("review-verdict")).to_have_text(
        "Recorded 1-0; the rules give 1/2-1/2: fivefold repetition after 8...Ng8"
    )
    timeline = app.tid("review-timeline")
    expect(timeline).to_contain_text("Fivefold repetition ended the game")
    expect(timeline).to_contain_text(
        "Black could claim threefold repetition with move 4..."
    )  # the claimant, not the mover
    marked = marks(app)
    assert marked[7] == "claimable_with_move" and marked[16] == "automatic"
    app.page.locator("[data-testid=review-timeline] button[data-ply='16']").click()
    expect(app.tid("review-panel")).to_have_attribute("data-ply", "16")
    expect(app.tid("review-panel")).to_contain_text("Fivefold repetition ended the game")
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
    assert review_sans(app) == ["e4", "e5", "Nf3", "Ke7", "Ke2"]
    expect(app.tid("review-panel")).to_have_attribute("data-ply", "5")
    expect(app.tid("review-timeline")).to_contain_text("3...Kd9 (Black's move 3)")
    expect(app.tid("review-verdict")).to_contain_text("the record breaks")


def test_gz_file_and_drag_and_drop(app, made_file: Path, tmp_path: Path):
    gz = tmp_path / "made.pgn.gz"
    gz.write_bytes(gzip.compress(made_file.read_bytes()))
    review(app, gz)
    assert [r["verdict"] for r in rows(app)] == [json.loads(x)["verdict"] for x in cli_scan(made_file).splitlines()]
    # a game of a compressed file opens too
    open_row(app, 1)
    assert review_sans(app)[-1] == "Qxf7#"
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
    # the Play board's referee is not queued behind the review (Play shown meanwhile)
    open_view(app.page, "play")
    app.click_move("e2", "e4")
    ms = app.page.evaluate("() => window.__perf[window.__perf.length - 1].ms")
    assert ms < 2_000, f"a move took {ms} ms during a review"
    open_view(app.page, "review")
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
    """As on an analysis board of its own: the opened game's move list, with
    the review's marks, beside the board; a marked move, the timeline, the
    arrows and the keys browse it and keep each other in step; Play's board
    and controls stay in Play, its game untouched."""
    path = tmp_path / "shuffle.pgn"
    path.write_text(MADE[3][1] + "\n" + MADE[4][1], encoding="utf-8")
    play_fen = app.fen()
    review(app, path)
    open_row(app, 1)
    page, moves, stage = app.page, app.tid("review-moves"), app.tid("review-stage")
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(moves).to_be_visible()
    box, board = in_viewport(app, moves), app.tid("review-board").bounding_box()
    assert box["x"] >= board["x"] + board["width"], ("the moves beside the board", box, board)
    assert sorted(marks(app)) == [7, 8, 16]
    for name in (*PLAY_ONLY, "board"):
        expect(app.tid(name)).to_be_hidden()
    # the game opened at its first event; a marked move shows its position
    assert current_ply(app, "review-moves") == [7] and current_ply(app, "review-timeline") == [7]
    page.locator("[data-testid=review-moves] button[data-ply='16']").click()
    expect(stage).to_have_attribute("data-ply", "16")
    assert current_ply(app, "review-timeline") == [16]
    assert current_ply(app, "review-moves") == [16]
    # the timeline's entry moves the move list's current move
    page.locator("[data-testid=review-timeline] button[data-ply='7']").click()
    expect(stage).to_have_attribute("data-ply", "7")
    assert current_ply(app, "review-moves") == [7] and current_ply(app, "review-timeline") == [7]
    # the keys and the arrows
    page.keyboard.press("ArrowLeft")
    expect(stage).to_have_attribute("data-ply", "6")
    assert current_ply(app, "review-moves") == [6] and current_ply(app, "review-timeline") == []
    app.tid("review-nav-next").click()
    expect(stage).to_have_attribute("data-ply", "7")
    assert current_ply(app, "review-timeline") == [7]
    page.keyboard.press("End")
    expect(stage).to_have_attribute("data-ply", "21")
    # Play: its controls again, its own game as it was
    open_view(page, "play")
    for name in PLAY_ONLY:
        expect(app.tid(name)).to_be_visible()
    assert app.fen() == play_fen
    open_view(page, "review")
    # a phone: the board and the moves below the verdict, the list on its turn
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        expect(app.tid("review-games")).to_be_hidden()
        moves.evaluate("e => e.scrollIntoView({block: 'start'})")
        expect(moves).to_be_visible()
        box, board = in_viewport(app, moves), app.tid("review-board").bounding_box()
        assert box["y"] >= board["y"] + board["height"], ("the moves below the board", box, board)
        page.keyboard.press("Home")
        expect(stage).to_have_attribute("data-ply", "0")
        app.tid("review-back").click()
        expect(app.tid("review-games")).to_be_visible()
        expect(stage).to_be_hidden()
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
