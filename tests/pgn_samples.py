"""Self-contained PGN archives for the input and audit tests: seeded random
games with every kind of record (decisive, drawn, lost on time, broken)."""

from __future__ import annotations

import random
import struct
import textwrap

import chess

SKIPPABLE = 0x184D2A50


def random_games(count: int, seed: int = 1) -> str:
    """``count`` games of random legal moves; every 9th is a loss on time,
    the 7th has an illegal move, the first has no headers."""
    rng = random.Random(seed)
    out = []
    for number in range(1, count + 1):
        board = chess.Board()
        sans = []
        for _ in range(rng.randrange(4, 140)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(board.san(move))
            board.push(move)
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        if board.is_checkmate():
            result = "0-1" if board.turn == chess.WHITE else "1-0"
        if number == 7:
            sans.insert(len(sans) // 2, "Ke9")
        words = []
        for i, san in enumerate(sans):
            words.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
        moves_text = " ".join(words + [result])
        lines = textwrap.wrap(moves_text, 79)  # wrapped like real PGN
        if number == 1:  # only a first game can go without headers
            out.append("\n".join(lines) + "\n\n")
            continue
        headers = [f'[Event "Test {number}"]', f'[Site "https://example.org/{number}"]', f'[Result "{result}"]']
        if number % 9 == 0 and result != "1/2-1/2":
            headers.append('[Termination "Time forfeit"]')
        out.append("\n".join(headers) + "\n\n" + "\n".join(lines) + "\n\n")
    return "".join(out)


def pzstd_bytes(data: bytes, frame_size: int) -> bytes:
    """``data`` compressed as pzstd lays it out: independent frames of
    ``frame_size`` input bytes, each after a skippable frame holding its
    compressed size."""
    import zstandard

    out = []
    compressor = zstandard.ZstdCompressor(level=3)
    for start in range(0, len(data), frame_size):
        frame = compressor.compress(data[start : start + frame_size])
        out.append(struct.pack("<III", SKIPPABLE, 4, len(frame)) + frame)
    return b"".join(out)
