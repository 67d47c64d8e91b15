"""What a worker does with one chunk: count its games, or audit them into
one Parquet file (written under a temporary name, renamed when complete).

Both are pure functions of the chunk and the options, so a chunk redone
after a worker died gives the same file.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from typing import Any

import pyarrow.parquet as pq

from ..final_search import AUTO, FinalSearch
from ..rules import dead
from ..scan import scan_game
from ..verdict import judge
from .chunks import Chunk, games
from .schema import row, table

SEARCHES: dict[str, FinalSearch] = {"static": dead.STATIC, "page": dead.PAGE, "deep": dead.DEEP, AUTO: AUTO}


def count_games(chunk: dict[str, Any]) -> int:
    """How many games the chunk owns (to number the games of later chunks)."""
    return sum(1 for _ in games(Chunk.from_dict(chunk)))


def part_name(chunk: Chunk, file_index: int) -> str:
    return f"part-{file_index:05d}-{chunk.index:06d}.parquet"


def audit_chunk(chunk_data: dict[str, Any], first_game: int, path: str, search: str,
                flag_rules: str) -> dict[str, Any]:
    """Audit the chunk's games, numbered from ``first_game``, into ``path``.

    Returns the chunk's summary: ``status`` ("done", or "error" with
    ``error`` when the chunk's data cannot be read), games, plies, counts
    per verdict and per rule, and the wrong results."""
    chunk = Chunk.from_dict(chunk_data)
    final_search = SEARCHES[search]
    rows = []
    verdicts: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    wrong = []
    plies = 0
    try:
        for number, parsed in enumerate(games(chunk), first_game):
            try:
                report = scan_game(parsed, number, final_search=final_search, flag_rules=flag_rules)
            except Exception as exc:  # a bug must cost one game, not the archive
                report = {"game": number, "headers": parsed.headers, "plies": 0, "final": None, "events": [],
                          "time_forfeit": None,
                          "error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}}
                report.update(judge(report))
            rows.append(row(report, chunk.path, chunk.index))
            plies += report["plies"]
            verdicts[report["verdict"]] += 1
            for event in report["events"]:
                rules[f"{event['rule']} ({event['kind']})"] += 1
            if report["verdict"] == "wrong_result":
                headers = report["headers"]
                wrong.append({"file": chunk.path, "game": number, "site": headers.get("Site"),
                              "recorded": headers.get("Result"), "expected": report["expected_result"]})
    except Exception as exc:  # corrupt compressed data, a vanished file
        return {"status": "error", "error": f"{chunk.name}: cannot read: {type(exc).__name__}: {exc}",
                "games": 0, "plies": 0, "verdicts": {}, "rules": {}, "wrong": []}
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.tmp-{uuid.uuid4().hex}")  # "." : readers skip it
    pq.write_table(table(rows), temporary)
    os.replace(temporary, path)
    return {"status": "done", "games": len(rows), "plies": plies, "verdicts": dict(verdicts),
            "rules": dict(rules), "wrong": wrong}
