"""Cutting inputs into chunks that workers read independently.

A chunk owns the games that *start* in it, so every game belongs to exactly
one chunk. Chunks are cut only where :func:`pychessdraw.pgn.read_games` cuts games
too (a tag line after move text, outside a ``{...}`` comment), and each
chunk's text is parsed by ``read_games``: the games are those of a
sequential read.

- Plain PGN: byte ranges of about ``target`` bytes, each cut moved forward
  to the next game start, found by reading a few lines after the cut.
- zstd files written by pzstd (the lichess database): each frame is preceded
  by a skippable frame holding its compressed size, so frames are listed from
  those 12-byte headers without decompressing; a chunk is a run of whole
  frames. Frames are cut at arbitrary bytes, so a worker also decompresses
  the frame before its chunk (to know where the first game it owns begins)
  and reads on past its last frame to finish its last game.
- gzip and single-frame zstd files cannot be cut without decompressing:
  one chunk each.

Limit: a cut of plain PGN inside a ``{...}`` comment that spans lines and
holds a line starting with ``[`` may be placed inside that game.
"""

from __future__ import annotations

import io
import os
import struct
from dataclasses import asdict, dataclass
from typing import Any, BinaryIO, Iterator

from ..errors import FileError
from ..inputs import compression_of, is_skippable_magic
from ..pgn import PgnGame, read_games

PLAIN, ZSTD, WHOLE = "plain", "zstd", "whole"
BLOCK = 1 << 20
_CONTEXT, _OWNED, _TAIL = 0, 1, 2


@dataclass(frozen=True)
class Chunk:
    """Bytes ``[start, end)`` of ``path``. For zstd, ``context`` is the offset
    of the frame before ``start`` (None for the first chunk)."""

    path: str
    index: int
    kind: str
    start: int
    end: int
    context: int | None = None

    @property
    def name(self) -> str:
        return f"{os.path.basename(self.path)}#{self.index}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Chunk":
        return cls(**data)


class GameStarts:
    """Says which lines start a game: a tag line after move text.

    ``read_games`` cuts games at each of these lines (and at a few more
    places: a blank line after move text, a tag section after an unclosed
    comment), so every cut here is one of its cuts, and reading the pieces
    one by one gives the same games as reading the whole file."""

    def __init__(self) -> None:
        self.last = ""  # "", "header" or "moves": the kind of the last line that counted
        self.in_comment = False

    def feed(self, line: str) -> bool:
        if not self.in_comment:
            stripped = line.lstrip()
            if stripped.startswith("%"):
                return False
            # After move text only a real tag line ("[Name ...", not
            # "[%clk ...") opens a new game, as in ``read_games``.
            if stripped.startswith("[") and (self.last != "moves" or stripped[1:2].isalnum()):
                starts = self.last != "header"
                self.last = "header"
                return starts
        if not line.strip() and not self.in_comment:
            return False
        starts = self.last == ""
        self.last = "moves"
        for ch in line:
            if ch == "{":
                self.in_comment = True
            elif ch == "}":
                self.in_comment = False
        return starts


def plan(path: str, target: int) -> list[Chunk]:
    """The chunks of one input file. Raises FileError if it cannot be read."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            kind = compression_of(handle.read(4))
            if kind == "plain":
                return _plan_plain(path, handle, size, target)
            if kind == "zstd":
                return _plan_zstd(path, handle, size, target)
    except OSError as exc:
        raise FileError(f"cannot read {path!r}: {exc.strerror}", file=path) from None
    return [Chunk(path, 0, WHOLE, 0, size)]


def _plan_plain(path: str, handle: BinaryIO, size: int, target: int) -> list[Chunk]:
    cuts = [0]
    while cuts[-1] + target < size:
        cut = _next_game_start(handle, cuts[-1] + target)
        if cut is None or cut >= size:
            break
        cuts.append(cut)
    cuts.append(size)
    return [Chunk(path, i, PLAIN, a, b) for i, (a, b) in enumerate(zip(cuts, cuts[1:]))]


def _next_game_start(handle: BinaryIO, offset: int) -> int | None:
    """The first game start after ``offset`` (a header line after move text
    seen in this forward read), or None at the end of the file."""
    handle.seek(offset)
    handle.readline()  # the rest of a line cut in the middle
    starts = GameStarts()
    starts.last = "header"  # a start needs move text seen after the cut
    while True:
        at = handle.tell()
        line = handle.readline()
        if not line:
            return None
        if starts.feed(line.decode("utf-8", "replace")):
            return at


def zstd_frames(handle: BinaryIO, size: int) -> list[tuple[int, int]] | None:
    """``(offset, length)`` of each skippable-header + frame pair, or None if
    the file is not laid out as pzstd writes it."""
    frames = []
    offset = 0
    while offset < size:
        handle.seek(offset)
        head = handle.read(12)
        if len(head) < 12 or not is_skippable_magic(head):
            return None
        content = struct.unpack("<I", head[4:8])[0]
        if content != 4:
            return None
        length = 12 + struct.unpack("<I", head[8:12])[0]
        frames.append((offset, length))
        offset += length
    return frames if offset == size else None


def _plan_zstd(path: str, handle: BinaryIO, size: int, target: int) -> list[Chunk]:
    frames = zstd_frames(handle, size)
    if not frames:
        return [Chunk(path, 0, WHOLE, 0, size)]
    chunks: list[Chunk] = []
    start, previous = 0, None
    last_frame = 0  # offset of the last frame of the chunk being built
    for offset, length in frames:
        last_frame = offset
        end = offset + length
        if end - start >= target or end == size:
            chunks.append(Chunk(path, len(chunks), ZSTD, start, end, previous))
            previous, start = last_frame, end
    return chunks


# -- reading a chunk ------------------------------------------------------
class _Bounded(io.RawIOBase):
    """Bytes ``[start, end)`` of a file, as a stream."""

    def __init__(self, handle: BinaryIO, start: int, end: int) -> None:
        self.handle, self.pos, self.end = handle, start, end

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        want = min(len(buffer), self.end - self.pos)
        if want <= 0:
            return 0
        self.handle.seek(self.pos)
        data = self.handle.read(want)
        buffer[:len(data)] = data
        self.pos += len(data)
        return len(data)


def _decoder(handle: BinaryIO, start: int, end: int, kind: str) -> BinaryIO:
    raw: BinaryIO = io.BufferedReader(_Bounded(handle, start, end), BLOCK)
    if kind == PLAIN:
        return raw
    import zstandard  # the audit extra; checked before any chunk is planned

    reader: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    return reader


def _regions(chunk: Chunk, handle: BinaryIO) -> Iterator[tuple[int, BinaryIO]]:
    if chunk.kind == WHOLE:
        from ..inputs import decompressed
        handle.seek(0)
        yield _OWNED, decompressed(io.BufferedReader(_Bounded(handle, 0, chunk.end), BLOCK), chunk.path)
        return
    if chunk.context is not None:
        yield _CONTEXT, _decoder(handle, chunk.context, chunk.start, chunk.kind)
    yield _OWNED, _decoder(handle, chunk.start, chunk.end, chunk.kind)
    if chunk.kind == ZSTD:
        # One frame at a time, only as far as the last game needs: a corrupt
        # frame further on is not this chunk's business.
        size = os.fstat(handle.fileno()).st_size
        offset = chunk.end
        while offset < size:
            handle.seek(offset)
            head = handle.read(12)
            length = 12 + struct.unpack("<I", head[8:12])[0] if len(head) == 12 else size - offset
            yield _TAIL, _decoder(handle, offset, offset + length, chunk.kind)
            offset += length


LOST = b""  # a line that says: the context could not be read


def _lines(chunk: Chunk, handle: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """Lines with the region (context, owned, tail) their first byte is in.
    A context that cannot be decompressed yields ``(_CONTEXT, LOST)`` once."""
    pending, pending_region = b"", _OWNED
    for region, stream in _regions(chunk, handle):
        while True:
            try:
                block = stream.read(BLOCK)
            except Exception:  # zstandard.ZstdError: corrupt data
                if region != _CONTEXT:
                    raise
                pending = b""
                yield _CONTEXT, LOST
                break
            if not block:
                break
            if not pending:
                pending_region = region
            parts = block.split(b"\n")
            parts[0] = pending + parts[0]
            for i, part in enumerate(parts[:-1]):
                yield (pending_region if i == 0 else region), part + b"\n"
            if len(parts) > 1:
                pending_region = region
            pending = parts[-1]
    if pending:
        yield pending_region, pending


def game_texts(chunk: Chunk) -> Iterator[str]:
    """The text of each game the chunk owns, in order.

    If the frame before the chunk is corrupt, the chunk starts at the first
    header after move text: a game starting right at the chunk's first byte
    is then lost (the summary reports the corrupt chunk)."""
    with open(chunk.path, "rb") as handle:
        starts = GameStarts()
        game: list[str] | None = None
        for region, raw in _lines(chunk, handle):
            if not raw:  # LOST
                starts = GameStarts()
                starts.last = "header"
                continue
            line = raw.decode("utf-8", "replace").replace("\r\n", "\n")
            if starts.feed(line):
                if game is not None:
                    yield "".join(game)
                    game = None
                if region == _TAIL:
                    return
                if region == _OWNED:
                    game = []
            if game is not None:
                game.append(line)
        if game is not None:
            yield "".join(game)


def games(chunk: Chunk) -> Iterator[PgnGame]:
    """The games the chunk owns, parsed by ``read_games``."""
    for text in game_texts(chunk):
        yield from read_games(text.splitlines(keepends=True))
