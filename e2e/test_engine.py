# SPDX-License-Identifier: GPL-3.0-or-later
"""The computer opponent, in Chromium: it answers, it claims a draw when the
rules allow and it is clearly worse (not when clearly better), it answers a
draw offer, and missing engine files leave a working two-player page.

Positions are set up by FEN; the computer plays at the Beginner level (a
short time per move). Its decisions rest on its evaluation, so the positions
are lopsided (a queen and a rook up or down), where any search agrees."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect
from viewkit import choose, type_time_control

# White: queen and rook up. Black's knight and White's queen can shuffle.
WHITE_UP = "1n4k1/5p1p/6p1/8/8/8/5PPP/3QR1K1 w - - 0 1"
WHITE_UP_SHUFFLE = ["Qd2", "Nc6", "Qd1", "Nb8", "Qd2", "Nc6", "Qd1"]  # Black to move: Nb8 repeats a third time
# Black: queen and rook up.
BLACK_UP = "1n2r1k1/5p1p/6p1/3q4/8/8/6PP/6K1 w - - 0 1"
BLACK_UP_SHUFFLE = ["Kf1", "Nc6", "Kg1", "Nb8", "Kf1", "Nc6", "Kg1"]

BEGINNER = "1"
THINK_TIMEOUT = 60.0


class Computer:
    """The engine hooks of the page, for a test acting as the visitor."""

    def __init__(self, app):
        self.app = app
        self.page = app.page

    def status(self) -> str:
        return self.app.tid("engine-status").get_attribute("data-state") or ""

    def note(self) -> str:
        return self.app.tid("engine-note").inner_text()

    def choose(self, opponent: str) -> None:
        choose(self.page, "opponent", opponent)

    def level(self, level: str) -> None:
        choose(self.page, "engine-level", level)

    def wait_moves(self, count: int, timeout: float = THINK_TIMEOUT) -> None:
        """Until the game has `count` moves (or has ended) and the page is idle."""
        end = time.monotonic() + timeout
        while True:
            done = len(self.app.sans()) >= count or self.app.tid("result").is_visible()
            if done and self.app.idle() and self.status() in ("idle", "failed"):
                return
            if time.monotonic() > end:
                raise AssertionError(
                    f"the computer did not act within {timeout} s: status {self.status()}, "
                    f"moves {self.app.sans()}, note {self.note()!r}"
                )
            time.sleep(0.05)

    def wait_result(self, timeout: float = THINK_TIMEOUT) -> None:
        expect(self.app.tid("result")).to_be_visible(timeout=timeout * 1000)


@pytest.fixture()
def computer(app):
    c = Computer(app)
    c.choose("human")
    c.level(BEGINNER)
    yield c
    c.choose("human")


def set_up(app, fen: str, moves: list[str]) -> None:
    app.set_fen(fen)
    for move in moves:
        app.type_move(move)
    assert app.sans() == moves


def test_the_computer_answers_a_move(app, computer):
    computer.choose("computer-black")
    expect(app.tid("engine-status")).to_have_attribute("data-state", re.compile("loading|idle"))
    app.type_move("e4")
    computer.wait_moves(2)
    sans = app.sans()
    assert len(sans) == 2 and sans[0] == "e4"
    assert computer.status() == "idle"
    assert computer.note().startswith(f"Black plays {sans[1]}")
    # and again after the visitor's next move
    app.type_move("d4" if sans[1] not in ("d5", "e5") else "Nf3")
    computer.wait_moves(4)
    assert len(app.sans()) == 4


def test_the_computer_plays_white_when_chosen_at_the_start(app, computer):
    computer.choose("computer-white")
    computer.wait_moves(1)
    assert len(app.sans()) == 1
    assert app.tid("board").get_attribute("data-orientation") == "black", "the visitor's side at the bottom"
    assert computer.note().startswith("White plays ")


def test_with_a_clock_it_manages_its_time(app, computer):
    # Strong thinks 2 s a move untimed; with 3 s on its clock it must hurry.
    computer.level("5")
    type_time_control(app.page, "0.05+0")
    expect(app.tid("clock-white")).to_have_attribute("data-ms", "3000")
    try:
        computer.choose("computer-black")
        expect(app.tid("engine-status")).to_have_attribute("data-state", "idle", timeout=THINK_TIMEOUT * 1000)
        app.type_move("e4")
        computer.wait_moves(2)
        assert app.tid("engine-status").get_attribute("data-time") == "clock"
        black = int(app.tid("clock-black").get_attribute("data-ms"))
        assert black >= 1200, f"the computer used {3000 - black} ms of its 3 s"
        assert not app.tid("result").is_visible()
    finally:
        type_time_control(app.page, "untimed")
    app.new_game()
    app.type_move("e4")
    computer.wait_moves(2)
    assert app.tid("engine-status").get_attribute("data-time") == "movetime"


def test_claims_with_its_intended_move_when_clearly_worse(app, computer):
    set_up(app, WHITE_UP, WHITE_UP_SHUFFLE)
    computer.choose("computer-black")
    computer.wait_result()
    banner = app.tid("result")
    assert banner.get_attribute("data-termination") == "threefold_repetition"
    assert app.sans()[-1] == "Nb8"
    note = computer.note()
    assert note.startswith(
        "Black claims a draw by threefold repetition with Nb8 (9.2.1.1): it judged its position clearly worse"
    ), note
    app.screenshot("engine_claims_threefold")


def test_does_not_claim_nor_repeat_when_clearly_better(app, computer):
    set_up(app, BLACK_UP, BLACK_UP_SHUFFLE)
    assert any(c["move"] == "c6b8" for c in app.claims()), "Black could claim with Nb8"
    computer.choose("computer-black")
    computer.wait_moves(len(BLACK_UP_SHUFFLE) + 1)
    assert not app.tid("result").is_visible() or app.tid("result").get_attribute("data-termination") == "checkmate"
    assert app.sans()[-1] != "Nb8"
    assert "claims" not in computer.note()
    assert computer.note().startswith("Black plays ")


def test_when_winning_it_does_not_hand_over_the_fifty_move_rule(app, computer):
    # A rook up, clock at 98: every rook or king move lets Black claim with its
    # reply (9.3.1); only a pawn move keeps the game going.
    app.set_fen("7k/8/8/8/8/8/6PP/R5K1 w - - 98 120")
    computer.choose("computer-white")
    computer.wait_moves(1)
    last = app.sans()[-1]
    assert last[0] in "gh" and app.halfmove() == 0, (last, computer.note())
    assert not app.tid("result").is_visible()


def test_accepts_a_draw_offer_when_worse(app, computer):
    set_up(app, WHITE_UP, ["Qd2"])
    app.tid("offer-draw").click()
    computer.choose("computer-black")
    computer.wait_result()
    assert app.tid("result").get_attribute("data-termination") == "agreement"
    assert app.sans() == ["Qd2"]
    assert computer.note().startswith("Black accepts the draw offer: it judged its position"), computer.note()


def test_declines_a_draw_offer_when_better(app, computer):
    set_up(app, BLACK_UP, ["Kf1"])
    app.tid("offer-draw").click()
    computer.choose("computer-black")
    computer.wait_moves(2)
    assert len(app.sans()) == 2
    assert not app.tid("result").is_visible() or app.tid("result").get_attribute("data-termination") == "checkmate"
    assert computer.note().startswith(
        f"Black declines the draw offer and plays {app.sans()[1]}: it judged its position winning"
    ), computer.note()


def test_an_offer_made_on_your_turn_goes_with_your_next_move(app, computer):
    app.set_fen(WHITE_UP)
    computer.choose("computer-black")
    app.tid("offer-draw").click()
    expect(app.tid("engine-note")).to_have_text(re.compile(r"^Your draw offer will be made with your next move"))
    assert not app.tid("result").is_visible()
    app.type_move("Qd2")
    computer.wait_result()
    assert app.tid("result").get_attribute("data-termination") == "agreement"
    assert computer.note().startswith("Black accepts the draw offer: it judged its position"), computer.note()
    app.screenshot("engine_accepts_offer")


def test_undo_takes_back_the_computers_reply_and_your_move(app, computer):
    computer.choose("computer-black")
    app.type_move("e4")
    computer.wait_moves(2)
    app.tid("undo").click()
    end = time.monotonic() + 15
    while app.sans() and time.monotonic() < end:
        time.sleep(0.05)
    assert app.sans() == []
    app.page.wait_for_timeout(500)  # and the computer (Black) does not move by itself
    assert app.sans() == [] and computer.status() == "idle"


def test_missing_engine_files_leave_a_two_player_page(browser, base_url):
    ctx = browser.new_context()
    requested: list[str] = []  # by the page and its workers; the service worker caches every file anyway

    def missing(route) -> None:
        if route.request.service_worker is None:
            requested.append(route.request.url)
        route.fulfill(status=404, body="missing")

    ctx.route(re.compile(r".*/engine/stockfish\.(js|wasm)$"), missing)
    page = ctx.new_page()
    try:
        page.goto(base_url)
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
        page.wait_for_timeout(300)
        assert requested == [], "the engine is loaded only when the visitor picks the computer"
        choose(page, "opponent", "computer-black")
        expect(page.get_by_test_id("engine-status")).to_have_attribute("data-state", "failed", timeout=30_000)
        assert requested, "the engine was asked for once the computer was chosen"
        note = page.get_by_test_id("engine-note").inner_text()
        assert "cannot play" in note and "two players" in note, note
        expect(page.get_by_test_id("opponent")).to_have_value("human")
        # the game goes on between humans
        for move in ("e4", "e5"):
            box = page.get_by_test_id("move-input")
            box.fill(move)
            box.press("Enter")
            page.wait_for_function("() => document.body.dataset.idle === '1'")
        expect(page.locator("[data-testid=move-list] button.ply[data-ply='2']")).to_be_attached()
    finally:
        ctx.close()


def test_engine_files_and_licence_are_shipped(app, base_url):
    r = app.page.request.get(base_url + "engine/stockfish.wasm")
    assert r.ok and r.headers["content-type"].startswith("application/wasm")
    assert len(r.body()) > 1_000_000
    lic = app.page.request.get(base_url + "LICENSES/stockfish.txt")
    assert lic.ok and "GNU GENERAL PUBLIC LICENSE" in lic.text() and "Stockfish" in lic.text()
    assert "stockfish.txt" in app.page.request.get(base_url + "LICENSES/index.html").text()
