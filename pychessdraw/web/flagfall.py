"""A flag fall in words: what the referee decided and why, with the rule and
the proof, for the page's banner (FIDE 6.9 or US Chess rule 14E).

FIDE 6.9: the player whose flag falls loses, unless the opponent cannot
checkmate by any series of legal moves; then the game is drawn. The proof is
the dead-position search's: a mating line when the opponent can mate, the
reason when it cannot. US Chess 14E also draws when the opponent has only a
king and bishop, king and knight, or king and two knights (no pawns); its
"unless a forced win exists" is not searched (see :mod:`pychessdraw.rules.timeout`).
"""

from __future__ import annotations

from typing import TypedDict

import chess

from .. import laws
from ..contract import FlagRulesName, ResultName
from ..i18n import gettext
from ..outcome import side_name
from ..rules import timeout
from ..status import Status
from .present import numbered_line, proof_line


class FlagWords(TypedDict):
    result: ResultName
    rules: FlagRulesName
    article: str  # "FIDE 6.9" | "US Chess rules" | "US Chess 14E"
    text: str  # one sentence for the banner, naming the rule and the proof
    proof: str  # the mating line, or why the opponent cannot mate


#: Plies of a mating line shown in the banner; a longer one is cut, with its length.
SHOWN_PLIES = 10


def explain(board: chess.Board, status: Status, flagged: chess.Color) -> FlagWords:
    """Why ``flagged``'s flag fall gives the result it gives, in the position
    of ``status`` (searched as deep as the flag fall was decided with)."""
    opponent = not flagged
    found = (status.winnable_detail or {}).get(opponent)
    line: list[str] | None = found["line"] if found else None
    reason: str = found["reason"] if found else ""
    can = None if status.winnable is None else status.winnable.get(opponent)
    cannot = status.cannot_mate[opponent] or can is False
    rules = status.flag_rules
    cited = laws.flag_citation(rules)
    result = timeout.result_if_flag_falls(board, flagged, cannot, rules)
    who, other = side_name(flagged), side_name(opponent)
    if cannot:
        proof = gettext("proven: {reason}").format(reason=reason or gettext("not enough material to checkmate"))
        text = gettext(
            "{side}'s flag fell, but {other} cannot checkmate by any series of legal moves "
            "({proof}): the game is drawn ({rules})"
        ).format(side=who, other=other, proof=proof, rules=cited)
        return {"result": result, "rules": rules, "article": cited, "text": text, "proof": proof}
    if result == "1/2-1/2":  # US Chess 14E: a lone minor piece or two knights, no pawns
        pieces = board.occupied_co[opponent] & ~board.kings
        what = (
            gettext("king and two knights")
            if chess.popcount(pieces) == 2
            else gettext("king and knight")
            if pieces & board.knights
            else gettext("king and bishop")
        )
        proof = gettext("{side} has only {pieces} and no pawns are on the board").format(side=other, pieces=what)
        text = gettext(
            "{side}'s flag fell, but {proof}: the game is drawn under US Chess rule 14E "
            "(whether a forced win exists is not searched)"
        ).format(side=who, proof=proof)
        return {"result": result, "rules": rules, "article": laws.USCF_INSUFFICIENT, "text": text, "proof": proof}
    if not can:
        proof = gettext(
            "the search did not prove that it cannot checkmate, and only such a proof makes a flag fall a draw"
        )
        text = gettext("{side}'s flag fell: {other} wins ({proof}; {rules})").format(
            side=who, other=other, proof=proof, rules=cited
        )
        return {"result": result, "rules": rules, "article": cited, "text": text, "proof": proof}
    line = proof_line(board, opponent, line)
    proof = (
        gettext("a mating line: {line}").format(line=numbered_line(board, line, SHOWN_PLIES))
        if line
        else (reason or gettext("a checkmate exists"))
    )
    text = gettext("{side}'s flag fell and {other} can still checkmate ({proof}): {other} wins ({rules})").format(
        side=who, other=other, proof=proof, rules=cited
    )
    return {"result": result, "rules": rules, "article": cited, "text": text, "proof": proof}
