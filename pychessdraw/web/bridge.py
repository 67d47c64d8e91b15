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
review_feed, review_finish, review_game, review_words, engine_facts, check_fen, set_language, proof
(:class:`pychessdraw.web.contract.Operations`
gives each one's arguments and reply).

Moves are answered at once with the cheap dead-position proofs; ``analyse``
(``level`` 0..3, growing budgets up to the CLI's deep search) then searches
the current position off the move path and may end the game as a dead
position. The page sends it after each change, and again one level deeper
while a side's answer is still undecided; with ``ply`` it searches a browsed
position the same way. What is found is kept per position
(:class:`pychessdraw.web.proof.VerdictCache`): ``status_at`` answers a
position searched before with its verdicts at once. ``proof`` gives a side's
answer as a line to play on the board, or the squares that show why it
cannot mate; with ``game`` (a start and moves) it answers for that game's
position, the Review's, leaving the worker's own game alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, TypeVar

import chess

from .. import i18n, pgn
from ..errors import BadPgnError, BadRequestError, GameOverError, PromotionNeededError, RefereeError
from ..game import Checkpoint, Game
from ..outcome import Termination, color_name, is_result
from ..records.final_search import AUTO_BUDGET
from ..rules import dead, timeout
from ..rules.dead import SearchBudget
from . import clockpgn, flagfall, present, probe
from .args import (
    arg_clocks,
    arg_color,
    arg_fen,
    arg_flag,
    arg_flag_rules,
    arg_game_tags,
    arg_opt_text,
    arg_text,
    check_start,
    error_info,
    move_error,
    promotions,
    referee_error,
    saved_ending,
    saved_headers,
)
from .contract import (
    ClaimAsk,
    ClaimVerdict,
    Ending,
    Facts,
    GameInfo,
    MoveRow,
    MovesDelta,
    Operations,
    OutcomeView,
    Reply,
)
from .dispatch import Dispatcher
from .export import export_pgn, page_tags
from .proof import VerdictCache, proof_view
from .replay import MAX_MOVES
from .replay import declare as _declare
from .replay import game_label as _game_label
from .replay import legal_prefix as _legal_prefix
from .replay import replay as _replay
from .review import ReviewOps

# analyse levels: the page budget first, then deeper, up to the CLI's deep search
LEVELS = (dead.PAGE, SearchBudget(nodes=1_000_000, seconds=0.08), SearchBudget(nodes=2_000_000, seconds=0.3), dead.DEEP)
_T = TypeVar("_T")


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
        self._review = ReviewOps()  # a PGN file's review (pychessdraw.web.review), apart from the game
        self._language = i18n.ENGLISH  # the referee's sentences, set by the page (set_language)
        self._verdicts = VerdictCache()  # every position searched, the live one and browsed ones
        self.dispatcher = Dispatcher[Reply](
            Operations,
            {
                "new": self._new,
                "play": self._play,
                "undo": self._undo,
                "load_pgn": self._load_pgn,
                "claim": self._claim,
                "agree": self._agree,
                "resign": self._resign,
                "flag": self._flag,
                "status_at": self._status_at,
                "export_pgn": self._export_pgn,
                "state": self._state,
                "analyse": self._analyse,
                "restore": self._restore,
                "rules": self._rules,
                "review_start": self._review.start,
                "review_feed": self._review.feed,
                "review_finish": self._review.finish,
                "review_game": self._review.game,
                "review_words": self._review.words,
                "engine_facts": self._engine_facts,
                "check_fen": self._check_fen,
                "set_language": self._set_language,
                "proof": self._proof,
            },
        )

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
            return finish({"ok": False, "error": error_info(referee_error(exc))})

    def _run(self, request: object) -> Reply:
        """Decode, check and run one request (:class:`Dispatcher`); raises on
        any failure (the caller puts the state back)."""
        with i18n.language(self._language):
            return self.dispatcher.run(request)

    def _save(self) -> _Saved:
        """What any operation may change (rows and headers are replaced, never changed in place)."""
        return _Saved(
            self.game,
            self.game.checkpoint(),
            self.headers,
            list(self._rows),
            self._recorded,
            self._ended,
            self._pristine,
            self._ending,
            self._flag_words,
        )

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
        if self._recorded is not None and over is self._recorded:
            facts["can_undo"] = True  # undo lifts the imported result
        shown = facts["outcome"]
        if self._flag_words is not None and shown is not None and shown["termination"] == "time_forfeit":
            facts["outcome"] = {**shown, "detail": self._flag_words["text"]}  # the rule and the proof
        return facts

    def game_info(self) -> GameInfo:
        start = chess.Board(self.game.start_fen, chess960=self.game.chess960)
        return {
            "start_fen": self.game.start_fen,
            "start_turn": color_name(start.turn),
            "start_check": start.is_check(),
            "chess960": self.game.chess960,
            "headers": dict(self.headers),
            "recorded": self._recorded,
        }

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
    def _adopt(
        self,
        game: Game,
        rows: list[MoveRow],
        headers: dict[str, str],
        ended: tuple[int, OutcomeView] | None,
        recorded: OutcomeView | None,
    ) -> None:
        self.game, self._rows, self.headers = game, rows, headers
        self._ended, self._recorded, self._ending = ended, recorded, None
        self._flag_words = None
        self._pristine = recorded is not None or ended is not None
        if recorded is not None:  # saved with the game: a reload shows and exports the record's result,
            self._ending = {"op": "recorded"}  # also where the rules ended the game otherwise

    def _new(self, args: dict[str, Any]) -> Reply:
        fen = arg_fen(args, "fen")
        game = Game(
            fen or None, chess960=arg_flag(args, "chess960"), flag_rules=arg_flag_rules(args) or self.game.flag_rules
        )
        self._adopt(game, [], {}, None, None)
        return self._reply(replaced=True)

    def _check_fen(self, args: dict[str, Any]) -> Reply:
        """Is ``fen`` a position a new game can start from?  Nothing changes:
        the page asks this before it asks the player to replace the game."""
        Game(arg_fen(args, "fen") or None, chess960=arg_flag(args, "chess960"))
        return {"ok": True}

    def _load_pgn(self, args: dict[str, Any]) -> Reply:
        """``partial: true`` (a reviewed game with an error) loads the moves
        before the first bad one, as an unfinished game."""
        partial = arg_flag(args, "partial")
        text = arg_text(args, "pgn", 8_000_000)
        index: int | None = args.get("index")  # its type checked by the dispatcher, its range here
        if index is not None and index < 0:
            raise BadRequestError("'index' must be a game number from 0")
        games = list(pgn.games_in_text(text))  # as the scan reads them: the reader drops no-game text
        if not games:
            raise BadPgnError(i18n.gettext("no game found in the PGN text"), ply=0)
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
        rows, ended = _replay(game, parsed.tokens)
        for row, ms in zip(rows, clockpgn.move_clocks(parsed), strict=False):
            if ms is not None:
                row["clock_ms"] = ms  # [%clk]: each side's time while browsing
        result = parsed.result or parsed.headers.get("Result", "*")
        recorded = (
            present.recorded_view(result, parsed.headers.get("Termination"), parsed.headers.get("TerminationDetails"))
            if is_result(result)
            else None
        )
        self._adopt(game, rows, dict(parsed.headers), ended, recorded)
        return self._reply(replaced=True)

    def _restore(self, args: dict[str, Any]) -> Reply:
        """A saved game in one request: start position, moves (UCI), headers
        and the declared ending. Everything is checked and built on a new
        game first (the headers as an imported game's: their FEN and Variant
        must name the saved start position); the game is replaced only then."""
        fen = arg_fen(args, "start_fen")
        moves: list[str] = args.get("moves", [])
        if any(len(m) > 12 for m in moves):
            raise BadRequestError("'moves' must be a list of moves (text)")
        headers = saved_headers(args.get("headers"))
        ending = saved_ending(args.get("ending"))
        game = Game(
            fen or None, chess960=arg_flag(args, "chess960"), flag_rules=arg_flag_rules(args) or self.game.flag_rules
        )
        check_start(headers, game)
        rows, ended = _replay(game, moves)
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
            raise GameOverError(
                i18n.gettext("the game is over: {reason} ({result})").format(
                    reason=over["headline"], result=over["reason"]
                )
            )
        outcome = self.game.outcome()
        if outcome is not None:
            raise GameOverError(
                i18n.gettext("the game is over: {reason} ({result})").format(
                    reason=outcome.reason(), result=outcome.result()
                )
            )

    def _play(self, args: dict[str, Any]) -> Reply:
        text = arg_text(args, "move", 20).strip()
        self._check_not_over()
        move = self._parse_or_promote(text)
        if arg_flag(args, "offer_claim"):
            ask = self._claim_question(move)
            if ask is not None:
                return {"ok": True, "ask": ask}
        self._changed()
        san, uci = self.game.san(move), self.game.uci(move)
        self.game.push(move)
        self._recall()
        self._rows.append(present.make_row(self.game, san, uci))
        return self._reply(len(self._rows) - 1)

    def _recall(self) -> None:
        """The current position's verdicts where it was searched before (a
        repetition, a move played again after an undo, a position browsed):
        its answer comes with the reply, with no search."""
        if self.game.known_verdicts() is None:
            known = self._verdicts.get(self.game.current_board())
            if known is not None:
                self.game.remember_verdicts(*known)

    def _parse_or_promote(self, text: str) -> chess.Move:
        label = self.game.move_label(text)
        try:
            return self.game.parse_move(text, typed=True)  # typed in the move box: lowercase bxc3 may mean Bxc3
        except RefereeError as exc:
            choices = promotions(self.game, text)
            if choices:
                # the library's own error (its words, its candidates), plus the board's squares
                message = exc.message if exc.code == "promotion_needed" else f"{label}: choose the piece to promote to"
                raise PromotionNeededError(message, **{**exc.details, "choices": choices}) from None
            raise move_error(exc, label) from None

    def _claim_question(self, move: chess.Move) -> ClaimAsk | None:
        uci = self.game.uci(move)
        for claim in self.game.claims():
            if claim.uci == uci:
                san = claim.san or uci
                return {
                    "rule": claim.rule_name,
                    "uci": uci,
                    "san": san,
                    "question": present.claim_question(claim.rule.value, san),
                }
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
        self._ending = None if self._recorded is None else {"op": "recorded"}
        self._flag_words = None
        if undone is not None:
            self._rows.pop()
            if self._ended is not None and self.game.ply <= self._ended[0]:
                self._ended = None
                # new rows, not changed in place: a failure puts the old ones back
                self._rows = [{**row, "after_end": False} for row in self._rows]
                self._recorded = self._ending = None
        self._recall()
        return self._reply(len(self._rows))

    def _claim(self, args: dict[str, Any]) -> Reply:
        text = arg_opt_text(args, "move", 20)
        self._check_not_over()
        before, claimer = self.game.ply, self.game.turn
        san = None
        parsed = None
        if text:
            parsed = self._parse_or_promote(text.strip())
            san = self.game.san(parsed)
        self._changed()
        if parsed is not None:
            uci = self.game.uci(parsed)
            result = self.game.claim_draw(parsed)  # plays the intended move, whatever the verdict (FIDE 9.5.3)
            self._rows.append(present.make_row(self.game, san or uci, uci))
        else:
            result = self.game.claim_draw(None)
        auto = arg_flag(args, "auto")
        if result.accepted:
            # the setting's claim is recorded with its claimer, for the PGN's note
            self._ending = {"op": "claim", "color": color_name(claimer), "auto": True} if auto else {"op": "claim"}
        return self._reply(before, claim=present.claim_verdict(result, san, claimer, auto=auto))

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
        color = arg_color(args)
        self._check_not_over()
        self._changed()
        self._ending, self._flag_words = _declare(self.game, {"op": op, "color": color})
        return self._reply()

    def _rules(self, args: dict[str, Any]) -> Reply:
        """Flag-fall rules for this game and the next ones: FIDE 6.9 or US Chess."""
        rules = arg_flag_rules(args)
        if rules is None:
            raise BadRequestError(f"'flag_rules' must be one of {', '.join(timeout.RULES)}")
        self.game.flag_rules = rules
        return self._reply()

    def _set_language(self, args: dict[str, Any]) -> Reply:
        """The referee's sentences in ``language`` from now on; the reply is
        the game in it. Limit: an imported game's recorded result keeps the
        words it was read in until the game is loaded again."""
        self._language = i18n.check_language(args.get("language"))
        with i18n.language(self._language):
            return self._reply(replaced=True)

    # -- questions ---------------------------------------------------------------
    def _state(self, args: dict[str, Any]) -> Reply:
        return self._reply(replaced=True)

    def _status_at(self, args: dict[str, Any]) -> Reply:
        ply: int = args["ply"]
        if not 0 <= ply <= self.game.ply:
            raise BadRequestError(f"ply must be a whole number from 0 to {self.game.ply}")
        if ply == self.game.ply:
            return {"ok": True, "facts": self.facts()}
        return {"ok": True, "facts": self._facts_at(ply, None)}

    def _game_at(self, ply: int) -> Game:
        """The game as it stood at ``ply`` (a new game: the current one is not
        touched), with the verdicts already found for that position."""
        game = Game(self.game.start_fen, chess960=self.game.chess960, flag_rules=self.game.flag_rules)
        for move in self.game.moves[:ply]:
            game.push(move)
        known = self._verdicts.get(game.current_board())
        if known is not None:
            game.remember_verdicts(*known)
        return game

    def _facts_at(self, ply: int, search: SearchBudget | None) -> Facts:
        """An earlier position's facts (live false), searched with ``search``
        (None: what is known of it only); what the search finds is kept."""
        game = self._game_at(ply)
        status = game.status(legal_moves=False, search=search)
        self._keep(game)
        open_now = self._override() is None and self.game.outcome() is None and bool(self.game.claims())
        claimant = self.game.turn if open_now else None
        can_search = search != LEVELS[-1]  # the page searches it next (analyse with ply), up to the deepest level
        return present.facts(game, status, label=self._label, live=False, can_search=can_search, claimant=claimant)

    def _keep(self, game: Game) -> None:
        known = game.known_verdicts()
        if known is not None:
            self._verdicts.put(game.current_board(), *known)

    def _analyse(self, args: dict[str, Any]) -> Reply:
        level: int = args.get("level", 0)
        if not 0 <= level < len(LEVELS):
            raise BadRequestError(f"'level' must be a whole number from 0 to {len(LEVELS) - 1}")
        final = level == len(LEVELS) - 1
        ply = args.get("ply")
        if ply is not None and not 0 <= ply <= self.game.ply:
            raise BadRequestError(f"'ply' must be a whole number from 0 to {self.game.ply}")
        if ply is not None and ply < self.game.ply:
            facts = self._facts_at(ply, LEVELS[level])
        else:
            self._recall()  # searched before: browsed, or before an undo
            facts = self.facts(LEVELS[level], can_search=not final)
            self._keep(self.game)
        decided = all(facts["winnable"][side]["answer"] != "unknown" for side in ("white", "black"))
        return {
            "ok": True,
            "facts": facts,
            "analysed": {"level": level, "final": final or decided},
            "ending": self._ending,
        }

    def _proof(self, args: dict[str, Any]) -> Reply:
        """``color``'s can-mate answer at ``ply`` as the board shows it
        (:func:`pychessdraw.web.proof.proof_view`): the verdict already found,
        or the deep search's (about a second at most). With ``game``, of that
        game's position (the Review's), not of this worker's own game."""
        ply: int = args["ply"]
        if args.get("game") is not None:
            return self._proof_of(args["game"], ply, arg_color(args) == "white")
        if not 0 <= ply <= self.game.ply:
            raise BadRequestError(f"'ply' must be a whole number from 0 to {self.game.ply}")
        color = arg_color(args) == "white"
        game = self._game_at(ply) if ply < self.game.ply else self.game
        verdict = game.winnable(dead.DEEP)[color]
        self._keep(game)
        facts = self._facts_at(ply, None) if ply < self.game.ply else self.facts()
        win = facts["winnable"]["white" if color == chess.WHITE else "black"]
        return {"ok": True, "proof": proof_view(game.current_board(), ply, color, verdict, win)}

    def _proof_of(self, shown: dict[str, Any], ply: int, color: chess.Color) -> Reply:
        """The proof in another game's position (``proof`` with ``game``): its
        start and moves checked, the position after the first ``ply`` moves
        searched as the review searched its final position (the same node
        budget, so the same answer and line), then deeper where that left it
        open. Nothing of this worker's own game changes."""
        moves: list[str] = shown["moves"]
        if len(moves) > MAX_MOVES or any(len(m) > 12 for m in moves):
            raise BadRequestError(f"'moves' must be a list of at most {MAX_MOVES} moves (text)")
        if not 0 <= ply <= len(moves):
            raise BadRequestError(f"'ply' must be a whole number from 0 to {len(moves)}")
        game = Game(arg_fen(shown, "start_fen") or None, chess960=arg_flag(shown, "chess960"))
        for token in moves[:ply]:
            label = game.move_label(token)
            try:
                game.push(game.parse_move(token))
            except RefereeError as exc:
                raise move_error(exc, label, ply=game.ply + 1) from None
        known = self._verdicts.get(game.current_board())
        if known is not None:
            game.remember_verdicts(*known)
        verdict = game.winnable(AUTO_BUDGET)[color]
        if verdict.winnable is None:
            verdict = game.winnable(dead.DEEP)[color]
        self._keep(game)
        board = game.current_board()
        status = game.status(legal_moves=False)
        win = present.winnability(status, board, color, can_search=False)
        return {"ok": True, "proof": proof_view(board, ply, color, verdict, win)}

    def _engine_facts(self, args: dict[str, Any]) -> Reply:
        """The computer's question before it moves (pychessdraw.web.probe): the
        claims open now, and what each candidate move would let the opponent claim."""
        moves: list[str] = args["moves"]
        if len(moves) > probe.MAX_CANDIDATES or any(len(m) > 20 for m in moves):
            raise BadRequestError(f"'moves' must be a list of at most {probe.MAX_CANDIDATES} moves as text")
        self._check_not_over()
        return {"ok": True, "engine_facts": probe.engine_facts(self.game, moves)}

    def _export_pgn(self, args: dict[str, Any]) -> Reply:
        recorded = (
            self._recorded["result"] if self._recorded is not None else self._ended[1]["result"] if self._ended else "*"
        )
        ending, note = self._ending, None
        if ending is not None and ending["op"] == "claim" and ending.get("auto") and "color" in ending:
            note = present.auto_claim_note(ending["color"] == "white")
        return {
            "ok": True,
            "pgn": export_pgn(
                self.game,
                self.headers if self._pristine else page_tags(self.headers, arg_game_tags(args)),
                arg_clocks(args),
                recorded=recorded if self._pristine else None,
                note=note,
            ),
        }


def _as_is(reply: Reply) -> Reply:
    return reply


__all__ = ["Bridge", "LEVELS", "Termination"]
