"""The JSON contract: the shape of every dict pychessdraw hands out.

``Status.to_dict()``, ``Outcome.to_dict()``, ``ClaimResult.to_dict()`` and
``RefereeError.to_dict()`` return these shapes; the CLI prints them and the
browser page reads them. This module is the one place they are written
down: the API reference renders it, and ``mypy --strict`` checks every
producer against it. Names are stable between releases; fields may be added.

Colours are ``"white"``/``"black"``; moves are UCI (Chess960 castling as
king-takes-rook) and SAN with check suffixes; results are PGN results.
"""

# No "from __future__ import annotations": TypedDict reads NotRequired from
# the evaluated annotations (Python 3.11), which the tests compare with
# every to_dict().
from typing import Generic, Literal, NotRequired, TypedDict, TypeVar

T = TypeVar("T")

ColorName = Literal["white", "black"]
"""A side, as JSON names it."""

ResultName = Literal["1-0", "0-1", "1/2-1/2"]
"""A finished game's result, as PGN writes it."""

TerminationName = Literal[
    "checkmate",
    "stalemate",
    "insufficient_material",
    "dead_position",
    "fivefold_repetition",
    "seventyfive_moves",
    "threefold_repetition",
    "fifty_moves",
    "agreement",
    "resignation",
    "time_forfeit",
]
"""Why a game ended (the values of :class:`pychessdraw.Termination`)."""

ClaimRuleName = Literal["threefold_repetition", "fifty_moves"]
"""The two draws a player claims (FIDE 9.2, 9.3)."""

ClaimArticle = Literal["9.2.1.1", "9.2.1.2", "9.3.1", "9.3.2"]
"""The article of a claim: with an intended move (9.2.1.1, 9.3.1) or now (9.2.1.2, 9.3.2)."""

ErrorCode = Literal[
    "bad_request",
    "bad_fen",
    "invalid_move",
    "illegal_move",
    "promotion_needed",
    "ambiguous_move",
    "game_over",
    "bad_pgn",
    "unsupported_variant",
    "nothing_to_undo",
    "file_error",
    "internal",
]
"""Every stable error code (:mod:`pychessdraw.errors`: one class each)."""

FlagRulesName = Literal["fide", "uscf"]
"""Whose rules decide a flag fall: FIDE 6.9, or US Chess."""


class ByColor(TypedDict, Generic[T]):
    """One value per side."""

    white: T
    black: T


class OutcomeDict(TypedDict):
    """How a game ended (``Outcome.to_dict()``)."""

    termination: TerminationName
    winner: ColorName | None  #: None for a draw
    result: ResultName
    article: str  #: the FIDE article, e.g. "9.6.1"
    reason: str  #: a sentence for people
    claimed: bool  #: a player ended it: claim, agreement, resignation, flag fall


class ClaimDict(TypedDict):
    """A draw the player to move may claim: now (``move`` null) or by declaring ``move``."""

    rule: ClaimRuleName
    move: str | None  #: UCI of the intended move
    san: str | None  #: SAN of the intended move
    article: ClaimArticle


class HintsDict(TypedDict):
    """Knowledge, never rules: it never ends a game."""

    can_force_mate: ByColor[bool]  #: can that side force mate against any defence?
    practical_draw: str | None  #: a class of material drawn in practice, or null
    notes: list[str]


class WinnableDetailDict(TypedDict):
    """How the dead-position search answered for one side."""

    line: list[str] | None  #: a mating line in SAN when one was found
    reason: str
    nodes: int  #: search nodes spent


LegalMoveDict = TypedDict(
    "LegalMoveDict",
    {
        "uci": str,
        "san": str,
        "from": str,  # square name
        "to": str,  # square to drop the piece on (the rook's square for Chess960 castling)
        "promotion": Literal["q", "r", "b", "n"] | None,
    },
)
"""A legal move as a board UI needs it."""


class StatusDict(TypedDict):
    """Everything the referee knows about a position (``Status.to_dict()``).

    ``claims`` is empty once the game is over; intended moves are listed
    only for a rule that cannot already be claimed now.
    ``insufficient_material[side]`` is true when that side can never mate
    (by material alone); ``winnable[side]`` is the dead-position answer
    (true: a mate exists; false: proven impossible; null: not decided).
    ``flag_fall[side]`` is the result if that side's flag fell now.
    """

    fen: str
    turn: ColorName
    ply: int  #: plies played in this game (0 at its start position)
    fullmove_number: int
    halfmove_clock: int
    check: bool
    repetition_count: int  #: occurrences of this position, this one included
    repetitions: list[int]  #: earlier plies at which it stood
    outcome: OutcomeDict | None
    claims: list[ClaimDict]
    insufficient_material: ByColor[bool]
    flag_fall: ByColor[ResultName] | None  #: null once the game is over
    flag_rules: FlagRulesName
    hints: HintsDict
    winnable: NotRequired[ByColor[bool | None]]
    winnable_detail: NotRequired[ByColor[WinnableDetailDict]]
    legal_moves: NotRequired[list[LegalMoveDict]]  #: only when asked for


class ClaimResultDict(TypedDict):
    """The arbiter's answer to a draw claim (``ClaimResult.to_dict()``)."""

    accepted: bool  #: the claim itself ended the game as a draw
    rule: ClaimRuleName | None  #: the rule that upheld it
    move: str | None  #: UCI of the intended move, when one was declared
    reason: str
    ended_by: TerminationName | None  #: the intended move ended the game by itself (e.g. checkmate)


class MoveCandidateDict(TypedDict):
    """One move a player may have meant (ambiguous move, missing promotion piece)."""

    uci: str
    san: str


class ErrorDict(TypedDict):
    """A refused request (``RefereeError.to_dict()``): ``code`` is stable
    (see :mod:`pychessdraw.errors`); the other fields appear where they apply."""

    code: ErrorCode
    message: str
    ply: NotRequired[int]  #: the ply the move would have made, or the game's ply
    token: NotRequired[str]  #: the text as given (cut to 40 characters)
    move_label: NotRequired[str]  #: the move with its number, e.g. "3...Qxe7"
    reason: NotRequired[str]  #: scan: the move's own error, without the ply and token before it
    candidates: NotRequired[list[MoveCandidateDict]]  #: ambiguous_move, promotion_needed
    fen: NotRequired[str]  #: bad_fen: the text as given
    field: NotRequired[str]  #: bad_fen: the FEN field at fault ("piece placement", "side to move", "castling", ...)
    file: NotRequired[str]  #: file_error; bad_pgn: a file that holds no PGN, a game cut by a read fault
    offset: NotRequired[
        int
    ]  #: file_error (and the game it cut): the byte of the file (as stored) where reading stopped


VerdictName = Literal["ok", "wrong_result", "ended_earlier", "undecided", "error"]
"""The referee's verdict on a recorded result (:mod:`pychessdraw.records.judge`)."""

WatchEventKind = Literal[
    "automatic", "claimable", "claimable_with_move", "ended", "error", "corrected", "restarted", "removed"
]
"""The kinds of a followed round's events (:data:`pychessdraw.records.tracker.KINDS`)."""


class TimeForfeitDict(TypedDict):
    """A game recorded as lost on time, by the rules (FIDE 6.9 or US Chess)."""

    flagged: ColorName
    recorded: str  #: the recorded result
    by_rule: ResultName | None  #: the result the rules give (None: not decided)
    rules: FlagRulesName
    should_be_draw: bool
    opponent_winnable: bool | None  #: could the opponent mate (None: not decided)


class VerdictDict(TypedDict):
    """The referee's verdict on one recorded game (:func:`pychessdraw.records.judge.judge`)."""

    verdict: VerdictName
    expected_result: ResultName | None  #: the result the rules give where the record differs or lacks one
    ended_at: int | None  #: the ply at which the rules ended the game


class WatchEventDict(TypedDict):
    """One event of a followed round (``pychessdraw watch``, the page's
    Arbiter view: :class:`pychessdraw.records.tracker.Tracker`); the fields
    after ``kind`` appear with the kinds they belong to."""

    game: int  #: the game's place in the source, from 1
    white: str | None
    black: str | None
    round: str | None
    ply: int
    move: str | None  #: the move (SAN) that made the ply
    label: str | None  #: the move with its number, "29.Ng1"
    rule: TerminationName | None  #: the rule; ended: the recorded termination, where the record names one
    kind: WatchEventKind
    moves: NotRequired[list[str]]  #: claimable_with_move: the moves that make the claim good
    code: NotRequired[str]  #: error: the error's code
    reason: NotRequired[str]  #: error, corrected, restarted: why
    result: NotRequired[str]  #: ended: the recorded result
    time_forfeit: NotRequired[TimeForfeitDict | None]  #: ended
    verdict: NotRequired[VerdictName]  #: ended
    expected_result: NotRequired[ResultName | None]  #: ended
    ended_at: NotRequired[int | None]  #: ended
    ended_after: NotRequired[str]  #: ended earlier: the move after which the rules ended it
    proof: NotRequired[WinnableDetailDict]  #: ended on time: the opponent's mate, or why none


__all__ = [
    "ColorName",
    "ResultName",
    "TerminationName",
    "ClaimRuleName",
    "ClaimArticle",
    "ErrorCode",
    "FlagRulesName",
    "ByColor",
    "OutcomeDict",
    "ClaimDict",
    "HintsDict",
    "WinnableDetailDict",
    "LegalMoveDict",
    "StatusDict",
    "ClaimResultDict",
    "MoveCandidateDict",
    "ErrorDict",
    "VerdictName",
    "WatchEventKind",
    "TimeForfeitDict",
    "VerdictDict",
    "WatchEventDict",
]
