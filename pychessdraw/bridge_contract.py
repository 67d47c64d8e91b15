"""The JSON contract between the bridge and the page, as TypedDicts (the
library's own shapes, Status and the rest, are in :mod:`pychessdraw.contract`).

Every answer of :class:`pychessdraw.bridge.Bridge` follows these types; the
page's JSDoc typedefs (``web/src/contract.js``) mirror them name for name
(a test checks that they agree). The facts are display-ready: move labels,
rule names, thresholds and FIDE articles are filled in here, so the page
never parses a FEN or a sentence.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, Union

from .contract import LegalMoveDict
from .probe import EngineFactsDict

Color = Literal["white", "black"]
Answer = Literal["yes", "no", "unknown"]


#: A legal move: the library's own shape, sent as it is.
LegalMove = LegalMoveDict


class ErrorInfo(TypedDict, total=False):
    code: str  # stable: illegal_move, bad_fen, bad_pgn, promotion_needed, bad_request, ...
    message: str  # short, in chess words, no FEN
    choices: list[LegalMove]  # promotion_needed: the moves to choose from


class MoveRow(TypedDict):
    ply: int
    san: str
    uci: str
    fen: str
    label: str  # "3...Qxf7"
    number: int  # the fullmove number of the move
    white: bool  # White made the move
    repetition_count: int
    after_end: bool  # played after the rules had already ended the game (imported)
    clock_ms: NotRequired[int | None]  # the mover's [%clk] time after the move (imported PGN)


class MovesDelta(TypedDict):
    keep: int  # rows the page keeps (rows[0:keep]); the rest are replaced by `add`
    add: list[MoveRow]


class Counter(TypedDict):
    value: int
    claim_at: int
    auto_at: int
    claim_article: str
    auto_article: str
    text: str  # one sentence for the panel
    auto_text: str
    level: Literal["none", "near", "claim", "over"]


class Occurrence(TypedDict):
    ply: int
    label: str  # "the start", "after 2.Ng1"


class Repetition(Counter):
    earlier: list[Occurrence]


class OutcomeView(TypedDict):
    termination: str  # a Termination value, or "unknown" for a recorded result without a known reason
    result: str  # "1-0" | "0-1" | "1/2-1/2"
    winner: Color | None
    article: str | None
    reason: str
    how: Literal["automatic", "claimed", "declared", "recorded"]
    headline: str  # "Draw: 1/2-1/2"
    detail: str  # "Threefold repetition, claimed (FIDE 9.2)"
    ended_at: int | None  # ply where the rules ended an imported game that went on
    ended_at_label: str | None


class ClaimChoice(TypedDict):
    uci: str
    san: str
    question: str  # "Ng8 repeats the position a third time: claim a draw with this move?"


class ClaimGroup(TypedDict):
    rule: str  # threefold_repetition | fifty_moves
    article: str
    rule_label: str
    now: bool  # claimable without a move
    text: str  # "Black may claim now: threefold repetition (FIDE 9.2.1.2)" or
    #           "any move that is not a pawn move or a capture lets White claim"
    moves: list[ClaimChoice]  # the intended moves (empty for a claim now)
    arrows: bool  # few enough moves to draw as arrows


class Winnability(TypedDict):
    answer: Answer
    text: str  # "White can still checkmate", "White cannot checkmate (proven: ...)"
    proof: str  # the mating line in SAN, or the reason it cannot, or "" while searching
    searching: bool  # not decided yet; the page keeps searching in the background
    word: str  # the answer in one word or three: "Yes", "No", "Not decided yet", "Not searched"


class FlagView(TypedDict):
    result: str | None
    text: str


class Offer(TypedDict):
    by: Color  # the player who has just moved (FIDE 9.1.2.2)
    to: Color
    text: str


class Facts(TypedDict):
    ply: int
    turn: Color
    fen: str
    check: bool
    where: str  # "the start position" or "after 3...Qxf7"
    turn_text: str  # "White to move (check)", "Game over"
    description: str  # the position in words, for screen readers
    halfmove: Counter
    repetition: Repetition
    outcome: OutcomeView | None
    claims: list[ClaimGroup]
    claims_text: str
    winnable: dict[str, Winnability]  # keyed by colour
    dead_text: str  # the dead-position line (FIDE 5.2.2)
    flag_fall: dict[str, FlagView] | None
    flag_rules: str
    hints: list[str]  # never contradict the rules; empty once the game is over
    offer: Offer | None  # who would offer a draw now
    legal_moves: list[LegalMove]
    live: bool  # the current position (claims and moves only here)


class GameInfo(TypedDict):
    start_fen: str
    chess960: bool
    headers: dict[str, str]
    recorded: OutcomeView | None  # an imported game's recorded result


class ClaimVerdict(TypedDict):
    accepted: bool
    rule: str | None
    move: str | None
    san: str | None
    headline: str  # "Claim accepted" | "Claim refused"
    text: str


class ClaimAsk(TypedDict):
    rule: str
    uci: str
    san: str
    question: str


class PgnGameInfo(TypedDict):
    index: int
    label: str


class Reply(TypedDict, total=False):
    ok: bool
    error: ErrorInfo
    facts: Facts  # the current (or browsed) position
    moves: MovesDelta  # what changed in the move list
    game: GameInfo  # present when the whole game was replaced
    claim: ClaimVerdict
    ask: ClaimAsk  # play with offer_claim: the move would make a claim correct; nothing was played
    pgn: str
    games: list[PgnGameInfo]  # load_pgn of a text with several games and no index: nothing loaded
    analysed: "Analysed"
    ending: Union["Ending", None]  # the declared ending to save (agree/resign/flag/claim/recorded)
    results: list["ReviewResult"]  # review_start/feed/finish: the games completed
    engine_facts: EngineFactsDict  # engine_facts: what the computer asks before it moves


class Analysed(TypedDict):
    level: int
    final: bool  # both sides decided, or the deepest budget was used


class Ending(TypedDict, total=False):
    op: str  # agree | resign | flag | claim | recorded
    color: Color


class ReviewEvent(TypedDict):
    ply: int
    rule: str
    kind: str  # automatic | claimable | claimable_with_move


class ReviewRow(TypedDict):
    """One reviewed game as the review table shows it (pychessdraw.review)."""

    game: int
    white: str
    black: str
    result: str  # as recorded
    verdict: str  # ok | wrong_result | ended_earlier | undecided | error (pychessdraw.verdict)
    expected_result: str | None
    ended_at: int | None
    plies: int
    events: list[ReviewEvent]
    error: str | None  # in chess words: "12...Qxf9 (Black's move 12) is not legal here"
    error_ply: int | None
    first_move: int  # the start position's move number
    black_first: bool
    start: int  # character offsets of the game in the text fed
    end: int


class ReviewResult(TypedDict):
    line: str  # the game's report as the CLI's scan prints it
    row: ReviewRow


class Request(TypedDict, total=False):
    op: str
    args: dict[str, object]
