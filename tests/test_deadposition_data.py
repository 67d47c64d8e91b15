# SPDX-License-Identifier: GPL-3.0-or-later
"""Dead-position solver against the shared labelled set and real games.

Never a wrong answer: ``True``/``False`` must agree with the label (``None``
is allowed).  By default a random sample keeps the run short; set
``PYCHESSDRAW_FULL=1`` to check every labelled position and more games.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import chess
import chess.pgn
import pytest

from pychessdraw.deadposition import can_checkmate, is_dead, quick_verdict

pytestmark = pytest.mark.slow  # left out by `make test-quick`

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
POSITIONS = SHARED / "dead-positions" / "positions.txt"
CORPUS = SHARED / "corpus" / "tcec-dev.pgn"
FULL = os.environ.get("PYCHESSDRAW_FULL") == "1"


def _labelled() -> list[tuple[str, str]]:
    if not POSITIONS.exists():
        pytest.skip(f"labelled positions not found at {POSITIONS} (shared data beside the checkout)")
    rows = []
    for line in POSITIONS.read_text().splitlines():
        if line.startswith("#") or len(line) < 5:
            continue
        rows.append((line[:2], line[3:].strip()))
    return rows


def test_labelled_positions_never_wrong() -> None:
    rows = _labelled()
    if not FULL:
        rows = random.Random(2026).sample(rows, 150)
    budget = 0.3 if FULL else 0.05
    wrong = []
    for label, fen in rows:
        board = chess.Board(fen)
        for color, char in ((chess.WHITE, label[0]), (chess.BLACK, label[1])):
            truth = char != "-"
            q = quick_verdict(board, color)
            if q.winnable is not None and q.winnable != truth:
                wrong.append(("quick", label, fen, color, q.reason))
            v = can_checkmate(board, color, nodes=10**9, seconds=budget)
            if v.winnable is not None and v.winnable != truth:
                wrong.append(("search", label, fen, color, v.reason))
    assert not wrong, wrong[:10]


def test_labelled_locked_walls_fast() -> None:
    """Dead by material or by a locked wall: proven within ~30 ms per side."""
    rows = [r for r in _labelled() if r[0] == "--"]
    if not FULL:
        rows = random.Random(7).sample(rows, 60)
    for _label, fen in rows:
        board = chess.Board(fen)
        q = [quick_verdict(board, c).winnable for c in chess.COLORS]
        if q == [False, False]:
            assert is_dead(board, nodes=200, seconds=0.03) is True


def _games(n: int, seed: int) -> list[chess.pgn.Game]:
    if not CORPUS.exists():
        pytest.skip(f"game corpus not found at {CORPUS} (shared data beside the checkout)")
    offsets = []
    with CORPUS.open() as f:
        while True:
            off = f.tell()
            headers = chess.pgn.read_headers(f)
            if headers is None:
                break
            offsets.append((off, headers.get("Termination", "")))
    rng = random.Random(seed)
    chosen = rng.sample(offsets, min(n, len(offsets)))
    chosen += rng.sample([o for o in offsets if o[1] == "insufficient_material"], 3 if not FULL else 20)
    games = []
    with CORPUS.open() as f:
        for off, _ in sorted(set(chosen)):
            f.seek(off)
            game = chess.pgn.read_game(f)
            if game is not None:
                games.append(game)
    return games


def test_real_games_no_dead_position_before_the_end() -> None:
    """The server ended each game at the first dead position, never earlier."""
    games = _games(40 if FULL else 6, 11)
    for game in games:
        board = game.board()
        moves = list(game.mainline_moves())
        for i, move in enumerate(moves):
            # Before the last move no position may be dead: such a proof is wrong.
            if i % (1 if FULL else 4) == 0:
                assert is_dead(board, nodes=10**9, seconds=0.02) is not True, (game.headers, board.fen())
            board.push(move)
        if game.headers.get("Termination") == "insufficient_material":
            assert is_dead(board, nodes=10**9, seconds=0.5) is True, board.fen()
