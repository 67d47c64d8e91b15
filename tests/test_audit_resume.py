"""``pychessdraw audit`` against a changed input, a full disk and an
unreachable scheduler; the default chunk size.

A resume against an input changed since the run began (games appended after
a finished run, prepended after a killed one, a same-size rewrite) is
refused naming the file, and nothing in the output changes. An output that
cannot be written mid-run stops the run with a ``file_error``, leaves no
temporary file, and a later resume gives the undisturbed run's dataset.

The cluster here runs its worker as a thread of the test process, so that a
monkeypatched writer is the one the worker calls.
"""

from __future__ import annotations

import errno
import json
import os
import random
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_cli_faults import cli_command

try:
    import pyarrow.parquet  # noqa: F401
    import zstandard  # noqa: F401
    from dask.distributed import Client, LocalCluster
except ImportError:
    pytest.skip('the audit tests need the audit extra: pip install "pychessdraw[audit]"', allow_module_level=True)

from pgn_samples import pzstd_bytes, random_games
from test_audit import dataset, sequential

from pychessdraw.batch import cli
from pychessdraw.batch.audit import run, work
from pychessdraw.batch.audit.chunks import PLAIN, ZSTD, plan, zstd_frames
from pychessdraw.batch.audit.run import MANIFEST, MAX_CHUNK, MIN_CHUNK, default_chunk_bytes, run_audit
from pychessdraw.errors import BadRequestError, FileError

pytestmark = pytest.mark.slow  # a Dask cluster: left out by `make test-quick`

ROOT = Path(__file__).resolve().parents[1]
TEXT = random_games(60, seed=5)
CHUNK = 1 << 12  # 0.00390625 MB: the same size from the command line
EXTRA = '[Event "Extra"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    with Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture
def pgn(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    path.write_text(TEXT)
    return path


def audit(client: Client, path: Path, out: Path, chunk_bytes: int | None = CHUNK) -> dict[str, Any]:
    return run_audit([str(path)], str(out), client=client, search="static", chunk_bytes=chunk_bytes)


def snapshot(out: Path) -> dict[str, bytes]:
    """Every file of the output directory, hidden ones included."""
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def kill_after(out: Path, done: int) -> None:
    """Make ``out`` look like a run killed after ``done`` chunks."""
    manifest = json.loads((out / MANIFEST).read_text())
    for entry in manifest["chunks"][done:]:
        entry["status"], entry["summary"] = "pending", None
        (out / entry["output"]).unlink()
    (out / MANIFEST).write_text(json.dumps(manifest))


def refused(client: Client, path: Path, out: Path, why: str) -> None:
    before = snapshot(out)
    with pytest.raises(FileError, match=why) as caught:
        audit(client, path, out)
    assert caught.value.code == "file_error"
    assert str(path) in caught.value.message and caught.value.details["file"] == str(path)
    assert snapshot(out) == before  # not a row, not a byte of the manifest, changed


def test_games_appended_after_a_finished_run_are_refused(client: Client, pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = audit(client, pgn, out)
    assert first["games"] == 60
    with open(pgn, "a", encoding="utf-8") as handle:
        handle.write(EXTRA)
    refused(client, pgn, out, "size was")
    # The command line says so too, and exits 1 (before any cluster starts).
    done = subprocess.run(
        cli_command("audit", str(pgn), "--out", str(out), "--search", "static", "--chunk-mb", str(CHUNK / (1 << 20))),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert f"file_error: {pgn} changed since the audit" in done.stderr and "Traceback" not in done.stderr


def test_games_prepended_after_a_killed_run_are_refused(client: Client, pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    audit(client, pgn, out)
    kill_after(out, 3)
    pgn.write_text(EXTRA + TEXT)
    refused(client, pgn, out, "size was")


def test_a_same_size_rewrite_is_refused_whatever_its_mtime(client: Client, pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = audit(client, pgn, out)
    kill_after(out, 2)
    old = pgn.stat()
    at = TEXT.index('[Result "1-0"]')
    pgn.write_text(TEXT[:at] + '[Result "0-1"]' + TEXT[at + 14 :])  # the same size, another result
    os.utime(pgn, ns=(old.st_atime_ns, old.st_mtime_ns + 10**9))
    refused(client, pgn, out, "its content differs .same size, a new modification time")
    os.utime(pgn, ns=(old.st_atime_ns, old.st_mtime_ns))  # as a copy keeping times would
    refused(client, pgn, out, "its content differs .same size, the same modification time")
    # The old bytes again, with a new time: the same input, so the run resumes.
    pgn.write_text(TEXT)
    os.utime(pgn, ns=(old.st_atime_ns, old.st_mtime_ns + 2 * 10**9))
    assert audit(client, pgn, out) == first
    assert dataset(out) == [dict(r, file=str(pgn)) for r in sequential(pgn)]


class _FullDisk:
    """``write`` of the real writer for ``allowed`` calls, then: some bytes
    written, and ENOSPC, as a disk filling up mid-write."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed

    def fail(self, path: str) -> None:
        if self.allowed <= 0:
            with open(path, "wb") as handle:
                handle.write(b"PAR1 half a file")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        self.allowed -= 1


def full_parquet_writer(allowed: int) -> Any:
    disk = _FullDisk(allowed)

    class Parquet:
        @staticmethod
        def write_table(table: Any, path: str) -> None:
            disk.fail(path)
            pyarrow.parquet.write_table(table, path)

    return Parquet


def full_manifest_writer(allowed: int) -> Any:
    disk = _FullDisk(allowed)

    def fake_open(path: str, mode: str = "r", **options: Any) -> Any:
        if "w" in mode and os.path.basename(path).startswith(f".{MANIFEST}.tmp-"):
            disk.fail(path)
        return open(path, mode, **options)

    return fake_open


def hidden(out: Path) -> list[str]:
    return [p.name for p in out.iterdir() if p.name.startswith(".")]


def left_hidden(out: Path, patience: float = 30.0) -> list[str]:
    """The hidden files still there once the writes in flight are over: a
    stopped run cancels its chunks, but a chunk already running in a worker
    thread of this in-process cluster finishes its Parquet file (a temporary
    file renamed when complete) after the run has returned."""
    end = time.monotonic() + patience
    while (found := hidden(out)) and time.monotonic() < end:
        time.sleep(0.05)
    return found


@pytest.mark.parametrize("where", ["parquet", "manifest"])
def test_a_full_disk_mid_run_is_a_clear_error_and_a_resume_completes(
    client: Client, pgn: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    calm = audit(client, pgn, tmp_path / "calm")
    out = tmp_path / "out"
    if where == "parquet":
        monkeypatch.setattr(work, "pq", full_parquet_writer(3))
    else:
        monkeypatch.setattr(run, "open", full_manifest_writer(4), raising=False)
    with pytest.raises(FileError, match="No space left on device") as caught:
        audit(client, pgn, out)
    assert caught.value.code == "file_error"
    assert left_hidden(out) == []  # no ._manifest.json.tmp-*, no .part-*.tmp-*
    manifest = json.loads((out / MANIFEST).read_text())
    assert 0 < sum(e["status"] == "done" for e in manifest["chunks"]) < len(manifest["chunks"])
    monkeypatch.undo()
    assert audit(client, pgn, out) == calm
    assert dataset(out) == dataset(tmp_path / "calm")
    assert hidden(out) == []


def test_cli_on_an_unwritable_output_says_so_and_exits_1(
    pgn: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(run, "open", full_manifest_writer(0), raising=False)
    out = tmp_path / "out"
    assert cli.main(["audit", str(pgn), "--out", str(out), "--workers", "1"]) == 1
    assert f"pychessdraw: file_error: cannot write {out / MANIFEST}: No space left on device" in capsys.readouterr().err
    assert hidden(out) == []


def test_cli_with_a_scheduler_nobody_listens_on_says_so_and_exits_1(pgn: Path, tmp_path: Path) -> None:
    with socket.socket() as probe:  # a free port, closed again: nobody listens on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run(
        cli_command("audit", str(pgn), "--out", str(tmp_path / "o"), "--scheduler", f"tcp://127.0.0.1:{port}"),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1
    assert f"bad_request: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


# -- the default chunk size --------------------------------------------------
def test_default_chunk_size_is_bounded() -> None:
    assert default_chunk_bytes(1_000, 2) == MIN_CHUNK
    assert default_chunk_bytes(10**12, 2) == MAX_CHUNK
    assert default_chunk_bytes(80 << 20, 2) == 10 << 20  # 4 chunks a worker


def test_a_7_7_mb_file_gives_two_workers_several_chunks(tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    big.write_text(TEXT * (7_700_000 // len(TEXT) + 1))
    chunks = plan(str(big), default_chunk_bytes(big.stat().st_size, 2))
    assert all(c.kind == PLAIN for c in chunks) and len(chunks) >= 2 * 3
    # pzstd: chunks are runs of frames. Bytes that do not compress, for a
    # 7.7 MB file (the plan reads only the frames' headers).
    noise = random.Random(1).randbytes(7_700_000)
    zst = tmp_path / "big.pgn.zst"
    zst.write_bytes(pzstd_bytes(noise, 1 << 20))
    with open(zst, "rb") as handle:
        frames = zstd_frames(handle, zst.stat().st_size)
    assert frames is not None and len(frames) == 8 and zst.stat().st_size > 7_700_000
    chunks = plan(str(zst), default_chunk_bytes(zst.stat().st_size, 2))
    assert all(c.kind == ZSTD for c in chunks) and len(chunks) >= 2 * 2
    assert len(plan(str(zst), default_chunk_bytes(zst.stat().st_size, 8))) == 8  # as many as frames allow


def test_the_lichess_sample_gives_each_worker_chunks(shared: Any) -> None:
    path = str(shared("corpus", "lichess-dev.pgn.zst"))
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        frames = zstd_frames(handle, size)
    assert frames is not None
    # 9 frames of about 2.5 MB: 4 chunks a worker is 2.8 MB, so a chunk closes
    # at the frame nearest that size (one frame each), not at 2 frames past it
    assert len(plan(path, default_chunk_bytes(size, 2))) >= min(len(frames), 2 * run.CHUNKS_PER_WORKER)
    assert len(plan(path, default_chunk_bytes(size, 8))) == len(frames)  # as many as frames allow


def test_run_audit_chooses_the_chunks_and_a_resume_keeps_them(
    client: Client, pgn: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "MIN_CHUNK", 4_000)  # the bound for real archives would make one chunk here
    out = tmp_path / "out"
    first = audit(client, pgn, out, None)
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["options"]["chunk_bytes"] is None
    assert manifest["chunk_bytes"] == len(TEXT) // 4  # one worker, 4 chunks
    assert 4 <= first["chunks"] <= 5
    monkeypatch.setattr(run, "MIN_CHUNK", 1_000)  # another choice now: the resume keeps the plan
    kill_after(out, 1)
    assert audit(client, pgn, out, None) == first
    assert dataset(out) == [dict(r, file=str(pgn)) for r in sequential(pgn)]


# -- inputs that are not what was planned --------------------------------------
def test_a_chunk_whose_file_changed_during_the_run_is_not_read(pgn: Path, tmp_path: Path) -> None:
    chunk = plan(str(pgn), CHUNK)[0].to_dict()
    planned = run.fingerprint(str(pgn))
    target = tmp_path / "part.parquet"
    grown = dict(planned, size=planned["size"] - len(EXTRA))  # as if games were appended since
    summary = work.audit_chunk(chunk, 1, str(target), "static", "fide", grown)
    assert summary["status"] == "error" and "changed during the audit" in summary["error"]
    assert not target.exists()
    later = dict(planned, mtime_ns=planned["mtime_ns"] + 5 * 10**9)  # rewritten since, same size
    assert "changed during the audit" in work.audit_chunk(chunk, 1, str(target), "static", "fide", later)["error"]
    assert not target.exists()
    assert work.audit_chunk(chunk, 1, str(target), "static", "fide", planned)["status"] == "done"
    assert target.exists()


def test_an_input_that_is_not_a_regular_file_is_reported(client: Client, tmp_path: Path) -> None:
    summary = run_audit([os.devnull], str(tmp_path / "out"), client=client, search="static")
    assert summary["errors"] == [f"{os.devnull} is not a regular file (audit workers read files by byte ranges)"]
    assert summary["chunks"] == 0


def test_an_output_that_is_a_file_is_a_file_error(pgn: Path) -> None:
    with pytest.raises(FileError, match=f"cannot make the output directory {pgn}") as caught:
        run_audit([str(pgn)], str(pgn), workers=1)
    assert caught.value.code == "file_error"
    assert pgn.read_text() == TEXT


def test_a_manifest_without_fingerprints_is_not_resumed(pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    options = {"inputs": [str(pgn)], "search": "static", "flag_rules": "fide", "chunk_bytes": CHUNK}
    old = {"version": 1, "options": options, "chunks": [], "file_errors": []}  # before fingerprints
    (out / MANIFEST).write_text(json.dumps(old))
    with pytest.raises(BadRequestError, match="another version of pychessdraw"):
        run_audit([str(pgn)], str(out), workers=1, search="static", chunk_bytes=CHUNK)
    assert json.loads((out / MANIFEST).read_text()) == old
