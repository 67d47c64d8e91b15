"""The one Python entry point of the browser worker: JSON in, JSON out.

``Bridge().handle(request)`` takes ``{"op": str, "args": {...}}`` as a JSON
string and returns a JSON string following :class:`pychessdraw.contract.Reply`:
``{"ok": true, "facts": FACTS, "moves": {"keep", "add"}, ...}`` or
``{"ok": false, "error": {"code", "message"}}``. Only strings cross the
JS/Python boundary. Every argument is validated (a value of the wrong JSON
type is a ``bad_request``); a failed operation (bad JSON, a wrong type, an
illegal move, anything) answers ``ok: false`` and leaves the game, its
headers, its ending and the explanations shown exactly as they were: each
request starts from a checkpoint that any failure, whatever the exception,
puts back. An unexpected
exception is answered with the code ``internal`` in the project's words,
never Python's message. ``restore`` checks everything on a new game before it
replaces the current one, its headers as an imported game's.

A reply carries what changed, not the whole game: a move adds one row to the
move list (``moves.keep`` rows stay, ``moves.add`` follow); only operations
that replace the game (new, load_pgn, restore, state) send every row and ``game``.

Operations: new, play, undo, load_pgn, claim, agree, resign, flag,
status_at, export_pgn, state, analyse, restore, rules, review_start,
review_feed, review_finish, engine_facts (:class:`pychessdraw.bridge_contract.Operations`
gives each one's arguments and reply).

Moves are answered at once with the cheap dead-position proofs; ``analyse``
(``level`` 0..3, growing budgets up to the CLI's deep search) then searches
the current position off the move path and may end the game as a dead
position. The page sends it after each change, and again one level deeper
while a side's answer is still undecided.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Literal, NamedTuple, TypeVar, cast

import chess

from . import clockpgn, flagfall, pgn, present, probe
from .contract import FlagRulesName
from .bridge_contract import (ClaimAsk, arg_names, ClaimVerdict, Ending, ErrorInfo, Facts, GameInfo, MoveRow, MovesDelta,
                              OutcomeView, Reply)
from .errors import (BadFenError, BadPgnError, BadRequestError, GameOverError, InternalError, PromotionNeededError,
                     RefereeError, shown)
from .fen import MAX_FEN
from .game import Checkpoint, Game
from .outcome import Outcome, Termination, is_result
from .review import ReviewOps
from .rules import dead, timeout
from .rules.dead import SearchBudget

_COLORS = {"white": chess.WHITE, "black": chess.BLACK}
# analyse levels: the page budget first, then deeper, up to the CLI's deep search
LEVELS = (dead.PAGE, SearchBudget(nodes=1_000_000, seconds=0.08), SearchBudget(nodes=2_000_000, seconds=0.3),
          dead.DEEP)
MAX_REQUEST = 32_000_000  # characters of one request
MAX_MOVES = pgn.MAX_PLIES  # moves of one restored or imported game
_MOVE_ERRORS = {"illegal_move": "is not legal here", "invalid_move": "is not a move",
                "ambiguous_move": "is ambiguous here", "promotion_needed": "needs a promotion piece"}
_T = TypeVar("_T")
_ENDING_OPS = ("agree", "resign", "flag", "claim", "recorded")
_ENDING_TAGS = ("Result", "Termination", "TerminationDetails")  # exported from the game's own ending
_BOARD_TAGS = ("FEN", "SetUp", "Variant")  # exported from the game's own start position, never from text


class _Saved(NamedTuple):
    """Everything an operation may change, as it was before it."""

    game: Game
    checkpoint: Checkpoint
    headers: dict[str, str]
    rows: list[MoveRow]
    recorded: OutcomeView | None
    ended: tuple[int, OutcomeView] | None
    pristine: bool
    ending: Ending | None
    flag_words: flagfall.FlagWords | None


class Bridge:
    def __init__(self) -> None:
        self.game = Game()
        self.headers: dict[str, str] = {}
        self._rows: list[MoveRow] = []
        # An imported game: its recorded result (shown while the game stands
        # as imported), and the ply where the rules had already ended it.
        self._recorded: OutcomeView | None = None
        self._ended: tuple[int, OutcomeView] | None = None
        self._pristine = False  # the game is exactly as imported (export keeps Result/Termination)
        self._ending: Ending | None = None  # a declared ending, for the page to save
        self._flag_words: flagfall.FlagWords | None = None  # why a flag fall ended the game
        self._review = ReviewOps()  # a PGN file's review (pychessdraw.review), apart from the game
        self._ops: dict[str, Callable[[dict[str, Any]], Reply]] = {
            "new": self._new, "play": self._play, "undo": self._undo, "load_pgn": self._load_pgn,
            "claim": self._claim, "agree": self._agree, "resign": self._resign, "flag": self._flag,
            "status_at": self._status_at, "export_pgn": self._export_pgn, "state": self._state,
            "analyse": self._analyse, "restore": self._restore,
            "rules": self._rules, "review_start": self._review.start,
            "review_feed": self._review.feed, "review_finish": self._review.finish,
            "engine_facts": self._engine_facts,
        }

    # -- entry ---------------------------------------------------------------
    def handle(self, request: str) -> str:
        """One request as JSON text, the answer as JSON text (see :meth:`call`)."""
        return self._guarded(request, json.dumps)

    def call(self, request: str | dict[str, Any]) -> Reply:
        """One request, all or nothing: a failure of any kind (a refused
        argument or an unexpected exception) puts back everything the
        operation may have changed (the game, its headers, rows, ending and
        explanations) and answers ``ok: false`` in the project's words. A
        PGN file's review (``review_*``) is kept apart and not put back."""
        return self._guarded(request, _as_is)

    def _guarded(self, request: object, finish: Callable[[Reply], _T]) -> _T:
        saved = self._save()
        try:
            return finish(self._run(request))  # finish (JSON) inside: a reply that cannot be sent is a failure
        except BaseException as exc:
            self._put_back(saved)
            if not isinstance(exc, Exception):
                raise  # KeyboardInterrupt, SystemExit: not an answer
            return finish({"ok": False, "error": _error(_referee_error(exc))})

    def _run(self, request: object) -> Reply:
        """Decode and run one request; raises on any failure (the caller puts the state back)."""
        if isinstance(request, str):
            if len(request) > MAX_REQUEST:
                raise BadRequestError("the request is too large")
            try:
                request = json.loads(request)
            except ValueError:
                raise BadRequestError("the request is not JSON") from None
        if not isinstance(request, dict):
            raise BadRequestError("a request is an object {op, args}")
        op = request.get("op")
        if not isinstance(op, str) or op not in self._ops:
            raise BadRequestError(f"unknown operation {shown(op)}")
        args = request.get("args")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise BadRequestError("args must be an object")
        _only(args, arg_names(op))  # the names Operations gives, checked before anything else
        return self._ops[op](args)

    def _save(self) -> _Saved:
        """What any operation may change (rows and headers are replaced, never changed in place)."""
        return _Saved(self.game, self.game.checkpoint(), self.headers, list(self._rows), self._recorded,
                      self._ended, self._pristine, self._ending, self._flag_words)

    def _put_back(self, saved: _Saved) -> None:
        self.game = saved.game
        self.game.rollback(saved.checkpoint)
        self.headers, self._rows, self._recorded, self._ended = saved.headers, saved.rows, saved.recorded, saved.ended
        self._pristine, self._ending, self._flag_words = saved.pristine, saved.ending, saved.flag_words

    # -- what the page sees ----------------------------------------------------
    def _label(self, ply: int) -> str:
        return self._rows[ply - 1]["label"] if 0 < ply <= len(self._rows) else "the start"

    def _override(self) -> OutcomeView | None:
        if self._ended is not None and self.game.ply > self._ended[0]:
            return self._ended[1]
        if self._recorded is not None and self.game.outcome() is None:
            return self._recorded
        return None

    def _is_over(self) -> bool:
        return self._override() is not None or self.game.outcome() is not None

    def facts(self, search: SearchBudget | None = None, *, can_search: bool = True) -> Facts:
        over = self._override()
        status = self.game.status(legal_moves=over is None, search=search if over is None else None)
        facts = present.facts(self.game, status, label=self._label, outcome=over, can_search=can_search)
        shown, record = facts["outcome"], self._recorded
        if shown is not None and record is not None and shown is not record and shown["result"] != record["result"]:
            # the rules ended an imported game otherwise than its record says
            facts["outcome"] = {**shown, "detail": f"{shown['detail']}; the record says {record['result']}"}
        shown = facts["outcome"]
        if self._flag_words is not None and shown is not None and shown["termination"] == "time_forfeit":
            facts["outcome"] = {**shown, "detail": self._flag_words["text"]}  # the rule and the proof
        return facts

    def game_info(self) -> GameInfo:
        return {"start_fen": self.game.start_fen, "chess960": self.game.chess960, "headers": dict(self.headers),
                "recorded": self._recorded}

    def _reply(self, keep: int | None = None, *, replaced: bool = False, claim: ClaimVerdict | None = None) -> Reply:
        if replaced:
            keep = 0
        keep = len(self._rows) if keep is None else keep
        moves: MovesDelta = {"keep": keep, "add": self._rows[keep:]}
        reply: Reply = {"ok": True, "facts": self.facts(), "moves": moves, "ending": self._ending}
        if claim is not None:
            reply["claim"] = claim
        if replaced:
            reply["game"] = self.game_info()
        return reply

    # -- replacing the game ----------------------------------------------------
    def _replay(self, game: Game, tokens: list[str]) -> tuple[list[MoveRow], tuple[int, OutcomeView] | None]:
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
                raise _move_error(exc, label, ply=game.ply + 1) from None
            rows.append(present.make_row(game, move, after_end=ended is not None))
        view = None
        if ended is not None:
            ply, outcome = ended
            view = (ply, present.outcome_view(outcome, ended_at=ply,
                                              ended_at_label="at the start" if ply == 0 else f"after {rows[ply - 1]['label']}"))
        return rows, view

    def _adopt(self, game: Game, rows: list[MoveRow], headers: dict[str, str],
               ended: tuple[int, OutcomeView] | None, recorded: OutcomeView | None) -> None:
        self.game, self._rows, self.headers = game, rows, headers
        self._ended, self._recorded, self._ending = ended, recorded, None
        self._flag_words = None
        self._pristine = recorded is not None or ended is not None
        if recorded is not None and ended is None and game.outcome() is None:
            self._ending = {"op": "recorded"}

    def _new(self, args: dict[str, Any]) -> Reply:
        fen = _fen(args, "fen")
        game = Game(fen or None, chess960=_flag(args, "chess960"),
                    flag_rules=_flag_rules(args) or self.game.flag_rules)
        self._adopt(game, [], {}, None, None)
        return self._reply(replaced=True)

    def _load_pgn(self, args: dict[str, Any]) -> Reply:
        """``partial: true`` (a reviewed game with an error) loads the moves
        before the first bad one, as an unfinished game."""
        partial = _flag(args, "partial")
        text = _text(args, "pgn", 8_000_000)
        index = args.get("index")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
            raise BadRequestError("'index' must be a game number from 0")
        games = list(pgn.read_games(text.splitlines(keepends=True)))
        games = [g for g in games if g.tokens or g.headers or g.error]
        if not games:
            raise BadPgnError("no game found in the PGN text", ply=0)
        if index is None and len(games) > 1:
            return {"ok": True, "games": [{"index": i, "label": _game_label(i, g)} for i, g in enumerate(games)]}
        if index is not None and index >= len(games):
            raise BadRequestError(f"the text holds {len(games)} games")
        parsed = games[index or 0]
        if parsed.error is not None and not partial:
            raise parsed.error
        game = pgn.game_from_headers(parsed.headers, flag_rules=self.game.flag_rules)
        if partial:
            legal = _legal_prefix(game, parsed.tokens)
            if len(legal) < len(parsed.tokens) or parsed.error is not None:
                # the record breaks: its result is not shown as the game's
                parsed.tokens, parsed.result = legal, None
                parsed.headers = {**parsed.headers, "Result": "*"}
        rows, ended = self._replay(game, parsed.tokens)
        for row, ms in zip(rows, clockpgn.move_clocks(parsed)):
            if ms is not None:
                row["clock_ms"] = ms  # [%clk]: each side's time while browsing
        result = parsed.result or parsed.headers.get("Result", "*")
        recorded = present.recorded_view(result, parsed.headers.get("Termination"), parsed.headers.get(
            "TerminationDetails")) if is_result(result) else None
        self._adopt(game, rows, dict(parsed.headers), ended, recorded)
        return self._reply(replaced=True)

    def _restore(self, args: dict[str, Any]) -> Reply:
        """A saved game in one request: start position, moves (UCI), headers
        and the declared ending. Everything is checked and built on a new
        game first (the headers as an imported game's: their FEN and Variant
        must name the saved start position); the game is replaced only then."""
        fen = _fen(args, "start_fen")
        moves = args.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) and len(m) <= 12 for m in moves):
            raise BadRequestError("'moves' must be a list of moves (text)")
        headers = _saved_headers(args.get("headers"))
        ending = _saved_ending(args.get("ending"))
        game = Game(fen or None, chess960=_flag(args, "chess960"),
                    flag_rules=_flag_rules(args) or self.game.flag_rules)
        _check_start(headers, game)
        rows, ended = self._replay(game, moves)
        result = headers.get("Result", "*")
        recorded = None
        if ending is not None and ending["op"] == "recorded" and is_result(result):
            recorded = present.recorded_view(result, headers.get("Termination"), headers.get("TerminationDetails"))
        declared = None
        if ending is not None and ending["op"] != "recorded":
            declared = _declare(game, ending)  # on the new game: refused, nothing here has changed
        self._adopt(game, rows, headers, ended, recorded)
        if declared is not None:
            self._ending, self._flag_words = declared
        return self._reply(replaced=True)

    # -- moves -----------------------------------------------------------------
    def _check_not_over(self) -> None:
        over = self._override()
        if over is not None:
            raise GameOverError(f"the game is over: {over['headline']} ({over['reason']})")
        outcome = self.game.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over: {outcome.reason()} ({outcome.result()})")

    def _play(self, args: dict[str, Any]) -> Reply:
        text = _text(args, "move", 20).strip()
        self._check_not_over()
        move = self._parse_or_promote(text)
        if _flag(args, "offer_claim"):
            ask = self._claim_question(move)
            if ask is not None:
                return {"ok": True, "ask": ask}
        self._changed()
        self._rows.append(present.make_row(self.game, move))
        return self._reply(len(self._rows) - 1)

    def _parse_or_promote(self, text: str) -> chess.Move:
        label = self.game.move_label(text)
        try:
            return self.game.parse_move(text, typed=True)  # typed in the move box: lowercase bxc3 may mean Bxc3
        except RefereeError as exc:
            choices = _promotions(self.game, text)
            if choices:
                # the library's own error (its words, its candidates), plus the board's squares
                message = exc.message if exc.code == "promotion_needed" else f"{label}: choose the piece to promote to"
                raise PromotionNeededError(message, **{**exc.details, "choices": choices}) from None
            raise _move_error(exc, label) from None

    def _claim_question(self, move: chess.Move) -> ClaimAsk | None:
        uci = self.game.uci(move)
        for claim in self.game.claims():
            if claim.uci == uci:
                san = claim.san or uci
                return {"rule": claim.rule_name, "uci": uci, "san": san,
                        "question": present.claim_question(claim.rule.value, san)}
        return None

    def _changed(self) -> None:
        self._pristine = False

    def _undo(self, args: dict[str, Any]) -> Reply:
        if self._recorded is not None and self._override() is self._recorded:
            self._changed()
            self._recorded = None  # lift the recorded result, keep the moves
            self._ending = None
            return self._reply()
        undone = self.game.undo()  # refuses (nothing to undo) before anything here changes
        self._changed()
        self._ending = None
        self._flag_words = None
        if undone is not None:
            self._rows.pop()
            if self._ended is not None and self.game.ply <= self._ended[0]:
                self._ended = None
                # new rows, not changed in place: a failure puts the old ones back
                self._rows = [{**row, "after_end": False} for row in self._rows]
                self._recorded = None
        return self._reply(len(self._rows))

    def _claim(self, args: dict[str, Any]) -> Reply:
        text = _opt_text(args, "move", 20)
        self._check_not_over()
        before, claimer = self.game.ply, self.game.turn
        san = None
        parsed = None
        if text:
            parsed = self._parse_or_promote(text.strip())
            san = self.game.san(parsed)
        self._changed()
        if parsed is not None:
            row = present.make_row(self.game, parsed)
            self.game.undo()  # make_row pushed it; claim_draw plays it again
            result = self.game.claim_draw(parsed)
            self._rows.append(row)
        else:
            result = self.game.claim_draw(None)
        if result.accepted:
            self._ending = {"op": "claim"}
        return self._reply(before, claim=present.claim_verdict(result, san, claimer))

    def _agree(self, args: dict[str, Any]) -> Reply:
        self._check_not_over()
        self._changed()
        self._ending, self._flag_words = _declare(self.game, {"op": "agree"})
        return self._reply()

    def _resign(self, args: dict[str, Any]) -> Reply:
        return self._side_ending("resign", args)

    def _flag(self, args: dict[str, Any]) -> Reply:
        return self._side_ending("flag", args)

    def _side_ending(self, op: Literal["resign", "flag"], args: dict[str, Any]) -> Reply:
        """A resignation or a flag fall of ``args["color"]``, checked before
        anything changes (a refused one keeps an imported game's record)."""
        color = _color(args)
        self._check_not_over()
        self._changed()
        self._ending, self._flag_words = _declare(self.game, {"op": op, "color": color})
        return self._reply()

    def _rules(self, args: dict[str, Any]) -> Reply:
        """Flag-fall rules for this game and the next ones: FIDE 6.9 or US Chess."""
        rules = _flag_rules(args)
        if rules is None:
            raise BadRequestError(f"'flag_rules' must be one of {', '.join(timeout.RULES)}")
        self.game.flag_rules = rules
        return self._reply()

    # -- questions ---------------------------------------------------------------
    def _state(self, args: dict[str, Any]) -> Reply:
        return self._reply(replaced=True)

    def _status_at(self, args: dict[str, Any]) -> Reply:
        ply = args.get("ply")
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= self.game.ply:
            raise BadRequestError(f"ply must be a whole number from 0 to {self.game.ply}")
        if ply == self.game.ply:
            return {"ok": True, "facts": self.facts()}
        game = Game(self.game.start_fen, chess960=self.game.chess960, flag_rules=self.game.flag_rules)
        for move in self.game.moves[:ply]:
            game.push(move)
        status = game.status(legal_moves=False)
        view = present.facts(game, status, label=self._label, live=False, can_search=False)
        return {"ok": True, "facts": view}

    def _analyse(self, args: dict[str, Any]) -> Reply:
        level = args.get("level", 0)
        if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level < len(LEVELS):
            raise BadRequestError(f"'level' must be a whole number from 0 to {len(LEVELS) - 1}")
        final = level == len(LEVELS) - 1
        facts = self.facts(LEVELS[level], can_search=not final)
        decided = all(facts["winnable"][side]["answer"] != "unknown" for side in ("white", "black"))
        return {"ok": True, "facts": facts, "analysed": {"level": level, "final": final or decided},
                "ending": self._ending}

    def _engine_facts(self, args: dict[str, Any]) -> Reply:
        """The computer's question before it moves (pychessdraw.probe): the
        claims open now, and what each candidate move would let the opponent claim."""
        moves = args.get("moves")
        if not isinstance(moves, list) or len(moves) > probe.MAX_CANDIDATES \
                or not all(isinstance(m, str) and len(m) <= 20 for m in moves):
            raise BadRequestError(f"'moves' must be a list of at most {probe.MAX_CANDIDATES} moves as text")
        self._check_not_over()
        return {"ok": True, "engine_facts": probe.engine_facts(self.game, moves)}

    def _export_pgn(self, args: dict[str, Any]) -> Reply:
        clocks = _clocks(args)
        if clocks is not None:  # the page's clocks: TimeControl and [%clk] per move
            headers = _tags(self.headers, _ENDING_TAGS)
            return {"ok": True, "pgn": clockpgn.export_with_clocks(self.game, headers, clocks[0], clocks[1])}
        if self._pristine:
            result = self._recorded["result"] if self._recorded is not None else self._ended[1]["result"] if self._ended else "*"
            return {"ok": True, "pgn": _export_as_recorded(self.game, {"Result": result, **_tags(self.headers, ())})}
        return {"ok": True, "pgn": pgn.export(self.game, _tags(self.headers, _ENDING_TAGS))}


def _as_is(reply: Reply) -> Reply:
    return reply


def _declare(game: Game, ending: dict[str, Any]) -> tuple[Ending, flagfall.FlagWords | None]:
    """Declare ``ending`` ({op, color}) on ``game``: what the page saves, and
    why a flag fall ended the game (the rule and the proof), if it did."""
    op = ending["op"]
    if op == "claim":
        if not game.claim_draw().accepted:
            raise BadRequestError("the saved draw claim does not hold in the saved position")
        return {"op": "claim"}, None
    if op == "agree":
        game.agree_draw()
        return {"op": "agree"}, None
    color = _color(ending)
    (game.resign if op == "resign" else game.flag)(_COLORS[color])
    declared = Ending(op=op, color="white" if color == "white" else "black")
    outcome = game.outcome()
    if op == "flag" and outcome is not None and outcome.termination is Termination.TIME_FORFEIT:
        # the banner names the rule and the proof (the search was just run by flag)
        return declared, flagfall.explain(game.board, game.status(search=dead.DEEP), _COLORS[color])
    return declared, None


def _saved_headers(value: object) -> dict[str, str]:
    """A saved game's tags (a new dict): checked in full by :func:`_check_start`."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > pgn.MAX_HEADERS:
        raise BadRequestError(f"'headers' must map at most {pgn.MAX_HEADERS} tag names to text")
    return dict(value)


def _saved_ending(value: object) -> dict[str, Any] | None:
    """A saved ending {op, color}, every part checked (a colour of any JSON type)."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"op", "color"} or not isinstance(value.get("op"), str) \
            or value["op"] not in _ENDING_OPS:
        raise BadRequestError("'ending' must be null or {op: agree|resign|flag|claim|recorded, color}")
    if value["op"] in ("resign", "flag") or value.get("color") is not None:
        _color(value)
    return value


def _check_start(headers: dict[str, str], game: Game) -> None:
    """Saved tags checked as an imported game's (tag names, one-line values,
    a supported Variant, a legal FEN); the FEN and Variant they name must be
    the saved game's own start, or every later export would be of another game."""
    named = pgn.game_from_headers(headers)
    if "Variant" in headers and named.chess960 != game.chess960:
        raise BadRequestError(f"the saved Variant tag {headers['Variant'][:40]!r} is not the saved game's variant")
    if "FEN" in headers and named.start_fen != game.start_fen:
        raise BadRequestError("the saved FEN tag is not the saved game's start position")


def _tags(headers: dict[str, str], drop: tuple[str, ...]) -> dict[str, str]:
    """The tags to export: the start position's come from the game itself."""
    return {k: v for k, v in headers.items() if k not in drop and k not in _BOARD_TAGS}


def _referee_error(exc: Exception) -> RefereeError:
    """Any failure as a RefereeError in the project's words: an unexpected
    exception's own message (Python's) is never shown."""
    if isinstance(exc, RefereeError):
        return exc
    if isinstance(exc, RecursionError):
        return BadRequestError("the request is nested too deeply")
    return InternalError("the referee could not answer this request (a fault of its own, not of the request); "
                         "the game is as it was")


def _promotions(game: Game, text: str) -> list[dict[str, Any]]:
    """The legal promotions ``text`` names without a piece ("e8", "e7e8", "exd8")."""
    base = text.strip().rstrip("+#")
    if not base or base[-1] in "qrbnQRBN" or len(base) > 6:
        return []
    out = []
    for piece in "qrbn":
        for cand in (f"{base}={piece.upper()}", f"{base}{piece}"):
            try:
                move = game.parse_move(cand)
            except RefereeError:
                continue
            if move.promotion is not None:
                out.append({"uci": game.uci(move), "san": game.san(move), "from": chess.square_name(move.from_square),
                            "to": chess.square_name(move.to_square), "promotion": piece})
                break
    return out


def _move_error(exc: RefereeError, label: str, ply: int | None = None) -> RefereeError:
    """A move error in chess words ("3...Qxz9 is not legal here"): the
    library's own where it names the move, else worded here."""
    if "move_label" in exc.details:
        return exc
    tail = _MOVE_ERRORS.get(exc.code)
    if tail is None:
        return exc
    err = type(exc)(f"{label} {tail}", move_label=label, **({"ply": ply} if ply is not None else {}))
    return err


def _error(exc: RefereeError) -> ErrorInfo:
    out: dict[str, object] = dict(exc.to_dict())
    out["message"] = _short(str(out.get("message", "")))
    # keep the structured fields JSON-safe and short
    return cast(ErrorInfo, {k: (v if isinstance(v, (int, bool, list)) or v is None else _short(str(v)))
                            for k, v in out.items()})


def _short(text: str, limit: int = 160) -> str:
    """One line, at most ``limit`` characters, no FEN dumps."""
    import re
    text = re.sub(r"\S+/\S+/\S+/\S+/\S+/\S+/\S+/\S+(?:\s+[wb]\s+\S+\s+\S+(?:\s+\d+\s+\d+)?)?", "the position", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _game_label(index: int, game: pgn.PgnGame) -> str:
    h = game.headers
    who = f"{h.get('White', '?')} - {h.get('Black', '?')}"
    extra = ", ".join(x for x in (h.get("Event"), h.get("Date"), game.result or h.get("Result")) if x and x != "?")
    plies = len(game.tokens)
    return _short(f"{index + 1}. {who}" + (f" ({extra})" if extra else "") + f", {plies} plies", 120)


def _export_as_recorded(game: Game, headers: dict[str, str]) -> str:
    """The imported game with its tags as recorded (Result, Termination unchanged)."""
    import chess.pgn
    record = chess.pgn.Game.from_board(game.board)
    for name, value in headers.items():
        record.headers[name] = value
    record.headers["Result"] = headers.get("Result", "*")
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return record.accept(exporter)


def _only(args: dict[str, Any], names: frozenset[str]) -> None:
    extra = [k for k in args if k not in names]
    if extra:
        raise BadRequestError(f"unknown argument {str(extra[0])[:40]!r}")


def _text(args: dict[str, Any], name: str, limit: int) -> str:
    value = args.get(name)
    if not isinstance(value, str):
        raise BadRequestError(f"'{name}' must be text")
    if len(value) > limit:
        raise BadRequestError(f"'{name}' is too long (at most {limit} characters)")
    return value


def _opt_text(args: dict[str, Any], name: str, limit: int) -> str | None:
    if args.get(name) is None:
        return None
    return _text(args, name, limit)


def _fen(args: dict[str, Any], name: str) -> str | None:
    fen = _opt_text(args, name, 100_000)
    if fen is not None and (len(fen) > MAX_FEN or "\n" in fen.strip()):
        hint = " (a game in PGN goes in the PGN box)" if "." in fen or "[" in fen else ""
        raise BadFenError(f"this is not a FEN: it is too long for one{hint}")
    return fen


def _flag(args: dict[str, Any], name: str) -> bool:
    value = args.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise BadRequestError(f"'{name}' must be true or false")
    return value


def _flag_rules(args: dict[str, Any]) -> FlagRulesName | None:
    value = args.get("flag_rules")
    if value is None:
        return None
    if not timeout.is_rules(value):
        raise BadRequestError(f"'flag_rules' must be one of {', '.join(timeout.RULES)}")
    return value


def _legal_prefix(start: Game, tokens: list[str]) -> list[str]:
    """The tokens before the first one that is not a legal move."""
    game = Game(start.start_fen, chess960=start.chess960)
    for i, token in enumerate(tokens[:MAX_MOVES]):
        try:
            game.push(game.parse_move(token))
        except RefereeError:
            return tokens[:i]
    return tokens


def _clocks(args: dict[str, Any]) -> tuple[dict[str, float], dict[int, int]] | None:
    """export_pgn's ``time_control`` {base_s, increment_s, delay_s} and
    ``clocks`` {ply: ms}, both or neither."""
    tc, clocks = args.get("time_control"), args.get("clocks")
    if tc is None and clocks is None:
        return None
    if not isinstance(tc, dict) or set(tc) - {"base_s", "increment_s", "delay_s"} or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 86_400 for v in tc.values()):
        raise BadRequestError("'time_control' must be {base_s, increment_s, delay_s} in seconds")
    if not isinstance(clocks, dict) or len(clocks) > MAX_MOVES or not all(
            isinstance(k, str) and k.isdigit() and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**9
            for k, v in clocks.items()):
        raise BadRequestError("'clocks' must map plies to milliseconds")
    return {k: float(v) for k, v in tc.items()}, {int(k): v for k, v in clocks.items()}


def _color(args: dict[str, Any]) -> str:
    name = args.get("color")
    if not isinstance(name, str) or name not in _COLORS:
        raise BadRequestError(f"'color' must be 'white' or 'black', not {shown(name)}")
    return name


__all__ = ["Bridge", "LEVELS", "Termination"]
