"""How a game ended: a Termination, the winner, and the FIDE article.

In PGN, the ``Termination`` tag holds the standard's word (PGN standard
9.8.1: "normal", "time forfeit", ...: every chess program reads them), and
the exact rule goes in words with its article in pychessdraw's own
``TerminationDetails`` tag and in a comment after the last move
(:meth:`Outcome.words`). :func:`termination_from_record` reads either back,
and the old pychessdraw tag values (``threefold_repetition``...) too.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TypeGuard, cast, get_args

import chess

from . import i18n, laws
from .contract import ClaimArticle, ClaimRuleName, ColorName, OutcomeDict, ResultName, TerminationName
from .i18n import gettext, marked


class Termination(str, enum.Enum):  # noqa: UP042  (str() of a member is its name, as before)
    """Why a game ended. The values are the JSON contract's names."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    DEAD_POSITION = "dead_position"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    THREEFOLD_REPETITION = "threefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time_forfeit"


ARTICLE = {t: laws.ARTICLE[t.value] for t in Termination}  # the articles are written in pychessdraw.laws
_CLAIM_RULES = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)  # laws.CLAIM_ARTICLE's


def claim_article(rule: Termination, *, with_move: bool) -> ClaimArticle:
    """The article of a claim by ``rule``: with an intended move, or now."""
    return laws.CLAIM_ARTICLE[(cast(ClaimRuleName, rule.value), with_move)]  # KeyError: not a claim's rule


_LABEL = {
    Termination.CHECKMATE: marked("Checkmate"),
    Termination.STALEMATE: marked("Stalemate"),
    Termination.INSUFFICIENT_MATERIAL: marked("Insufficient material: neither side can checkmate"),
    Termination.DEAD_POSITION: marked("Dead position: no series of legal moves can end in checkmate"),
    Termination.FIVEFOLD_REPETITION: marked("Fivefold repetition"),
    Termination.SEVENTYFIVE_MOVES: marked("Seventy-five moves without a pawn move or capture"),
    Termination.THREEFOLD_REPETITION: marked("Threefold repetition, claimed"),
    Termination.FIFTY_MOVES: marked("Fifty moves without a pawn move or capture, claimed"),
    Termination.AGREEMENT: marked("Draw by agreement"),
}

# PGN standard 9.8.1: a flag fall is "time forfeit" (a win, or a draw by FIDE
# 6.9); every other ending here is an ordinary end of the game by the rules.
PGN_TERMINATION = {t: "time forfeit" if t is Termination.TIME_FORFEIT else "normal" for t in Termination}

_DRAW_WORDS = {
    Termination.STALEMATE: "Draw by stalemate",
    Termination.INSUFFICIENT_MATERIAL: "Draw by insufficient material: neither side can checkmate",
    Termination.DEAD_POSITION: "Draw by dead position: no series of legal moves can end in checkmate",
    Termination.FIVEFOLD_REPETITION: "Draw by fivefold repetition",
    Termination.SEVENTYFIVE_MOVES: "Draw by the 75-move rule: seventy-five moves without a pawn move or capture",
    Termination.THREEFOLD_REPETITION: "Draw by threefold repetition, claimed",
    Termination.FIFTY_MOVES: "Draw by the fifty-move rule, claimed",
    Termination.AGREEMENT: "Draw by agreement",
    Termination.TIME_FORFEIT: "Draw: a flag fell, but the opponent cannot checkmate by any series of legal moves",
}

AUTOMATIC = frozenset(
    {
        Termination.CHECKMATE,
        Termination.STALEMATE,
        Termination.INSUFFICIENT_MATERIAL,
        Termination.DEAD_POSITION,
        Termination.FIVEFOLD_REPETITION,
        Termination.SEVENTYFIVE_MOVES,
    }
)


def is_result(value: object) -> TypeGuard[ResultName]:
    """``value`` is a finished game's result as PGN writes it ("*" is not)."""
    return isinstance(value, str) and value in get_args(ResultName)


def color_name(color: chess.Color) -> ColorName:
    return "white" if color else "black"


def side_name(color: chess.Color | ColorName) -> str:
    """A side as sentences name it: "White", "Black" (the one place), in
    the current language (:mod:`pychessdraw.i18n`)."""
    return gettext("White") if color is True or color == "white" else gettext("Black")


def termination_name(termination: Termination) -> TerminationName:
    """The JSON name of ``termination`` (its value: a test checks they are the Literal's)."""
    return termination.value


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``winner`` is None for a draw.

    ``claimed`` is True when a player ended the game (a claim, an agreement,
    a resignation, a flag fall), False when the rules did on their own.
    ``move`` is the intended move of a claim made with one (FIDE 9.2.1.1).
    """

    termination: Termination
    winner: chess.Color | None
    claimed: bool = False
    move: chess.Move | None = None

    def result(self) -> ResultName:
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")

    @property
    def article(self) -> str:
        """The article of the rule that ended the game ("9.2" for a claimed
        threefold repetition: see :attr:`claim_article` for the claim's own)."""
        return ARTICLE[self.termination]

    @property
    def claim_article(self) -> str | None:
        """The article of the claim that ended the game: 9.2.1.1 or 9.3.1
        when it was made with an intended move, 9.2.1.2 or 9.3.2 when the
        position or the fifty moves were already on the board; None for any
        other ending."""
        if not self.claimed or self.termination not in _CLAIM_RULES:
            return None
        return claim_article(self.termination, with_move=self.move is not None)

    def reason(self, *, language: str | None = None) -> str:
        """Why the game ended, in ``language`` (None: the current one, :mod:`pychessdraw.i18n`)."""
        with i18n.language(language):
            return self._reason()

    def _reason(self) -> str:
        t = self.termination
        if t is Termination.RESIGNATION:
            return gettext("{side} resigns").format(side=side_name(not self.winner))
        if t is Termination.TIME_FORFEIT:
            if self.winner is None:
                return gettext("Flag fall, but the opponent cannot checkmate by any series of legal moves")
            return gettext("{side} lost on time").format(side=side_name(not self.winner))
        return gettext(_LABEL[t])

    def words(self) -> str:
        """The ending in a sentence with its article, for the comment after
        the last move of an exported game: "Draw by threefold repetition,
        claimed (FIDE 9.2)", "White wins: Black resigns (FIDE 5.1.2)".
        Always English, whatever the current language: a PGN file is read
        by programs (:func:`termination_from_record` among them)."""
        with i18n.language(i18n.ENGLISH):
            return self._words()

    def _words(self) -> str:
        t = self.termination
        if self.winner is None:
            return f"{_DRAW_WORDS[t]} (FIDE {self.article})"
        winner, loser = side_name(self.winner), side_name(not self.winner)
        how = {
            Termination.CHECKMATE: " by checkmate",
            Termination.RESIGNATION: f": {loser} resigns",
            Termination.TIME_FORFEIT: f" on time: {loser}'s flag fell",
        }[t]
        return f"{winner} wins{how} (FIDE {self.article})"

    def to_dict(self, *, language: str | None = None) -> OutcomeDict:
        """The JSON contract; ``reason`` in ``language`` (None: the current one)."""
        with i18n.language(language):
            return self._to_dict()

    def _to_dict(self) -> OutcomeDict:
        return {
            "termination": self.termination.value,
            "winner": None if self.winner is None else color_name(self.winner),
            "result": self.result(),
            "article": self.article,
            "reason": self.reason(),
            "claimed": self.claimed,
        }


# Termination tag words read on import: pychessdraw's old values (the enum's,
# with _ or spaces), the standard's "time forfeit", and other programs' words.
_TAG_WORDS = {t.value.replace("_", " "): t for t in Termination}
_TAG_WORDS.update(
    {
        "time": Termination.TIME_FORFEIT,
        "repetition": Termination.THREEFOLD_REPETITION,
        "50 moves": Termination.FIFTY_MOVES,
        "agreed": Termination.AGREEMENT,
        "draw by agreement": Termination.AGREEMENT,
        "resigned": Termination.RESIGNATION,
    }
)
# An article in pychessdraw's words names the rule: only the claimed and
# declared endings, the ones a record alone can tell (5.2.2 is two rules).
_BY_ARTICLE = {
    ARTICLE[t]: t
    for t in (
        Termination.THREEFOLD_REPETITION,
        Termination.FIFTY_MOVES,
        Termination.AGREEMENT,
        Termination.RESIGNATION,
        Termination.TIME_FORFEIT,
    )
}
_ARTICLE_WORDS = re.compile(r"\(FIDE (\d+(?:\.\d+)*)\)")


_TIME_WORDS = ("time forfeit", "time_forfeit", "on time")  # in a Termination or TerminationDetails tag


def says_lost_on_time(tag: str | None, details: str | None) -> bool:
    """A record's Termination and TerminationDetails tags gettext a flag fell
    ("Time forfeit", "White lost on time", the old ``time_forfeit``): looser
    than :func:`termination_from_record`, which names a rule only from an exact word."""
    words = f"{tag or ''} {details or ''}".lower()
    return any(w in words for w in _TIME_WORDS)


def termination_from_record(tag: str | None, *details: str | None) -> Termination | None:
    """The rule a PGN record says ended the game: the ``Termination`` tag
    when it names one (old pychessdraw values such as
    ``threefold_repetition``, or words such as "time forfeit"), else the
    first of ``details`` (pychessdraw's ``TerminationDetails`` tag, the
    comment after the last move) whose last "(FIDE 9.2)" or the like names
    a claimed or declared ending.
    None when nothing names a rule ("normal" alone, "adjudication", no tag):
    never guessed. Limits: of the automatic endings only the tag's words
    are read (the position itself tells them)."""
    word = (tag or "").strip().lower().replace("_", " ")
    if word in _TAG_WORDS:
        return _TAG_WORDS[word]
    for text in details:
        found = _ARTICLE_WORDS.findall(text or "")
        if found and found[-1] in _BY_ARTICLE:
            return _BY_ARTICLE[found[-1]]
    return None
