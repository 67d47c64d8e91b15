"""Auditing games: replay each game of a PGN stream and report, per rule, the
first ply at which it ended the game, became claimable, or became claimable
with an intended move.

Per ply this checks only what can still produce a new event: once a rule's
event is recorded it is not looked for again, and the intended-move check
for repetition costs nothing unless some position already stood twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import chess

from ..contract import StatusDict, TimeForfeitDict
from ..errors import BadPgnError, RefereeError
from ..game import Game
from ..outcome import Termination, color_name, says_lost_on_time
from ..pgn import PgnGame, game_from_headers, read_games
from ..rules import fifty, repetition, timeout
from ..rules.dead import SearchBudget
from .final_search import AUTO, FinalSearch, dead_undecided, targeted_final
from .judge import judge

AUTOMATIC, CLAIMABLE, WITH_MOVE = "automatic", "claimable", "claimable_with_move"
_CLAIM_RULES = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)


class Events:
    """The first ply of each (rule, kind) seen in one game, in the order
    found; :func:`observe` adds to it, ``scan`` and ``watch`` share it."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], int] = {}

    def add(self, rule: str, kind: str, ply: int) -> None:
        self.first.setdefault((rule, kind), ply)

    def has(self, rule: str, kind: str) -> bool:
        return (rule, kind) in self.first

    def to_list(self) -> list[dict[str, Any]]:
        rows = [{"ply": p, "rule": r, "kind": k} for (r, k), p in self.first.items()]
        return sorted(rows, key=lambda e: e["ply"])


def observe(game: Game, events: Events, has_legal_move: bool | None = None) -> None:
    """Record the events of the current position (ply ``game.ply``) that
    ``events`` does not hold yet: an automatic ending, a claim, a claim with
    an intended move. ``has_legal_move``: True when the caller knows a legal
    move exists (it skips the mate and stalemate test), None to test."""
    ply = game.ply
    auto = game.automatic_outcome(has_legal_move=has_legal_move, dead_check=game.is_irreversible())
    if auto is not None:
        events.add(auto.termination.value, AUTOMATIC, ply)
        return
    clock = game.halfmove_clock
    if clock >= fifty.CLAIM_PLIES:
        events.add(Termination.FIFTY_MOVES.value, CLAIMABLE, ply)
    elif clock == fifty.CLAIM_PLIES - 1 and not events.has("fifty_moves", WITH_MOVE):
        if game.intended_moves(Termination.FIFTY_MOVES):
            events.add(Termination.FIFTY_MOVES.value, WITH_MOVE, ply)
    if clock < 3:
        return  # no repetition possible yet
    if game.repetition_count() >= repetition.CLAIM_COUNT:
        events.add(Termination.THREEFOLD_REPETITION.value, CLAIMABLE, ply)
    elif not events.has("threefold_repetition", WITH_MOVE):
        if game.intended_moves(Termination.THREEFOLD_REPETITION):
            events.add(Termination.THREEFOLD_REPETITION.value, WITH_MOVE, ply)


def lost_on_time(headers: dict[str, str]) -> chess.Color | None:
    """The side the record says lost on time, if it does."""
    result = headers.get("Result")
    if result not in ("1-0", "0-1") or not says_lost_on_time(
        headers.get("Termination"), headers.get("TerminationDetails")
    ):
        return None
    return chess.WHITE if result == "0-1" else chess.BLACK


def audit_time_forfeit(headers: dict[str, str], final: StatusDict) -> TimeForfeitDict | None:
    """For a game lost on time: the result the rules give (FIDE 6.9 or US
    Chess) and whether the record should have been a draw. ``final`` is the
    final status as JSON (``Status.to_dict``)."""
    flagged = lost_on_time(headers)
    if flagged is None:
        return None
    name = color_name(flagged)
    outcome = final["outcome"]
    flags = final["flag_fall"]
    by_rule = outcome["result"] if outcome is not None else None if flags is None else flags[name]
    winnable = final.get("winnable")
    return {
        "flagged": name,
        "recorded": headers["Result"],
        "by_rule": by_rule,
        "rules": final["flag_rules"],
        "should_be_draw": by_rule == "1/2-1/2",
        "opponent_winnable": None if winnable is None else winnable[color_name(not flagged)],
    }


def scan_game(
    parsed: PgnGame, number: int, *, final_search: FinalSearch = AUTO, flag_rules: str = timeout.FIDE
) -> dict[str, Any]:
    """One game's report: headers, plies played, final status, events, error,
    for a game lost on time, whether it should have been a draw, and
    ``dead_undecided``: whether the final position might be dead but was
    not decided (:func:`pychessdraw.records.final_search.dead_undecided`).

    Every ply gets the cheap checks. The final position is searched with
    ``final_search``: a budget searches both sides (``rules.dead.DEEP`` is
    the old default), ``AUTO`` searches only where the answer can change
    the verdict (see :func:`sides_to_search`)."""
    report: dict[str, Any] = {
        "game": number,
        "headers": parsed.headers,
        "plies": 0,
        "final": None,
        "events": [],
        "error": None,
        "time_forfeit": None,
        "dead_undecided": False,
    }
    events = Events()
    try:
        game = game_from_headers(parsed.headers, flag_rules=flag_rules)
    except RefereeError as exc:
        report["error"] = exc.to_dict()
        report.update(judge(report))
        return report
    error: RefereeError | None = None
    # Each position is observed once the next move is parsed: a legal next
    # move proves that the position is neither mate nor stalemate.
    for token in parsed.tokens:
        try:
            move = game.parse_move(token)
        except RefereeError as exc:
            ply = game.ply + 1
            error = type(exc)(f"ply {ply} ({token!r}): {exc.message}", ply=ply, token=token, reason=exc.message)
            break
        observe(game, events, has_legal_move=True)
        game.push(move)  # scan keeps replaying past an ending, to audit the record
    observe(game, events)
    if error is None and parsed.error is not None:
        error = parsed.error
    report["plies"] = game.ply
    if isinstance(final_search, SearchBudget):
        final = game.status(search=final_search).to_dict()
    else:
        flagged = lost_on_time(parsed.headers) if error is None else None
        final = targeted_final(game, flagged)
    outcome = final["outcome"]
    if outcome is not None and outcome["termination"] == Termination.DEAD_POSITION.value:
        events.add(Termination.DEAD_POSITION.value, AUTOMATIC, game.ply)
    report["final"] = final
    if error is None:
        report["time_forfeit"] = audit_time_forfeit(parsed.headers, final)
        report["dead_undecided"] = dead_undecided(game.board, final)
    report["events"] = events.to_list()
    report["error"] = None if error is None else error.to_dict()
    report.update(judge(report))
    return report


def scan(
    lines: Iterable[str], start: int = 1, *, final_search: FinalSearch = AUTO, flag_rules: str = timeout.FIDE
) -> Iterator[dict[str, Any]]:
    """The report of each game of ``lines``. Where ``lines`` ended early (a
    read fault kept in its ``error``, as :class:`~pychessdraw.batch.inputs.TextLines`
    does), the game read last is cut: it is reported as a ``bad_pgn`` error
    naming the fault, never judged as if it had ended there."""
    for number, parsed in enumerate(read_games(lines), start):
        mark_cut(parsed, getattr(lines, "error", None))
        yield scan_game(parsed, number, final_search=final_search, flag_rules=flag_rules)


def mark_cut(parsed: PgnGame, fault: RefereeError | None) -> None:
    """Mark ``parsed`` as cut by ``fault`` (a read that ended early), once
    the lines ended with it: the games before it were whole."""
    if fault is not None and parsed.error is None:
        parsed.error = BadPgnError(
            f"the game is cut: {fault.message}", ply=len(parsed.tokens) + 1, token="", **_where(fault)
        )


def _where(fault: RefereeError) -> dict[str, Any]:
    return {key: fault.details[key] for key in ("file", "offset") if key in fault.details}
