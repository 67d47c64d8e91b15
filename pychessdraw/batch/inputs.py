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
from typing import Any, BinaryIO, TextIO, cast

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


class CutDataError(EOFError):
    """Compressed data that ends inside a frame or member (a cut download):
    ``offset`` is the byte of the input where the data stopped."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


class ZstdFrames(io.RawIOBase):
    """The content of zstd data frame after frame (skippable frames skipped),
    raising :class:`CutDataError` where the data ends inside a frame: the
    library's stream reader ends there in silence, and the games of the cut
    frame were lost without a word."""

    def __init__(self, raw: BinaryIO, base: int = 0) -> None:
        try:
            import zstandard
        except ImportError:
            raise FileError(ZSTD_HINT) from None
        self.raw = raw
        self.context = zstandard.ZstdDecompressor()
        self.frame: Any = None  # the decompressor of the frame being read
        self.pending = b""  # input bytes read and not decompressed yet
        self.skip = 0  # bytes of a skippable frame still to pass over
        self.consumed = base  # the input's offset reached: ``base`` (where ``raw`` starts) and the bytes read
        self.out = b""

    def readable(self) -> bool:
        return True

    def _more(self) -> bool:
        data = self.raw.read(1 << 16)
        self.pending += data
        self.consumed += len(data)
        return bool(data)

    def _step(self) -> bool:
        """Decompress some more into ``out``; False at a clean end."""
        if self.skip:
            if not self.pending and not self._more():
                raise CutDataError(f"a zstd skippable frame is cut at byte {self.consumed:,}", self.consumed)
            taken = min(self.skip, len(self.pending))
            self.pending, self.skip = self.pending[taken:], self.skip - taken
            return True
        if self.frame is None:
            while len(self.pending) < 8 and self._more():
                pass
            if not self.pending:
                return False  # the end, between frames
            if is_skippable_magic(self.pending[:4]) and len(self.pending) >= 8:
                self.skip = 8 + int.from_bytes(self.pending[4:8], "little")
                return True
            self.frame = self.context.decompressobj()
        if not self.pending and not self._more():
            raise CutDataError(
                f"the zstd data ends inside a frame at byte {self.consumed:,} (a cut or unfinished file)", self.consumed
            )
        data, self.pending = self.pending, b""
        self.out += self.frame.decompress(data)
        if self.frame.eof:
            self.pending, self.frame = self.frame.unused_data, None
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.out:
            if not self._step():
                return 0
        size = min(len(buffer), len(self.out))
        buffer[:size] = self.out[:size]
        self.out = self.out[size:]
        return size


def _zstd_text(raw: BinaryIO) -> BinaryIO:
    return cast(BinaryIO, io.BufferedReader(ZstdFrames(raw), 1 << 16))


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
    return io.TextIOWrapper(stream, encoding=_encoding(stream), errors="replace")


def _encoding(stream: BinaryIO) -> str:
    """UTF-16 where the text says so (a byte order mark, or ASCII with every
    other byte NUL: a PGN saved as "Unicode" by Windows), else UTF-8. A
    UTF-16 file read as UTF-8 was one game of noise judged ``ok``."""
    peek = getattr(stream, "peek", None)
    try:
        head: bytes = peek(64)[:64] if peek is not None else b""
    except Exception:
        return "utf-8"  # the read itself reports the fault
    return utf16(head) or "utf-8"


def utf16(head: bytes) -> str | None:
    """The UTF-16 codec the first bytes of a text show (a byte order mark,
    or mostly NUL high bytes: Latin letters), or None."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    even, odd = head[0::2], head[1::2]
    if len(head) >= 8 and b"\0" not in even and odd.count(0) * 4 >= len(odd) * 3:
        return "utf-16-le"
    if len(head) >= 8 and b"\0" not in odd and even.count(0) * 4 >= len(even) * 3:
        return "utf-16-be"
    return None


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
            self.error = read_error(self.name, exc, input_offset(self.handle))

    def close(self) -> None:
        if self.name != STDIN:
            self.handle.close()


def input_offset(handle: TextIO) -> int | None:
    """The byte of the input (as stored: compressed bytes for an archive)
    that reading has reached, where it can be told (not on a pipe)."""
    stream = getattr(handle, "buffer", None)
    frames = getattr(stream, "raw", None)
    if isinstance(frames, ZstdFrames):
        return frames.consumed
    source = getattr(stream, "fileobj", stream)  # a GzipFile reads its fileobj
    try:
        return int(source.tell()) if source is not None else None
    except (OSError, ValueError, AttributeError):
        return None


def read_error(name: str, exc: Exception, offset: int | None) -> FileError:
    """The FileError for a read that failed: the file, why, and the byte
    where the data stopped (``offset`` detail) when it is known."""
    if isinstance(exc, CutDataError):
        offset = exc.offset
    where = f" (at byte {offset:,})" if offset is not None and not isinstance(exc, CutDataError) else ""
    message = _read_failure(name, exc) + where + ": the games before it are kept, the rest of the file is lost"
    return FileError(message, file=name, **({} if offset is None else {"offset": offset}))


def _read_failure(name: str, exc: Exception) -> str:
    # gzip.BadGzipFile is an OSError without an errno: it is corrupt data
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"cannot read {name!r}: {exc.strerror}"
    return f"{name}: corrupt or truncated data: {exc}"
