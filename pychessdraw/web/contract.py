"""The JSON contract between the bridge and the page, as TypedDicts (the
library's own shapes, Status and the rest, are in :mod:`pychessdraw.contract`).

This module is the one source of the contract: every answer of
:class:`pychessdraw.web.bridge.Bridge` follows these types (``mypy --strict``
checks the producers), and the page's JSDoc typedefs, ``web/src/contract.js``,
are generated from them by ``python docs/build.py --contract`` (a quick test
fails when the committed file is stale). :class:`Operations` maps each
operation to its arguments and its reply, the way lila types its socket
messages; the bridge takes the names of each operation's arguments from it.

The facts are display-ready: move labels, rule names, thresholds and FIDE
articles are filled in here, so the page never parses a FEN or a sentence.
Closed sets are ``Literal`` unions, per-side values are ``ByColor``.
"""

# No "from __future__ import annotations": TypedDict reads NotRequired from
# the evaluated annotations (Python 3.11), and the generator reads
# __optional_keys__.
from typing import Final, Generic, Literal, NotRequired, TypedDict, TypeVar

from .. import laws
from ..contract import (
    ByColor,
    ClaimArticle,
    ClaimDict,
    ClaimRuleName,
    ColorName,
    FlagRulesName,
    LegalMoveDict,
    ResultName,
    TerminationName,
    VerdictName,
    WatchEventDict,
    WatchEventKind,
)

Color = ColorName
Answer = Literal["yes", "no", "unknown"]
Level = Literal["none", "near", "claim", "over"]
How = Literal["automatic", "claimed", "declared", "recorded"]
EndingOp = Literal["agree", "resign", "flag", "claim", "recorded"]
EventKind = Literal["automatic", "claimable", "claimable_with_move"]
SearchName = Literal["auto", "static", "page"]

#: A legal move: the library's own shape, sent as it is.
LegalMove = LegalMoveDict


class ErrorInfo(TypedDict):
    """A refusal. The bridge's codes are :data:`pychessdraw.contract.ErrorCode`'s; ``code`` is
    text because the page shows its own refusals in this shape too ("loading", "empty"...)."""

    code: str  # the bridge's: an ErrorCode, stable (pychessdraw.errors)
    message: str  # short, in chess words, no FEN
    choices: NotRequired[list[LegalMove]]  # promotion_needed: the moves to choose from


class MoveRow(TypedDict):
    ply: int
    san: str
    uci: str
    fen: str
    label: str  # "3...Qxf7"
    number: int  # the fullmove number of the move
    white: bool  # White made the move
    repetition_count: int
    check: bool  # the side to move after this move is in check
    after_end: bool  # played after the rules had already ended the game (imported)
    clock_ms: NotRequired[int | None]  # the mover's [%clk] time after the move (imported PGN)


class MovesDelta(TypedDict):
    keep: int  # rows the page keeps (rows[0:keep]); the rest are replaced by `add`
    add: list[MoveRow]


class Counter(TypedDict):
    value: int
    short: str  # the counter's figure: "7/100", "149/150, claimable"; "2 of 3", "3 of 5, claimable"
    claim_at: int
    auto_at: int
    claim_article: str
    auto_article: str
    text: str  # one sentence for the panel
    auto_text: str
    level: Level


class Occurrence(TypedDict):
    ply: int
    label: str  # "the start", "after 2.Ng1"


class Repetition(Counter):
    earlier: list[Occurrence]


class OutcomeView(TypedDict):
    termination: TerminationName | Literal["unknown"]  # "unknown": a recorded result without a known reason
    result: ResultName
    winner: Color | None
    article: str | None  # a claimed draw's: the claim's ("9.2.1.1" with an intended move)
    reason: str
    how: How
    headline: str  # "Draw: 1/2-1/2"
    detail: str  # "Threefold repetition, claimed (FIDE 9.2.1.2, by the player to move)"
    ended_at: int | None  # ply where the rules ended an imported game that went on
    ended_at_label: str | None


class ClaimChoice(TypedDict):
    uci: str
    san: str
    question: str  # "Ng8 repeats the position a third time: claim a draw with this move?"


class ClaimGroup(TypedDict):
    rule: ClaimRuleName
    article: ClaimArticle
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
    result: ResultName | None
    text: str


class Offer(TypedDict):
    by: Color  # the player who has just moved (FIDE 9.1.2.2)
    to: Color
    text: str


class MaterialView(TypedDict):
    """One side's material on the board, for its player bar (pychessdraw.web.material)."""

    advantage: str  # "+3" for the side ahead, "" otherwise
    value: int  # the same as a number: negative for the side behind
    captured: str  # the pieces it is up by, as figurines ("♟♟♞"); "" when none


class Facts(TypedDict):
    ply: int
    turn: Color
    fen: str
    check: bool
    where: str  # "the start position" or "the position after 3...Qxf7"
    turn_text: str  # "White to move (check)", "Game over"
    description: str  # the position in words, for screen readers
    halfmove: Counter
    repetition: Repetition
    outcome: OutcomeView | None
    claims: list[ClaimGroup]
    claims_text: str
    winnable: ByColor[Winnability]
    dead_text: str  # the dead-position line (FIDE 5.2.2)
    flag_fall: ByColor[FlagView] | None
    flag_rules: FlagRulesName
    hints: list[str]  # never contradict the rules; empty once the game is over
    offer: Offer | None  # who would offer a draw now
    legal_moves: list[LegalMove]
    live: bool  # the current position (claims and moves only here)
    can_undo: bool  # the game has a move or a declared ending (or an imported result) to take back
    material: ByColor[MaterialView]  # the player bars' material difference in the position shown


class GameInfo(TypedDict):
    start_fen: str
    start_turn: Color  # the side to move in the start position
    start_check: bool  # that side is in check there
    chess960: bool
    headers: dict[str, str]
    recorded: OutcomeView | None  # an imported game's recorded result


class WrongClaim(TypedDict):
    """FIDE 9.5.3: what a page with running clocks does after a refused claim."""

    to: Color  # the claimer's opponent, who gets the time
    bonus_ms: int
    text: str  # appended to the verdict's text when the time is added
    note: str  # the clocks' note


class ClaimVerdict(TypedDict):
    accepted: bool
    rule: ClaimRuleName | None
    move: str | None
    san: str | None
    headline: str  # "White's claim accepted" | "Black's claim refused": the claimer named
    text: str
    wrong_claim: WrongClaim | None  # a refused claim: the opponent's two minutes (FIDE 9.5.3)


class ClaimAsk(TypedDict):
    rule: ClaimRuleName
    uci: str
    san: str
    question: str


class PgnGameInfo(TypedDict):
    index: int
    label: str


class Analysed(TypedDict):
    level: int
    final: bool  # both sides decided, or the deepest budget was used


ProofMarkKind = Literal["piece", "wall", "region"]
"""A marked square of a cannot-mate proof: a piece of the side that cannot
mate (its material), a pawn locked for good, a square the other king can reach."""


class ProofStep(TypedDict):
    san: str
    label: str  # the move numbered: "41.Kf7", "41...Bc4"
    fen: str  # the position after it, for the board
    last_move: list[str]  # [from, to] squares, for the board's highlight
    check: bool
    mate: bool


class ProofMark(TypedDict):
    square: str  # "e4"
    kind: ProofMarkKind


class ProofView(TypedDict):
    ply: int  # the game's position the proof is of
    color: Color  # the side whose answer it proves
    answer: Answer  # "yes": steps to play; "no": marks; "unknown": neither (not proven)
    title: str  # "White can checkmate: a mating line of 7 plies"
    text: str  # the proof in one sentence (the reason, or the line in SAN)
    legend: str  # what the marks mean ("" without marks)
    start_fen: str  # the position the line starts from
    steps: list[ProofStep]
    marks: list[ProofMark]


class Ending(TypedDict):
    op: EndingOp
    color: NotRequired[Color]  # resign, flag: the side that resigned or lost on time; claim (auto): the claimer
    auto: NotRequired[bool]  # claim: made by the player's auto-claim setting (the PGN says so)


class ReviewEvent(TypedDict):
    ply: int
    rule: TerminationName
    kind: EventKind
    label: str  # "Black could claim threefold repetition with move 17...", "Checkmate ended the game after Black's move 30"


class ReviewRow(TypedDict):
    """One reviewed game as the review table shows it (pychessdraw.web.review)."""

    game: int
    white: str
    black: str
    result: str  # as recorded (any text of the Result tag)
    verdict: VerdictName  # pychessdraw.records.judge
    expected_result: ResultName | None
    ended_at: int | None
    plies: int
    events: list[ReviewEvent]
    detail: str  # the verdict's reason: "fivefold repetition ended it after Black's move 8: the rules give 1/2-1/2"
    error: str | None  # in chess words: "12...Qxf9 (Black's move 12) is not legal here"
    error_ply: int | None
    first_move: int  # the start position's move number
    black_first: bool
    start: int  # character offsets of the game in the text fed
    end: int


class ReviewResult(TypedDict):
    line: str  # the game's report as the CLI's scan prints it
    row: ReviewRow


class ReviewWords(TypedDict):
    """review_words: a reviewed game's sentences said again in the current
    language, from its report (a row's words: the rest of the row does not change)."""

    game: int
    detail: str
    error: str | None  # the parser's reason inside it stays in the language it was read in
    events: list[ReviewEvent]


MarkKind = Literal["automatic", "claimable", "claimable_with_move", "flag"]


class ReviewMark(TypedDict):
    """A marked ply of a reviewed game's move list (at the ply scan names)."""

    ply: int
    kind: MarkKind
    symbol: str  # "■" the rules ended the game, "½" claimable, "⇢" claimable with a move, "⚑" a flag fell
    title: str  # the referee's words: "Black could claim threefold repetition with move 17..."


class ReviewPly(TypedDict):
    """A position of a reviewed game (ply 0: the start), display-ready."""

    ply: int
    san: str
    uci: str
    label: str  # "41.Rh5"
    number: int  # the move's number (ply 0: the start's)
    white: bool  # White made the move (ply 0: False)
    fen: str
    clock: str | None  # the mover's [%clk] after this move: "2:59", "1:02:03", "0:07.5"
    clock_white: str | None  # the time each side had after its last move up to here
    clock_black: str | None
    turn: Color  # the side to move here
    check: bool  # the side to move here is in check (the board marks its king)
    after_end: bool  # played after the rules had ended the game
    claims: list[str]  # what the side to move could claim here, in words
    can_mate: ByColor[Answer]  # what the review proved of each side's mate here ("unknown": not proven)


class ReviewGame(TypedDict):
    """review_game: one game of a review, for the Review view's own board."""

    start_fen: str
    chess960: bool
    plies: list[ReviewPly]  # index = ply
    has_clocks: bool  # any [%clk]: without, no clocks are shown
    verdict: VerdictName
    sentence: str  # "Recorded 1-0; the rules give 1/2-1/2: stalemate after 41.Rh5"
    goto: int | None  # the ply the sentence names
    marks: list[ReviewMark]
    ended_at: int | None  # where the rules ended the game
    ended_text: str | None  # "Stalemate ended the game after White's move 41"


# -- the computer's questions (pychessdraw.web.probe) ------------------------------
class AutomaticDict(TypedDict):
    """A rule that would end the game by itself after the move."""

    termination: TerminationName
    winner: ColorName | None


class MoveProbeDict(TypedDict):
    """``MoveProbe.to_dict()``: the position after one candidate move."""

    uci: str
    san: str
    repetition_count: int  #: occurrences of the position after the move, this one included
    halfmove_clock: int
    automatic: AutomaticDict | None
    draw: bool  #: the move ends the game in a draw by itself
    opponent_claims_now: list[ClaimRuleName]  #: the opponent may then claim at once (9.2.1.2, 9.3.2)
    opponent_claims_with_move: list[ClaimRuleName]  #: ... or by declaring a move (9.2.1.1, 9.3.1)
    opponent_claims: list[ClaimDict]


class EngineFactsDict(TypedDict):
    """:func:`pychessdraw.web.probe.engine_facts`: what a computer player asks before it moves."""

    turn: ColorName
    ply: int
    claims: list[ClaimDict]  #: open to the side to move, now or with an intended move
    repetition_count: int
    halfmove_clock: int
    practical_draw: str | None  #: the referee's hint (knowledge, not a rule)
    probes: list[MoveProbeDict]


class Reply(TypedDict):
    ok: bool
    error: NotRequired[ErrorInfo]
    facts: NotRequired[Facts]  # the current (or browsed) position
    moves: NotRequired[MovesDelta]  # what changed in the move list
    game: NotRequired[GameInfo]  # present when the whole game was replaced
    claim: NotRequired[ClaimVerdict]
    ask: NotRequired[ClaimAsk]  # play with offer_claim: the move would make a claim correct; nothing was played
    pgn: NotRequired[str]
    games: NotRequired[list[PgnGameInfo]]  # load_pgn of a text with several games and no index: nothing loaded
    analysed: NotRequired[Analysed]
    ending: NotRequired[Ending | None]  # the declared ending to save (agree/resign/flag/claim/recorded)
    results: NotRequired[list[ReviewResult]]  # review_start/feed/finish: the games completed
    engine_facts: NotRequired[EngineFactsDict]  # engine_facts: what the computer asks before it moves
    proof: NotRequired[ProofView]  # proof: a side's can-mate answer to play or to see on a board
    review_game: NotRequired[ReviewGame]  # review_game: one game for the Review's board
    review_words: NotRequired[list[ReviewWords]]  # review_words: the games' sentences in the current language


# -- the operations: op -> args -> reply ---------------------------------------
A = TypeVar("A")
R = TypeVar("R")


class Op(TypedDict, Generic[A, R]):
    """One operation: the arguments it takes and the reply it gives."""

    args: A
    reply: R


class NoArgs(TypedDict):
    """An operation without arguments."""


class NewArgs(TypedDict, total=False):
    fen: str | None  # the start position (standard when absent)
    chess960: bool | None
    flag_rules: FlagRulesName | None


class CheckFenArgs(TypedDict, total=False):
    fen: str  # a start position to check before the page asks to replace the game
    chess960: bool | None


class PlayArgs(TypedDict):
    move: str  # SAN or UCI, at most 20 characters
    offer_claim: NotRequired[bool | None]  # ask first when the move would make a claim correct


class ClaimArgs(TypedDict, total=False):
    move: str | None  # the intended move; none: claim now
    auto: bool | None  # made by the player's auto-claim setting: the verdict, the ending and the PGN say so


class ColorArgs(TypedDict):
    color: Color


class LoadPgnArgs(TypedDict):
    pgn: str
    index: NotRequired[int | None]  # which game of several (from 0)
    partial: NotRequired[bool | None]  # load the moves before the first bad one


class StatusAtArgs(TypedDict):
    ply: int


class TimeControlArgs(TypedDict, total=False):
    base_s: float
    increment_s: float
    delay_s: float


class PlayersArgs(TypedDict, total=False):
    white: str  # the names the page shows on its player bars
    black: str


class ExportPgnArgs(TypedDict, total=False):
    players: PlayersArgs | None  # White and Black tags of a game played on the page
    event: str  # the Event tag ("Casual game" when not given)
    date: str  # the Date tag, YYYY.MM.DD (the page's today; the worker's today when not given)
    time_control: TimeControlArgs | None  # both or neither: TimeControl and [%clk] per move
    clocks: dict[str, int] | None  # ply -> the mover's milliseconds after the move


class AnalyseArgs(TypedDict, total=False):
    level: int  # 0 .. 3, growing budgets
    ply: int | None  # a browsed position (its facts, searched, live false); none: the current one


class ProofGameArgs(TypedDict):
    """A game apart from the worker's own (the Review's): its start and its moves."""

    start_fen: str
    chess960: NotRequired[bool | None]
    moves: list[str]  # UCI: the game's moves (the position is after the first ``ply``)


class ProofArgs(TypedDict):
    ply: int  # the position (0 .. the game's ply)
    color: Color  # whose answer
    game: NotRequired[ProofGameArgs | None]  # the Review's game; none: the worker's own game


class RestoreArgs(TypedDict, total=False):
    start_fen: str | None
    chess960: bool | None
    moves: list[str]  # UCI
    ending: Ending | None
    headers: dict[str, str] | None
    flag_rules: FlagRulesName | None


class RulesArgs(TypedDict):
    flag_rules: FlagRulesName


class ReviewStartArgs(TypedDict, total=False):
    flag_rules: FlagRulesName
    start: int  # the first game's number
    part: int  # this session's share of the games (number - start) % parts == part
    parts: int
    search: SearchName


class ReviewFeedArgs(TypedDict):
    text: str  # the next chunk of the file


class ReviewGameArgs(TypedDict):
    pgn: str  # one game's text, as re-read from the file
    game: NotRequired[int]  # its number in the review
    flag_rules: NotRequired[FlagRulesName]
    search: NotRequired[SearchName]


class ReviewWordsArgs(TypedDict):
    lines: list[str]  # games' reports as review_start/feed/finish gave them (their ``line``)


class LanguageArgs(TypedDict):
    language: str  # "de", or a browser's tag such as "de-DE": the referee's sentences from now on


class EngineFactsArgs(TypedDict):
    moves: list[str]  # the candidate moves to probe


class Operations(TypedDict):
    """Every operation of the bridge: ``{op, args}`` in, ``Reply`` out."""

    new: Op[NewArgs, Reply]
    play: Op[PlayArgs, Reply]
    undo: Op[NoArgs, Reply]
    load_pgn: Op[LoadPgnArgs, Reply]
    claim: Op[ClaimArgs, Reply]
    agree: Op[NoArgs, Reply]
    resign: Op[ColorArgs, Reply]
    flag: Op[ColorArgs, Reply]
    status_at: Op[StatusAtArgs, Reply]
    export_pgn: Op[ExportPgnArgs, Reply]
    state: Op[NoArgs, Reply]
    analyse: Op[AnalyseArgs, Reply]
    restore: Op[RestoreArgs, Reply]
    rules: Op[RulesArgs, Reply]
    review_start: Op[ReviewStartArgs, Reply]
    review_feed: Op[ReviewFeedArgs, Reply]
    review_finish: Op[NoArgs, Reply]
    review_game: Op[ReviewGameArgs, Reply]
    review_words: Op[ReviewWordsArgs, Reply]
    engine_facts: Op[EngineFactsArgs, Reply]
    check_fen: Op[CheckFenArgs, Reply]
    set_language: Op[LanguageArgs, Reply]
    proof: Op[ProofArgs, Reply]


OpName = Literal[
    "new",
    "play",
    "undo",
    "load_pgn",
    "claim",
    "agree",
    "resign",
    "flag",
    "status_at",
    "export_pgn",
    "state",
    "analyse",
    "restore",
    "rules",
    "review_start",
    "review_feed",
    "review_finish",
    "review_game",
    "review_words",
    "engine_facts",
    "check_fen",
    "set_language",
    "proof",
]
"""The keys of :class:`Operations` (a test checks that they agree)."""


# -- the Arbiter view's worker (pychessdraw.web.follow.Bridge) ----------------
BoardState = Literal["playing", "claimable", "claimable_with_move", "must_stop", "ended"]
"""A followed board's state in one word (the page's ``data-state``)."""
ArbiterEventKind = WatchEventKind
"""The kinds of the CLI's ``watch`` events (:data:`pychessdraw.records.tracker.KINDS`)."""


class BoardView(TypedDict):
    """What the Arbiter view shows of one followed board (:func:`pychessdraw.web.follow.board_view`)."""

    game: int
    board: int  # the board number: [Board], else the board part of [Round "5.12"], else the place in the source
    white: str | None
    black: str | None
    round: str | None
    plies: int
    moves: int
    move_text: str  # the last move with its number, "12...Qxf7" ("no move yet")
    last_move: str | None
    last_uci: str | None
    clocks: ByColor[str | None]  # each side's last %clk, for people
    fen: str | None
    placement: str | None  # what the small board draws
    state: BoardState
    state_text: str  # "Black may claim threefold repetition with 4...Ng8", "must stop: fivefold repetition"
    claim_moves: list[str]
    error: str | None
    removed: bool
    result: str | None
    expected_result: str | None
    verdict: str | None
    flag: str | None  # for a loss on time: whether the opponent could mate, with the proof
    note: str  # the card's note: an error, the recorded result and what the rules give, the flag sentence
    clocks_text: str  # "Clocks: White 1:02:03 · Black 0:59" ("" without %clk)
    urgency: int  # lower first


class ArbiterEvent(WatchEventDict):
    """One event of the log, the CLI's ``watch`` event with its serial ``id``
    and readable ``text``; the kind's own fields (``moves``, ``result``,
    ``verdict``, ``time_forfeit``, ``code``, ``reason``...) are kept for the
    downloaded log, not read by the page."""

    id: int
    text: str  # watch's line, word for word
    board: int  # the board number, as BoardView's
    line: str  # the arbiter's short line: board, players, move, event (at most five intended moves named)
    more: str  # every intended move when the line names only five ("all 17 moves: ..."), else ""


class FollowUpdate(TypedDict):
    """What one new text of the source changed (:meth:`pychessdraw.web.follow.Follower.update`)."""

    events: list[ArbiterEvent]  # new, in the source's order
    voided: list[int]  # ids of earlier events a correction or restart made void
    boards: list[BoardView]  # the boards that changed
    count: int  # boards in all


class FollowReply(TypedDict):
    """The arbiter worker's answer to every operation."""

    ok: bool
    error: NotRequired[ErrorInfo]
    note: NotRequired[str | None]  # follow_feed: a game of the stream was dropped
    events: NotRequired[list[ArbiterEvent]]
    voided: NotRequired[list[int]]
    boards: NotRequired[list[BoardView]]
    count: NotRequired[int]


class FollowStartArgs(TypedDict, total=False):
    flag_rules: FlagRulesName
    source: int  # one of several sources followed at once (a new follower for it); none: every source dropped


class FollowTextArgs(TypedDict):
    text: str  # what the stream sent next
    source: NotRequired[int]  # which source sent it (0 when not given)


class FollowUpdateArgs(TypedDict):
    text: str  # the source's whole text
    cut: NotRequired[str | None]  # why the text was cut short (a size limit): its last game is not judged
    source: NotRequired[int]  # which source it is (0 when not given)


class FollowSourceArgs(TypedDict):
    source: int  # a source no longer followed: its follower is dropped


class FollowOperations(TypedDict):
    """The arbiter worker's operations: op -> args -> reply."""

    follow_start: Op[FollowStartArgs, FollowReply]
    follow_update: Op[FollowUpdateArgs, FollowReply]
    follow_feed: Op[FollowTextArgs, FollowReply]
    follow_log: Op[NoArgs, FollowReply]
    follow_drop: Op[FollowSourceArgs, FollowReply]
    follow_again: Op[FollowSourceArgs, FollowReply]  # the source's log and boards said again (events: the whole log)
    set_language: Op[LanguageArgs, FollowReply]  # the sentences made from now on in the page's language


REPLACES_GAME: Final = ("new", "load_pgn", "restore", "state", "set_language")
"""The operations whose reply replaces the whole game (``game`` and every row)."""


class Request(TypedDict):
    op: OpName
    args: NotRequired[dict[str, object]]


def sent_facts() -> dict[str, object]:
    """The facts the page needs that no reply carries, written into the
    generated ``web/src/contract.js`` as constants: the Laws' articles and
    rule names (:mod:`pychessdraw.laws`), the thresholds of the rules, the
    limits of a request, the operations that replace the game, the
    languages of the referee's sentences."""
    from .. import fen, i18n, pgn
    from ..outcome import side_name
    from ..records import judge as verdict
    from ..rules import fifty, repetition

    return {
        "LAWS": {
            "article": dict(laws.ARTICLE),
            "claim_article": {
                f"{rule}{'_with_move' if move else ''}": article for (rule, move), article in laws.CLAIM_ARTICLE.items()
            },
            "offer": laws.OFFER,
            "claim_stops_clocks": laws.CLAIM_STOPS_CLOCKS,
            "wrong_claim": laws.WRONG_CLAIM,
            "wrong_claim_bonus_ms": laws.WRONG_CLAIM_BONUS_MS,
            "rule_name": dict(laws.RULE_NAME),
            "rule_in_sentence": dict(laws.RULE_IN_SENTENCE),  # "the fifty-move rule": the page adds no article
            # the flag rules as the clock settings name them ("FIDE 6.9", "US Chess 14E")
            "flag_rules": {"fide": laws.fide(laws.FLAG_FALL), "uscf": laws.USCF_INSUFFICIENT},
            "claim_count": repetition.CLAIM_COUNT,
            "automatic_count": repetition.AUTOMATIC_COUNT,
            "claim_plies": fifty.CLAIM_PLIES,
            "automatic_plies": fifty.AUTOMATIC_PLIES,
        },
        "LIMITS": {"max_moves": pgn.MAX_PLIES, "max_fen": fen.MAX_FEN},
        "REPLACES_GAME": list(REPLACES_GAME),
        "VERDICTS": list(verdict.VERDICTS),  # the order the page lists them in
        "VERDICT_WORDS": dict(verdict.VERDICT_WORDS),
        "SIDE_NAME": {name: side_name(name) for name in ("white", "black")},
        "LANGUAGES": dict(i18n.NATIVE_NAME),  # the referee's languages by their own names: set_language takes the code
    }
