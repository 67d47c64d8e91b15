"""Every byte accounted for: a reader that ends early (a zstd frame or a
gzip member cut short) says so with the file and the offset, as an error
row and one line on standard error, exit 1, the games before it kept (in
``scan`` and in the audit's chunks); text that is not PGN (another
encoding, a web page, prose) is a ``bad_pgn`` error naming the file; a
UTF-16 file is read as what it is; a byte order mark inside a
concatenation neither makes a game nor takes a tag."""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import struct
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from pychessdraw.batch import cli
from pychessdraw.pgn import games_in_text

HAS_ZSTD = importlib.util.find_spec("zstandard") is not None
HAS_AUDIT = HAS_ZSTD and all(importlib.util.find_spec(m) is not None for m in ("pyarrow", "distributed"))


def random_games(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    games = []
    for number in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"Event {seed}-{number}"
        node: chess.pgn.GameNode = game
        for _ in range(rng.randrange(4, 50)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        games.append(str(game) + "\n\n")
    return games


def pzstd(text: bytes, frame: int) -> bytes:
    """``text`` as pzstd lays it out: each frame after a skippable frame
    holding its compressed size (the lichess database's layout)."""
    import zstandard

    out = b""
    for i in range(0, len(text), frame):
        data = zstandard.ZstdCompressor().compress(text[i : i + frame])
        out += struct.pack("<III", 0x184D2A50, 4, len(data)) + data
    return out


def scan(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[dict[str, Any]], list[str]]:
    status = cli.main(["scan", "--search", "static", "--no-progress", *map(str, paths)])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err.splitlines()


def whole_games_before(text: bytes, kept: bytes) -> int:
    """How many games of ``text`` lie whole within its first bytes ``kept``."""
    return sum(1 for g in games_in_text(kept.decode("utf-8", "replace")) if g.error is None) - 1


def check_cut(status: int, rows: list[dict[str, Any]], err: list[str], name: str, at_least: int) -> None:
    games = [r for r in rows if r["game"] is not None]
    assert status == 1
    assert sum(r["verdict"] != "error" for r in games) >= at_least  # the games before the fault stay
    fault = rows[-1]
    assert fault["game"] is None and fault["error"]["code"] == "file_error" and fault["file"] == name
    assert isinstance(fault["error"]["offset"], int)
    assert [line for line in err if line.startswith("pychessdraw: file_error:")] == [
        f"pychessdraw: file_error: {fault['error']['message']}"
    ]
    assert "Traceback" not in "\n".join(err)
    cut = games[-1] if games else None
    if cut is not None and cut["error"] is not None:
        assert cut["error"]["code"] in {"bad_pgn", "illegal_move", "invalid_move"}


@pytest.mark.skipif(not HAS_ZSTD, reason="needs zstandard (the audit extra)")
@pytest.mark.parametrize("seed", range(4))
def test_a_cut_zstd_archive_says_where_and_keeps_the_games_before(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "".join(random_games(seed, 120)).encode()
    data = pzstd(text, 3_000 + 1_000 * seed)
    cut = random.Random(seed).randrange(len(data) // 3, len(data) - 1)
    path = tmp_path / "cut.pgn.zst"
    path.write_bytes(data[:cut])
    status, rows, err = scan(capsys, path)
    check_cut(status, rows, err, str(path), 10)
    assert rows[-1]["error"]["offset"] <= cut
    whole = [r for r in rows if r["game"] is not None and r["error"] is None]
    assert len(whole) < 120  # the rest was lost, and said so


@pytest.mark.parametrize("seed", range(3))
def test_a_cut_gzip_member_says_where_and_keeps_the_games_before(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = random_games(10 + seed, 90)
    members = gzip.compress("".join(games[:30]).encode()) + gzip.compress("".join(games[30:]).encode())
    cut = random.Random(seed).randrange(len(members) // 2, len(members) - 10)
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(members[:cut])
    status, rows, err = scan(capsys, path)
    check_cut(status, rows, err, str(path), 25)


def test_a_stream_that_stops_mid_game_marks_that_game_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "".join(random_games(7, 40)).encode()
    compressed = gzip.compress(text)
    path = tmp_path / "stops.pgn.gz"
    path.write_bytes(compressed[: len(compressed) * 3 // 4])
    status, rows, err = scan(capsys, path)
    check_cut(status, rows, err, str(path), 20)
    last_game = [r for r in rows if r["game"] is not None][-1]
    assert last_game["error"] is not None and "cut" in last_game["error"]["message"]  # never judged as ended


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (
            b"<!DOCTYPE html>\n<html><head><title>Games</title></head>\n\n<body><p>1. e4 e5 Nf3</p>\n</body></html>\n",
            "web",
        ),
        (b"<?xml version='1.0'?>\n<games>\n  <game event='x'>e4 e5</game>\n</games>\n", "XML"),
        (b"Dear arbiter,\n\nthe game ended after 1. e4 when my opponent left.\n\nRegards, A. Player\n", "no tag"),
        (bytes(range(1, 256)) * 8, "no tag"),
    ],
)
def test_text_that_is_not_pgn_is_a_bad_pgn_error_naming_the_file(
    content: bytes, what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notpgn.pgn"
    path.write_bytes(content)
    status, rows, _ = scan(capsys, path)
    assert status == 1
    assert rows and all(r["verdict"] == "error" for r in rows)  # never a game judged ok
    assert rows[0]["error"]["code"] == "bad_pgn" and rows[0]["error"]["file"] == str(path)
    assert "not PGN" in rows[0]["error"]["message"] and what in rows[0]["error"]["message"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_utf16_and_utf8_with_bom_are_read_as_what_they_are(
    encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "".join(random_games(3, 12)).replace('"?"', '"Café Ölçü"', 1)
    plain, other = tmp_path / "plain.pgn", tmp_path / "other.pgn"
    plain.write_text(text, encoding="utf-8")
    other.write_bytes(text.encode(encoding))
    _, expected, _ = scan(capsys, plain)
    status, got, _ = scan(capsys, other)
    assert status == 0
    assert [(r["headers"], r["plies"]) for r in got] == [(r["headers"], r["plies"]) for r in expected]


def test_a_bom_inside_a_concatenation_makes_no_game_and_takes_no_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = random_games(5, 6)
    data = b"".join(("\ufeff" if i % 2 else "").encode() + g.encode() for i, g in enumerate(games))
    path = tmp_path / "cat.pgn"
    path.write_bytes(data)
    status, rows, _ = scan(capsys, path)
    assert status == 0
    assert [r["headers"]["Event"] for r in rows] == [f"Event 5-{i}" for i in range(6)]
    assert all(r["plies"] > 0 for r in rows)


@pytest.mark.skipif(not HAS_AUDIT, reason="needs the audit extra")
@pytest.mark.parametrize("seed", range(2))
def test_the_audit_chunks_keep_the_games_before_a_cut_frame_and_say_so(seed: int, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from pychessdraw.batch.audit.chunks import plan
    from pychessdraw.batch.audit.work import audit_chunk

    text = "".join(random_games(20 + seed, 100)).encode()
    data = pzstd(text, 4_000)
    cut = random.Random(seed).randrange(len(data) // 2, len(data) - 1)
    path = tmp_path / "cut.pgn.zst"
    path.write_bytes(data[:cut])
    chunks = plan(str(path), 1 << 30)  # one chunk: the pzstd layout cut is no longer whole
    assert len(chunks) == 1
    summary = audit_chunk(chunks[0].to_dict(), 1, str(tmp_path / "part.parquet"), "static", "fide")
    assert summary["status"] == "done" and "ends inside a frame" in summary["error"]
    rows = pq.read_table(tmp_path / "part.parquet").to_pylist()
    assert len(rows) == summary["games"] >= 20
    assert all(r["verdict"] != "error" for r in rows[:-1])
