"""Inputs of scan (and audit): plain, gzip and multi-frame zstd files,
directories, standard input, and broken compressed data."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pgn_samples import pzstd_bytes, random_games

from pychessdraw.batch.inputs import compression_of, expand, open_text

ROOT = Path(__file__).resolve().parents[1]
TEXT = random_games(12, seed=5)


def scan_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "--search", "static", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def reports(out: bytes) -> list[dict]:
    rows = [json.loads(line) for line in out.decode().splitlines()]
    for row in rows:
        row.pop("file", None)
    return rows


@pytest.fixture(scope="module")
def plain_reports(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    path = tmp_path_factory.mktemp("plain") / "games.pgn"
    path.write_text(TEXT)
    done = scan_cli(str(path))
    rows = reports(done.stdout)
    assert len(rows) == 12 and done.returncode == 1  # game 7 has an illegal move
    return rows


def test_gzip_file_is_read_as_pgn(tmp_path: Path, plain_reports: list[dict]) -> None:
    path = tmp_path / "games.pgn.gz"
    path.write_bytes(gzip.compress(TEXT.encode()))
    assert reports(scan_cli(str(path)).stdout) == plain_reports


def test_zstd_multi_frame_file_is_read_across_frames(tmp_path: Path, plain_reports: list[dict]) -> None:
    pytest.importorskip("zstandard", reason='needs the audit extra: pip install "pychessdraw[audit]"')
    data = pzstd_bytes(TEXT.encode(), 1000)
    assert data.count(b"\x50\x2a\x4d\x18") > 5  # many frames
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(data)
    assert reports(scan_cli(str(path)).stdout) == plain_reports


def test_compression_is_recognised_by_content_also_on_standard_input(plain_reports: list[dict]) -> None:
    done = scan_cli("-", stdin=gzip.compress(TEXT.encode()))
    assert reports(done.stdout) == plain_reports
    assert compression_of(b"\x1f\x8b\x08\x00") == "gzip"
    assert compression_of(b"[Eve") == "plain"


def test_directory_expands_to_its_pgn_files_in_order(tmp_path: Path, plain_reports: list[dict]) -> None:
    (tmp_path / "b").mkdir()
    half = TEXT.index('[Event "Test 6"]')
    (tmp_path / "a.pgn").write_text(TEXT[:half])
    (tmp_path / "b" / "c.pgn.gz").write_bytes(gzip.compress(TEXT[half:].encode()))
    (tmp_path / "notes.txt").write_text("not a game")
    names = list(expand([str(tmp_path)]))
    assert [Path(n).name for n in names] == ["a.pgn", "c.pgn.gz"]
    done = scan_cli(str(tmp_path))
    rows = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [Path(r["file"]).name for r in rows] == ["a.pgn"] * 5 + ["c.pgn.gz"] * 7
    for row in rows:
        row.pop("file")
    assert rows == plain_reports


def test_corrupt_gzip_reports_the_file_and_keeps_the_games_before(tmp_path: Path) -> None:
    data = gzip.compress(TEXT.encode())
    path = tmp_path / "broken.pgn.gz"
    path.write_bytes(data[: len(data) // 2])  # truncated
    done = scan_cli(str(path), str(tmp_path / "missing.pgn"))
    assert done.returncode == 1
    err = done.stderr.decode()
    assert "broken.pgn.gz: corrupt or truncated data" in err and "missing.pgn" in err
    assert 0 < len(done.stdout.decode().splitlines()) < 12


def test_open_text_names_a_missing_file() -> None:
    with pytest.raises(Exception) as info:
        open_text("/nonexistent/x.pgn")
    assert getattr(info.value, "code", None) == "file_error"
