"""How deep to search the final position of a recorded game.

A deep dead-position search costs milliseconds to a second a side; a scan
of an archive cannot afford one for every side of every game. ``AUTO``
searches deeply only where the answer can change the verdict:

- a game the record says was lost on time: the flagged side's opponent
  (FIDE 6.9: a draw if it cannot mate);
- a position the cheap proofs leave open but that might be dead: one side
  is already proven unable to mate, or every side's pawns are blocked or its
  material cannot mate (:func:`pychessdraw.rules.dead.may_be_dead`), or the
  side to move has a single legal move (a forced capture of the last mating
  piece is the classic trap). Then every open side is searched, and the
  search stops as soon as one side is shown able to mate.

Everything else gets the cheap proofs only (material, locked pawn walls).
Each search gets :data:`AUTO_BUDGET` (a node count, so the same answer on
every machine); a side it leaves open makes a decisive record
``undecided`` (:mod:`pychessdraw.records.judge`), never ``ok``.
Limit: a dead position that none of these gates flags (pieces confined
behind a wall that still leaves some pawn free, say) is not searched; use a
budget such as ``rules.dead.DEEP`` (``--search deep``) to search every final
position, both sides.
"""

from __future__ import annotations

import itertools

import chess

from ..contract import ByColor, StatusDict, WinnableDetailDict
from ..deadposition import Verdict, can_checkmate
from ..game import Game
from ..outcome import Outcome, Termination, color_name
from ..rules import dead, timeout
from ..rules.dead import SearchBudget
from ..rules.insufficient import cannot_mate

AUTO = "auto"
#: The budget of each side ``AUTO`` searches: the scan's, the audit's and the
#: page's review's. Counted in nodes only, never in seconds: the answers
#: (and their proof lines) then depend on the position alone, not on the
#: machine, its load or the browser, so a scan, an audit on any cluster and
#: the page's review give the same verdicts, byte for byte. 30,000 nodes
#: decide about as much of the hard set as ``DEEP``'s 1 s, and all but 2 of
#: a real-game corpus's final positions (benchmarks/README.md).
AUTO_BUDGET = SearchBudget(nodes=30_000)
FinalSearch = SearchBudget | str
"""A budget for both sides of every final position, or ``AUTO``."""


def might_be_dead(board: chess.Board, quick: dict[chess.Color, Verdict]) -> bool:
    """Could this position be dead, as far as the cheap proofs can tell?"""
    return _might_be_dead_given(board, [quick[c].winnable for c in chess.COLORS])


def dead_undecided(board: chess.Board, final: StatusDict) -> bool:
    """Is the final position one that might be dead (the gate of
    :func:`might_be_dead`, on the answers ``final`` holds after whatever
    search ran) and that is not decided: no outcome, no side shown able to
    mate, some side left open? Under ``AUTO`` that is a position whose deep
    search ran out of budget; under a budget without search (``static``),
    every such position (none was searched)."""
    if final["outcome"] is not None or "winnable" not in final:
        return False
    found = [final["winnable"]["white"], final["winnable"]["black"]]
    return None in found and _might_be_dead_given(board, found)


def _might_be_dead_given(board: chess.Board, found: list[bool | None]) -> bool:
    if True in found:
        return False
    if False in found:
        return True  # only the other side is left to decide it
    if dead.may_be_dead(board):
        return True
    return len(list(itertools.islice(board.generate_legal_moves(), 2))) == 1


def sides_to_search(
    board: chess.Board, quick: dict[chess.Color, Verdict], flagged: chess.Color | None
) -> list[chess.Color]:
    """The sides whose deep answer can change the verdict, most needed first."""
    sides: list[chess.Color] = []
    if flagged is not None and quick[not flagged].winnable is None:
        sides.append(not flagged)
    if might_be_dead(board, quick):
        sides += [c for c in (board.turn, not board.turn) if quick[c].winnable is None and c not in sides]
    return sides


def targeted_final(game: Game, flagged: chess.Color | None, budget: SearchBudget | None = None) -> StatusDict:
    """The final status (as JSON) with the deep search run only on the sides
    :func:`sides_to_search` names, each with ``budget`` (default
    :data:`AUTO_BUDGET`). ``flagged``: the side the record says lost on
    time, if any."""
    if budget is None:
        budget = AUTO_BUDGET
    final = game.status().to_dict()
    if final["outcome"] is not None:
        return final
    quick = game.winnable()
    board = game.board
    sides = sides_to_search(board, quick, flagged)
    if not sides:
        return final
    found = dict(quick)
    opponent = None if flagged is None else not flagged
    for color in sides:
        if color != opponent and any(v.winnable for v in found.values()):
            continue  # someone can mate: the position is not dead, no need to ask this side
        verdict = can_checkmate(board, color, nodes=budget.nodes, seconds=budget.seconds)
        found[color] = verdict
        name = color_name(color)
        if "winnable" in final and "winnable_detail" in final:
            final["winnable"][name] = verdict.winnable
            final["winnable_detail"][name] = detail(board, verdict)
    if all(v.winnable is False for v in found.values()):
        final["outcome"] = Outcome(Termination.DEAD_POSITION, None).to_dict()
        final["claims"] = []
        final["flag_fall"] = None
        return final
    flags = {
        color_name(c): timeout.result_if_flag_falls(
            board, c, cannot_mate(board, not c) or found[not c].winnable is False, game.flag_rules
        )
        for c in chess.COLORS
    }
    final["flag_fall"] = ByColor(white=flags["white"], black=flags["black"])
    return final


def detail(board: chess.Board, verdict: Verdict) -> WinnableDetailDict:
    """A verdict as JSON (the shape of ``winnable_detail``): the proof line in
    SAN, the reason, the nodes used."""
    line = None
    if verdict.line is not None:
        replay = board.copy(stack=False)
        line = [replay.san_and_push(move) for move in verdict.line]
    return WinnableDetailDict(line=line, reason=verdict.reason, nodes=verdict.nodes)
