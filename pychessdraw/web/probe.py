"""What each candidate move would do to the draw rules, one ply ahead.

A computer player that is winning must not walk into a draw by accident: a
move that makes a position stand for the third time lets the opponent claim
at once (FIDE 9.2.1.2), a move that leaves the opponent a repeating reply or
a reply completing fifty moves lets the opponent claim with an intended move
(9.2.1.1, 9.3.1), and a move may end the game by itself (stalemate, fivefold
repetition, seventy-five moves, a dead position). :func:`probe_moves` answers
these questions for a list of candidate moves by playing each on the game and
taking it back: the referee's own rules, not an engine's notion of them.

Limits: one ply ahead only (what the opponent may claim on its next turn,
not later); dead positions are found with the game's own search budget (the
cheap static proofs by default), so a position that only a deeper search
proves dead is reported as not ending the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from ..errors import BadRequestError, GameOverError
from ..game import Game
from ..i18n import gettext
from ..outcome import Termination, color_name
from ..rules.hints import practical_draw
from ..status import Claim
from .contract import AutomaticDict, EngineFactsDict, MoveProbeDict

MAX_CANDIDATES = 256  # more than any position's legal moves (218)


@dataclass(frozen=True)
class MoveProbe:
    """The referee's view of the position after one candidate move.

    ``automatic`` is the rule that would end the game by itself after the
    move (checkmate included), or None. ``opponent_claims`` are the claims
    the opponent could then make: now (``move`` None) or with an intended
    move; empty when the move ends the game.
    """

    uci: str
    san: str
    repetition_count: int
    halfmove_clock: int
    automatic: Termination | None
    automatic_winner: chess.Color | None
    opponent_claims: tuple[Claim, ...]

    @property
    def ends_in_draw(self) -> bool:
        return self.automatic is not None and self.automatic_winner is None

    @property
    def lets_opponent_claim(self) -> bool:
        return bool(self.opponent_claims)

    def to_dict(self) -> MoveProbeDict:
        claims = [c.to_dict() for c in self.opponent_claims]
        now = sorted({c["rule"] for c in claims if c["move"] is None})
        later = sorted({c["rule"] for c in claims if c["move"] is not None})
        automatic: AutomaticDict | None = None
        if self.automatic is not None:
            automatic = {
                "termination": self.automatic.value,
                "winner": None if self.automatic_winner is None else color_name(self.automatic_winner),
            }
        return {
            "uci": self.uci,
            "san": self.san,
            "repetition_count": self.repetition_count,
            "halfmove_clock": self.halfmove_clock,
            "automatic": automatic,
            "draw": self.ends_in_draw,
            "opponent_claims_now": now,
            "opponent_claims_with_move": later,
            "opponent_claims": claims,
        }


def probe_moves(game: Game, moves: Sequence[str]) -> list[MoveProbe]:
    """Probe each move (SAN or UCI, legal now) in the order given.

    Raises :class:`BadRequestError` for a list that is not one of at most
    ``MAX_CANDIDATES`` strings, :class:`GameOverError` once the game is over,
    and the move parser's errors (``illegal_move``...) for a bad move; every
    move is parsed before any is played, and each one played is taken back,
    so the game is unchanged in every case.
    """
    if (
        isinstance(moves, str)
        or not isinstance(moves, Sequence)
        or not len(moves) <= MAX_CANDIDATES
        or not all(isinstance(m, str) for m in moves)
    ):
        raise BadRequestError(f"'moves' must be a list of at most {MAX_CANDIDATES} moves as text")
    outcome = game.outcome()
    if outcome is not None:
        raise GameOverError(
            gettext("the game is over: {reason} ({result})").format(reason=outcome.reason(), result=outcome.result())
        )
    parsed = [game.parse_move(text) for text in moves]
    probes = []
    for move in parsed:
        san, uci = game.san(move), game.uci(move)
        game.push(move)
        try:
            after = game.automatic_outcome()
            probes.append(
                MoveProbe(
                    uci=uci,
                    san=san,
                    repetition_count=game.repetition_count(),
                    halfmove_clock=game.halfmove_clock,
                    automatic=None if after is None else after.termination,
                    automatic_winner=None if after is None else after.winner,
                    opponent_claims=tuple(game.claims()),
                )
            )
        finally:
            game.undo()
    return probes


def engine_facts(game: Game, moves: Sequence[str]) -> EngineFactsDict:
    """What a computer player asks the referee before it moves: the claims
    open to it now (with their intended moves), the repetition count, the
    halfmove clock, the practical-draw hint (knowledge, not a rule), and
    :func:`probe_moves` for its candidate moves. Same errors as
    :func:`probe_moves`; the game is unchanged."""
    probes = probe_moves(game, moves)
    board = game.board
    return {
        "turn": color_name(game.turn),
        "ply": game.ply,
        "claims": [c.to_dict() for c in game.claims()],
        "repetition_count": game.repetition_count(),
        "halfmove_clock": game.halfmove_clock,
        "practical_draw": practical_draw(board),
        "probes": [p.to_dict() for p in probes],
    }
