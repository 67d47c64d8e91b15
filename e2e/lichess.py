# SPDX-License-Identifier: GPL-3.0-or-later
"""Real lichess games for the browser tests, taken at test time from the
shared corpus (``../shared/corpus/lichess-dev.pgn.zst`` beside the checkout):
the first games that carry ``[%clk]``, or games found by their address."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "lichess-dev.pgn.zst"
_CLK = re.compile(r"\[%clk (\d+):(\d\d):(\d\d)\]")

# 0mnvaQxd: a GM bullet game (45+0) in which Black's flag fell in K+R against K+R: White can mate
# (a helpmate), so 1-0 stands (FIDE 6.9), the case a player who believes it a draw asks about.
# 0qrkA3Ie: Black's flag fell with a lone king against K+Q+R: Black cannot mate (its material).
FLAG_FALLS = ("https://lichess.org/0mnvaQxd", "https://lichess.org/0qrkA3Ie")
#: The verdict the referee gives the first of them, in every browser.
FLAG_FALL_VERDICT = "Recorded 1-0; the rules agree: Black's flag fell after 82.Kf6"


def corpus_games() -> Iterator[str]:
    """The corpus's games, one text each, in the file's order (the test skips without it)."""
    if not CORPUS.exists():
        pytest.skip(f"{CORPUS} not found: this test needs the shared corpus in ../shared beside the checkout")
    zstandard = pytest.importorskip("zstandard", reason="reading the .pgn.zst corpus needs zstandard")
    current: list[str] = []
    with open(CORPUS, "rb") as raw:
        text = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        for line in io.TextIOWrapper(text, encoding="utf-8"):
            if line.startswith("[Event ") and current:
                yield "".join(current)
                current = []
            current.append(line)


def as_file(games: Iterable[str]) -> str:
    """Games as one PGN file's text."""
    return "\n".join(g.rstrip("\n") + "\n" for g in games)


def first_clocked(n: int) -> str:
    """The first ``n`` games of the corpus with ``[%clk]`` comments, as one file's text."""
    games: list[str] = []
    for game in corpus_games():
        if "%clk" in game:
            games.append(game)
            if len(games) == n:
                break
    return as_file(games)


def games_at(sites: Iterable[str]) -> list[str]:
    """The games of the corpus at these lichess addresses, in their order."""
    wanted = list(sites)
    found: dict[str, str] = {}
    for game in corpus_games():
        site = next((s for s in wanted if f'[Site "{s}"]' in game), None)
        if site is not None:
            found[site] = game
            if len(found) == len(wanted):
                break
    missing = [s for s in wanted if s not in found]
    assert not missing, f"not in the corpus: {missing}"
    return [found[s] for s in wanted]


def clocks_of(game_text: str) -> list[tuple[str, str, str]]:
    """Each move's ``%clk`` (hours, minutes, seconds), in the order played."""
    moves = game_text.split("\n\n", 1)[1]
    return _CLK.findall(moves)


def face(clk: tuple[str, str, str]) -> str:
    """``%clk h:mm:ss`` as a clock face: h:mm:ss from an hour, else m:ss."""
    h, m, s = (int(x) for x in clk)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
