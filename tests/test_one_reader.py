"""One reader, one splitting rule: random concatenations of corpus games
(``../shared/corpus``; generated games where it is absent) with random
separators (form feeds, U+2028 in a tag value, byte order marks, blank
lines of spaces, CR LF), encodings and cuts give, through ``scan``, the
audit's chunks, the ``watch`` tracker and the page's ``load_pgn``, the same
games with the same tags as a sequential read of the intact part (or the
same error)."""

from __future__ import annotations

import gzip
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pychessdraw.batch.inputs import TextLines, open_text
from pychessdraw.pgn import PgnGame, games_in_text, read_games
from pychessdraw.records.scan import scan
from pychessdraw.records.tracker import Tracker, split_games
from pychessdraw.web.bridge import Bridge
from pychessdraw.web.replay import game_label

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tcec-dev.pgn"
SEPARATORS = [
    "\n",
    "\n\n",
    "\r\n\r\n",
    "\n\n\n",
    " \n \n",
    "\f\n\n",
    "\n\u2028\n\n",
    "\n\n\ufeff",
    "\r\r",
    "\n\x0b\n\n",
]
IN_TAGS = ["\f", "\u2028", "\u2029", "\x1c", "\x85", "\x0b"]  # str.splitlines cuts at each; a file does not


@cache
def corpus_games() -> tuple[str, ...]:
    if CORPUS.exists():
        text = CORPUS.read_text(encoding="utf-8", errors="replace")[:400_000]
        pieces = [p.strip() + "\n" for p in split_games(text)]
        return tuple(p for p in pieces if p.startswith("[") and len(p) < 40_000)[:60]
    from test_read_faults import random_games  # generated games where the shared corpus is absent

    return tuple(g.strip() + "\n" for g in random_games(99, 40))


def compose(seed: int, count: int) -> str:
    rng = random.Random(seed)
    games = corpus_games()
    parts = []
    for _ in range(count):
        game = rng.choice(games)
        if rng.random() < 0.5:  # a line separator inside a tag value
            game = game.replace('"]', f'{rng.choice(IN_TAGS)}x"]', 1)
        parts.append(game + rng.choice(SEPARATORS))
    return "".join(parts)


def key(game: PgnGame) -> tuple[Any, ...]:
    return (game.headers, game.tokens, game.result, None if game.error is None else game.error.code)


def reference(text: str) -> list[tuple[Any, ...]]:
    return [key(g) for g in games_in_text(text)]


def scanned(path: Path) -> tuple[list[tuple[Any, ...]], list[dict[str, Any]], Any]:
    lines = TextLines(str(path), open_text(str(path)))
    try:
        games = [key(g) for g in read_games(lines)]
    finally:
        lines.close()
    lines = TextLines(str(path), open_text(str(path)))
    try:
        reports = list(scan(lines, final_search="auto"))
    finally:
        lines.close()
    return games, reports, lines.error


def audited(path: Path, target: int) -> list[tuple[Any, ...]]:
    from pychessdraw.batch.audit.chunks import games, plan

    return [key(g) for chunk in plan(str(path), target) for g in games(chunk)]


def bridge_labels(text: str) -> list[str]:
    reply = json.loads(Bridge().handle(json.dumps({"id": 1, "op": "load_pgn", "args": {"pgn": text}})))
    if "games" in reply:
        return [g["label"] for g in reply["games"]]
    return ["one"] if reply["ok"] else [reply["error"]["code"]]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**32 - 1), count=st.integers(1, 6), encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"])
)
def test_every_reader_reads_the_same_games(seed: int, count: int, encoding: str, tmp_path: Path) -> None:
    text = compose(seed, count)
    expected = reference(text)
    assert len([g for g in expected if g[3] is None]) >= 1
    path = tmp_path / f"cat-{seed}.pgn"
    path.write_bytes(text.encode(encoding))
    games, reports, error = scanned(path)
    assert error is None and games == expected  # scan's reader
    assert [r["headers"] for r in reports] == [g[0] for g in expected]  # scan's rows
    assert [key(g) for g in Tracker().read(text)] == expected  # watch
    parsed = list(games_in_text(text))
    labels = bridge_labels(text)
    if len(parsed) > 1:  # the page's import: the same games to choose from
        assert labels == [game_label(i, g) for i, g in enumerate(parsed)]
    if encoding != "utf-16":  # the audit reads UTF-8 (and refuses UTF-16)
        for target in (1 << 12, 1 << 30):
            assert audited(path, target) == expected


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(2, 6), cut=st.floats(0.2, 0.95))
def test_a_cut_archive_gives_the_games_of_its_intact_part_then_the_error(
    seed: int, count: int, cut: float, tmp_path: Path
) -> None:
    text = compose(seed, count)
    data = gzip.compress(text.encode())
    path = tmp_path / f"cut-{seed}.pgn.gz"
    path.write_bytes(data[: int(len(data) * cut)])
    games, _, error = scanned(path)
    assert error is not None and error.code == "file_error" and error.details["file"] == str(path)
    intact = reference(text)
    whole = games[:-1]  # the last game read is the one the fault cut (or the last whole one before it)
    assert whole == intact[: len(whole)]
    from pychessdraw.batch.audit.chunks import games, plan
    from pychessdraw.errors import FileError

    found = []
    with pytest.raises(FileError) as fault:
        for chunk in plan(str(path), 1 << 30):
            for game in games(chunk):  # one by one: the fault comes after the games before it
                found.append(key(game))
    assert fault.value.details["file"] == str(path)
    assert found[: len(whole)] == whole  # the audit: the same games before the fault, then the same error


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus (../shared/corpus) is absent: generated games used")
def test_the_corpus_is_what_the_property_reads() -> None:
    assert len(corpus_games()) >= 20
