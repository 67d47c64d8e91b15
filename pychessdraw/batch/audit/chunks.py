"""Cutting inputs into chunks that workers read independently.

A chunk owns the games that *start* in it, so every game belongs to exactly
one chunk. Chunks are cut only where a game starts whatever came before it,
by the one rule :class:`pychessdraw.pgn.GameStarts` shares with
:func:`pychessdraw.pgn.read_games` (a whole tag line right after a whole
blank line: a ``{`` comment left open, a ``;`` comment holding a ``{``, a
``%`` line or a tag string cannot run over it). The reader starts a game
there in every state, so each chunk's text, read by ``read_games`` alone,
gives the games a sequential read gives, each exactly once. Text is decoded
as the scan decodes it (UTF-8 with bad bytes replaced, CR LF and CR
read as LF, lines given in pieces of LINE_LIMIT characters), and
memory is bounded by a piece, not by a line or a game.

- Plain PGN: byte ranges of about ``target`` bytes, each cut moved forward
  to the next such game start, found by reading after the cut.
- zstd files written by pzstd (the lichess database): each frame is preceded
  by a skippable frame holding its compressed size, so frames are listed from
  those 12-byte headers without decompressing; a chunk is a run of whole
  frames. Frames are cut at arbitrary bytes, so a worker also decompresses
  the frame before its chunk (to see the line before its first line) and
  reads on past its last frame, to the next game start, to finish its last
  game.
- gzip and single-frame zstd files cannot be cut without decompressing:
  one chunk each.

Limits: files with no blank line between games have no cut (one chunk).
Where ``read_games`` stops reading (MAX_TEXT_CHARS with no game start: not
PGN), a sequential read stops for good while later chunks are still read.
In pzstd files, a line of spaces that fills the whole frame before a chunk
(a frame of less than LINE_LIMIT characters) is taken for no blank line.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import struct
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any, BinaryIO, cast

from ...errors import FileError, RefereeError
from ...pgn import LINE_LIMIT, GameStarts, PgnGame, read_games, whole_line
from ..inputs import ZstdFrames, compression_of, is_skippable_magic, read_error, utf16

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
    def from_dict(cls, data: dict[str, Any]) -> Chunk:
        return cls(**data)


def plan(path: str, target: int) -> list[Chunk]:
    """The chunks of one input file. Raises FileError if it cannot be read."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            head = handle.read(64)
            if utf16(head):
                raise FileError(
                    f"{path} is UTF-16 text: audit workers read UTF-8 by byte ranges; "
                    "convert it (iconv -f UTF-16 -t UTF-8) or scan it",
                    file=path,
                )
            kind = compression_of(head[:4])
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
    return [Chunk(path, i, PLAIN, a, b) for i, (a, b) in enumerate(zip(cuts, cuts[1:], strict=False))]


def _next_game_start(handle: BinaryIO, offset: int) -> int | None:
    """The first game start after ``offset`` (see :class:`GameStarts`), or
    None at the end of the file. The line ``offset`` falls in is not known
    whole, so it counts as no blank line."""
    starts = GameStarts()
    for _, at, piece, whole in _text_pieces(_file_blocks(handle, offset), unknown=offset > 0):
        if starts.feed(piece, whole):
            return at
    return None


def _file_blocks(handle: BinaryIO, offset: int) -> Iterator[tuple[int, int, bytes | None]]:
    handle.seek(offset)
    while block := handle.read(1 << 16):  # a game start is usually a few lines away
        yield _OWNED, offset, block
        offset += len(block)


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
    for i, (offset, length) in enumerate(frames):
        end = offset + length
        taken = end - start
        # Close the chunk where its size is nearest the target: frames are
        # coarse (lichess's are megabytes), and closing only once a chunk
        # reaches the target would leave workers idle on a small file.
        following = frames[i + 1][1] if i + 1 < len(frames) else 0
        if end == size or taken >= target or taken + following - target > target - taken:
            chunks.append(Chunk(path, len(chunks), ZSTD, start, end, previous))
            previous, start = offset, end
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
        buffer[: len(data)] = data
        self.pos += len(data)
        return len(data)


def _decoder(handle: BinaryIO, start: int, end: int, kind: str) -> BinaryIO:
    raw: BinaryIO = io.BufferedReader(_Bounded(handle, start, end), BLOCK)
    if kind == PLAIN:
        return raw
    # Frame by frame, a frame cut short an error (the library's reader ends there in silence).
    return cast(BinaryIO, io.BufferedReader(ZstdFrames(raw, start), BLOCK))


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


_EOL = re.compile(rb"\r\n?|\n")


class _Pieces:
    """Bytes to the text pieces the scan's reader gets from a text file
    (``io.TextIOWrapper(..., "utf-8", errors="replace").readline(LINE_LIMIT)``):
    universal newlines read as ``\n``, each line in pieces of LINE_LIMIT
    characters. ``line_at``/``line_region``: where the current line began."""

    def __init__(self, unknown: bool) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.unknown = unknown  # the current line may have begun before the bytes read: never whole
        self.held = ""  # characters of the current line not given out yet
        self.partial = False  # the current line began in an earlier block
        self.line_at, self.line_region = -1, _OWNED
        self.given = False  # a piece of the current line was given out

    def add(self, text: str, ends: bool) -> Iterator[tuple[int, int, str, bool]]:
        """Pieces of the current line, given ``text`` more of it (``ends``: and its end)."""
        held = self.held + text if self.held else text
        while len(held) >= LINE_LIMIT:
            piece, held = held[:LINE_LIMIT], held[LINE_LIMIT:]
            yield self._piece(piece, not ends or bool(held))
        if ends:
            if held:
                yield self._piece(held, False)
            held, self.given, self.partial, self.unknown = "", False, False, False
        self.held = held

    def _piece(self, piece: str, cut: bool) -> tuple[int, int, str, bool]:
        first = not self.given
        self.given = True
        whole = whole_line(piece, first) and not cut and not self.unknown
        return self.line_region, (self.line_at if first else -1), piece, whole


def _text_pieces(
    blocks: Iterable[tuple[int, int, bytes | None]], unknown: bool = False
) -> Iterator[tuple[int, int, str, bool]]:
    """``(region, at, piece, whole)`` for the text of ``blocks`` of bytes
    (``(region, offset, data)``; data None where bytes were lost): ``at`` is
    the byte offset of the line a piece starts (-1 for a piece that goes on
    a line), ``whole`` as :func:`pychessdraw.pgn.whole_line`. ``unknown``:
    the bytes may start inside a line, so their first line is not whole. A
    lost block gives ``(region, -2, "", False)``: the line it cut is dropped
    and the next is not whole."""
    state = _Pieces(unknown)
    after_cr = False  # the last block ended with "\r": a "\n" first is its "\r\n"
    for region, offset, block in blocks:
        if block is None:
            state = _Pieces(True)
            after_cr = False
            yield region, -2, "", False
            continue
        pos = 1 if after_cr and block[:1] == b"\n" else 0
        after_cr = False
        while pos < len(block):
            if not state.partial and not state.held and not state.given:
                state.line_at, state.line_region = offset + pos, region
            m = _EOL.search(block, pos)
            end = len(block) if m is None else m.start()
            if m is None or state.partial:
                text = state.decoder.decode(block[pos:end], final=m is not None)
                state.partial = m is None
            else:
                text = block[pos:end].decode("utf-8", "replace")
            if m is None:
                yield from state.add(text, False)
                break
            yield from state.add(text + "\n", True)
            after_cr = m.end() == len(block) and m.group() == b"\r"
            pos = m.end()
    if state.partial or state.held:
        yield from state.add(state.decoder.decode(b"", final=True), True)


def _blocks(chunk: Chunk, handle: BinaryIO) -> Iterator[tuple[int, int, bytes | None]]:
    """The chunk's bytes by region (context, owned, tail); a context that
    cannot be decompressed gives one None."""
    at = 0
    for region, stream in _regions(chunk, handle):
        while True:
            try:
                block = cast(io.BufferedIOBase, stream).read1(BLOCK)  # not read(): it loses what it read before a fault
            except Exception:  # zstandard.ZstdError: corrupt data
                if region != _CONTEXT:
                    raise
                yield _CONTEXT, at, None
                break
            if not block:
                break
            yield region, at, block
            at += len(block)


def owned_pieces(chunk: Chunk) -> Iterator[str]:
    """The text of the games the chunk owns, in pieces as ``read_games``
    reads a file: from its first game start (the file's start for a first
    chunk) to the first game start past its end.

    If the frame before the chunk is corrupt, a game starting right at the
    chunk's first byte is lost (the summary reports the corrupt chunk)."""
    with open(chunk.path, "rb") as handle:
        starts = GameStarts()
        owning = chunk.context is None
        for region, at, piece, whole in _text_pieces(_blocks(chunk, handle), unknown=chunk.context is not None):
            if at == -2:  # lost context
                starts = GameStarts()
                continue
            if starts.feed(piece, whole):
                if region == _TAIL:
                    return
                owning = owning or region == _OWNED
            if owning:
                yield piece


class ChunkLines:
    """The pieces of :func:`owned_pieces`; a read fault (a frame cut short,
    corrupt data, a vanished file) ends them and is kept in ``error``, as
    the scan's :class:`~pychessdraw.batch.inputs.TextLines` keeps it: the
    games read before it stay, the game it cut is marked so."""

    def __init__(self, chunk: Chunk) -> None:
        self.chunk = chunk
        self.error: RefereeError | None = None

    def __iter__(self) -> Iterator[str]:
        try:
            yield from owned_pieces(self.chunk)
        except Exception as exc:  # zstandard.ZstdError, EOFError, gzip.BadGzipFile, OSError
            self.error = read_error(self.chunk.path, exc, None)


def games(chunk: Chunk) -> Iterator[PgnGame]:
    """The games the chunk owns, parsed by ``read_games``; raises the read
    fault that ended them, if one did (after the games before it)."""
    lines = ChunkLines(chunk)
    yield from read_games(lines)
    if lines.error is not None:
        raise lines.error
