"""The FIDE Laws of Chess as this referee cites them: every article number and
every rule's name, written once.

The rules themselves live in :mod:`pychessdraw.rules` (their thresholds
too: ``repetition.CLAIM_COUNT``, ``fifty.CLAIM_PLIES``...); this module
only names them. Everything that cites an article or names a rule, in
Python (outcomes, claims, the page's sentences) and on the page (the
generated ``web/src/contract.js`` carries these values as ``LAWS``), takes
it from here; ``tests/test_one_owner.py`` fails on an article number
written anywhere else.
"""

from typing import Final, cast

from .contract import ClaimArticle, ClaimRuleName, TerminationName
from .i18n import gettext, marked

#: The article under which each termination ends a game.
ARTICLE: Final[dict[TerminationName, str]] = {
    "checkmate": "5.1.1",
    "stalemate": "5.2.1",
    "insufficient_material": "5.2.2",
    "dead_position": "5.2.2",
    "fivefold_repetition": "9.6.1",
    "seventyfive_moves": "9.6.2",
    "threefold_repetition": "9.2",
    "fifty_moves": "9.3",
    "agreement": "5.2.3",
    "resignation": "5.1.2",
    "time_forfeit": "6.9",
}

#: The article of a claim, by rule and whether it is made with an intended move.
CLAIM_ARTICLE: Final[dict[tuple[ClaimRuleName, bool], ClaimArticle]] = {
    ("threefold_repetition", False): "9.2.1.2",
    ("threefold_repetition", True): "9.2.1.1",
    ("fifty_moves", False): "9.3.2",
    ("fifty_moves", True): "9.3.1",
}

DEAD_POSITION: Final = ARTICLE["dead_position"]  #: a position where no series of legal moves mates
FLAG_FALL: Final = ARTICLE["time_forfeit"]  #: the flag falls: a loss, or a draw if the opponent cannot mate
OFFER: Final = "9.1.2.2"  #: a draw is offered by the player who has just moved
CLAIM_STOPS_CLOCKS: Final = "9.5.1"  #: the clocks stop while the arbiter judges a claim
WRONG_CLAIM: Final = "9.5.3"  #: an incorrect claim: the intended move stands, the opponent gets time
WRONG_CLAIM_BONUS_MS: Final = 120_000  #: 9.5.3: two minutes added to the opponent's clock

#: Each rule by one name, in the words of the page and the reports (English:
#: :func:`rule_name` gives it in the current language).
RULE_NAME: Final[dict[TerminationName, str]] = {
    "checkmate": marked("checkmate"),
    "stalemate": marked("stalemate"),
    "insufficient_material": marked("insufficient material"),
    "dead_position": marked("dead position"),
    "fivefold_repetition": marked("fivefold repetition"),
    "seventyfive_moves": marked("75-move rule"),
    "threefold_repetition": marked("threefold repetition"),
    "fifty_moves": marked("fifty-move rule"),
    "agreement": marked("agreement"),
    "resignation": marked("resignation"),
    "time_forfeit": marked("flag fall"),
}


#: Each rule as a sentence names it (English; :func:`rule_in_sentence` gives
#: it in the current language): with its article where English takes one.
RULE_IN_SENTENCE: Final[dict[TerminationName, str]] = {
    **RULE_NAME,
    "fifty_moves": marked("the fifty-move rule"),
    "seventyfive_moves": marked("the 75-move rule"),
}


def rule_name(rule: str) -> str:
    """A rule's name (:data:`RULE_NAME`) in the current language
    (:mod:`pychessdraw.i18n`), or ``rule`` itself if it has none."""
    name = RULE_NAME.get(cast(TerminationName, rule))
    return rule if name is None else gettext(name)


def rule_in_sentence(rule: str) -> str:
    """A rule as a sentence names it: "threefold repetition", "the fifty-move rule"."""
    name = RULE_IN_SENTENCE.get(cast(TerminationName, rule))
    return rule if name is None else gettext(name)


def fide(article: str) -> str:
    """``"FIDE 6.9"``: an article as the sentences cite it."""
    return f"FIDE {article}"


#: A flag fall under US Chess rules, where no FIDE article applies.
USCF_FLAG: Final = marked("US Chess rules")
#: US Chess 14E: king and bishop, king and knight, or king and two knights (no pawns) do not win on time.
USCF_INSUFFICIENT: Final = "US Chess 14E"


def flag_citation(rules: str) -> str:
    """What a flag fall's result cites under ``rules`` ("fide" or "uscf"):
    ``"FIDE 6.9"``, or ``"US Chess rules"`` (the 14E draw cites
    :data:`USCF_INSUFFICIENT`)."""
    return fide(FLAG_FALL) if rules == "fide" else gettext(USCF_FLAG)
