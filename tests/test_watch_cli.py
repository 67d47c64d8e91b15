"""``pychessdraw watch`` as arbiters run it: a subprocess following a PGN
that grows, on a loopback HTTP server or in a file, ended by Ctrl-C."""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from test_cli_faults import hear_ctrl_c
from test_watch import FOOLS_MATE, SHUFFLE, pgn, prefixes, scanned, standing

ROOT = Path(__file__).resolve().parents[1]
PATIENCE = 60.0  # seconds to wait for an expected line before failing: a guard, not a measure


class Served:
    """The text a loopback server serves, with an ETag; counts the requests."""

    def __init__(self) -> None:
        self.text, self.version = "", 0
        self.requests = self.not_modified = 0
        self.saw_304 = threading.Event()

    def set(self, text: str) -> None:
        self.text, self.version = text, self.version + 1


def reply(handler: BaseHTTPRequestHandler, status: int, body: bytes = b"", **headers: str) -> None:
    handler.send_response(status)
    for name, value in {**headers, "Content-Length": str(len(body))}.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def serve(served: Served, port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            served.requests += 1
            etag = f'"v{served.version}"'
            if self.headers.get("If-None-Match") == etag:
                served.not_modified += 1
                served.saw_304.set()
                reply(self, 304)
            else:
                reply(self, 200, served.text.encode(), ETag=etag)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Watch:
    """A running ``pychessdraw watch``; its output lines arrive on queues."""

    def __init__(self, *args: str) -> None:
        # faulthandler: a watch that does not end on Ctrl-C is made to print
        # where it is stuck (interrupt), so that the failure says why.
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pychessdraw", "watch", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=hear_ctrl_c,
        )
        self.out: queue.Queue[str] = queue.Queue()
        self.err: queue.Queue[str] = queue.Queue()
        self.events: list[dict[str, Any]] = []
        self.said: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.readers = [
            threading.Thread(target=_pump, args=pair, daemon=True)
            for pair in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    def until(self, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read events up to the first one ``found`` accepts."""
        while True:
            event = json.loads(self.out.get(timeout=PATIENCE))
            self.events.append(event)
            if found(event):
                return event

    def say_until(self, words: str) -> str:
        while True:
            line = self.err.get(timeout=PATIENCE)
            self.said.append(line)
            if words in line:
                return line

    def interrupt(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            status = self.proc.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            self.proc.wait(timeout=PATIENCE)
            for reader in self.readers:
                reader.join(timeout=PATIENCE)
            stuck = "".join(self.err.get_nowait() for _ in range(self.err.qsize()))
            raise AssertionError(f"watch did not end {PATIENCE:g} s after Ctrl-C; where it was:\n{stuck}") from None
        for reader in self.readers:
            reader.join(timeout=PATIENCE)  # the pipes are at their end: every line is queued
        while not self.out.empty():
            self.events.append(json.loads(self.out.get_nowait()))
        return status


def _pump(stream: Any, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


@pytest.fixture
def watch() -> Iterator[Callable[..., Watch]]:
    started: list[Watch] = []

    def start(*args: str) -> Watch:
        started.append(Watch(*args))
        return started[-1]

    yield start
    for w in started:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()


def test_watch_follows_a_growing_url_and_ends_on_ctrl_c(watch: Callable[..., Watch]) -> None:
    served = Served()
    served.set(pgn("A", "B", ""))
    server = serve(served)
    try:
        w = watch(f"http://127.0.0.1:{server.server_port}/round.pgn", "--interval", "0.2", "--no-readable")
        steps = prefixes(SHUFFLE)
        for n in (4, 8, 12, 16):
            served.set(pgn("A", "B", steps[n]) + (pgn("C", "D", FOOLS_MATE) if n >= 12 else ""))
            wanted = {4: None, 8: "threefold_repetition", 12: "checkmate", 16: "fivefold_repetition"}[n]
            if wanted:
                w.until(lambda e, r=wanted: e["rule"] == r and e["kind"] in ("claimable", "automatic"))
        final = pgn("A", "B", steps[16]) + pgn("C", "D", FOOLS_MATE, "0-1")
        served.set(final)
        ended = w.until(lambda e: e["kind"] == "ended")
        served.saw_304.clear()
        assert served.saw_304.wait(PATIENCE)  # asked again with its ETag: the same text is not sent again
        assert w.interrupt() == 0
    finally:
        server.shutdown()
        server.server_close()
    assert ended == {
        **ended,
        "game": 2,
        "white": "C",
        "black": "D",
        "round": "1",
        "ply": 4,
        "move": "Qh4#",
        "result": "0-1",
        "verdict": "ok",
    }
    assert standing(w.events) == scanned(final)
    assert served.requests > served.not_modified > 0
    for event in w.events:
        assert {"game", "white", "black", "round", "ply", "move", "rule", "kind"} <= set(event)


def test_a_source_that_stops_answering_is_said_once_and_followed_again(watch: Callable[..., Watch]) -> None:
    served = Served()
    served.set(pgn("A", "B", prefixes(SHUFFLE)[7]))
    server = serve(served)
    port = server.server_port
    w = watch(f"http://127.0.0.1:{port}/round.pgn", "--interval", "0.2", "--no-readable")
    try:
        assert w.until(lambda e: True)["kind"] == "claimable_with_move"
        server.shutdown()
        server.server_close()
        w.say_until("trying again")
        served.set(pgn("A", "B", SHUFFLE))  # the moves went on while it was down
        server = serve(served, port)
        event = w.until(lambda e: e["rule"] == "fivefold_repetition")
        w.say_until("answers again")
        assert event["ply"] == 16 and event["game"] == 1
        assert w.interrupt() == 0
    finally:
        server.shutdown()
        server.server_close()
    assert sum("trying again" in line for line in w.said) == 1
    assert standing(w.events) == scanned(pgn("A", "B", SHUFFLE))  # the state was kept: no event twice
    assert [e["kind"] for e in w.events] == ["claimable_with_move", "claimable", "automatic"]


def test_watch_follows_a_file_with_a_broken_game(tmp_path: Path, watch: Callable[..., Watch]) -> None:
    path = tmp_path / "live.pgn"
    path.write_text(pgn("A", "B", "e4 e5") + pgn("C", "D", "e4 e5 Qxe9"))
    w = watch(str(path), "--interval", "0.2", "--readable")
    error = w.until(lambda e: e["kind"] == "error")
    assert error["game"] == 2 and "Qxe9" in error["reason"]
    w.say_until("game 2 (C - D, round 1) after 1...e5: error: ply 3 ('Qxe9')")  # the line for people
    path.write_text(pgn("A", "B", "e4 e5 " + SHUFFLE) + pgn("C", "D", "e4 e5 Qxe9"))
    w.until(lambda e: e["rule"] == "threefold_repetition" and e["kind"] == "claimable")
    assert w.interrupt() == 0
    assert [e["game"] for e in w.events if e["kind"] == "error"] == [2]


def test_a_huge_source_is_cut_at_the_limit_with_a_message(tmp_path: Path, watch: Callable[..., Watch]) -> None:
    path = tmp_path / "huge.pgn"
    path.write_text(pgn("A", "B", FOOLS_MATE) + pgn("C", "D", "e4 e5 " * 2000))
    w = watch(str(path), "--interval", "0.2", "--max-mb", "0.001", "--no-readable")
    assert "larger than the limit" in w.say_until("larger than the limit")
    w.until(lambda e: e["rule"] == "checkmate")
    assert w.interrupt() == 0


@pytest.mark.parametrize(
    "args, words",
    [
        (["ftp://example.org/r.pgn"], "http(s) URL"),
        (["-"], "standard input cannot be"),
        (["r.pgn", "--interval", "0"], "--interval"),
        (["r.pgn", "--max-mb", "nan"], "--max-mb"),
    ],
)
def test_bad_usage_is_status_2(args: list[str], words: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "watch", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=PATIENCE,
    )
    assert done.returncode == 2 and words in done.stderr and done.stdout == ""


def test_a_redirect_away_from_http_is_refused() -> None:
    from pychessdraw.batch.watch import HttpSource, SourceDown

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            reply(self, 302, Location="ftp://127.0.0.1/secret.pgn")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(SourceDown, match="refused: not http"):
            HttpSource(f"http://127.0.0.1:{server.server_port}/round.pgn").read()
    finally:
        server.shutdown()
        server.server_close()


def test_an_endless_stream_is_cut_after_the_timeout_with_its_games_read() -> None:
    from pychessdraw.batch.watch import HttpSource

    class Endless(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.end_headers()
            try:
                self.wfile.write(pgn("A", "B", FOOLS_MATE).encode())
                for _ in range(2000):  # a stream that keeps sending until the reader leaves
                    self.wfile.write(b"; still here\n")
                    self.wfile.flush()
                    threading.Event().wait(0.01)
            except OSError:
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endless)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        source = HttpSource(f"http://127.0.0.1:{server.server_port}/stream", timeout_s=0.3)
        text = source.read()
    finally:
        server.shutdown()
        server.server_close()
    assert source.cut is not None and "still sending" in source.cut
    assert text is not None and text.startswith(pgn("A", "B", FOOLS_MATE)) and text.endswith("\n")


@pytest.mark.slow
def test_a_tcec_round_with_a_restart_a_correction_and_a_broken_game(shared: Any, watch: Callable[..., Watch]) -> None:
    """16 TCEC games served as they grow, 20 plies a tick: each event
    the CLI printed stands as scan of the final file has it, and every
    game ends with scan's verdict on the recorded result."""
    from pychessdraw.pgn import read_games
    from pychessdraw.records.scan import scan

    with open(shared("corpus", "tcec-dev.pgn")) as handle:
        games = [g for g in itertools.islice(read_games(handle), 200) if len(g.tokens) >= 40][:16]

    def render(n: int, step: int = -1, done: bool = False) -> str:
        parts = []
        for i, g in enumerate(games):
            white, black, tokens, tail = f"W{i + 1}", f"B{i + 1}", g.tokens[:n], ""
            if i == 4 and step in (1, 2):  # another game stood at number 5 for a while: a restart
                white, black, tokens = "X", "Y", games[0].tokens[:n]
            if i == 2 and step == 2:  # game 3 showed other moves: corrected from where they differ
                tokens = games[1].tokens[:n]
            if i == 10 and step == 3:  # game 11 was shorter for a tick: corrected
                tokens = g.tokens[: n - 30]
            if i == 6 and step == 2:
                tail = " Kxz9"  # broken text
            if i == 8 and step == 3:
                tail = " a1a1 a2a2"  # no such move
            tags = {k: v for k, v in g.headers.items() if k not in ("White", "Black", "Result")}
            parts.append(pgn(white, black, " ".join(tokens) + tail, g.headers["Result"] if done else "*", **tags))
        return "".join(parts)

    served = Served()
    served.set(render(0))
    server = serve(served)
    try:
        w = watch(f"http://127.0.0.1:{server.server_port}/round.pgn", "--interval", "0.2", "--no-readable")
        most = max(len(g.tokens) for g in games)
        for step, n in enumerate(range(20, most + 20, 20)):
            served.set(render(n, step))
            served.saw_304.clear()
            assert served.saw_304.wait(PATIENCE)  # this text was read and followed
        final = render(most, done=True)
        served.set(final)
        served.saw_304.clear()
        assert served.saw_304.wait(PATIENCE)
        assert w.interrupt() == 0
    finally:
        server.shutdown()
        server.server_close()
    kinds = {(e["game"], e["kind"]) for e in w.events}
    assert {(5, "restarted"), (3, "corrected"), (11, "corrected"), (7, "error"), (9, "error")} <= kinds
    assert standing(w.events) == scanned(final)
    verdicts = {r["game"]: (r["headers"]["Result"], r["verdict"]) for r in scan(final.splitlines(keepends=True))}
    ended = {e["game"]: (e["result"], e["verdict"]) for e in w.events if e["kind"] == "ended"}
    assert ended == verdicts and len(ended) == 16


def test_if_modified_since_is_sent_back_and_304_is_no_change() -> None:
    from pychessdraw.batch.watch import HttpSource

    stamp = "Wed, 25 Nov 2026 09:00:00 GMT"
    asked: list[str | None] = []

    class Dated(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            asked.append(self.headers.get("If-Modified-Since"))
            if asked[-1] == stamp:
                reply(self, 304)
            else:
                reply(self, 200, pgn("A", "B", "e4").encode(), **{"Last-Modified": stamp})

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Dated)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        source = HttpSource(f"http://127.0.0.1:{server.server_port}/round.pgn")
        assert source.read() == pgn("A", "B", "e4")
        assert source.read() is None
    finally:
        server.shutdown()
        server.server_close()
    assert asked == [None, stamp]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped KeyboardInterrupt
def test_a_ctrl_c_that_lands_in_a_finalizer_still_ends_the_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python drops an exception raised while a finalizer runs: a Ctrl-C
    that lands in a closed HTTP response's ``__del__`` (seen once in a
    clean-clone run: the watch went on for a minute) must end the watch at
    its next tick all the same."""
    import argparse

    from pychessdraw.batch import cli

    class Finalized:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)  # the KeyboardInterrupt is raised here, and dropped

    class Source:
        name, cut, reads = "a source", None, 0

        def read(self) -> str | None:
            self.reads += 1
            assert self.reads < 20, "the watch went on after Ctrl-C"
            Finalized()  # made and finalized at once
            return None

    monkeypatch.setattr(cli, "open_source", lambda *args: Source())
    args = argparse.Namespace(readable=False, source="x", max_mb=1.0, flag_rules="fide", interval=0.01)
    # What was there before: Python's handler, or SIG_IGN where the tests
    # run as a shell's background job (a clean-clone run started with `&`).
    before = signal.getsignal(signal.SIGINT)
    assert cli.cmd_watch(args) == 0
    assert signal.getsignal(signal.SIGINT) is before  # put back
