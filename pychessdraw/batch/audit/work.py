"""What a worker does with one chunk: count its games, or audit them into
one Parquet file (written under a temporary name, renamed when complete).

Both are pure functions of the chunk and the options, so a chunk redone
after a worker died gives the same file. An input whose size or
modification time is no longer the planned one is not read (the chunk
reports an error); an output that cannot be written raises FileError and
leaves no temporary file.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import pyarrow.parquet as pq

from ...errors import FileError
from ...pgn import read_games
from ...records.final_search import AUTO, FinalSearch
from ...records.judge import judge
from ...records.scan import mark_cut, scan_game
from ...rules import dead
from .chunks import Chunk, ChunkLines, games
from .schema import row, table

SEARCHES: dict[str, FinalSearch] = {"static": dead.STATIC, "page": dead.PAGE, "deep": dead.DEEP, AUTO: AUTO}


def count_games(chunk: dict[str, Any]) -> int:
    """How many games the chunk owns (to number the games of later chunks)."""
    return sum(1 for _ in games(Chunk.from_dict(chunk)))


def part_name(chunk: Chunk, file_index: int) -> str:
    return f"part-{file_index:05d}-{chunk.index:06d}.parquet"


def failed(message: str) -> dict[str, Any]:
    """The summary of a chunk that could not be audited."""
    return {"status": "error", "error": message, "games": 0, "plies": 0, "verdicts": {}, "rules": {}, "wrong": []}


def _moved(path: str, expect: dict[str, Any] | None) -> str | None:
    """Why ``path`` is not the file planned (size and modification time of
    ``expect``; None: it is, or nothing is expected). The time is compared
    in whole seconds: a shared filesystem may show a worker another
    precision than the driver. (A same-size change within that second is
    caught by the hash when the run is resumed.)"""
    if expect is None:
        return None
    try:
        info = os.stat(path)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    second = 10**9
    if (info.st_size, info.st_mtime_ns // second) != (expect["size"], expect["mtime_ns"] // second):
        return "the file changed during the audit (size or modification time): audit it again into a new --out"
    return None


def write_atomically(path: str, write: Callable[[str], None]) -> None:
    """``write(temporary)`` to a hidden name beside ``path`` ("." : readers
    skip it), renamed to ``path`` when complete. FileError if it cannot be
    written (disk full, read-only), the temporary file removed."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.tmp-{uuid.uuid4().hex}")
    try:
        write(temporary)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            os.remove(temporary)
        except OSError:
            pass  # never created
        raise FileError(f"cannot write {path}: {exc.strerror or exc}", file=path) from None


def write_part(rows: list[dict[str, Any]], path: str) -> None:
    """The rows as the Parquet file ``path`` (:func:`write_atomically`)."""
    write_atomically(path, lambda temporary: pq.write_table(table(rows), temporary))


def audit_chunk(
    chunk_data: dict[str, Any],
    first_game: int,
    path: str,
    search: str,
    flag_rules: str,
    expect: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Audit the chunk's games, numbered from ``first_game``, into ``path``.

    Returns the chunk's summary: ``status`` ("done", or "error" with
    ``error`` when the chunk's data cannot be read or its file is no longer
    the one of ``expect``: ``size`` and ``mtime_ns``, checked before and
    after reading), games, plies, counts per verdict and per rule, and the
    wrong results. Raises FileError if ``path`` cannot be written."""
    chunk = Chunk.from_dict(chunk_data)
    final_search = SEARCHES[search]
    rows = []
    verdicts: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    wrong = []
    plies = 0
    moved = _moved(chunk.path, expect)
    if moved is not None:
        return failed(f"{chunk.name}: {moved}")
    lines = ChunkLines(chunk)
    try:
        for number, parsed in enumerate(read_games(lines), first_game):
            mark_cut(parsed, lines.error)  # the game a read fault cut: an error, not a game that ended there
            try:
                report = scan_game(parsed, number, final_search=final_search, flag_rules=flag_rules)
            except Exception as exc:  # a bug must cost one game, not the archive
                report = {
                    "game": number,
                    "headers": parsed.headers,
                    "plies": 0,
                    "final": None,
                    "events": [],
                    "time_forfeit": None,
                    "error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"},
                }
                report.update(judge(report))
            rows.append(row(report, chunk.path, chunk.index))
            plies += report["plies"]
            verdicts[report["verdict"]] += 1
            for event in report["events"]:
                rules[f"{event['rule']} ({event['kind']})"] += 1
            if report["verdict"] == "wrong_result":
                headers = report["headers"]
                wrong.append(
                    {
                        "file": chunk.path,
                        "game": number,
                        "site": headers.get("Site"),
                        "recorded": headers.get("Result"),
                        "expected": report["expected_result"],
                    }
                )
    except Exception as exc:  # corrupt compressed data, a vanished file
        return failed(f"{chunk.name}: cannot read: {type(exc).__name__}: {exc}")
    moved = _moved(chunk.path, expect)
    if moved is not None:
        return failed(f"{chunk.name}: {moved}")
    write_part(rows, path)  # after a read fault too: the games read before it stay
    summary: dict[str, Any] = {
        "status": "done",
        "games": len(rows),
        "plies": plies,
        "verdicts": dict(verdicts),
        "rules": dict(rules),
        "wrong": wrong,
    }
    if lines.error is not None:
        summary["error"] = f"{chunk.name}: {lines.error.message}"
    return summary
