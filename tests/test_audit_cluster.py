"""``pychessdraw audit --scheduler`` on a real cluster: a scheduler and two
workers started as separate processes by the ``dask`` command-line tools
(loopback only), as a user starts their own; one worker SIGKILLed mid-run;
the dataset equals an undisturbed run's and the sequential scan's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli_faults import cli_command

try:
    import pyarrow.parquet  # noqa: F401
    from dask.distributed import Client
except ImportError:
    pytest.skip('the audit tests need the audit extra: pip install "pychessdraw[audit]"', allow_module_level=True)

from pgn_samples import random_games
from test_audit import dataset, sequential

pytestmark = pytest.mark.slow  # three Dask processes and two audits: ~30 s on 2 cores

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
}  # as the audit's own LocalCluster
START = 60  # seconds for the cluster to come up on a busy machine (a guard, not a measure)


def dask_command(*args: str) -> list[str]:
    """``dask ARGS``: the script beside this Python, or its module."""
    script = BIN / "dask"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "dask", *args]


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


class Cluster:
    """A scheduler and its workers, each its own process; ``address`` from
    the scheduler file (the port is chosen by the system)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.address = ""

    def spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")
        process = subprocess.Popen(dask_command(*args), stdout=log, stderr=subprocess.STDOUT, env=ENV, cwd=ROOT)
        log.close()  # the child holds its own copy
        self.processes.append(process)
        return process

    def _address(self) -> str:
        """The scheduler's address from its file, or "" while it is not all written."""
        try:
            return str(json.loads(self.file.read_text())["address"])
        except (OSError, ValueError, KeyError):
            return ""

    def start(self, workers: int) -> None:
        self.spawn(
            "scheduler",
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(self.file),
        )
        deadline = time.monotonic() + START
        # the scheduler creates the file before it writes it: wait for the whole JSON
        while not self._address() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.address = self._address()
        assert self.address.startswith("tcp://127.0.0.1:")
        for i in range(workers):  # no nanny: the process killed is the worker, and nothing restarts it
            self.workers.append(
                self.spawn(
                    f"worker-{i}",
                    "worker",
                    "--scheduler-file",
                    str(self.file),
                    "--host",
                    "127.0.0.1",
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                )
            )
        with Client(self.address, timeout=START) as client:
            client.wait_for_workers(workers, timeout=START)
            pids = set(client.run(os.getpid).values())
        assert pids == {w.pid for w in self.workers}  # each worker is the process started

    def close(self) -> None:
        for process in reversed(self.processes):
            stop(process)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(tmp_path)
    try:
        running.start(2)
        yield running
    finally:
        running.close()


def audit(pgn: Path, out: Path, address: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cli_command(
            "audit",
            str(pgn),
            "--out",
            str(out),
            "--scheduler",
            address,
            "--search",
            "static",
            "--chunk-mb",
            "0.02",
            "--no-progress",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=300)
    finally:
        stop(process)  # type: ignore[arg-type]
    return process.returncode, out, err


def test_a_worker_killed_mid_run_on_a_real_cluster_changes_nothing(cluster: Cluster, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text(random_games(120, seed=11) * 8)  # ~500 KB: ~25 chunks of 20 KB
    code, calm_out, calm_err = finish(audit(pgn, tmp_path / "calm", cluster.address))
    assert code == 1 and "Traceback" not in calm_err  # exit 1: the record with an illegal move
    assert dataset(tmp_path / "calm") == [dict(r, file=str(pgn)) for r in sequential(pgn)]

    out = tmp_path / "killed"
    running = audit(pgn, out, cluster.address)
    killed, parts = False, 0
    try:
        while running.poll() is None:
            parts = len(list(out.glob("part-*.parquet"))) if out.exists() else 0
            if parts:  # mid-run: a chunk done, others to do
                os.kill(cluster.workers[0].pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.01)
    finally:
        code, stormy_out, stormy_err = finish(running)
    assert killed and cluster.workers[0].wait(10) == -signal.SIGKILL, "the run ended before a worker was killed"
    assert code == 1 and "Traceback" not in stormy_err, stormy_err
    assert stormy_out == calm_out  # the same summary
    manifest = json.loads((out / "_manifest.json").read_text())
    assert len(manifest["chunks"]) > 10 and all(e["status"] == "done" for e in manifest["chunks"])
    assert parts < len(manifest["chunks"]) // 2  # the kill landed early in the run
    assert dataset(out) == dataset(tmp_path / "calm")
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # the killed writer's temporary swept
