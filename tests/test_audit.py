"""``pychessdraw audit`` on a real two-worker Dask LocalCluster over loopback:
the dataset equals the sequential scan whatever the chunking, a worker killed
mid-run changes nothing, a second run resumes, multi-frame zstd is cut by
frames, and a corrupt chunk is reported while the rest completes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import pyarrow.parquet as pq
    import zstandard  # noqa: F401
    from dask.distributed import Client
except ImportError:
    pytest.skip('the audit tests need the audit extra: pip install "pychessdraw[audit]"', allow_module_level=True)

from pgn_samples import pzstd_bytes, random_games

pytestmark = pytest.mark.slow  # Dask clusters and subprocesses: left out by `make test-quick`
from pychessdraw.batch.audit.chunks import PLAIN, ZSTD, plan
from pychessdraw.batch.audit.run import MANIFEST, local_cluster, run_audit
from pychessdraw.batch.audit.schema import row
from pychessdraw.records.scan import scan
from pychessdraw.rules.dead import STATIC

ROOT = Path(__file__).resolve().parents[1]
TEXT = random_games(160, seed=3)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = local_cluster(2, host="127.0.0.1")  # the cluster ``audit`` makes, on loopback
    with Client(cluster) as c:
        yield c
    cluster.close()


def _worker_setup(dask_worker: Any) -> tuple[bool, int]:
    import dask

    return dask.config.get("distributed.worker.profile.enabled"), dask_worker.state.nthreads


def test_the_audit_cluster_has_one_thread_a_worker_and_no_profiler(client: Client) -> None:
    # The statistical profiler samples each task's stack every 10 ms (2% of a one-worker audit).
    assert list(client.run(_worker_setup).values()) == [(False, 1), (False, 1)]


@pytest.fixture(scope="module")
def pgn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("in") / "games.pgn"
    path.write_text(TEXT)
    return path


def sequential(path: Path) -> list[dict[str, Any]]:
    """The rows the sequential scan gives (the chunk column aside)."""
    with open(path, encoding="utf-8") as handle:
        rows = [row(r, str(path), 0) for r in scan(handle, final_search=STATIC)]
    for r in rows:
        del r["chunk"]
    return rows


def dataset(out: Path) -> list[dict[str, Any]]:
    rows = pq.read_table(out).to_pylist()
    rows.sort(key=lambda r: (r["file"], r["game"]))
    for r in rows:
        del r["chunk"]
    return rows


def audit(client: Client, inputs: list[Path], out: Path, chunk_bytes: int, **options: Any) -> dict[str, Any]:
    return run_audit(
        [str(p) for p in inputs], str(out), client=client, search="static", chunk_bytes=chunk_bytes, **options
    )


@pytest.mark.parametrize("chunk_bytes", [1 << 30, len(TEXT) // 2 + 1, 2_000])
def test_dataset_equals_the_sequential_scan(client: Client, pgn: Path, tmp_path: Path, chunk_bytes: int) -> None:
    chunks = plan(str(pgn), chunk_bytes)
    assert all(c.kind == PLAIN for c in chunks)
    assert len(chunks) == {1 << 30: 1, len(TEXT) // 2 + 1: 2}.get(chunk_bytes, len(chunks))
    summary = audit(client, [pgn], tmp_path / "out", chunk_bytes)
    expected = sequential(pgn)
    assert dataset(tmp_path / "out") == [dict(r, file=str(pgn.resolve())) for r in expected]
    assert summary["games"] == 160 and summary["chunks_done"] == len(chunks)
    assert summary["verdicts"]["error"] == 1  # game 7: an illegal move, reported in its row
    bad = [r for r in expected if r["verdict"] == "error"]
    assert bad[0]["game"] == 7 and bad[0]["error"]["code"] == "invalid_move"  # "Ke9"
    if chunk_bytes == 2_000:
        assert len(chunks) > 20


def test_zstd_frames_are_chunks_and_games_cross_frames(client: Client, pgn: Path, tmp_path: Path) -> None:
    zst = tmp_path / "games.pgn.zst"
    zst.write_bytes(pzstd_bytes(TEXT.encode(), 1_500))  # frames cut games anywhere
    chunks = plan(str(zst), 3_000)
    assert len(chunks) > 10 and all(c.kind == ZSTD for c in chunks)
    audit(client, [zst], tmp_path / "out", 3_000)
    expected = sequential(pgn)
    assert dataset(tmp_path / "out") == [dict(r, file=str(zst.resolve())) for r in expected]


def test_resume_skips_finished_chunks(client: Client, pgn: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = audit(client, [pgn], out, 8_000)
    parts = sorted(out.glob("*.parquet"))
    stamps = {p: p.stat().st_mtime_ns for p in parts}
    parts[2].unlink()  # as if the run had stopped before this chunk
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["chunks"][2]["status"] = "pending"
    (out / MANIFEST).write_text(json.dumps(manifest))
    second = audit(client, [pgn], out, 8_000)
    assert second == first
    assert all(p.stat().st_mtime_ns == stamps[p] for p in parts if p != parts[2])  # not redone
    assert parts[2].exists()
    with pytest.raises(Exception, match="other inputs or options"):
        audit(client, [pgn], out, 9_000)


def test_a_worker_killed_mid_run_changes_nothing(client: Client, pgn: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    big.write_text(TEXT * 4)
    calm = audit(client, [big], tmp_path / "calm", 4_000)
    out = tmp_path / "killed"
    killed: list[int] = []

    def kill_one_worker_after_the_first_chunk() -> None:
        manifest = out / MANIFEST
        deadline = time.time() + 60
        while time.time() < deadline:
            if manifest.exists() and '"done"' in manifest.read_text():
                pids = client.run(os.getpid)
                pid = sorted(pids.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_worker_after_the_first_chunk)
    killer.start()
    stormy = audit(client, [big], out, 4_000)
    killer.join()
    assert killed, "the run ended before a worker could be killed"
    assert stormy == calm
    assert dataset(out) == [dict(r, file=r["file"]) for r in dataset(tmp_path / "calm")]
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it


def test_corrupt_chunk_is_reported_and_the_rest_completes(client: Client, tmp_path: Path) -> None:
    data = bytearray(pzstd_bytes(TEXT.encode(), 4_000))
    zst = tmp_path / "games.pgn.zst"
    zst.write_bytes(bytes(data))
    chunks = plan(str(zst), 1)
    middle = chunks[len(chunks) // 2]
    for i in range(middle.start + 20, middle.start + 60):
        data[i] ^= 0x5A  # garble the frame's compressed bytes
    zst.write_bytes(bytes(data))
    summary = audit(client, [zst], tmp_path / "out", 1)
    assert summary["chunks"] == len(chunks)
    assert 1 <= len(summary["errors"]) <= 2  # the garbled frame's chunk (and the one reading on into it)
    assert "corrupt or truncated data" in summary["errors"][0]  # the games before it kept, the fault said
    assert summary["chunks_done"] >= len(chunks) - 2 and summary["games"] > 100


def test_cli_audit_prints_the_summary_and_counts_auto_search(pgn: Path, tmp_path: Path) -> None:
    small = tmp_path / "small.pgn"
    small.write_text(random_games(20, seed=9))
    done = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "audit", str(small), "--out", str(tmp_path / "o"), "--workers", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr  # game 7 is broken
    assert "20 games" in done.stdout and "error 1" in done.stdout
    with open(small, encoding="utf-8") as handle:
        expected = [row(r, str(small.resolve()), 0) for r in scan(handle)]
    got = pq.read_table(tmp_path / "o").to_pylist()
    assert [(r["game"], r["verdict"], r["time_forfeit"]) for r in got] == [
        (r["game"], r["verdict"], r["time_forfeit"]) for r in expected
    ]


def test_cli_audit_without_the_extra_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.distributed'] = None\n"
        "from pychessdraw.batch.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "audit", "x.pgn", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1
    assert 'pip install "pychessdraw[audit]"' in done.stderr
