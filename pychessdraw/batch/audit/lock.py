"""One audit at a time in an output directory.

The run that owns ``--out`` holds an exclusive lock on ``out/_lock`` (an
``flock``: the system lifts it when the process ends, however it ends, so
a killed run leaves no stale lock) and writes in it who it is. A second
run into the same directory is refused, naming the first, before it
plans, reads or writes anything: two runs used to leave a mix of both.

Limits: ``flock`` is advisory and local; on a network filesystem that does
not carry it to other hosts, two runs on two hosts are not kept apart.
"""

from __future__ import annotations

import json
import os
import socket
import time
from types import TracebackType

from ...errors import BadRequestError, FileError

LOCK = "_lock"  # "_": Parquet readers skip it

try:
    import fcntl
except ImportError:  # not on Windows: no lock there (documented in the README's limits)
    fcntl = None  # type: ignore[assignment]


class OutputLock:
    """``with OutputLock(out):`` owns ``out`` for the block, or raises
    BadRequestError naming the run that owns it."""

    def __init__(self, out: str) -> None:
        self.path = os.path.join(out, LOCK)
        self.fd: int | None = None

    def __enter__(self) -> OutputLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise FileError(f"cannot make the lock {self.path}: {exc.strerror or exc}", file=self.path) from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                owner = _owner(fd)
                os.close(fd)
                raise BadRequestError(
                    f"{os.path.dirname(self.path) or '.'} is in use by another audit ({owner}); "
                    "wait for it to end, or choose another --out directory"
                ) from None
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.fd is not None:
            try:
                os.ftruncate(self.fd, 0)
            except OSError:
                pass  # read-only now: the next run overwrites it
            os.close(self.fd)  # lifts the lock
            self.fd = None


def _owner(fd: int) -> str:
    """Who holds the lock, as the holder wrote it."""
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"process {data['pid']} on {data['host']}, started {data['started']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a run that has not said who it is yet"
