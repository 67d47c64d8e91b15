"""The bridge's export: the game as PGN, its tags from the game itself where
the game knows them (the start position, the ending), an imported game
untouched as recorded, and the page's clocks as TimeControl and [%clk].
"""

from __future__ import annotations

import datetime

from .. import pgn
from ..game import Game
from . import clockpgn

ENDING_TAGS = ("Result", "Termination", "TerminationDetails")  # exported from the game's own ending
BOARD_TAGS = ("FEN", "SetUp", "Variant")  # exported from the game's own start position, never from text


def export_pgn(
    game: Game,
    headers: dict[str, str],
    clocks: tuple[dict[str, float], dict[int, int]] | None,
    *,
    recorded: str | None,
    note: str | None = None,
) -> str:
    """``game`` as PGN with ``headers``: with the page's clocks (time control,
    ms by ply) when given; else as recorded (``recorded``: the record's
    result, for an imported game still exactly as imported); else with the
    game's own ending. ``note`` goes in the comment after the last move,
    before the ending's words (an automatic claim says so there)."""
    if clocks is not None:
        return clockpgn.export_with_clocks(game, tags(headers, ENDING_TAGS), clocks[0], clocks[1], note=note)
    if recorded is not None:
        return export_as_recorded(game, {"Result": recorded, **tags(headers, ())})
    return pgn.export(game, tags(headers, ENDING_TAGS), {game.ply: note} if note else None)


EVENT = "Casual game"  # as chess sites name a game played on them (English: programs read tags)
UNKNOWN = ("", "?", "????.??.??")


def page_tags(headers: dict[str, str], given: dict[str, str]) -> dict[str, str]:
    """The tags of a game played (or continued) on the page: the players'
    names as the page shows them, the Event and Date the record has, else
    the ones given, else "Casual game" and today (the worker's clock, which
    is the browser's). A new dict; ``headers`` is not changed."""
    out = dict(headers)
    for tag in ("White", "Black"):
        if given.get(tag):
            out[tag] = given[tag]
    for tag, default in (("Event", EVENT), ("Date", datetime.date.today().strftime("%Y.%m.%d"))):
        if out.get(tag, "") in UNKNOWN:
            out[tag] = given.get(tag) or default
    return out


def tags(headers: dict[str, str], drop: tuple[str, ...]) -> dict[str, str]:
    """The tags to export: the start position's come from the game itself."""
    return {k: v for k, v in headers.items() if k not in drop and k not in BOARD_TAGS}


def export_as_recorded(game: Game, headers: dict[str, str]) -> str:
    """The imported game with its tags as recorded (Result, Termination unchanged)."""
    import chess.pgn

    record = chess.pgn.Game.from_board(game.board)
    for name, value in headers.items():
        record.headers[name] = value
    record.headers["Result"] = headers.get("Result", "*")
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return record.accept(exporter)
