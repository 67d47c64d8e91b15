"""The referee's verdict on a recorded game: one word shared by the CLI's
scan, the page's review and the archive audit.

- ``error``: the record cannot be replayed (an illegal move, broken text).
- ``ended_earlier``: the rules ended the game before its last move
  (checkmate, stalemate, fivefold, 75 moves, dead position): the moves after
  that ply are void, and the result is the one that ending gives.
- ``wrong_result``: the game was played to its end, but the recorded result
  is not the one the rules give (a loss on time where the winner could not
  mate, FIDE 6.9; a result that contradicts a mate or a draw on the board).
- ``undecided``: the recorded result hangs on a question the referee left
  open within its search budget, so it neither confirms nor refutes it.
  Exactly two cases, both with a decisive result (1-0 or 0-1) and no
  ending on the board at the last position:

  1. a loss on time whose winner's mating chances were not decided
     (``time_forfeit.opponent_winnable`` is null: no material proof, no
     locked wall, and the search ran out) and that the flag-fall rules do
     not already make a draw; the win stands under FIDE 6.9 unless a draw
     is proven, so ``expected_result`` stays null;
  2. any other decisive game whose final position might be dead (the gate
     of :func:`pychessdraw.records.final_search.might_be_dead`: one side proven
     unable to mate, every side's pawns blocked or its material unable to
     mate, or a single legal move) and whose search left it open
     (``dead_undecided`` in the report): a dead final position would make
     it a draw (FIDE 5.2.2). Under ``--search auto`` that is a search that
     ran out; under ``--search static``, which searches nothing, every such
     position.

  A recorded draw is never undecided: a dead final position would give the
  same result.
- ``ok``: the record was checked and nothing stands against it: every ply
  replayed legally, no automatic ending before the last move as far as the
  per-ply proofs see (the cheap dead-position proofs at every ply, the
  deeper search only on the final position, as chosen), the recorded
  result agrees with the board, and a loss on time was decided.

A verdict never guesses why a game ended where the record does not say:
a decisive result with no automatic ending is taken as resignation or time
and is ``ok`` unless a time forfeit is recorded and the rules make it a draw
(or leave it undecided, above). Limit: a dead position before the last ply
that only a deep search would prove is not looked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..contract import ResultName, VerdictDict, VerdictName
from ..i18n import marked
from ..moves import move_number, start_of

OK: Final = "ok"
WRONG_RESULT: Final = "wrong_result"
ENDED_EARLIER: Final = "ended_earlier"
ERROR: Final = "error"
UNDECIDED: Final = "undecided"
VERDICTS: tuple[VerdictName, ...] = (OK, WRONG_RESULT, ENDED_EARLIER, UNDECIDED, ERROR)
#: Each verdict in words, for people (the review table, the Arbiter view).
VERDICT_WORDS = {
    OK: marked("ok"),
    WRONG_RESULT: marked("wrong result"),
    ENDED_EARLIER: marked("ended earlier"),
    UNDECIDED: marked("undecided"),
    ERROR: marked("error"),
}
RESULTS = ("1-0", "0-1", "1/2-1/2")


def judge(report: Mapping[str, Any]) -> VerdictDict:
    """The verdict on one scan report (see :func:`pychessdraw.records.scan.scan_game`).

    Returns ``{"verdict", "expected_result", "ended_at"}``: the result the
    rules give where it differs from or is missing in the record (else
    None), and the ply at which the rules ended the game (else None)."""
    if report.get("error") is not None:
        return {"verdict": ERROR, "expected_result": None, "ended_at": None}
    recorded = report.get("headers", {}).get("Result")
    final = report.get("final") or {}
    plies = report.get("plies", 0)
    ended = [e for e in report.get("events", ()) if e["kind"] == "automatic"]
    if ended and ended[0]["ply"] < plies:
        first = ended[0]
        return {
            "verdict": ENDED_EARLIER,
            "expected_result": _result_of(first["rule"], first["ply"], report),
            "ended_at": first["ply"],
        }
    outcome = final.get("outcome")
    if outcome is not None and not outcome.get("claimed") and recorded in RESULTS and outcome["result"] != recorded:
        return {"verdict": WRONG_RESULT, "expected_result": outcome["result"], "ended_at": plies}
    forfeit = report.get("time_forfeit")
    if forfeit is not None and forfeit.get("should_be_draw"):
        return {"verdict": WRONG_RESULT, "expected_result": "1/2-1/2", "ended_at": None}
    if outcome is None and recorded in ("1-0", "0-1"):
        open_flag = forfeit is not None and forfeit.get("opponent_winnable") is None
        if open_flag or (forfeit is None and report.get("dead_undecided")):
            return {"verdict": UNDECIDED, "expected_result": None, "ended_at": None}
    return {"verdict": OK, "expected_result": None, "ended_at": plies if outcome is not None else None}


def _result_of(rule: str, ply: int, report: Mapping[str, Any]) -> ResultName:
    """The result of an automatic ending at ``ply``: every automatic ending is
    a draw but checkmate, won by the side that moved into ``ply``."""
    if rule != "checkmate":
        return "1/2-1/2"
    _, mover_white = move_number(ply, *start_of(report.get("headers", {})))
    return "1-0" if mover_white else "0-1"
