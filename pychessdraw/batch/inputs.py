"""Opening PGN inputs: plain, gzip or zstd files, directories of them, and
``-`` for standard input. Used by ``scan`` and ``audit``.

The compression is recognised by the first bytes of the data, not by the
name, so a ``.gz`` file is never read as text, and standard input may be
compressed too. zstd files may hold many frames (pzstd writes one per
block, as in the lichess database): they are read across frames. zstd needs
the ``zstandard`` package (``pip install "pychessdraw[audit]"``).
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO, cast

from ..errors import FileError
from ..pgn import LINE_LIMIT

SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst")
GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
STDIN = "-"
ZSTD_HINT = 'reading .zst needs the zstandard package: pip install "pychessdraw[audit]"'


def is_skippable_magic(head: bytes) -> bool:
    """A zstd skippable frame (0x184D2A50..5F, little-endian), as pzstd writes."""
    return len(head) >= 4 and head[1:4] == b"\x2a\x4d\x18" and head[0] & 0xF0 == 0x50


def compression_of(head: bytes) -> str:
    """``"gzip"``, ``"zstd"`` or ``"plain"`` from the first four bytes."""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(ZSTD_MAGIC) or is_skippable_magic(head):
        return "zstd"
    return "plain"


def is_pgn_name(name: str) -> bool:
    return name.lower().endswith(SUFFIXES)


def _pgn_files_in(folder: str) -> tuple[list[str], list[FileError]]:
    """The PGN files under ``folder`` (sorted, recursive, symbolic links to
    directories not followed) and an error for each part that cannot be
    listed (``Path.rglob`` would skip those in silence)."""
    found: list[str] = []
    problems: list[FileError] = []

    def unreadable(exc: OSError) -> None:
        where = exc.filename or folder
        problems.append(FileError(f"cannot read directory {where!r}: {exc.strerror}", file=str(where)))

    for top, _, names in os.walk(folder, onerror=unreadable):
        found += [str(Path(top, n)) for n in names if is_pgn_name(n) and os.path.isfile(os.path.join(top, n))]
    if not found and not problems:
        problems.append(FileError(f"no .pgn, .pgn.gz or .pgn.zst file in directory {folder!r}", file=folder))
    return sorted(found), problems


def inputs(names: Sequence[str]) -> Iterator[tuple[str, FileError | None]]:
    """Each input named, with ``None`` or the error that stops it being read:
    files as given, ``-``, and for a directory every ``.pgn``, ``.pgn.gz``
    and ``.pgn.zst`` file under it (sorted, recursive). A directory (or a
    part of one) that cannot be listed, or that holds no PGN file, is an
    error, never a silent nothing. A missing file is yielded without an
    error: opening it reports one."""
    for name in names:
        if name != STDIN and os.path.isdir(name):
            found, problems = _pgn_files_in(name)
            for problem in problems:
                yield problem.details["file"], problem
            for path in found:
                yield path, None
        else:
            yield name, None


def expand(names: Sequence[str]) -> Iterator[str]:
    """The files of :func:`inputs`; raises the first FileError (a directory
    that cannot be listed or holds no PGN file)."""
    for name, problem in inputs(names):
        if problem is not None:
            raise problem
        yield name


def _zstd_text(raw: BinaryIO) -> BinaryIO:
    try:
        import zstandard
    except ImportError:
        raise FileError(ZSTD_HINT) from None
    reader: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    return reader


def decompressed(raw: BinaryIO, name: str) -> BinaryIO:
    """``raw`` (buffered, peekable) decoded as its first bytes say."""
    head = _peek(raw, 4)
    kind = compression_of(head)
    if kind == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if kind == "zstd":
        return _zstd_text(raw)
    return raw


def _peek(raw: BinaryIO, n: int) -> bytes:
    peek = getattr(raw, "peek", None)
    if peek is None:
        raise FileError("input is not peekable")
    data: bytes = peek(n)[:n]
    return data


def _standard_input() -> BinaryIO:
    if sys.stdin is None:  # started with standard input closed (``<&-``)
        raise FileError("cannot read standard input: it is closed", file=STDIN)
    return sys.stdin.buffer


def open_text(name: str) -> TextIO:
    """Open one input for reading text (UTF-8, bad bytes replaced).

    Raises FileError naming the file when it cannot be opened or its first
    bytes cannot be read (a directory, a device that refuses reads, a closed
    standard input). A FIFO or a device that never ends (``/dev/zero``) is
    read as any stream: only the PGN reader's limits stop it."""
    try:
        raw: BinaryIO = _standard_input() if name == STDIN else open(name, "rb")  # noqa: SIM115
    except OSError as exc:
        raise FileError(f"cannot read {name!r}: {exc.strerror}", file=name) from None
    if not hasattr(raw, "peek"):
        raw = cast(BinaryIO, io.BufferedReader(cast(io.RawIOBase, raw)))
    try:
        # Empty from the start: read no more (on a terminal, a second read
        # would wait for a second Ctrl-D: the end of input is not sticky).
        empty = not _peek(raw, 1)
        stream = cast(BinaryIO, io.BytesIO()) if empty else decompressed(raw, name)
    except FileError as exc:
        raw.close()
        raise FileError(f"{name}: {exc.message}", file=name) from None
    except OSError as exc:  # EIO, EISDIR... on the first read
        raw.close()
        raise FileError(f"cannot read {name!r}: {exc.strerror or exc}", file=name) from None
    if empty and name != STDIN:
        raw.close()
    return io.TextIOWrapper(stream, encoding="utf-8", errors="replace")


class TextLines:
    """Lines of an opened input; a read error (corrupt gzip or zstd data)
    ends the lines and is kept in ``error`` as a FileError."""

    def __init__(self, name: str, handle: TextIO) -> None:
        self.name, self.handle = name, handle
        self.error: FileError | None = None

    def __iter__(self) -> Iterator[str]:
        # Pieces of at most LINE_LIMIT characters: a line with no end
        # (/dev/zero) must not be read whole; the PGN reader joins pieces.
        try:
            while piece := self.handle.readline(LINE_LIMIT):
                yield piece
        except Exception as exc:  # gzip.BadGzipFile, EOFError, zstandard.ZstdError (not an OSError)
            self.error = FileError(_read_failure(self.name, exc), file=self.name)

    def close(self) -> None:
        if self.name != STDIN:
            self.handle.close()


def _read_failure(name: str, exc: Exception) -> str:
    # gzip.BadGzipFile is an OSError without an errno: it is corrupt data
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"cannot read {name!r}: {exc.strerror}"
    return f"{name}: corrupt or truncated data: {exc}"
