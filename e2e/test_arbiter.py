# SPDX-License-Identifier: GPL-3.0-or-later
"""The Arbiter view in Chromium: the page follows a PGN that a
loopback server grows a few plies per tick (16 games from ../shared/corpus,
one added mid-round, one restarted, one corrected, one broken), and every
event it shows stands where ``pychessdraw scan`` of the final file puts it;
the grid's states are the follower's at every tick, and the rules' words
at chosen moments. A stranger's tags stay text; a host that forbids
cross-origin reads is said plainly."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_page import _axe

ROOT = Path(__file__).resolve().parent.parent
BOOT_TIMEOUT_MS = 120_000
SHARED = ROOT.parent / "shared"
SCAN_KINDS = ("automatic", "claimable", "claimable_with_move")
#: Terminations wanted in the round, and how many of each (16 games).
WANTED = {
    "checkmate": 3,
    "threefold_repetition": 3,
    "fifty_moves": 2,
    "insufficient_material": 2,
    "stalemate": 1,
    "time_forfeit": 2,
    "adjudicated_draw": 3,
}
#: What the board's state must be once all its moves are in and its result not yet.
STATE_AT_LAST_MOVE = {
    "checkmate": "must_stop",
    "stalemate": "must_stop",
    "insufficient_material": "must_stop",
    "threefold_repetition": "claimable",
    "fifty_moves": "claimable",
}
TICKS = 10  # ticks to play every move; then one with the results
ADDED, RESTARTED, CORRECTED, BROKEN = 16, 12, 7, 9  # game numbers (from 1) of the special cases
BROKEN_PLY = 10


class Round:
    """The text the server serves, one version per tick."""

    def __init__(self) -> None:
        self.text = ""
        self.lock = threading.Lock()
        self.gets = 0
        self.down = False  # answer 503 Service Unavailable

    def set(self, text: str) -> None:
        with self.lock:
            self.text = text


def serve(rounds: dict[str, Round], cors: bool = True) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            name = self.path.split("?")[0].lstrip("/")
            found = rounds.get(name)
            if found is None:
                self.send_error(404)
                return
            with found.lock:
                body = found.text.encode()
                found.gets += 1
            if found.down:
                self.send_response(503)
                self.cors()
                self.end_headers()
                return
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.cors()
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "no-cache")
            self.cors()
            self.end_headers()
            self.wfile.write(body)

        def cors(self) -> None:
            if cors:
                self.send_header("Access-Control-Allow-Origin", "*")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def url(server: ThreadingHTTPServer, name: str) -> str:
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/{name}"


@pytest.fixture()
def arbiter(browser, base_url) -> Iterator[Page]:
    """A page of its own, on the Arbiter view (its worker boots its own Python)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url)
    # the tabs answer once page.js has mounted the views (after the board's first frame)
    page.wait_for_function("() => window.__boot && window.__boot.page_ms != null")
    page.get_by_test_id("arbiter-mode").click()
    expect(page.locator("#arbiter-view")).to_be_visible()
    expect(page.get_by_test_id("board")).to_be_hidden()
    assert page.evaluate("() => location.hash").startswith("#arbiter")
    page.get_by_test_id("arbiter-source").wait_for()
    yield page
    assert errors == []
    ctx.close()


def follow(page: Page, source: str, interval: int = 1) -> None:
    page.get_by_test_id("arbiter-source").fill(source)
    page.get_by_test_id("arbiter-interval").fill(str(interval))
    page.get_by_test_id("arbiter-follow").click()


def wait_updates(page: Page, n: int) -> None:
    page.wait_for_function(
        f"() => Number(document.getElementById('arbiter-view').dataset.updates || 0) >= {n}", timeout=BOOT_TIMEOUT_MS
    )


def page_events(page: Page) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(
        "[data-testid=arbiter-event]",
        """rows => rows.map(r => ({
        game: Number(r.dataset.game), ply: Number(r.dataset.ply), rule: r.dataset.rule || null,
        kind: r.dataset.kind, void: r.dataset.void === '1', text: r.textContent}))""",
    )


def page_states(page: Page) -> dict[int, str]:
    rows = page.eval_on_selector_all(
        "[data-testid=arbiter-board]", "cards => cards.map(c => [Number(c.dataset.game), c.dataset.state])"
    )
    return dict(rows)


# ---------------------------------------------------------------- the round
def pick_games(path: Path) -> list[tuple[dict[str, str], list[str], str]]:
    """16 standard games, short enough, of the wanted endings."""
    sys.path.insert(0, str(ROOT))
    from pychessdraw.pgn import read_games

    left = dict(WANTED)
    games = []
    with open(path, encoding="utf-8") as f:
        for g in read_games(f):
            term = g.headers.get("Termination", "")
            if (
                left.get(term, 0)
                and "Variant" not in g.headers
                and "FEN" not in g.headers
                and g.error is None
                and 20 <= len(g.tokens) <= (200 if term == "fifty_moves" else 130)
            ):
                left[term] -= 1
                games.append((g.headers, g.tokens, g.headers["Result"]))
            if not any(left.values()):
                break
    return games


def game_text(number: int, headers: dict[str, str], tokens: list[str], result: str, white: str | None = None) -> str:
    tags = {
        **headers,
        "White": white or f"White {number}",
        "Black": f"Black {number}",
        "Round": f"1.{number}",
        "Result": result,
    }
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return f"{head}\n{' '.join(tokens)} {result}\n\n"


def versions(games: list[tuple[dict[str, str], list[str], str]]) -> list[str]:
    """The text at each tick: every game a few plies on, the results last."""
    step = max(-(-len(tokens) // TICKS) for _, tokens, _ in games)
    out = []
    for tick in range(1, TICKS + 2):
        parts = []
        for number, (headers, tokens, result) in enumerate(games, 1):
            if number == ADDED and tick < 4:
                continue
            shown = tokens[: step * tick]
            if number == CORRECTED and tick == 5:
                shown = tokens[: len(tokens[: step * 4]) - 2]  # moves taken back, given again at the next tick
            if number == BROKEN:
                shown = [("Kxa1" if i == BROKEN_PLY - 1 else t) for i, t in enumerate(shown)]
            done = tick > TICKS
            white = "Someone Else" if number == RESTARTED and tick < 3 else None
            parts.append(game_text(number, headers, shown, result if done else "*", white))
        out.append("".join(parts))
    return out


def scan_events(text: str, tmp: Path) -> dict[int, dict[str, Any]]:
    (tmp / "final.pgn").write_text(text)
    r = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", str(tmp / "final.pgn")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode in (0, 1) and r.stdout, r.stderr  # 1: some game is not ok (the broken one)
    return {rep["game"]: rep for rep in map(json.loads, r.stdout.splitlines())}


def follower_states(texts: list[str]) -> list[dict[int, str]]:
    """The grid's states at each tick, as pychessdraw.web.follow gives them."""
    from pychessdraw.web.follow import Follower

    follower, states, out = Follower(), {}, []
    for text in texts:
        states.update({b["game"]: b["state"] for b in follower.update(text)["boards"]})
        out.append(dict(states))
    return out


def test_the_page_follows_a_growing_round_event_for_event_with_scan(arbiter: Page, tmp_path: Path) -> None:
    path = SHARED / "corpus" / "tcec-dev.pgn"
    if not path.exists():
        pytest.skip(f"{path} not found: this test needs the shared corpus in ../shared beside the checkout")
    games = pick_games(path)
    assert len(games) == 16
    texts = versions(games)
    expected_states = follower_states(texts)
    live = Round()
    server = serve({"round.pgn": live})
    try:
        live.set(texts[0])
        began = time.monotonic()
        follow(arbiter, url(server, "round.pgn"))
        for tick, text in enumerate(texts, 1):
            live.set(text)
            wait_updates(arbiter, tick)
            assert page_states(arbiter) == expected_states[tick - 1], f"tick {tick}"
            # the round's order (Round "1.N": board N), whatever the states
            boards = arbiter.eval_on_selector_all(
                "[data-testid=arbiter-board]", "cs => cs.map(c => Number(c.dataset.board))"
            )
            assert boards == sorted(boards) == sorted(expected_states[tick - 1]), f"tick {tick}"
            if tick == TICKS:  # every move in, no result yet: the rules' own words
                for number, (headers, _, _) in enumerate(games, 1):
                    want = STATE_AT_LAST_MOVE.get(headers["Termination"])
                    if want and number != BROKEN:
                        assert page_states(arbiter)[number] == want, (number, headers["Termination"])
        gets, seconds = live.gets, time.monotonic() - began
    finally:
        server.shutdown()
        server.server_close()
    # every board ended, but the broken one
    final = page_states(arbiter)
    assert {g for g, s in final.items() if s != "ended"} == {BROKEN}
    reports = scan_events(texts[-1], tmp_path)
    events = page_events(arbiter)
    standing: dict[int, list[tuple[int, str, str]]] = {}
    for e in events:
        if not e["void"] and e["kind"] in SCAN_KINDS:
            standing.setdefault(e["game"], []).append((e["ply"], e["rule"], e["kind"]))
    scanned = {g: sorted((e["ply"], e["rule"], e["kind"]) for e in rep["events"]) for g, rep in reports.items()}
    assert {g: sorted(rows) for g, rows in standing.items()} == {g: rows for g, rows in scanned.items() if rows}
    ended = sorted(e["game"] for e in events if e["kind"] == "ended" and not e["void"])
    assert ended == sorted(g for g in reports if g != BROKEN)
    errors = [e for e in events if e["kind"] == "error"]
    assert [(e["game"], e["ply"] + 1) for e in errors] == [(BROKEN, reports[BROKEN]["error"]["ply"])]
    kinds = {(e["game"], e["kind"]) for e in events}
    assert (RESTARTED, "restarted") in kinds and (CORRECTED, "corrected") in kinds
    # the flag falls' proofs are shown on their boards
    forfeits = [n for n, (h, _, _) in enumerate(games, 1) if h["Termination"] == "time_forfeit"]
    for number in forfeits:
        note = arbiter.locator(f"[data-testid=arbiter-board][data-game='{number}'] .arb-note").inner_text()
        assert "flag fell" in note and "FIDE 6.9" in note
    # never more than one request per interval (1 s)
    assert gets <= seconds + 1


HOSTILE = '<img src=x onerror="window.__pwned=1">'


def test_hostile_tags_in_a_live_source_are_text(arbiter: Page) -> None:
    text = (
        f'[Event "{HOSTILE}"]\n[White "{HOSTILE}"]\n[Black "</li><script>window.__pwned=2</script>"]\n'
        f'[Round "<b>1</b>"]\n[Result "*"]\n\n1. f3 {{{HOSTILE}}} e5 2. g4 Qh4# *\n\n'
    )
    live = Round()
    live.set(text)
    server = serve({"hostile.pgn": live})
    try:
        follow(arbiter, url(server, "hostile.pgn"))
        wait_updates(arbiter, 1)
        board = arbiter.locator("[data-testid=arbiter-board][data-game='1']")
        expect(board).to_have_attribute("data-state", "must_stop")
        assert HOSTILE in board.locator(".arb-players").inner_text()
        row = arbiter.locator("[data-testid=arbiter-event]").first
        assert HOSTILE in row.inner_text() and row.get_attribute("data-rule") == "checkmate"
        assert arbiter.locator("#arbiter-view img, #arbiter-view script, #arbiter-view b").count() == 0
        assert arbiter.evaluate("() => window.__pwned") is None
        # the page may read https hosts and loopback, and runs only its own scripts
        csp = arbiter.locator("meta[http-equiv='Content-Security-Policy']").get_attribute("content") or ""
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["connect-src"].split() == ["'self'", "https:", "http://127.0.0.1:*", "http://localhost:*"]
        scripts = directives["script-src"].split()
        assert scripts[0] == "'self'" and "'unsafe-inline'" not in scripts and not any(":" in s for s in scripts)
    finally:
        server.shutdown()
        server.server_close()


def test_a_host_that_forbids_cross_origin_reads_is_said_plainly(arbiter: Page) -> None:
    live = Round()
    live.set('[White "A"]\n\ne4 *\n')
    server = serve({"closed.pgn": live}, cors=False)
    try:
        follow(arbiter, url(server, "closed.pgn"))
        arbiter.wait_for_selector("#arbiter-view[data-following='1']", state="attached", timeout=BOOT_TIMEOUT_MS)
        status = arbiter.get_by_test_id("arbiter-status")
        expect(status).to_contain_text("cannot be read from this page")
        expect(status).to_contain_text("choose it as a local file, or paste its text")
        asked = live.gets
        time.sleep(3.5)  # backing off: 2, then 4 intervals of 1 s
        assert live.gets - asked <= 2
        assert arbiter.locator("[data-testid=arbiter-board]").count() == 0
    finally:
        server.shutdown()
        server.server_close()


def test_pasted_text_is_read_once(arbiter: Page) -> None:
    follow(arbiter, '[White "P"]\n[Black "Q"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n')
    wait_updates(arbiter, 1)
    board = arbiter.locator("[data-testid=arbiter-board]")
    expect(board).to_have_count(1)
    expect(board).to_have_attribute("data-state", "claimable_with_move")
    expect(board.locator(".arb-state")).to_have_text("Black may claim threefold repetition with 4...Ng8")
    row = arbiter.locator("[data-testid=arbiter-event]").first
    assert (row.get_attribute("data-game"), row.get_attribute("data-ply"), row.get_attribute("data-kind")) == (
        "1",
        "7",
        "claimable_with_move",
    )
    expect(arbiter.get_by_test_id("arbiter-follow")).to_have_text("Follow")  # read once: not following
    assert _axe(arbiter) == []


def test_a_local_file_chosen_again_is_followed_on(arbiter: Page, tmp_path: Path) -> None:
    """Chromium's file chooser gives a File that does not follow the disk:
    choosing it again while followed reads its changes, as one source."""
    path = tmp_path / "round.pgn"
    path.write_text('[White "F"]\n[Black "G"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 *\n')
    arbiter.get_by_test_id("arbiter-file-input").set_input_files(str(path))
    expect(arbiter.get_by_test_id("arbiter-status")).to_contain_text("round.pgn chosen")
    arbiter.get_by_test_id("arbiter-interval").fill("1")
    arbiter.get_by_test_id("arbiter-follow").click()
    wait_updates(arbiter, 1)
    board = arbiter.locator("[data-testid=arbiter-board][data-game='1']")
    expect(board).to_have_attribute("data-state", "playing")
    path.write_text('[White "F"]\n[Black "G"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n')
    arbiter.get_by_test_id("arbiter-file-input").set_input_files(str(path))
    wait_updates(arbiter, 2)
    expect(board).to_have_attribute("data-state", "claimable")
    rows = [(e["ply"], e["rule"], e["kind"]) for e in page_events(arbiter)]
    assert rows == [(8, "threefold_repetition", "claimable"), (7, "threefold_repetition", "claimable_with_move")]


def test_a_source_over_the_limit_is_cut_with_a_message(arbiter: Page) -> None:
    filler = "".join(f"{'x' * 99}\n" for _ in range(17 * (1 << 20) // 100))  # 17 MB of comment lines
    live = Round()
    live.set(f'[White "A"]\n[Black "B"]\n\n1. f3 e5 2. g4 Qh4# *\n\n[White "C"]\n[Black "D"]\n\n1. e4 {{{filler}}} *\n')
    server = serve({"huge.pgn": live})
    try:
        follow(arbiter, url(server, "huge.pgn"), interval=5)
        wait_updates(arbiter, 1)
        expect(arbiter.get_by_test_id("arbiter-status")).to_contain_text("larger than the limit (16 MB)")
        expect(arbiter.locator("[data-testid=arbiter-board][data-game='1']")).to_have_attribute(
            "data-state", "must_stop"
        )
    finally:
        server.shutdown()
        server.server_close()


def test_a_file_handle_is_read_again_whenever_it_changes(arbiter: Page) -> None:
    """Where the File System Access API is there, the file is followed
    without choosing it again (the picker stands in for the user's choice)."""
    arbiter.evaluate("""() => {
        window.__file = {text: '[White "H"]\\n[Black "I"]\\n\\n1. f3 e5 *\\n', time: 1};
        window.showOpenFilePicker = async () => [{name: "live.pgn",
            getFile: async () => new File([window.__file.text], "live.pgn", {lastModified: window.__file.time})}];
    }""")
    arbiter.get_by_test_id("arbiter-file").click()
    expect(arbiter.get_by_test_id("arbiter-status")).to_contain_text(
        "live.pgn chosen: Follow reads it again whenever it changes."
    )
    arbiter.get_by_test_id("arbiter-interval").fill("1")
    arbiter.get_by_test_id("arbiter-follow").click()
    wait_updates(arbiter, 1)
    arbiter.evaluate(
        """() => { window.__file = {text: window.__file.text.replace("*", "2. g4 Qh4# 0-1"), time: 2}; }"""
    )
    wait_updates(arbiter, 2)
    expect(arbiter.locator("[data-testid=arbiter-board][data-game='1']")).to_have_attribute("data-state", "ended")
    kinds = [(e["ply"], e["rule"], e["kind"]) for e in page_events(arbiter)]
    assert kinds == [(4, None, "ended"), (4, "checkmate", "automatic")]  # ended: the record names no rule


def test_the_arbiter_tab_and_the_address_leave_the_game_on_the_board(app) -> None:
    """Opening and leaving the view, by its tab or by Back and Forward,
    never touches the game on the board (``#arbiter`` is no game link)."""
    page = app.page
    app.type_move("e4")
    app.type_move("e5")
    game = page.evaluate("() => location.hash")
    view, main = page.locator("#arbiter-view"), page.get_by_test_id("board")
    page.get_by_test_id("arbiter-mode").click()
    expect(view).to_be_visible()
    expect(main).to_be_hidden()
    expect(page.get_by_test_id("arbiter-mode")).to_have_attribute("aria-current", "page")
    page.get_by_test_id("view-play").click()
    expect(main).to_be_visible()
    assert page.evaluate("() => location.hash") == game and app.sans() == ["e4", "e5"]
    page.go_back()  # to #arbiter
    expect(view).to_be_visible()
    page.go_back()  # to the game
    expect(main).to_be_visible()
    page.go_forward()  # to #arbiter again: no new game behind it
    expect(view).to_be_visible()
    page.go_back()
    expect(main).to_be_visible()
    assert app.sans() == ["e4", "e5"] and page.evaluate("() => location.hash") == game


def test_must_stop_notifies_when_asked_and_the_log_downloads_as_json_lines(arbiter: Page) -> None:
    arbiter.evaluate("""() => {
        window.__notes = [];
        window.Notification = class { constructor(title, o) { window.__notes.push([title, o.body]); } };
        window.Notification.permission = "granted";
        window.Notification.requestPermission = async () => "granted";
    }""")
    follow(arbiter, '[White "C"]\n[Black "D"]\n\n1. f3 e5 2. g4 Qh4# *\n')  # off by default: not notified
    wait_updates(arbiter, 1)
    expect(arbiter.locator("[data-testid=arbiter-board]")).to_have_attribute("data-state", "must_stop")
    arbiter.locator("#arbiter-notify").check()
    follow(arbiter, '[White "A"]\n[Black "B"]\n\n1. f3 e5 2. g4 Qh4# *\n')
    wait_updates(arbiter, 2)
    notes = arbiter.evaluate("() => window.__notes")
    assert notes == [["Must stop now", "game 1 (A - B) after 2...Qh4#: checkmate ends the game (FIDE 5.1.1)"]]
    with arbiter.expect_download() as got:
        arbiter.get_by_test_id("arbiter-download").click()
    lines = Path(got.value.path()).read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    # the log keeps the first source's event too, each marked with its source
    assert [(r["game"], r["ply"], r["rule"], r["kind"], r["move"], r["source"]) for r in rows] == [
        (1, 4, "checkmate", "automatic", "Qh4#", "pasted text")
    ] * 2
    assert [r["white"] for r in rows] == ["C", "A"] and rows[1]["text"] == notes[0][1]


def test_a_source_that_stops_answering_is_said_and_followed_on(arbiter: Page) -> None:
    live = Round()
    live.set('[White "A"]\n[Black "B"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 *\n')
    server = serve({"flaky.pgn": live})
    try:
        follow(arbiter, url(server, "flaky.pgn"))
        wait_updates(arbiter, 1)
        live.down = True
        status = arbiter.get_by_test_id("arbiter-status")
        expect(status).to_contain_text("HTTP 503", timeout=10_000)
        expect(status).to_contain_text("Trying again, less often, until it answers.")
        live.set('[White "A"]\n[Black "B"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n')
        live.down = False
        wait_updates(arbiter, 2)
        expect(status).to_contain_text("answers again")
        board = arbiter.locator("[data-testid=arbiter-board][data-game='1']")
        expect(board).to_have_attribute("data-state", "claimable")  # nothing lost while it was down
        assert [e["kind"] for e in page_events(arbiter)] == ["claimable", "claimable_with_move"]
    finally:
        server.shutdown()
        server.server_close()


class Stream:
    """A source that streams: every game at connection, then each game's whole
    PGN again whenever it changes (as lichess's broadcast stream does)."""

    def __init__(self) -> None:
        self.games: dict[str, str] = {}
        self.sent: list[str] = []
        self.connection = 0  # bumped: the open connections end
        self.lock = threading.Lock()

    def send(self, key: str, text: str) -> None:
        with self.lock:
            self.games[key] = text
            self.sent.append(text)

    def handler(self, request: BaseHTTPRequestHandler) -> None:
        with self.lock:
            at, connection = len(self.sent), self.connection
            pieces = list(self.games.values())
        request.send_response(200)
        request.send_header("Content-Type", "application/x-chess-pgn")
        request.send_header("Access-Control-Allow-Origin", "*")
        request.end_headers()
        while True:
            for piece in pieces:
                request.wfile.write(piece.encode() + b"\n")
            request.wfile.flush()
            time.sleep(0.05)
            with self.lock:
                if self.connection != connection:
                    return
                pieces, at = self.sent[at:], len(self.sent)


def test_a_stream_is_followed_as_the_round_and_again_after_it_ends(arbiter: Page) -> None:
    stream = Stream()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            stream.handler(self)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
    game = lambda url, names, moves, result="*": (  # noqa: E731
        f'[GameURL "{url}"]\n[White "{names[0]}"]\n[Black "{names[1]}"]\n[Result "{result}"]\n\n{moves} {result}\n\n'
    )
    stream.send("1", game("https://x/1", "A B", shuffle[:24]))
    stream.send("2", game("https://x/2", "C D", "1. e4"))
    try:
        follow(arbiter, f"http://127.0.0.1:{server.server_address[1]}/api/stream/broadcast/round/x.pgn")
        boards = arbiter.locator("[data-testid=arbiter-board]")
        expect(boards).to_have_count(2, timeout=BOOT_TIMEOUT_MS)
        expect(arbiter.get_by_test_id("arbiter-status")).to_contain_text("Following the stream")
        stream.send("1", game("https://x/1", "A B", shuffle))
        expect(boards.nth(0)).to_have_attribute("data-state", "claimable")
        with stream.lock:
            stream.connection += 1  # the stream ends; the page connects again and gets every game again
        expect(arbiter.get_by_test_id("arbiter-status")).to_contain_text("the stream ended")
        stream.send("2", game("https://x/2", "C D", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#", "1-0"))
        board2 = arbiter.locator("[data-testid=arbiter-board][data-game='2']")
        expect(board2).to_have_attribute("data-state", "ended", timeout=15_000)
        rows = [(e["game"], e["ply"], e["rule"], e["kind"]) for e in page_events(arbiter)]
        assert rows == [
            (2, 7, None, "ended"),
            (2, 7, "checkmate", "automatic"),
            (1, 8, "threefold_repetition", "claimable"),
            (1, 7, "threefold_repetition", "claimable_with_move"),
        ]  # nothing said twice
    finally:
        with stream.lock:
            stream.connection += 1
        server.shutdown()
        server.server_close()
