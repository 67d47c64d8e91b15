"""The bridge's replay: a saved or imported game played move by move onto a
new game (each move checked; the rules' own ending found on the way), its
declared ending declared again, a broken record cut before its first bad
move, and the games of a PGN text named for the page to choose from.
"""

from __future__ import annotations

from typing import Any

from .. import pgn
from ..errors import BadRequestError, RefereeError
from ..game import Game
from ..outcome import Outcome, Termination
from ..rules import dead
from . import flagfall, present
from .args import COLORS, arg_color, move_error, short
from .contract import Ending, MoveRow, OutcomeView

MAX_MOVES = pgn.MAX_PLIES  # moves of one restored or imported game


def declare(game: Game, ending: dict[str, Any]) -> tuple[Ending, flagfall.FlagWords | None]:
    """Declare ``ending`` ({op, color}) on ``game``: what the page saves, and
    why a flag fall ended the game (the rule and the proof), if it did."""
    op = ending["op"]
    if op == "claim":
        if not game.claim_draw().accepted:
            raise BadRequestError("the saved draw claim does not hold in the saved position")
        if ending.get("auto") is True and ending.get("color") in ("white", "black"):
            return Ending(op="claim", color="white" if ending["color"] == "white" else "black", auto=True), None
        return {"op": "claim"}, None
    if op == "agree":
        game.agree_draw()
        return {"op": "agree"}, None
    color = arg_color(ending)
    (game.resign if op == "resign" else game.flag)(COLORS[color])
    declared = Ending(op=op, color="white" if color == "white" else "black")
    outcome = game.outcome()
    if op == "flag" and outcome is not None and outcome.termination is Termination.TIME_FORFEIT:
        # the banner names the rule and the proof (the search was just run by flag)
        return declared, flagfall.explain(game.board, game.status(search=dead.DEEP), COLORS[color])
    return declared, None


def legal_prefix(start: Game, tokens: list[str]) -> list[str]:
    """The tokens before the first one that is not a legal move."""
    game = Game(start.start_fen, chess960=start.chess960)
    for i, token in enumerate(tokens[:MAX_MOVES]):
        try:
            game.push(game.parse_move(token))
        except RefereeError:
            return tokens[:i]
    return tokens


def game_label(index: int, game: pgn.PgnGame) -> str:
    h = game.headers
    who = f"{h.get('White', '?')} - {h.get('Black', '?')}"
    extra = ", ".join(x for x in (h.get("Event"), h.get("Date"), game.result or h.get("Result")) if x and x != "?")
    plies = len(game.tokens)
    return short(f"{index + 1}. {who}" + (f" ({extra})" if extra else "") + f", {plies} plies", 120)


def replay(game: Game, tokens: list[str]) -> tuple[list[MoveRow], tuple[int, OutcomeView] | None]:
    """Play ``tokens`` (each checked for legality) past any automatic
    ending; returns the rows and where the rules ended the game, if
    before the last move."""
    if len(tokens) > MAX_MOVES:
        raise BadRequestError(f"at most {MAX_MOVES} moves")
    rows: list[MoveRow] = []
    ended: tuple[int, Outcome] | None = None
    for token in tokens:
        if ended is None:
            auto = game.automatic_outcome(has_legal_move=True, dead_check=game.is_irreversible())
            if auto is not None:
                ended = (game.ply, auto)
        label = game.move_label(token)
        try:
            move = game.parse_move(token)
        except RefereeError as exc:
            raise move_error(exc, label, ply=game.ply + 1) from None
        san, uci = game.san(move), game.uci(move)
        game.push(move)
        rows.append(present.make_row(game, san, uci, after_end=ended is not None))
    view = None
    if ended is not None:
        ply, outcome = ended
        view = (
            ply,
            present.outcome_view(
                outcome, ended_at=ply, ended_at_label="at the start" if ply == 0 else f"after {rows[ply - 1]['label']}"
            ),
        )
    return rows, view
