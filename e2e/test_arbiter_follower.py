# SPDX-License-Identifier: GPL-3.0-or-later
"""The Arbiter view follows one source at a time, whatever is clicked: in
Chromium, clicks on Follow while the arbiter's Python starts give one
follower (the loopback server counts the requests); after Stop no request
comes; a new source clears the old one's messages and keeps its events in
the log, marked with their source; the boards stay in the round's order
(board numbers from the tags) while their states change, and the strip
lists the ones that need the arbiter, most urgent first."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect
from test_arbiter import Round, follow, serve, url, wait_updates
from test_arbiter import arbiter as arbiter  # noqa: F401 (the page on the Arbiter view, a fixture)

SHUFFLE = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6"


class Counted(Round):
    """A round whose server notes when each request came."""

    def __init__(self) -> None:
        self.times: list[float] = []
        super().__init__()

    @property
    def gets(self) -> int:
        return len(self.times)

    @gets.setter
    def gets(self, value: int) -> None:
        if value:
            self.times.append(time.monotonic())


def game(board: int, white: str, moves: str, result: str = "*") -> str:
    return f'[White "{white}"]\n[Black "Opponent"]\n[Round "3.{board}"]\n[Result "{result}"]\n\n{moves} {result}\n\n'


def order(page: Page) -> list[int]:
    return page.eval_on_selector_all("[data-testid=arbiter-board]", "cards => cards.map(c => Number(c.dataset.board))")


def test_clicks_on_follow_while_starting_give_one_follower(arbiter: Page) -> None:
    live = Counted()
    live.set(game(1, "A", "1. e4 e5"))
    server = serve({"round.pgn": live})
    try:
        arbiter.get_by_test_id("arbiter-source").fill(url(server, "round.pgn"))
        arbiter.get_by_test_id("arbiter-interval").fill("1")
        button = arbiter.get_by_test_id("arbiter-follow")
        box = button.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        arbiter.mouse.click(x, y)
        expect(button).to_have_text("Stop")  # at once, not when the Python has started
        arbiter.mouse.dblclick(x, y)  # a double click, then a third: while starting they do nothing
        arbiter.mouse.click(x, y)
        wait_updates(arbiter, 1)
        expect(button).to_be_enabled()
        expect(button).to_have_text("Stop")
        assert arbiter.locator("#arbiter-view").get_attribute("data-phase") == "following"
        time.sleep(5)
        times = list(live.times)
    finally:
        server.shutdown()
        server.server_close()
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(times) <= 7, f"{len(times)} requests in about 5 s at one a second"
    assert min(gaps) > 0.5, f"requests in pairs: gaps {gaps}"


def test_stop_ends_every_request_and_a_new_source_clears_the_old_ones_messages(arbiter: Page) -> None:
    first, closed, second = Counted(), Counted(), Counted()
    first.set(game(5, "Pasted", SHUFFLE))
    closed.set(game(1, "Closed", "1. e4"))
    second.set(game(9, "Second", "1. d4 d5") + game(2, "Other", "1. c4"))
    open_server, closed_server = serve({"first.pgn": first, "second.pgn": second}), serve({"c.pgn": closed}, cors=False)
    button = arbiter.get_by_test_id("arbiter-follow")
    status = arbiter.get_by_test_id("arbiter-status")
    try:
        follow(arbiter, url(open_server, "first.pgn"))
        wait_updates(arbiter, 1)
        expect(arbiter.locator("[data-testid=arbiter-event]")).not_to_have_count(0)
        button.click()  # Stop
        expect(button).to_have_text("Follow")
        asked = first.gets
        time.sleep(3.5)  # three intervals of 1 s
        assert first.gets == asked, "a request after Stop"
        # a source that cannot be read: its message, then another source
        follow(arbiter, url(closed_server, "c.pgn"))
        expect(status).to_contain_text("cannot be read from this page")
        button.click()
        expect(button).to_have_text("Follow")
        follow(arbiter, url(open_server, "second.pgn"))
        wait_updates(arbiter, 2)
        expect(status).to_contain_text("Following")
        expect(status).not_to_contain_text("cannot be read")
        asked_closed = closed.gets
        time.sleep(3.5)
        assert closed.gets == asked_closed, "the old source is still read"
        expect(status).not_to_contain_text("cannot be read")
    finally:
        for s in (open_server, closed_server):
            s.shutdown()
            s.server_close()
    # the grid is the new source's, in its round's order; the log keeps the first source's events, marked
    assert order(arbiter) == [2, 9]
    sources = arbiter.eval_on_selector_all("[data-testid=arbiter-event]", "rows => rows.map(r => r.dataset.source)")
    assert url(open_server, "first.pgn") in sources
    old = arbiter.locator(f"[data-testid=arbiter-event][data-source='{url(open_server, 'first.pgn')}']").first
    expect(old).to_contain_text("Board 5 · Pasted – Opponent")


def test_boards_keep_the_rounds_order_while_their_states_change(arbiter: Page) -> None:
    live = Round()
    # board numbers from the tags, not in the file's order; one board reaches a repetition, one is mated
    plies = SHUFFLE.split()
    mate = "1. f3 e5 2. g4 Qh4#".split()

    def text(n: int) -> str:
        return (
            game(12, "Twelve", " ".join(plies[: 3 * n]))
            + game(3, "Three", " ".join(mate[: 2 * n]))
            + game(7, "Seven", "1. e4 e5 2. Nf3")
        )

    live.set(text(1))
    server = serve({"round.pgn": live})
    seen = []
    try:
        follow(arbiter, url(server, "round.pgn"))
        for tick in range(1, 6):
            live.set(text(tick))
            wait_updates(arbiter, tick)
            seen.append(order(arbiter))
            cards = arbiter.eval_on_selector_all(
                "[data-testid=arbiter-board]", "cs => cs.map(c => [Number(c.dataset.urgency), Number(c.dataset.board)])"
            )
            urgent = arbiter.eval_on_selector_all(
                "[data-testid=arbiter-urgent] button", "bs => bs.map(b => Number(b.dataset.board))"
            )
            assert urgent == [b for u, b in sorted(cards) if u <= 3], (tick, cards)
    finally:
        server.shutdown()
        server.server_close()
    assert all(o == [3, 7, 12] for o in seen), seen
    assert arbiter.locator("[data-testid=arbiter-board][data-board='3']").get_attribute("data-state") == "must_stop"
    # a click on the strip brings the board into view
    arbiter.get_by_test_id("arbiter-urgent").locator("button[data-board='3']").click()
    expect(arbiter.locator("[data-testid=arbiter-board][data-board='3']")).to_be_focused()
    expect(arbiter.locator("[data-testid=arbiter-board][data-board='3'] .arb-num")).to_have_text("3")


def test_a_phone_shows_two_boards_a_row_and_the_strip_and_log_above_the_grid(browser, base_url) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(base_url + "#arbiter")
    page.get_by_test_id("arbiter-source").wait_for(timeout=60_000)
    mate = "1. f3 e5 2. g4 Qh4#"
    follow(page, "".join(game(n, f"P{n}", mate if n > 4 else "1. e4 e5") for n in range(1, 9)))
    wait_updates(page, 1)
    boxes = [page.locator(f"[data-testid=arbiter-board][data-board='{n}']").bounding_box() for n in (1, 2, 3)]
    assert all(boxes)
    one, two, three = (b for b in boxes if b is not None)
    assert one["y"] == two["y"] and three["y"] > one["y"], "two boards a row"
    assert one["x"] + one["width"] <= two["x"] and two["x"] + two["width"] <= 390
    grid = page.get_by_test_id("arbiter-grid").bounding_box()
    strip = page.get_by_test_id("arbiter-urgent").bounding_box()
    log = page.get_by_test_id("arbiter-log").bounding_box()
    assert grid and strip and log
    assert strip["y"] < grid["y"] and log["y"] < grid["y"], "the strip and the log before the grid"
    expect(page.get_by_test_id("arbiter-urgent").locator("button")).to_have_count(4)
    assert strip["height"] < 60, f"four urgent boards in one row that scrolls, not a column: {strip}"
    ctx.close()


def test_several_sources_at_once_in_one_grid_each_with_its_status(arbiter: Page) -> None:
    """Two sections with the same board numbers: one grid, source by source,
    the cards named "A1", "B1"; each source says its own state; removing one
    ends its requests and takes its boards out, its events stay in the log."""
    open_, women = Counted(), Counted()
    open_.set(game(1, "OpenOne", "1. f3 e5 2. g4 Qh4#") + game(2, "OpenTwo", "1. e4"))
    women.set(game(1, "WomenOne", "1. d4") + game(2, "WomenTwo", SHUFFLE))
    server = serve({"open.pgn": open_, "women.pgn": women})
    try:
        arbiter.get_by_test_id("arbiter-add-source").click()
        sources = arbiter.get_by_test_id("arbiter-source")
        expect(sources).to_have_count(2)
        sources.nth(0).fill(url(server, "open.pgn"))
        sources.nth(1).fill(url(server, "women.pgn"))
        follow_button = arbiter.get_by_test_id("arbiter-follow")
        arbiter.get_by_test_id("arbiter-interval").fill("1")
        follow_button.click()
        wait_updates(arbiter, 2)
        expect(arbiter.locator("[data-testid=arbiter-board]")).to_have_count(4)
        nums = arbiter.eval_on_selector_all("[data-testid=arbiter-board] .arb-num", "ns => ns.map(n => n.textContent)")
        assert nums == ["A1", "A2", "B1", "B2"]
        statuses = arbiter.get_by_test_id("arbiter-source-status")
        expect(statuses.nth(0)).to_contain_text("open.pgn")
        expect(statuses.nth(1)).to_contain_text("women.pgn")
        strip = arbiter.get_by_test_id("arbiter-urgent").locator("button")
        expect(strip.first.locator(".arb-urgent-num")).to_have_text("A1")
        letters = arbiter.eval_on_selector_all("[data-testid=arbiter-event]", "rs => rs.map(r => r.dataset.letter)")
        assert set(letters) == {"A", "B"}, letters
        arbiter.get_by_test_id("arbiter-source-remove").nth(1).click()
        expect(sources).to_have_count(1)
        expect(arbiter.locator("[data-testid=arbiter-board]")).to_have_count(2)
        expect(arbiter.locator("[data-testid=arbiter-board] .arb-num").first).to_have_text(
            "1"
        )  # no other source: no letter
        asked = women.gets
        time.sleep(2.5)
        assert women.gets == asked, "a removed source is still read"
        assert arbiter.locator("[data-testid=arbiter-event][data-letter=B]").count() >= 1
        expect(follow_button).to_have_text("Stop")
    finally:
        server.shutdown()
        server.server_close()


def test_a_second_source_takes_the_first_ones_message_off_the_views_line(arbiter: Page) -> None:
    """With one source its message is also the view's; once a second is
    added, each says its own on its row and the view's line repeats neither."""
    first, second = Counted(), Counted()
    first.set(game(1, "FirstOne", "1. e4"))
    second.set(game(1, "SecondOne", "1. d4"))
    server = serve({"first.pgn": first, "second.pgn": second})
    try:
        arbiter.get_by_test_id("arbiter-interval").fill("1")
        arbiter.get_by_test_id("arbiter-source").fill(url(server, "first.pgn"))
        arbiter.get_by_test_id("arbiter-follow").click()
        wait_updates(arbiter, 1)
        status = arbiter.get_by_test_id("arbiter-status")
        expect(status).to_contain_text("first.pgn")
        arbiter.get_by_test_id("arbiter-add-source").click()
        sources = arbiter.get_by_test_id("arbiter-source")
        sources.nth(1).fill(url(server, "second.pgn"))
        sources.nth(1).dispatch_event("change")
        statuses = arbiter.get_by_test_id("arbiter-source-status")
        expect(statuses.nth(1)).to_contain_text("second.pgn")
        expect(statuses.nth(0)).to_contain_text("first.pgn")
        expect(status).not_to_contain_text("first.pgn")
        expect(status).not_to_contain_text("second.pgn")
        arbiter.get_by_test_id("arbiter-follow").click()
    finally:
        server.shutdown()
        server.server_close()
