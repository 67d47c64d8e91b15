"""The audit's Parquet schema: one row per game, built from a scan report.

| column | type | meaning |
|---|---|---|
| file | string | the input file |
| chunk | int32 | the chunk of the file that read the game |
| game | int64 | the game's number in its file, from 1 |
| headers | map<string, string> | every PGN header |
| result | string | the result as recorded (the Result header), null if none |
| plies | int32 | plies replayed |
| final_fen | string | the last position replayed (null if none) |
| outcome | string | what the rules say ended the game at its last position (null: nothing) |
| events | list<struct<ply: int32, rule: string, kind: string>> | first ply each rule ended the game (automatic) or became claimable (claimable, claimable_with_move) |
| time_forfeit | struct<flagged, recorded, by_rule, rules: string, should_be_draw, opponent_winnable: bool> | for a game lost on time: the finding (else null) |
| error | struct<code, message: string, ply: int32, token: string> | why the record cannot be replayed (else null) |
| verdict | string | ok, wrong_result, ended_earlier, undecided or error (:mod:`pychessdraw.records.judge`; undecided: the result hangs on a question the search left open) |
| expected_result | string | the result the rules give where it differs from the record |
| ended_at | int32 | the ply at which the rules ended the game |
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

EVENT = pa.struct([("ply", pa.int32()), ("rule", pa.string()), ("kind", pa.string())])
TIME_FORFEIT = pa.struct(
    [
        ("flagged", pa.string()),
        ("recorded", pa.string()),
        ("by_rule", pa.string()),
        ("rules", pa.string()),
        ("should_be_draw", pa.bool_()),
        ("opponent_winnable", pa.bool_()),
    ]
)
ERROR = pa.struct([("code", pa.string()), ("message", pa.string()), ("ply", pa.int32()), ("token", pa.string())])

SCHEMA = pa.schema(
    [
        ("file", pa.string()),
        ("chunk", pa.int32()),
        ("game", pa.int64()),
        ("headers", pa.map_(pa.string(), pa.string())),
        ("result", pa.string()),
        ("plies", pa.int32()),
        ("final_fen", pa.string()),
        ("outcome", pa.string()),
        ("events", pa.list_(EVENT)),
        ("time_forfeit", TIME_FORFEIT),
        ("error", ERROR),
        ("verdict", pa.string()),
        ("expected_result", pa.string()),
        ("ended_at", pa.int32()),
    ]
)


def row(report: dict[str, Any], file: str, chunk: int) -> dict[str, Any]:
    """One scan report (:func:`pychessdraw.records.scan.scan_game`) as a row."""
    final = report.get("final") or {}
    outcome = final.get("outcome")
    error = report.get("error")
    return {
        "file": file,
        "chunk": chunk,
        "game": report["game"],
        "headers": list(report["headers"].items()),
        "result": report["headers"].get("Result"),
        "plies": report["plies"],
        "final_fen": final.get("fen"),
        "outcome": None if outcome is None else outcome["termination"],
        "events": report["events"],
        "time_forfeit": report.get("time_forfeit"),
        "error": None
        if error is None
        else {
            "code": error.get("code"),
            "message": error.get("message"),
            "ply": error.get("ply"),
            "token": None if error.get("token") is None else str(error["token"]),
        },
        "verdict": report["verdict"],
        "expected_result": report["expected_result"],
        "ended_at": report["ended_at"],
    }


def table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=SCHEMA)
