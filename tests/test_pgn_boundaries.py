"""Game boundaries: the audit's chunks read every game exactly once, as one
sequential read does, whatever the text (comments of both kinds, escape
lines, tag strings, a '{' left open, CR line ends, long lines); a game too
long for memory is an error and the next game is still read; endless text
ends; and games with no main-line move never swallow the next ones."""

from __future__ import annotations

import io
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pgn_samples import pzstd_bytes, random_games

from pychessdraw.batch.audit.chunks import ZSTD, games, plan
from pychessdraw.batch.inputs import open_text
from pychessdraw.pgn import LINE_LIMIT, MAX_GAME_CHARS, MAX_TEXT_CHARS, PgnGame, read_games

# Text that once made a chunk read on past its end, or a game split or merged.
NASTY = [
    " ; a { in a comment",  # valid PGN: the ';' comment runs to the end of the line
    " { left open",  # ends at the next tag section, with an error
    "\n% escaped { line",
    ' {a comment\n\n[Event "inside a comment"]\n}',  # a blank line and a tag line in a comment
    " [%clk 0:00:01] { [%eval 0.2] }",
    "\n; a { comment line",
    " ( 1. e4 { unclosed variation",
    " } ) stray closers",
]
TAGS = ['[Annotator "say \\"{\\" here"]', '[Annotator "a ; b"]', '[Opening "é\u3000ü"]']


def nasty_text(seed: int, count: int = 60) -> str:
    """Random games, many of them broken in one of the ways above, some with
    no blank line before the next game, CR or CR LF line ends, a header-only
    record or a line longer than LINE_LIMIT."""
    rng = random.Random(seed)
    records = random_games(count, seed).split("\n\n")
    out = []
    for record in records:
        kind = rng.randrange(12)
        if kind < len(NASTY) and "\n" in record and record.startswith("["):
            record += NASTY[kind]
        elif kind == 8 and record.startswith("["):
            record = rng.choice(TAGS) + "\n" + record
        elif kind == 9:
            out.append('[Event "cut"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]')  # a header-only record
        elif kind == 10 and rng.random() < 0.3:
            record = record.replace("\n\n", "\n{" + "long " * (LINE_LIMIT // 4) + "}\n", 1)
        out.append(record)
    text = ""
    for record in out:
        text += record + rng.choice(["\n\n", "\n\n", "\n\n\n", "\n"])  # "\n": no blank line
    if seed % 3 == 1:
        text = text.replace("\n", "\r\n")
    elif seed % 3 == 2:
        text = text.replace("\n", "\r")
    return text


def as_tuple(game: PgnGame) -> tuple[Any, ...]:
    error = None if game.error is None else game.error.to_dict()
    return game.headers, game.tokens, game.result, error, game.warnings, game.comments


def sequential(path: Path) -> list[tuple[Any, ...]]:
    """The games as ``scan`` reads the file: one pass of ``read_games``."""
    with open_text(str(path)) as handle:
        return [as_tuple(g) for g in read_games(handle)]


def chunked(path: Path, target: int) -> tuple[int, list[tuple[Any, ...]]]:
    chunks = plan(str(path), target)
    return len(chunks), [as_tuple(g) for chunk in chunks for g in games(chunk)]


def write(tmp_path: Path, text: str, frame: int | None) -> Path:
    data = text.encode()
    if frame is None:
        path = tmp_path / "games.pgn"
        path.write_bytes(data)
    else:
        path = tmp_path / "games.pgn.zst"
        path.write_bytes(pzstd_bytes(data, frame))
    return path


@pytest.mark.parametrize("frame", [None, 1_500])
def test_a_semicolon_comment_holding_a_brace_is_read_once(tmp_path: Path, frame: int | None) -> None:
    """A case once seen on real data: 3,348 rows for 2,000 games, in pzstd layout."""
    text = random_games(300, seed=5)
    text = text.replace('\n\n[Event "Test 20"]', ' ; a { in a comment\n\n[Event "Test 20"]')
    text = text.replace('\n\n[Event "Test 200"]', ' { never closed\n\n[Event "Test 200"]')
    path = write(tmp_path, text, frame)
    expected = sequential(path)
    assert len(expected) == 300
    for target in (700, 3_000, 20_000):
        count, got = chunked(path, target)
        assert count > 1
        assert len(got) == 300 and got == expected, target


def seeds(full: bool) -> range:
    return range(60 if full else 6)


@pytest.mark.parametrize("frame", [None, 300, 1_000])
def test_chunks_give_the_games_of_one_sequential_read(tmp_path: Path, full: bool, frame: int | None) -> None:
    for seed in seeds(full):
        path = write(tmp_path, nasty_text(seed), frame)
        expected = sequential(path)
        assert len(expected) > 40
        for target in (150, 700, 2_500, 1 << 30):
            count, got = chunked(path, target)
            assert got == expected, (seed, target, count)


def test_a_header_only_record_keeps_its_tags() -> None:
    known = '[Event "known"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    for gap in ("", "\n"):
        text = '[Event "cut"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n' + gap + known
        read = list(read_games(io.StringIO(text)))
        assert [g.headers.get("Event") for g in read] == ["cut", "known"]
        assert "FEN" not in read[1].headers and len(read[1].tokens) == 7 and read[1].error is None


@pytest.mark.parametrize("movetext", ["( 1. e4 e5 1-0", "{ game abandoned }", "only words", "$1"])
def test_move_text_with_no_main_line_move_ends_at_a_blank_line(movetext: str) -> None:
    known = '[Event "known"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    text = f'[Event "first"]\n[Result "*"]\n\n{movetext}\n\n' + known
    read = list(read_games(io.StringIO(text)))
    assert [g.headers.get("Event") for g in read] == ["first", "known"]
    assert read[1].tokens[:2] == ["e4", "e5"] and read[1].error is None


KNOWN = ['[Event "known"]\n', '[Result "1-0"]\n', "\n", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"]


@pytest.mark.parametrize(
    "body",
    [
        ["1. e4 {", "x" * (MAX_GAME_CHARS + 10), "}\n"],  # one huge line
        ["1. e4 {\n"] + ["a comment that goes on\n"] * (MAX_GAME_CHARS // 20),  # a comment of many lines
    ],
)
def test_a_game_past_the_limit_is_an_error_and_the_next_game_is_read(body: list[str]) -> None:
    lines = itertools.chain(['[Event "big"]\n', "\n"], body, ["\n"], KNOWN)
    read = list(read_games(lines))
    assert [g.headers.get("Event") for g in read] == ["big", "known"]
    assert read[0].error is not None and read[0].error.code == "bad_pgn"
    assert f"longer than {MAX_GAME_CHARS:,} characters" in read[0].error.message
    assert read[1].error is None and len(read[1].tokens) == 7


class Counted:
    """An endless text stream that counts what was read of it."""

    def __init__(self, pieces: itertools.repeat[str] | itertools.cycle[str], head: str = "") -> None:
        self.pieces, self.head, self.read = pieces, head, 0

    def readline(self, limit: int = -1) -> str:
        if self.head:
            out, self.head = self.head, ""
        else:
            out = next(self.pieces)[:limit]
        self.read += len(out)
        return out


@pytest.mark.parametrize(
    "stream",
    [
        lambda: Counted(itertools.repeat("\x00" * LINE_LIMIT)),  # /dev/zero: no newline
        lambda: Counted(itertools.repeat("a comment line\n"), '[Event "x"]\n\n1. e4 {\n'),  # an endless comment
        lambda: Counted(itertools.repeat("1. Nf3 Nf6 2. Ng1 Ng8 " * 100 + "\n")),  # endless moves
        lambda: Counted(itertools.repeat(" " * 1000 + "\n")),  # endless lines of spaces
    ],
)
def test_reading_endless_text_ends(stream: Any) -> None:
    source = stream()
    read = list(read_games(source))
    assert source.read <= MAX_TEXT_CHARS + 2 * LINE_LIMIT
    assert read and read[-1].error is not None and "reading stopped" in read[-1].error.message


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_scan_of_dev_zero_ends_with_an_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pychessdraw", "scan", "/dev/zero"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert "reading stopped" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("seed", range(20))
def test_chunk_text_is_decoded_as_the_scan_decodes_it(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Bytes cut in blocks anywhere (in a CR LF, in a UTF-8 character, bad
    UTF-8) give the pieces ``TextIOWrapper.readline(LINE_LIMIT)`` gives."""
    from pychessdraw import pgn
    from pychessdraw.batch.audit import chunks

    limit = 7
    monkeypatch.setattr(chunks, "LINE_LIMIT", limit)
    monkeypatch.setattr(pgn, "LINE_LIMIT", limit)
    rng = random.Random(seed)
    alphabet = [b"a", b" ", b"\n", b"\r", b"\r\n", "é".encode(), "\u3000".encode(), b"\xff", b"\xe2\x82", b"["]
    data = b"".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 300)))
    expected = []
    wrapper = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    while piece := wrapper.readline(limit):
        expected.append(piece)
    cuts = sorted({0, len(data), *(rng.randrange(len(data) + 1) for _ in range(rng.randrange(6)))})
    blocks = [(1, a, data[a:b]) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]
    got = [piece for _, _, piece, _ in chunks._text_pieces(blocks)]
    assert got == expected, (data, cuts)


@pytest.mark.slow
def test_real_lichess_chunks_read_each_game_once(shared: Any, full: bool) -> None:
    """lichess-dev.pgn.zst (pzstd layout), one chunk a frame: the games of
    the first chunks (all of them with --full) are those of a sequential read."""
    path = shared("corpus", "lichess-dev.pgn.zst")
    chunks = plan(str(path), 1)
    assert len(chunks) > 3 and all(c.kind == ZSTD for c in chunks)
    taken = chunks if full else chunks[:3]
    got = [as_tuple(g) for chunk in taken for g in games(chunk)]
    with open_text(str(path)) as handle:
        expected = [as_tuple(g) for g in itertools.islice(read_games(handle), len(got) + 1)]
    assert got == expected[: len(got)]
    if full:
        assert len(got) == len(expected) == 60_498
    else:  # the next chunk starts with the next game
        assert as_tuple(next(games(chunks[3]))) == expected[len(got)]


@pytest.mark.parametrize("size", [1, 7, 64, 65_536])
def test_the_review_cuts_lines_as_the_scan_reads_a_file(size: int) -> None:
    """A form feed or U+2028 is no line end in a file (str.splitlines made
    "\\x0c\\x0c" a blank line, which ends a game), and "\\r\\n" fed in two
    chunks is one line end."""
    from pychessdraw.records.scan import scan
    from pychessdraw.rules import dead
    from pychessdraw.web.review import ReviewSession

    game = '[Event "{n}"]\r\n[Result "*"]\r\n\r\n1. e4 e5 \x0c\x0c 2. Nf3 {{ a\u2028b }} Nc6 *\r\n\r\n'
    text = "".join(game.format(n=n) for n in range(3))
    wrapper = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8", errors="replace")
    expected = [json.dumps(r) for r in scan(wrapper, final_search=dead.STATIC)]
    session = ReviewSession()
    got = []
    for i in range(0, len(text), size):
        got += [r["line"] for r in session.feed(text[i : i + size])]
    got += [r["line"] for r in session.finish()]
    assert len(expected) == 3 and got == expected


def test_parse_one_reads_lines_as_a_file_has_them() -> None:
    from pychessdraw.pgn import parse_one

    _, pgn = parse_one('[Event "x"]\r\n\r\n1. e4 e5 \x0c\x0c 2. Nf3 { a\u2028\u2028 } *\r\n')
    assert pgn.tokens == ["e4", "e5", "Nf3"] and pgn.result == "*"
