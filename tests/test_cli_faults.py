"""The command line on every bad argument and file found by trying it as a
user would: one line naming the problem on standard error, exit 2
for bad usage and 1 for a file, an output or a game, never a traceback, never
a silent success, never a hang. Each case runs the real command through bash
(for ``<&-``, ``>&-``, ``>/dev/full``, pipes) with a timeout."""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import select
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pychessdraw.batch import cli

ROOT = Path(__file__).resolve().parents[1]
GAME = '[Event "x"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
HAS_AUDIT = all(importlib.util.find_spec(m) is not None for m in ("distributed", "pyarrow", "zstandard"))
LINUX = sys.platform.startswith("linux")
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class Case:
    args: str  # after `pychessdraw`, in the files' directory; shell words
    shell: str = ""  # redirections after the command
    status: int = 1
    says: str | None = "pychessdraw"  # in standard error (None: standard error is closed)
    audit: bool = False  # needs the [audit] extra
    linux: bool = False


CASES = {
    "stdin closed": Case("scan", "<&-", says="cannot read standard input: it is closed"),
    "stdin closed, named": Case("scan -", "<&-", says="cannot read standard input: it is closed"),
    "stdin a directory": Case("scan -", "< empty", says="is a directory"),  # Python's own start-up check
    "stdout closed, status": Case("status e4", ">&-", says="cannot write standard output: it is closed"),
    "stdout closed, scan": Case("scan game.pgn", ">&-", says="cannot write standard output: it is closed"),
    "stdout full, status": Case(
        "status e4", ">/dev/full", says="cannot write standard output: No space left", linux=True
    ),
    "stdout full, scan": Case(
        "scan game.pgn", ">/dev/full", says="cannot write standard output: No space left", linux=True
    ),
    "stdout full, audit": Case(
        "audit game.pgn --out full-out --workers 1 --no-progress",
        ">/dev/full",
        says="cannot write standard output: No space left",
        audit=True,
        linux=True,
    ),
    "stdout full, --help": Case("--help", ">/dev/full", says="cannot write standard output: No space left", linux=True),
    "stderr closed": Case("status --fen nonsense", "2>&-", says=None),
    "unreadable device": Case(
        "scan /proc/self/mem", says="cannot read '/proc/self/mem': Input/output error", linux=True
    ),
    "empty directory": Case("scan empty", says="no .pgn, .pgn.gz or .pgn.zst file in directory 'empty'"),
    "unreadable directory": Case("scan locked game.pgn", says="cannot read directory 'locked': Permission denied"),
    "no game in a file": Case("scan blank.pgn", says="no PGN game in 'blank.pgn'"),
    "no game on stdin": Case("scan", "</dev/null", says="no PGN game in standard input"),
    "missing file": Case("scan missing.pgn", says="cannot read 'missing.pgn': No such file"),
    "indent huge": Case("status --indent 1000000000", status=2, says="argument --indent: must be from 0 to 16"),
    "indent negative": Case("status --indent -1", status=2, says="argument --indent: must be from 0 to 16"),
    "indent not a number": Case("status --indent x", status=2, says="argument --indent: expected a whole number"),
    "chunk-mb nan": Case("audit game.pgn --out o --chunk-mb nan", status=2, says="argument --chunk-mb: must be"),
    "chunk-mb inf": Case("audit game.pgn --out o --chunk-mb inf", status=2, says="argument --chunk-mb: must be"),
    "chunk-mb -1": Case("audit game.pgn --out o --chunk-mb -1", status=2, says="argument --chunk-mb: must be"),
    "chunk-mb 0": Case("audit game.pgn --out o --chunk-mb 0", status=2, says="argument --chunk-mb: must be"),
    "workers -1": Case("audit game.pgn --out o --workers -1", status=2, says="argument --workers: must be from 1"),
    "workers 0": Case("audit game.pgn --out o --workers 0", status=2, says="argument --workers: must be from 1"),
    "workers huge": Case("audit game.pgn --out o --workers 100000", status=2, says="argument --workers: must be"),
    "scheduler not an address": Case(
        "audit game.pgn --out o --scheduler foo",
        status=2,
        says="argument --scheduler: expected an address such as tcp://host:8786",
    ),
    "scheduler unknown scheme": Case(
        "audit game.pgn --out o --scheduler ftp://x:1", status=2, says="argument --scheduler: expected an address"
    ),
    "audit a device": Case(
        "audit /dev/zero --out o-device", says="'/dev/zero' is neither (a device or a pipe)", audit=True, linux=True
    ),
    "audit a pipe": Case(
        "audit fifo --out o-fifo", says="'fifo' is neither (a device or a pipe)", audit=True, linux=True
    ),
    "audit a name not UTF-8": Case(
        "audit $'bad\\xffname.pgn' --out o-name", says="is not UTF-8; rename it", audit=True, linux=True
    ),
    "out an existing file": Case(
        "audit game.pgn --out game.pgn --workers 1", says="--out 'game.pgn' is not a directory", audit=True
    ),
    "out unwritable": Case("audit game.pgn --out UNWRITABLE --workers 1", says="cannot write in --out", audit=True),
    "scheduler nobody listens": Case(
        "audit game.pgn --out o-unreachable --scheduler tcp://127.0.0.1:PORT", says="127.0.0.1:PORT", audit=True
    ),
}


def free_port() -> int:
    """A loopback port nobody listens on (bound then closed at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    where = tmp_path_factory.mktemp("faults")
    (where / "game.pgn").write_text(GAME)
    (where / "many.pgn").write_text(GAME * 2000)
    (where / "blank.pgn").write_text("\n  \n\n")  # (what any reader makes of words may change)
    (where / "empty").mkdir()
    if LINUX:  # (macOS refuses names that are not UTF-8)
        (where / os.fsdecode(b"bad\xffname.pgn")).write_text(GAME)
    if hasattr(os, "mkfifo"):  # nobody writes: opening it to read would wait for ever
        os.mkfifo(where / "fifo")
    (where / "locked").mkdir()
    (where / "locked" / "a.pgn").write_text(GAME)
    (where / "locked").chmod(0)
    (where / "readonly").mkdir()
    (where / "readonly").chmod(0o555)
    yield where
    (where / "locked").chmod(0o755)
    (where / "readonly").chmod(0o755)


def command(args: str, shell: str = "") -> str:
    return f"{shlex.quote(sys.executable)} -m pychessdraw {args} {shell}"


def run_shell(script: str, place: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=place, env=env, timeout=timeout)


def clean(stderr: str) -> bool:
    return "Traceback" not in stderr and "Exception ignored" not in stderr


@pytest.mark.parametrize("name", CASES)
def test_bad_argument_or_file_is_one_message_and_the_documented_status(name: str, place: Path) -> None:
    case = CASES[name]
    if case.audit and not HAS_AUDIT:
        pytest.skip('needs the audit extra: pip install "pychessdraw[audit]"')
    if case.linux and not LINUX:
        pytest.skip("needs Linux's /dev/full and /proc")
    if name == "unreadable directory" and os.access(place / "locked", os.R_OK):
        pytest.skip(
            "chmod 000 does not stop this user (root) reading: "
            "test_unreadable_directory_is_an_error_and_the_rest_is_read simulates it"
        )
    port = str(free_port())
    unwritable = "/proc" if ROOT_USER else "readonly"  # root writes in a chmod 555 directory
    args = case.args.replace("PORT", port).replace("UNWRITABLE", unwritable)
    done = run_shell(command(args, case.shell), place)
    assert done.returncode == case.status, done.stderr
    assert clean(done.stderr), done.stderr
    if case.says is not None:
        assert case.says.replace("PORT", port) in done.stderr
        if case.status == 1 and "Fatal Python" not in done.stderr:  # (Dask may warn too: only one is ours)
            assert len([line for line in done.stderr.splitlines() if line.startswith("pychessdraw")]) == 1
    else:
        assert done.stderr == ""
    assert done.stdout == ""


@pytest.fixture
def locked_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` with ``locked/a.pgn`` that cannot be listed (simulated:
    root reads through chmod 000) and ``open/b.pgn``."""
    for folder, name in (("locked", "a.pgn"), ("open", "b.pgn")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text(GAME)
    locked = str(tmp_path / "locked")
    real_scandir = os.scandir

    def refusing(path: str = ".") -> object:
        if os.fspath(path) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", locked)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    return tmp_path


def test_unreadable_directory_is_an_error_and_the_rest_is_read(
    locked_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory the scan cannot list is an error naming it, exit 1; the
    readable files are still read. It used to be skipped in silence, exit 0."""
    status = cli.main(["scan", "--search", "static", str(locked_tree)])
    out, err = capsys.readouterr()
    assert status == 1
    assert f"file_error: cannot read directory {str(locked_tree / 'locked')!r}: Permission denied" in err
    assert [line.count('"file"') for line in out.splitlines()] == [1]
    assert "b.pgn" in out and "a.pgn" not in out


@pytest.mark.skipif(not HAS_AUDIT, reason='needs the audit extra: pip install "pychessdraw[audit]"')
def test_audit_refuses_an_unreadable_directory_before_any_work(
    locked_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The audit would miss the games it cannot list: it stops, naming the
    directory, before starting a cluster (it audited the rest, exit 0)."""
    out = locked_tree / "out"
    status = cli.main(["audit", str(locked_tree), "--out", str(out), "--workers", "1", "--no-progress"])
    assert status == 1
    assert "cannot read directory" in capsys.readouterr().err
    assert not list(out.glob("*.parquet"))


def test_broken_pipe_is_quiet_with_status_141(place: Path) -> None:
    """`pychessdraw scan | head`: the status the shell gives a command killed
    by SIGPIPE, and nothing on standard error (no "Exception ignored")."""
    done = run_shell(command("scan --search static many.pgn") + " | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}", place)
    assert done.returncode == 141 and done.stderr == ""


@pytest.mark.skipif(not LINUX, reason="needs a Linux pseudo-terminal")
def test_scan_of_a_terminal_says_it_waits_for_pgn(place: Path) -> None:
    """`pychessdraw scan` with no file, on a terminal, says what it waits for
    (it looked like a hang); Ctrl-D with nothing typed: no game, exit 1."""
    import pty

    master, slave = pty.openpty()
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "pychessdraw", "scan"],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=place,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert child.stderr is not None
        if not select.select([child.stderr], [], [], 60)[0]:  # (no readline that could wait for ever)
            child.kill()
            pytest.fail("no word from scan on a terminal in 60 s")
        assert "reading PGN from standard input (end it with Ctrl-D)" in child.stderr.readline()
        os.write(master, b"\x04")  # Ctrl-D at the start of a line: end of input
        out, err = child.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert child.returncode == 1 and out == "" and "no PGN game in standard input" in err


@pytest.mark.skipif(not LINUX, reason="needs /dev/full")
def test_progress_to_a_full_standard_error_does_not_fail_the_scan(place: Path) -> None:
    done = run_shell(command("scan --search static --progress game.pgn", "2>/dev/full"), place)
    assert done.returncode == 0 and done.stdout.startswith('{"game": 1')


def cli_command(*args: str) -> list[str]:
    """``pychessdraw ARGS`` run by this Python (the package of this checkout)."""
    return [sys.executable, "-m", "pychessdraw", *args]


def hear_ctrl_c() -> None:
    """In the child: SIGINT back to its default, as in a terminal. A test
    run started in the background by a non-interactive shell inherits
    SIGINT ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_exits_130_without_a_traceback(place: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "pychessdraw", "scan", "--search", "static"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=place,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=hear_ctrl_c,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(GAME * 2)  # (a reader may hold a game until the next one starts)
    child.stdin.flush()
    if not select.select([child.stdout], [], [], 60)[0]:
        child.kill()
        pytest.fail("no report from scan in 60 s")
    assert child.stdout.readline().startswith('{"game": 1')  # running, waiting for more input
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130 and clean(err), err


@pytest.mark.skipif(not LINUX, reason="needs /dev/zero")
def test_scan_dev_zero_ends_with_an_error(place: Path) -> None:
    try:
        done = run_shell("exec " + command("scan --search static /dev/zero"), place, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("scan /dev/zero still running after 15 s")
    assert done.returncode == 1 and clean(done.stderr)
    # One line on standard error, as every other fatal input error, and the
    # same error in the report (a piped report is not the only trace).
    said = done.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith("pychessdraw: bad_pgn: /dev/zero: game 1: "), done.stderr
    assert said[0].endswith(cli.READING_STOPPED)
    error = json.loads(done.stdout.splitlines()[-1])["error"]
    assert error["code"] == "bad_pgn" and error["message"] in said[0]
