"""The referee's game: a python-chess board plus one history entry per ply.

The history is what the draw rules need and nothing more: the FIDE position
key and the halfmove clock of every ply (the history walk of the classic
engine draw-detection functions: look back only to the last pawn move or
capture). Everything else (SAN, FEN, PGN) is derived on demand, so a status
costs the same on ply 10 and on ply 400.

Every public method checks its arguments: a wrong type or value raises a
:class:`~pychessdraw.errors.RefereeError` (``bad_request`` and friends) and
leaves the game exactly as it was.
"""

from __future__ import annotations

import itertools
from typing import Literal, NamedTuple

import chess

from . import checks, i18n, laws
from .contract import FlagRulesName, LegalMoveDict, WinnableDetailDict
from .deadposition import Verdict
from .errors import BadRequestError, GameOverError, IllegalMoveError, NothingToUndoError, shown
from .fen import read_fen
from .i18n import gettext, ngettext
from .moves import move_label, parse_move
from .outcome import AUTOMATIC, Outcome, Termination, claim_article, color_name
from .position import PositionKey, position_key
from .rules import dead, fifty, insufficient, mate, repetition, timeout
from .rules.dead import SearchBudget
from .rules.hints import hints
from .status import Claim, ClaimResult, Status

_PROMOTION: dict[chess.PieceType, Literal["q", "r", "b", "n"]] = {
    chess.QUEEN: "q",
    chess.ROOK: "r",
    chess.BISHOP: "b",
    chess.KNIGHT: "n",
}


class HistoryEntry(NamedTuple):
    """One ply of a game's history: what the draw rules remember of it."""

    ply: int
    move: chess.Move | None  #: the move that led here; None at ply 0
    key: PositionKey  #: the FIDE 9.2.2 position key
    halfmove_clock: int


_PUSHES = itertools.count()  # numbers every move pushed on any game
_Verdicts = tuple[int, PositionKey, SearchBudget, dict[chess.Color, Verdict]]
_Caches = tuple[tuple[int, Outcome | None] | None, list[int] | None, _Verdicts | None]


class Checkpoint(NamedTuple):
    """A Game as it was at one moment (:meth:`Game.checkpoint`): the lists
    are copies, the rest is never changed in place."""

    moves: list[chess.Move]
    pushes: list[int]
    keys: list[PositionKey]
    clocks: list[int]
    declared: Outcome | None
    caches: _Caches  #: the automatic outcome, repetitions and verdicts found
    flag_rules: FlagRulesName
    search: SearchBudget
    owner: int  #: id() of the game it was taken from


def _index(keys: list[PositionKey]) -> dict[PositionKey, list[int]]:
    """The plies at which each position of ``keys`` stood, ascending."""
    where: dict[PositionKey, list[int]] = {}
    for ply, key in enumerate(keys):
        where.setdefault(key, []).append(ply)
    return where


def board_from_fen(fen: str | None, chess960: bool = False) -> chess.Board:
    """Parse, then validate (:func:`pychessdraw.fen.read_fen`): a syntax
    error and an impossible position both raise BadFenError naming the field
    and the problem in chess words (BadRequestError for a FEN that is not
    text)."""
    if fen is not None and not isinstance(fen, str):
        raise BadRequestError(f"a FEN must be text, not {type(fen).__name__}")
    if not isinstance(chess960, bool):
        raise BadRequestError(f"chess960 must be true or false, not {type(chess960).__name__}")
    if fen is None:
        return chess.Board(chess960=chess960) if not chess960 else chess.Board.from_chess960_pos(518)
    return read_fen(fen, chess960)


class Game:
    """A game in progress under the FIDE Laws.

    Moves come in as SAN or UCI text or as ``chess.Move``; :meth:`status`
    reports what has ended the game and what the player to move may claim.
    A game can start from any legal FEN, Chess960 included.

    Guarantees: a call that raises leaves the game exactly as it was; every
    error is a :class:`~pychessdraw.errors.RefereeError` with a stable code.
    """

    def __init__(
        self,
        fen: str | None = None,
        *,
        chess960: bool = False,
        search: SearchBudget = dead.STATIC,
        flag_rules: str = timeout.FIDE,
    ) -> None:
        """``search`` bounds the dead-position search run on every position
        (per side; the default runs only the cheap static proofs).
        ``flag_rules`` ("fide" or "uscf") decides flag-fall results."""
        self.flag_rules: FlagRulesName = checks.flag_rules(flag_rules)
        self.search = checks.budget(search)
        self._verdicts: _Verdicts | None = None
        self._board = board_from_fen(fen, chess960)
        self._keys: list[PositionKey] = [position_key(self._board)]
        self._pushes: list[int] = []  # one number per move on the board, never reused (see rollback)
        self._clocks: list[int] = [self._board.halfmove_clock]
        self._where = _index(self._keys)  # the plies at which each position stood
        self._start = self._board.copy(stack=False)
        self._declared: Outcome | None = None
        self._auto: tuple[int, Outcome | None] | None = None
        self._reps: list[int] | None = None  # earlier plies of the current position

    # -- what the game is -------------------------------------------------
    @property
    def board(self) -> chess.Board:
        """A copy of the board (with its move stack): changing it does not
        change the game."""
        return self._board.copy()

    @property
    def start_fen(self) -> str:
        return self._start.fen()

    @property
    def chess960(self) -> bool:
        return self._board.chess960

    @property
    def ply(self) -> int:
        """Plies played since the start position (not the FEN's move number)."""
        return len(self._keys) - 1

    @property
    def moves(self) -> list[chess.Move]:
        """The moves played, oldest first (a new list)."""
        return list(self._board.move_stack)

    @property
    def turn(self) -> chess.Color:
        return self._board.turn

    def fen(self) -> str:
        return self._board.fen()

    def is_check(self) -> bool:
        """Is the side to move in check?"""
        return self._board.is_check()

    @property
    def halfmove_clock(self) -> int:
        return self._board.halfmove_clock

    @property
    def fullmove_number(self) -> int:
        """The move number of the move to play now (as the FEN counts it)."""
        return self._board.fullmove_number

    def move_label(self, text: str) -> str:
        """``text`` with the number and side of the move to play now:
        "3.e4", "3...e5" (how errors and move lists name a move)."""
        return move_label(self._board, text)

    def current_board(self) -> chess.Board:
        """A copy of the current position without the move history: cheap at
        any ply (:attr:`board` copies the history too). Changing it does not
        change the game."""
        return self._board.copy(stack=False)

    @property
    def last_move(self) -> chess.Move | None:
        """The last move played, or None at the start (cheaper than ``moves[-1]``)."""
        return self._board.peek() if self._board.move_stack else None

    def history(self) -> list[HistoryEntry]:
        """One entry per ply, 0 (the start position) to :attr:`ply`: the move
        that led there, the FIDE position key and the halfmove clock. This is
        everything the draw rules remember; a new list each call."""
        moves: list[chess.Move | None] = [None, *self._board.move_stack]
        return [HistoryEntry(i, moves[i], self._keys[i], self._clocks[i]) for i in range(len(self._keys))]

    def position_key(self, ply: int | None = None) -> PositionKey:
        """The FIDE 9.2.2 key of the position at ``ply`` (default: now)."""
        return self._keys[self._ply(ply)]

    def san(self, move: chess.Move) -> str:
        """``move`` (legal now) in SAN, with check and mate suffixes."""
        return self._board.san(self._legal(move))

    def uci(self, move: chess.Move) -> str:
        """``move`` in UCI, Chess960 castling as king-takes-rook."""
        return self._board.uci(self._legal(move))

    def is_irreversible(self, ply: int | None = None) -> bool:
        """Whether the move that led to ``ply`` (default: now) cut the game's
        history: a pawn move, a capture or a lost castling right. No position
        before such a move can recur, nor be reached again (ply 0 counts)."""
        ply = self._ply(ply)
        return ply == 0 or self._clocks[ply] == 0 or self._keys[ply].castling != self._keys[ply - 1].castling

    def _ply(self, ply: int | None) -> int:
        if ply is None:
            return self.ply
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= self.ply:
            raise BadRequestError(f"ply must be a whole number from 0 to {self.ply}, not {shown(ply)}")
        return ply

    def _legal(self, move: chess.Move) -> chess.Move:
        if not isinstance(move, chess.Move):
            raise BadRequestError(f"a move must be a chess.Move here, not {type(move).__name__}")
        checks.move_object(move)
        if not self._board.is_legal(move):
            label = move_label(self._board, move.uci())
            raise IllegalMoveError(
                gettext("{label} is not legal here").format(label=label),
                token=move.uci(),
                move_label=label,
                ply=self.ply + 1,
            )
        return move

    # -- playing ------------------------------------------------------------
    def parse_move(self, text: str, *, typed: bool = False) -> chess.Move:
        """A legal move from SAN or UCI text; raises InvalidMoveError,
        IllegalMoveError, PromotionNeededError or AmbiguousMoveError (with
        ``ply``, ``token`` and ``move_label``). Changes nothing. ``typed``:
        text from a person, where ``bxc3`` fitting a b-pawn and a bishop is
        ambiguous (:func:`pychessdraw.moves.parse_move`)."""
        return parse_move(self._board, text, ply=self.ply + 1, typed=checks.flag(typed, "typed"))

    def _move(self, move: object) -> chess.Move:
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, chess.Move):
            return self._legal(move)
        raise BadRequestError(f"a move must be SAN or UCI text or a chess.Move, not {type(move).__name__}")

    def play(self, move: str | chess.Move) -> chess.Move:
        """Play a legal move. Raises GameOverError once the game has ended,
        and IllegalMoveError etc. for a bad move; the game is then unchanged."""
        if not isinstance(move, (str, chess.Move)):
            self._move(move)  # raises BadRequestError
        self._refuse_if_over()
        played = self._move(move)
        self.push(played)
        return played

    def push(self, move: chess.Move) -> None:
        """Append ``move`` with no legality or game-over check: for replaying a
        trusted record (a scan keeps replaying past an ending to audit it).
        The caller vouches for legality, e.g. the move came from
        :meth:`parse_move`; an illegal move here corrupts the game (only the
        type and the squares are checked, with BadRequestError)."""
        if not isinstance(move, chess.Move):
            raise BadRequestError(f"push needs a chess.Move, not {type(move).__name__}")
        self._board.push(checks.move_object(move))
        try:
            key = position_key(self._board)
        except BaseException:
            self._board.pop()  # the board and the history stay in step
            raise
        self._pushes.append(next(_PUSHES))
        self._keys.append(key)
        self._clocks.append(self._board.halfmove_clock)
        self._where.setdefault(key, []).append(len(self._keys) - 1)
        self._auto = None
        self._reps = None

    def undo(self) -> chess.Move | None:
        """Take back the last action: a declared ending (claim, agreement,
        resignation, flag) first, otherwise the last move. Returns the move
        taken back, or None when only a declared ending was lifted."""
        if self._declared is not None:
            self._declared = None
            return None
        if not self._board.move_stack:
            raise NothingToUndoError(gettext("no move to take back"), ply=0)
        key = self._keys.pop()
        plies = self._where[key]
        plies.pop()
        if not plies:
            del self._where[key]
        self._pushes.pop()
        self._clocks.pop()
        self._auto = None
        self._reps = None
        return self._board.pop()

    def checkpoint(self) -> Checkpoint:
        """The game as it is now, for :meth:`rollback`: one copy of the move
        list and of the history (cheap next to a status, even at ply 20,000)."""
        return Checkpoint(
            list(self._board.move_stack),
            list(self._pushes),
            list(self._keys),
            list(self._clocks),
            self._declared,
            (self._auto, self._reps, self._verdicts),
            self.flag_rules,
            self.search,
            id(self),
        )

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Put the game back exactly as it was at ``checkpoint`` (taken from
        this game): moves taken back or played since, a declared ending, the
        flag rules, the search budget and what was found. Only the moves past
        the last one both share are replayed."""
        if not isinstance(checkpoint, Checkpoint) or checkpoint.owner != id(self):
            raise BadRequestError(f"rollback needs a Checkpoint of this game, not {type(checkpoint).__name__}")
        pushes, saved = self._pushes, checkpoint.pushes
        # A push's number still at its place means nothing below it was popped
        # since: the moves up to there are the checkpoint's. Walk back from the end.
        common = min(len(pushes), len(saved))
        while common and pushes[common - 1] != saved[common - 1]:
            common -= 1
        if len(self._board.move_stack) != len(pushes):  # a search stopped halfway: start again from the start
            self._board, common = self._start.copy(), 0
        while len(self._board.move_stack) > common:
            self._board.pop()
        for move in checkpoint.moves[common:]:
            self._board.push(move)
        self._pushes, self._keys, self._clocks = list(saved), list(checkpoint.keys), list(checkpoint.clocks)
        self._where = _index(self._keys)
        self._declared, self.flag_rules, self.search = checkpoint.declared, checkpoint.flag_rules, checkpoint.search
        self._auto, self._reps, self._verdicts = checkpoint.caches

    # -- the rules ----------------------------------------------------------
    def repetitions(self, ply: int | None = None) -> list[int]:
        """Earlier plies at which the position at ``ply`` (default: now) stood."""
        if ply is not None and self._ply(ply) != self.ply:
            return self._earlier(self._ply(ply))
        if self._reps is None:  # a status asks several times: find them once
            self._reps = self._earlier(self.ply)
        return list(self._reps)

    def _earlier(self, ply: int) -> list[int]:
        plies = self._where[self._keys[ply]]
        lo, hi = repetition.earlier_in(plies, self._clocks, ply)
        return plies[lo:hi]

    def repetition_count(self) -> int:
        if self._reps is not None:
            return 1 + len(self._reps)
        lo, hi = repetition.earlier_in(self._where[self._keys[-1]], self._clocks, self.ply)
        return 1 + hi - lo  # no list: a row per ply asks this, and a shuffle repeats thousands of times

    def automatic_outcome(self, *, has_legal_move: bool | None = None, dead_check: bool = True) -> Outcome | None:
        """What ends the game by itself now, in python-chess's order of
        precedence: checkmate first (a mate on the 150th ply stands).

        ``has_legal_move=True`` spares the search for a legal move when the
        caller already holds one (a scan that has parsed the next move).
        ``dead_check=False`` skips the dead-position proofs: a scan does so
        after reversible moves, since positions that reversible moves join
        can reach each other and so are dead or alive together."""
        if has_legal_move is not None:
            checks.flag(has_legal_move, "has_legal_move")
        checks.flag(dead_check, "dead_check")
        if self._auto is not None and self._auto[0] == self.ply:
            return self._auto[1]
        board = self._board
        result: Outcome | None = None
        moves_exist = mate.has_legal_move(board) if has_legal_move is None else has_legal_move
        if not moves_exist and board.is_check():
            result = Outcome(Termination.CHECKMATE, not board.turn)
        elif insufficient.is_insufficient_material(board):
            result = Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        elif not moves_exist:
            result = Outcome(Termination.STALEMATE, None)
        elif fifty.is_seventyfive_moves(board.halfmove_clock):
            result = Outcome(Termination.SEVENTYFIVE_MOVES, None)
        elif self.repetition_count() >= repetition.AUTOMATIC_COUNT:
            result = Outcome(Termination.FIVEFOLD_REPETITION, None)
        elif dead_check and (self.search.nodes or dead.may_be_dead(board)) and dead.is_dead(self.winnable()):
            result = Outcome(Termination.DEAD_POSITION, None)
        if dead_check or result is not None:
            self._auto = (self.ply, result)
        return result

    def winnable(self, search: SearchBudget | None = None) -> dict[chess.Color, Verdict]:
        """Per side: can it still checkmate by any series of legal moves?
        Cached per position; a deeper ``search`` than the game's may refine
        an undecided answer but never contradicts a decided one."""
        budget = self.search if search is None else checks.budget(search)
        cached = self._verdicts
        key = self._keys[-1]
        if cached is not None and cached[0] == self.ply and cached[1] == key:
            found = cached[3]
            # Keep what a search as deep or deeper already found: never
            # trade a decided answer for a shallower search's "undecided".
            if all(v.winnable is not None for v in found.values()) or budget.nodes <= cached[2].nodes:
                return found
        found = dead.verdicts(self._board, budget)
        self._verdicts = (self.ply, key, budget, found)
        return found

    def known_verdicts(self) -> tuple[SearchBudget, dict[chess.Color, Verdict]] | None:
        """The verdicts already found for the current position and the budget
        they were searched with, or None: nothing is searched here."""
        cached = self._verdicts
        if cached is None or cached[0] != self.ply or cached[1] != self._keys[-1]:
            return None
        return cached[2], cached[3]

    def remember_verdicts(self, budget: SearchBudget, found: dict[chess.Color, Verdict]) -> None:
        """Take ``found``, searched elsewhere for this same position with
        ``budget`` (a page's cache of positions), as the current position's
        verdicts: :meth:`winnable` then searches only where a deeper budget
        may decide what ``found`` left open. The caller vouches that they
        are this position's."""
        self._verdicts = (self.ply, self._keys[-1], checks.budget(budget), dict(found))
        self._auto = None  # the dead-position ending may follow from them

    def outcome(self) -> Outcome | None:
        """How the game ended, if it has: declared by a player, or automatic."""
        return self._declared or self.automatic_outcome()

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def claimable_now(self) -> list[Termination]:
        """Draws the player to move may claim without a move (9.2.1.2, 9.3.2)."""
        rules = []
        if fifty.can_claim_now(self._board.halfmove_clock):
            rules.append(Termination.FIFTY_MOVES)
        if self.repetition_count() >= repetition.CLAIM_COUNT:
            rules.append(Termination.THREEFOLD_REPETITION)
        return rules

    def intended_moves(self, rule: Termination | str) -> list[chess.Move]:
        """Legal moves after which a claim under ``rule`` would be correct.
        Empty when that claim is already possible without a move. A move
        that checkmates is never one: the mate ends the game first (FIDE
        5.1.1); a stalemating one is (a draw either way).

        ``rule`` is ``Termination.FIFTY_MOVES`` or
        ``Termination.THREEFOLD_REPETITION``, or its value as text
        (``"fifty_moves"``, as in JSON); anything else raises BadRequestError."""
        rule = checks.claim_rule(rule)
        if rule in self.claimable_now():
            return []
        if rule is Termination.FIFTY_MOVES:
            return fifty.intended_moves(self._board)
        targets = repetition.twice_seen(self._keys, self._clocks, self.ply)
        return repetition.intended_moves(self._board, targets)

    def claims(self) -> list[Claim]:
        """Every claim open to the player to move: none once the game is over."""
        if self.outcome() is not None:
            return []
        board = self._board
        now = self.claimable_now()
        out = [Claim(rule) for rule in now]
        for rule in checks.CLAIM_RULES:
            if rule not in now:
                for move in self.intended_moves(rule):
                    out.append(Claim(rule, move, board.uci(move), board.san(move)))
        return out

    def status(self, *, legal_moves: bool = False, search: SearchBudget | None = None) -> Status:
        """The status of the current position (see :class:`Status`).
        ``search`` deepens the dead-position search for this call (flag-fall
        questions and the CLI use ``rules.dead.DEEP``)."""
        checks.flag(legal_moves, "legal_moves")
        if search is not None:
            checks.budget(search)
        board = self._board
        outcome = self.outcome()
        moves = None
        if legal_moves:
            moves = () if outcome is not None else tuple(_describe(board, m) for m in board.generate_legal_moves())
        cannot = {c: insufficient.cannot_mate(board, c) for c in chess.COLORS}
        verdicts = self.winnable(search)
        if outcome is None and search is not None and dead.is_dead(verdicts):
            # A deeper search proved what the game's own budget could not.
            self._auto = (self.ply, Outcome(Termination.DEAD_POSITION, None))
            outcome = self.outcome()
            moves = () if legal_moves else None
        flags = None
        if outcome is None:
            flags = {
                c: timeout.result_if_flag_falls(
                    board, c, cannot[not c] or verdicts[not c].winnable is False, self.flag_rules
                )
                for c in chess.COLORS
            }
        return Status(
            fen=board.fen(),
            turn=board.turn,
            ply=self.ply,
            fullmove_number=board.fullmove_number,
            halfmove_clock=board.halfmove_clock,
            check=board.is_check(),
            repetition_count=self.repetition_count(),
            repetitions=tuple(self.repetitions()),
            outcome=outcome,
            claims=tuple(self.claims()),
            cannot_mate=cannot,
            hints=hints(board),
            winnable={c: v.winnable for c, v in verdicts.items()},
            winnable_detail={c: _detail(board, v) for c, v in verdicts.items()},
            flag_results=flags,
            flag_rules=self.flag_rules,
            legal_moves=moves,
        )

    # -- players' actions ---------------------------------------------------
    def claim_draw(self, move: str | chess.Move | None = None) -> ClaimResult:
        """Claim a draw now, or with an intended move (FIDE 9.2.1.1, 9.3.1).

        A correct claim ends the game as a draw. A wrong one is refused with
        the reason and the game goes on; an intended move is then played
        (FIDE 9.5.3). The intended move is recorded as the last move of the
        game either way, so the history shows the position the claim was about.
        An intended move that ends the game by itself (checkmate above all,
        FIDE 5.1.1; also stalemate, 75 moves, fivefold, dead position) ends
        it that way: ``accepted`` is False and ``ended_by`` names the ending.
        """
        if move is not None and not isinstance(move, (str, chess.Move)):
            self._move(move)  # raises BadRequestError
        self._refuse_if_over()
        played = None if move is None else self._move(move)
        point = None if played is None else self.checkpoint()
        try:
            return self._claim(played)
        except BaseException:
            if point is not None:  # a failure after the intended move was played: take it back
                self.rollback(point)
            raise

    def _claim(self, played: chess.Move | None) -> ClaimResult:
        uci = san = None
        if played is not None:
            uci, san = self._board.uci(played), self._board.san(played)
            self.push(played)
            ended = self.automatic_outcome()
            if ended is not None:
                # English lowers its reason ("checkmate"); other languages keep the case they write it in
                reason = ended.reason()
                why = gettext(
                    "{move} ends the game by itself: {reason} ({result}, FIDE {article}), which comes before any draw claim."
                ).format(
                    move=san,
                    reason=reason.lower() if i18n.current() == i18n.ENGLISH else reason,
                    result=ended.result(),
                    article=ended.article,
                )
                return ClaimResult(False, None, uci, why, ended.termination)
        rules = self.claimable_now()
        if rules:
            rule = rules[0]
            self._declared = Outcome(rule, None, claimed=True, move=played)
            return ClaimResult(True, rule, uci, self._explain(played, accepted=True, rule=rule))
        return ClaimResult(False, None, uci, self._explain(played, accepted=False))

    def _explain(self, move: chess.Move | None, *, accepted: bool, rule: Termination | None = None) -> str:
        """The verdict's reason: the count of the rule that makes a correct
        claim correct (``rule``), or the counts of both rules that a wrong
        one lacks."""
        where = gettext("now") if move is None else gettext("after the intended move")
        count, clock = self.repetition_count(), self._board.halfmove_clock
        repeated = ngettext(
            "the position has occurred {count} time", "the position has occurred {count} times", count
        ).format(count=count)
        quiet = ngettext(
            # English says "plies" for one too, as it always has
            "{count} plies have passed without a pawn move or capture",
            "{count} plies have passed without a pawn move or capture",
            clock,
        ).format(count=clock)
        if accepted and rule is not None:
            why = repeated if rule == Termination.THREEFOLD_REPETITION else quiet
            article = claim_article(rule, with_move=move is not None)
            return gettext("Draw claim correct: {when} {why} ({rule}, {article}).").format(
                when=where, why=why, rule=laws.rule_name(rule.value), article=laws.fide(article)
            )
        facts = gettext(
            "{when} {repeated} ({count} needed for {rule}) and {quiet} ({plies} needed for {fifty_rule})"
        ).format(
            when=where,
            repeated=repeated,
            count=repetition.CLAIM_COUNT,
            rule=laws.rule_name("threefold_repetition"),
            quiet=quiet,
            plies=fifty.CLAIM_PLIES,
            fifty_rule=laws.rule_in_sentence("fifty_moves"),
        )
        tail = (
            gettext(" The intended move stands and the game goes on ({article}).").format(
                article=laws.fide(laws.WRONG_CLAIM)
            )
            if move
            else gettext(" The game goes on.")
        )
        return gettext("Draw claim refused: {facts}.{tail}").format(facts=facts, tail=tail)

    def agree_draw(self) -> Outcome:
        return self._declare(Outcome(Termination.AGREEMENT, None, claimed=True))

    def resign(self, color: chess.Color | None = None) -> Outcome:
        """``color`` (default: the side to move) resigns."""
        loser = self._board.turn if color is None else checks.color(color)
        return self._declare(Outcome(Termination.RESIGNATION, not loser, claimed=True))

    def flag(self, color: chess.Color, search: SearchBudget = dead.DEEP) -> Outcome:
        """``color`` ran out of time (FIDE 6.9): a loss, unless the opponent
        cannot checkmate by any series of legal moves, then a draw (under
        ``flag_rules``). The opponent's chances are searched with ``search``.

        A finished game raises GameOverError before any search. When the
        search proves the position dead, that ending came first (FIDE
        5.2.2): it is returned and no flag fall is recorded."""
        flagged = checks.color(color)
        budget = checks.budget(search)
        self._refuse_if_over()
        status = self.status(search=budget)
        if status.outcome is not None:
            return status.outcome
        result = status.flag_fall(flagged)
        winner = None if result == "1/2-1/2" else (not flagged)
        return self._declare(Outcome(Termination.TIME_FORFEIT, winner, claimed=True))

    def _refuse_if_over(self) -> None:
        current = self.outcome()
        if current is not None:
            raise GameOverError(
                gettext("the game is over: {reason} ({result})").format(
                    reason=current.reason(), result=current.result()
                ),
                ply=self.ply,
            )

    def _declare(self, outcome: Outcome) -> Outcome:
        self._refuse_if_over()
        self._declared = outcome
        return outcome

    def declared_outcome(self) -> Outcome | None:
        return self._declared


def _detail(board: chess.Board, verdict: Verdict) -> WinnableDetailDict:
    """A verdict as JSON: the proof line in SAN, the reason, the nodes used."""
    line = None
    if verdict.line is not None:
        replay = board.copy(stack=False)
        line = []
        for move in verdict.line:
            line.append(replay.san_and_push(move))
    return {"line": line, "reason": verdict.reason, "nodes": verdict.nodes}


def _describe(board: chess.Board, move: chess.Move) -> LegalMoveDict:
    """A legal move as the board UI needs it: squares to drag between."""
    to = move.to_square
    if board.is_castling(move) and not board.chess960:
        to = chess.square(
            6 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 2,
            chess.square_rank(move.from_square),
        )
    return {
        "uci": board.uci(move),
        "san": board.san(move),
        "from": chess.square_name(move.from_square),
        "to": chess.square_name(to),
        "promotion": None if move.promotion is None else _PROMOTION[move.promotion],
    }


__all__ = ["Checkpoint", "Game", "HistoryEntry", "board_from_fen", "color_name", "AUTOMATIC"]
