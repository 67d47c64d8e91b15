"""Audits that survive their own start and cannot mix: a worker that dies
while the local cluster starts is started again or left out (and the run
says so); no fault of Dask reaches the user as a traceback; an output
directory is owned by one run (a second is refused, naming the first); a
file named twice is read once; an input rewritten during the run with the
same size and modification time is caught by its content."""

from __future__ import annotations

import importlib.util
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) is not None for m in ("distributed", "pyarrow", "zstandard")),
    reason="needs the audit extra",
)

GAME = '[Event "E{n}"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n'


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with Client(cluster) as made:
            yield made


def write_games(path: Path, count: int, first: int = 0) -> Path:
    path.write_text("".join(GAME.format(n=first + i) for i in range(count)))
    return path


def test_a_second_run_into_an_owned_directory_is_refused_naming_the_first(client: Any, tmp_path: Path) -> None:
    from pychessdraw.batch.audit.lock import OutputLock
    from pychessdraw.batch.audit.run import run_audit
    from pychessdraw.errors import BadRequestError

    source = write_games(tmp_path / "a.pgn", 5)
    out = tmp_path / "out"
    out.mkdir()
    with OutputLock(str(out)):
        with pytest.raises(BadRequestError) as info:
            run_audit([str(source)], str(out), client=client)
    assert f"process {os.getpid()}" in info.value.message and "another audit" in info.value.message
    assert not (out / "_manifest.json").exists()  # nothing planned, nothing written
    summary = run_audit([str(source)], str(out), client=client)  # the lock is lifted when its owner ends
    assert summary["games"] == 5
    assert run_audit([str(source)], str(out), client=client) == summary  # and after each run


def test_the_same_file_named_twice_or_by_a_link_is_read_once(client: Any, tmp_path: Path) -> None:
    from pychessdraw.batch.audit.run import run_audit

    source = write_games(tmp_path / "a.pgn", 7)
    (tmp_path / "link.pgn").symlink_to(source)
    (tmp_path / "sub").mkdir()
    names = [str(source), str(source), str(tmp_path / "link.pgn"), str(tmp_path / "sub" / ".." / "a.pgn")]
    summary = run_audit(names, str(tmp_path / "out"), client=client)
    assert summary["games"] == 7 and summary["chunks"] == 1
    other = write_games(tmp_path / "b.pgn", 3, first=100)
    assert run_audit([str(source), str(other), str(source)], str(tmp_path / "out2"), client=client)["games"] == 10


def test_an_input_rewritten_with_the_same_size_and_time_is_caught_by_its_content(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pychessdraw.batch.audit import run
    from pychessdraw.errors import FileError

    source = write_games(tmp_path / "a.pgn", 6)
    original = run._execute

    def execute_then_rewrite(*args: Any) -> None:
        original(*args)
        info = source.stat()
        text = source.read_text().replace('"E3"', '"X3"')  # same size
        source.write_text(text)
        os.utime(source, ns=(info.st_atime_ns, info.st_mtime_ns))  # same time

    monkeypatch.setattr(run, "_execute", execute_then_rewrite)
    out = tmp_path / "out"
    with pytest.raises(FileError) as info:
        run.run_audit([str(source)], str(out), client=client)
    assert "changed during the audit" in info.value.message and str(source) in info.value.message
    assert not (out / "_summary.json").exists()
    manifest = (out / "_manifest.json").read_text()
    assert '"done"' not in manifest  # its chunks go back to pending: never counted


def test_a_worker_that_dies_while_the_cluster_starts_is_started_again_then_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pychessdraw.batch.audit import run

    asked: list[int] = []

    def flaky(workers: int | None = None, **options: Any) -> str:
        asked.append(workers or 0)
        if len(asked) <= 2:
            raise RuntimeError("Nanny failed to start.")
        return f"cluster of {workers}"

    monkeypatch.setattr(run, "local_cluster", flaky)
    said = io.StringIO()
    assert run.start_local(3, said) == "cluster of 2"
    assert asked == [3, 3, 2]  # once again with all, then one left out
    lines = said.getvalue().splitlines()
    assert len(lines) == 2 and all("Nanny failed to start" in line for line in lines)
    assert "started again (3)" in lines[0] and "left out: 2 of 3" in lines[1]


def test_no_worker_at_all_is_an_error_in_our_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from pychessdraw.batch.audit import run
    from pychessdraw.errors import InternalError

    def dead(workers: int | None = None, **options: Any) -> str:
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(run, "local_cluster", dead)
    with pytest.raises(InternalError, match="no audit worker could start"):
        run.start_local(2, io.StringIO())


def test_a_dask_fault_reaches_the_user_as_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pychessdraw.batch import cli
    from pychessdraw.batch.audit import run

    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:1234 after 30 s")

    monkeypatch.setattr(run, "run_audit", broken)
    source = write_games(tmp_path / "a.pgn", 2)
    status = cli.main(["audit", str(source), "--out", str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("pychessdraw: internal: the audit stopped: OSError: Timed out") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


KILL_ONCE = """
import os


def dask_setup(worker):
    try:  # the first worker to start dies at once (an OOM kill while the cluster starts)
        os.close(os.open(os.environ["PYCHESSDRAW_TEST_MARK"], os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return
    os._exit(9)
"""


def test_a_worker_killed_while_the_real_cluster_starts_is_started_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dask

    from pychessdraw.batch.audit import run

    preload = tmp_path / "kill_once.py"
    preload.write_text(KILL_ONCE)
    monkeypatch.setenv("PYCHESSDRAW_TEST_MARK", str(tmp_path / "mark"))
    said = io.StringIO()
    with dask.config.set({"distributed.worker.preload": [str(preload)]}):
        cluster = run.start_local(2, said)
    try:
        assert (tmp_path / "mark").exists()  # a worker did die
        assert len(cluster.workers) == 2
        assert "Nanny failed to start" in said.getvalue() and "started again (2)" in said.getvalue()
    finally:
        cluster.close()
