"""Auditing games: replay each game of a PGN stream and report, per rule, the
first ply at which it ended the game, became claimable, or became claimable
with an intended move.

Per ply this checks only what can still produce a new event: once a rule's
event is recorded it is not looked for again, and the intended-move check
for repetition costs nothing unless some position already stood twice.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from .errors import RefereeError
from .game import Game
from .outcome import Termination
from .pgn import PgnGame, game_from_headers, read_games
from .rules import fifty, repetition

AUTOMATIC, CLAIMABLE, WITH_MOVE = "automatic", "claimable", "claimable_with_move"
_CLAIM_RULES = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)


class _Events:
    def __init__(self) -> None:
        self.first: dict[tuple[str, str], int] = {}

    def add(self, rule: str, kind: str, ply: int) -> None:
        self.first.setdefault((rule, kind), ply)

    def has(self, rule: str, kind: str) -> bool:
        return (rule, kind) in self.first

    def to_list(self) -> list[dict[str, Any]]:
        rows = [{"ply": p, "rule": r, "kind": k} for (r, k), p in self.first.items()]
        return sorted(rows, key=lambda e: e["ply"])


def _observe(game: Game, events: _Events, has_legal_move: bool | None = None) -> None:
    ply = game.ply
    auto = game.automatic_outcome(has_legal_move=has_legal_move)
    if auto is not None:
        events.add(auto.termination.value, AUTOMATIC, ply)
        return
    clock = game._clocks[ply]
    if clock >= fifty.CLAIM_PLIES:
        events.add(Termination.FIFTY_MOVES.value, CLAIMABLE, ply)
    elif clock == fifty.CLAIM_PLIES - 1 and not events.has("fifty_moves", WITH_MOVE):
        if fifty.intended_moves(game._board):
            events.add(Termination.FIFTY_MOVES.value, WITH_MOVE, ply)
    if clock < 3:
        return  # no repetition possible yet
    if game.repetition_count() >= repetition.CLAIM_COUNT:
        events.add(Termination.THREEFOLD_REPETITION.value, CLAIMABLE, ply)
    elif not events.has("threefold_repetition", WITH_MOVE):
        targets = repetition.twice_seen(game._keys, game._clocks, ply)
        if targets and repetition.intended_moves(game._board, targets):
            events.add(Termination.THREEFOLD_REPETITION.value, WITH_MOVE, ply)


def scan_game(parsed: PgnGame, number: int) -> dict[str, Any]:
    """One game's report: headers, plies played, final status, events, error."""
    report: dict[str, Any] = {"game": number, "headers": parsed.headers, "plies": 0,
                              "final": None, "events": [], "error": None}
    events = _Events()
    try:
        game = game_from_headers(parsed.headers)
    except RefereeError as exc:
        report["error"] = exc.to_dict()
        return report
    error: RefereeError | None = None
    # Each position is observed once the next move is parsed: a legal next
    # move proves that the position is neither mate nor stalemate.
    for token in parsed.tokens:
        try:
            move = game.parse_move(token)
        except RefereeError as exc:
            ply = game.ply + 1
            error = type(exc)(f"ply {ply} ({token!r}): {exc.message}", ply=ply, token=token)
            break
        _observe(game, events, has_legal_move=True)
        game._push(move)  # scan keeps replaying past an ending, to audit the record
    _observe(game, events)
    if error is None and parsed.error is not None:
        error = parsed.error
    report["plies"] = game.ply
    report["final"] = game.status().to_dict()
    report["events"] = events.to_list()
    report["error"] = None if error is None else error.to_dict()
    return report


def scan(lines: Iterable[str], start: int = 1) -> Iterator[dict[str, Any]]:
    for number, parsed in enumerate(read_games(lines), start):
        yield scan_game(parsed, number)
