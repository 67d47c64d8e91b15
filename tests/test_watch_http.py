"""``watch`` bounded in time as well as size: a total deadline per request
(a host that sends its headers one byte at a time cannot hold it), URLs
encoded or refused in words, a compressed body decoded or refused (never
read as PGN), and a game cut by the size limit said to be cut, never ended.
Every server is on 127.0.0.1, every loop bounded."""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from test_watch import FOOLS_MATE, pgn
from test_watch_cli import Watch
from test_watch_cli import watch as watch  # noqa: PLC0414 (the fixture, by its name)

from pychessdraw.batch.watch import FileSource, HttpSource, SourceDown, encode_url, open_source
from pychessdraw.errors import BadRequestError
from pychessdraw.records.tracker import SOURCE_CUT, Tracker

ROOT = Path(__file__).resolve().parent.parent
PATIENCE = 30.0  # a guard against a stall, not a measure


@contextmanager
def raw_server(talk: Callable[[socket.socket], None], read_first: bool = True) -> Iterator[int]:
    """A loopback server that runs ``talk`` on each connection (after
    reading the request, if ``read_first``); its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=_talk_then_close, args=(talk, conn, read_first), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(PATIENCE)
        listener.close()


def _talk_then_close(talk: Callable[[socket.socket], None], conn: socket.socket, read_first: bool) -> None:
    try:
        if read_first:
            conn.recv(65536)  # the request
        talk(conn)
    except OSError:
        pass
    finally:
        conn.close()


@contextmanager
def http_server(answer: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[int]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            answer(self)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()


def send(handler: BaseHTTPRequestHandler, body: bytes, **headers: str) -> None:
    handler.send_response(200)
    for name, value in {**headers, "Content-Length": str(len(body))}.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()
    handler.wfile.write(body)


# -- the deadline ------------------------------------------------------------------
def _one_byte_at_a_time(text: bytes, pause: float) -> Callable[[socket.socket], None]:
    def talk(conn: socket.socket) -> None:
        for i in range(len(text)):  # bounded: the text's length
            conn.sendall(text[i : i + 1])
            time.sleep(pause)

    return talk


def test_headers_sent_one_byte_at_a_time_do_not_stall_past_the_deadline() -> None:
    """Each byte comes well within the socket's timeout; the whole answer
    never does: the request ends at its deadline, said in words."""
    headers = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"
    with raw_server(_one_byte_at_a_time(headers, 0.02)) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/round.pgn", timeout_s=0.5)
        began = time.monotonic()
        with pytest.raises(SourceDown, match=r"no whole answer within 0\.5 s"):
            source.read()
        took = time.monotonic() - began
    assert took < 3.0, took  # the deadline plus a margin, not the ~8 s the host would take


def test_a_body_sent_slowly_is_cut_at_the_deadline_with_its_whole_lines() -> None:
    body = pgn("A", "B", FOOLS_MATE, "0-1").encode() + b"; more\n" * 200
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)

    def talk(conn: socket.socket) -> None:
        conn.sendall(head + body[:200])
        for i in range(200, len(body)):  # bounded
            conn.sendall(body[i : i + 1])
            time.sleep(0.02)

    with raw_server(talk) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/round.pgn", timeout_s=0.6)
        began = time.monotonic()
        text = source.read()
        took = time.monotonic() - began
    assert took < 3.0, took
    assert text is not None and text.startswith('[White "A"]') and text.endswith("\n")
    assert source.cut is not None and "still sending" in source.cut


def test_a_host_that_answers_in_time_is_read_whole() -> None:
    body = pgn("A", "B", FOOLS_MATE, "0-1").encode()
    with http_server(lambda h: send(h, body)) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/round.pgn", timeout_s=5)
        assert source.read() == body.decode() and source.cut is None


# -- URLs ----------------------------------------------------------------------------
def test_a_non_ascii_path_is_sent_percent_encoded() -> None:
    asked: list[str] = []
    body = pgn("A", "B", "e4").encode()

    def answer(handler: BaseHTTPRequestHandler) -> None:
        asked.append(handler.path)
        send(handler, body)

    with http_server(answer) as port:
        source = open_source(f"http://127.0.0.1:{port}/ronde/é 1.pgn".replace(" ", "%20") + "?tour=è")
        assert source.read() == body.decode()
    assert asked == ["/ronde/%C3%A9%201.pgn?tour=%C3%A8"]


@pytest.mark.parametrize(
    ("url", "encoded"),
    [
        ("http://example.org/a%20b.pgn", "http://example.org/a%20b.pgn"),  # already encoded: kept
        ("HTTPS://Example.org:8443/r.pgn", "https://example.org:8443/r.pgn"),
        ("http://bücher.example/r.pgn", "http://xn--bcher-kva.example/r.pgn"),
        ("http://[::1]:8080/r.pgn", "http://[::1]:8080/r.pgn"),
    ],
)
def test_urls_are_encoded_for_the_request_line(url: str, encoded: str) -> None:
    assert encode_url(url) == encoded


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/a b.pgn",
        "http://127.0.0.1/a\nb",
        "http:///r.pgn",
        "http://127.0.0.1:99999/r.pgn",
        "http://a..b/",
    ],
)
def test_a_url_that_cannot_be_encoded_is_refused_in_words(url: str) -> None:
    with pytest.raises(BadRequestError):
        open_source(url)


def test_the_cli_refuses_a_bad_url_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "watch", "http://127.0.0.1/a b.pgn"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=PATIENCE,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "space" in done.stderr


def test_an_unreachable_host_is_said_not_raised() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    with pytest.raises(SourceDown):
        HttpSource(f"http://127.0.0.1:{port}/r.pgn", timeout_s=2).read()


# -- compressed bodies ---------------------------------------------------------------------
PGN = pgn("A", "B", FOOLS_MATE, "0-1")


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        # mtime=0: the same bytes in every process (pytest-xdist's workers must collect the same tests)
        (gzip.compress(PGN.encode(), mtime=0), {"Content-Encoding": "gzip"}),
        (gzip.compress(PGN.encode(), mtime=0), {}),  # a .pgn.gz served as it is
        (zlib.compress(PGN.encode()), {"Content-Encoding": "deflate"}),
        (zlib.compress(PGN.encode())[2:-4], {"Content-Encoding": "deflate"}),  # raw deflate
    ],
    ids=["gzip", "gzip-file", "zlib", "raw-deflate"],
)
def test_a_compressed_body_it_did_not_ask_for_is_decoded(body: bytes, headers: dict[str, str]) -> None:
    with http_server(lambda h: send(h, body, **headers)) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/r.pgn")
        assert source.read() == PGN and source.cut is None


@pytest.mark.parametrize(
    ("body", "headers", "named"),
    [
        (b"\x28\xb5\x2f\xfd" + b"\x00" * 40, {}, "zstd"),
        (b"BZh91AY&SY" + b"\x00" * 40, {}, "bzip2"),
        (PGN.encode(), {"Content-Encoding": "br"}, "br"),
        (b"not gzip at all", {"Content-Encoding": "gzip"}, "gzip"),
    ],
    ids=["zstd", "bzip2", "br", "bad-gzip"],
)
def test_a_compressed_body_it_cannot_read_is_refused_never_read_as_pgn(
    body: bytes, headers: dict[str, str], named: str
) -> None:
    with http_server(lambda h: send(h, body, **headers)) as port:
        with pytest.raises(SourceDown, match=named):
            HttpSource(f"http://127.0.0.1:{port}/r.pgn").read()


def test_a_cut_gzip_body_keeps_its_whole_lines_and_says_it_is_cut() -> None:
    whole = gzip.compress((PGN * 50).encode())
    with http_server(lambda h: send(h, whole[: len(whole) // 2], Content_Encoding="gzip")) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/r.pgn")
        text = source.read()
    assert text is not None and text.endswith("\n") and (PGN * 50).startswith(text)
    assert source.cut is not None and "ends early" in source.cut


def test_a_gzip_bomb_is_cut_at_the_limit() -> None:
    bomb = gzip.compress(b"; padding\n" * 2_000_000)  # 20 MB of text, 20 KB sent
    with http_server(lambda h: send(h, bomb, Content_Encoding="gzip")) as port:
        source = HttpSource(f"http://127.0.0.1:{port}/r.pgn", limit=100_000)
        text = source.read()
    assert text is not None and len(text) <= 100_000
    assert source.cut is not None and "limit" in source.cut


# -- a game cut by --max-mb ------------------------------------------------------------------
def moves_a_line(moves: str, result: str, **tags: str) -> str:
    """A game whose moves are each on a line: a cut can fall between them."""
    text = pgn("C", "D", "", result, **tags)
    head, _ = text.split("\n\n", 1)
    return head + "\n\n" + "\n".join(moves.split()) + f"\n{result}\n\n"


def test_a_game_cut_by_the_size_limit_is_said_cut_never_ended(tmp_path: Path) -> None:
    first = pgn("A", "B", FOOLS_MATE, "0-1")
    second = moves_a_line(FOOLS_MATE, "0-1")
    path = tmp_path / "round.pgn"
    path.write_text(first + second)
    limit = len((first + second).encode()) - len("Qh4#\n0-1\n\n") + 2  # within the last move's line
    source = FileSource(str(path), limit=limit)
    tracker = Tracker()
    text = source.read()
    assert text is not None and source.cut is not None
    events = tracker.update(text, source.cut)
    second_events = [e for e in events if e["game"] == 2]
    assert [e["kind"] for e in events if e["game"] == 1][-1] == "ended"
    assert "ended" not in [e["kind"] for e in second_events]
    said = [e for e in second_events if e["kind"] == "error"]
    assert len(said) == 1 and said[0]["code"] == SOURCE_CUT and "cut" in said[0]["reason"] and said[0]["ply"] == 3
    # the whole text later: the game is ended, once, with its verdict
    later = tracker.update(first + second)
    assert [(e["game"], e["kind"]) for e in later] == [(2, "automatic"), (2, "ended")]


def test_a_game_ended_before_a_cut_is_not_taken_back_by_it() -> None:
    """The same complete game last in a cut text: its result stands."""
    first = pgn("A", "B", FOOLS_MATE, "0-1")
    tracker = Tracker()
    assert [e["kind"] for e in tracker.update(first)][-1] == "ended"
    assert tracker.update(first, "larger than the limit") == []


def test_the_cli_says_a_cut_game_as_cut(tmp_path: Path, watch: Callable[..., Watch]) -> None:
    """The CLI hands the source's cut to the tracker: the game, its Result
    tag read but its moves cut after ply 2, is an ``error`` of code source_cut."""
    limit = int(0.001 * (1 << 20))  # --max-mb 0.001, the least it takes
    short = moves_a_line(FOOLS_MATE, "0-1", Event="")
    before = short.index("g4\n")  # the text up to and with e5's line
    game = moves_a_line(FOOLS_MATE, "0-1", Event="x" * (limit - 2 - before))
    assert game.index("g4\n") == limit - 2 and len(game) > limit
    path = tmp_path / "round.pgn"
    path.write_text(game)
    w = watch(str(path), "--interval", "0.2", "--max-mb", "0.001", "--no-readable")
    said = w.until(lambda e: e["kind"] in ("error", "ended"))
    assert said["kind"] == "error" and said["code"] == SOURCE_CUT and said["ply"] == 2
    assert w.interrupt() == 0
    assert all(e["kind"] != "ended" for e in w.events)


def test_https_is_read_through_the_same_deadline(tmp_path: Path) -> None:
    """An https host that stalls after its handshake ends at the deadline,
    in words (a loopback server with a certificate made for the test)."""
    import ssl

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        capture_output=True,
        timeout=PATIENCE,
    )
    if made.returncode != 0:
        pytest.skip("openssl cannot make a test certificate here")
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(cert, key)
    headers = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"

    def talk(conn: socket.socket) -> None:
        with server_side.wrap_socket(conn, server_side=True) as tls:
            tls.recv(65536)
            for i in range(len(headers)):  # bounded
                tls.sendall(headers[i : i + 1])
                time.sleep(0.02)

    with raw_server(talk, read_first=False) as port:
        url = f"https://127.0.0.1:{port}/round.pgn"
        with pytest.raises(SourceDown, match="certificate"):
            HttpSource(url, timeout_s=5).read()  # Python's default: the certificate is checked
        trusting = HttpSource(url, timeout_s=0.5, context=ssl.create_default_context(cafile=str(cert)))
        began = time.monotonic()
        with pytest.raises(SourceDown, match=r"no whole answer within 0\.5 s"):
            trusting.read()
        assert time.monotonic() - began < 3.0
