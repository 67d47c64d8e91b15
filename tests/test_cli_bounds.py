"""`pychessdraw scan` on input with no end of line (like /dev/zero) or a
comment never closed: memory stays flat (it used to grow with the input,
2.5 GB in 15 s on /dev/zero) and the broken game is reported. The scan runs
under an address-space limit far below the size of its input."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading

import pytest

SIZE = 256 * 2**20  # bytes of input
LIMIT = 160 * 2**20  # address space allowed to the scan (it needs about 25 MB)


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def scan_stream(chunk: bytes) -> subprocess.CompletedProcess[str]:
    """Run scan on SIZE bytes of ``chunk`` repeated, on standard input."""
    child = subprocess.Popen(
        [sys.executable, "-m", "pychessdraw", "scan", "--search", "static", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limit_memory,
    )

    def feed() -> None:
        assert child.stdin is not None
        block = chunk * (2**20 // len(chunk))
        try:
            for _ in range(SIZE // len(block)):
                child.stdin.write(block)
        except BrokenPipeError:
            pass  # the scan died: its exit status says so
        finally:
            try:
                child.stdin.close()
            except BrokenPipeError:
                pass

    writer = threading.Thread(target=feed)
    writer.start()
    assert child.stdout is not None and child.stderr is not None
    out = child.stdout.read()  # (communicate() would close standard input at once)
    err = child.stderr.read()
    child.wait(timeout=600)
    writer.join()
    return subprocess.CompletedProcess(child.args, child.returncode, out.decode(), err.decode())


@pytest.mark.slow  # 768 MB through pipes: left out by `make test-quick`
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux's RLIMIT_AS")
@pytest.mark.parametrize("chunk", [b"\0", b"1. e4 { never closed ", b"e4 e5 " * 3])
def test_scan_memory_stays_flat_without_newlines(chunk: bytes) -> None:
    done = scan_stream(chunk)
    assert "MemoryError" not in done.stderr and done.returncode == 1, done.stderr[-2000:]
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(reports) == 1 and reports[0]["error"] is not None
