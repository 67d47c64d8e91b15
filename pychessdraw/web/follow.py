"""Following a live PGN source in the page: the Arbiter view's Python side.

:class:`Follower` takes the whole current text of a source at each change
(a URL re-fetched, a file re-read, pasted text) and hands it to the CLI's
:class:`pychessdraw.records.tracker.Tracker`, so that the events are the CLI's, word
for word and ply for ply (``automatic``, ``claimable``,
``claimable_with_move``, ``ended``, ``error``, ``corrected``, ``restarted``,
``removed``), found with one ply of referee work per appended move. On top
of the tracker it keeps what the page shows:

- the event log, each event with a serial ``id`` and its ``text`` (the
  CLI's readable line); the ids of events that a later ``corrected`` or
  ``restarted`` voided are returned as ``voided``;
- per board, display-ready plain data (:func:`board_view`): players,
  round, move count, last move, clocks from ``%clk``, the FEN, and the state
  in one word (:data:`STATES`), with the moves of a claim with a move, the
  recorded result with the rules' other result where they give one, and
  for a loss on time whether the opponent could mate, with the proof.

:class:`StreamRound` turns a stream that sends each game's whole PGN again
at each change (lichess's broadcast stream) into that whole text.
:class:`ArbiterBridge` wraps both in JSON in, JSON out, for the arbiter's worker
(web/build.py makes ``arbiter-worker.js`` from the page's worker with this
module in place of :mod:`pychessdraw.web.bridge`).

Limits: the text is cut by the caller (the page) at its size limit; a
board's state is that of its last position read (a board whose text broke
keeps the state of the position before the bad move, with ``error`` set).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import chess

from .. import i18n, laws
from ..contract import WatchEventDict
from ..errors import BadRequestError, InternalError
from ..i18n import gettext, ngettext
from ..moves import move_number, numbered, start_of
from ..outcome import Termination, side_name
from ..pgn import games_in_text
from ..records.judge import VERDICT_WORDS
from ..records.scan import AUTOMATIC, CLAIMABLE, WITH_MOVE
from ..records.tracker import (
    CORRECTED,
    DEFAULT_MAX_BYTES,
    ENDED,
    ERROR,
    RESTARTED,
    GameSeen,
    Tracker,
    describe,
    split_games,
    what_happened,
)
from ..rules import timeout
from .args import error_info, referee_error
from .clockpgn import parse_clk
from .contract import ArbiterEvent, BoardState, BoardView, FollowOperations, FollowReply, FollowUpdate
from .dispatch import Dispatcher
from .present import numbered_line, proof_line

PLAYING: BoardState = "playing"
MUST_STOP: BoardState = "must_stop"
#: The board's state words, the page's ``data-state``.
STATES = (PLAYING, CLAIMABLE, WITH_MOVE, MUST_STOP, ENDED)
#: Which boards need the arbiter first (lower first): a game that must stop,
#: a broken game, a claim to judge, a result the rules contradict.
_URGENCY: dict[str, int] = {MUST_STOP: 0, CLAIMABLE: 2, WITH_MOVE: 2, PLAYING: 4, ENDED: 5}
_CLAIM_RULES = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)
#: Plies of a mating line shown in a flag fall's proof.
PROOF_PLIES = 10
#: Intended moves of a claim named in a log line; the others are counted, and all are in ``more``.
MAX_INLINE_MOVES = 5


def board_number(headers: Mapping[str, str], place: int) -> int:
    """The board's number in the round: the ``[Board]`` tag, else the board
    part of ``[Round "5.12"]`` (12), else ``place`` (its place in the
    source, from 1). Limits: a number that is not a positive integer is
    not a board number (the next way is tried)."""
    for text in (headers.get("Board", ""), headers.get("Round", "").partition(".")[2]):
        text = text.strip()
        if text.isascii() and text.isdigit() and 0 < int(text) < 100_000:
            return int(text)
    return place


def _printable(text: str) -> str:
    """A stranger's text (tags) with no control character."""
    return "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text)


def arbiter_line(event: WatchEventDict, board: int) -> tuple[str, str]:
    """The log line an arbiter reads in a second: board, players, move,
    event ("Board 12 · A – B · after 41.Kg1 · fifty-move rule can be claimed
    with Kg2, … or any of 17 moves (FIDE 9.3.1)"), and what "more" shows
    ("all 17 moves: …"; "" when the line names them all)."""
    who = f"{event['white'] or '?'} – {event['black'] or '?'}"
    label = event.get("label")
    when = gettext("after {move}").format(move=label) if label else gettext("at the start")
    line = gettext("Board {board} · {players} · {when} · {what}").format(
        board=board, players=who, when=when, what=what_happened(event, MAX_INLINE_MOVES)
    )
    moves = event.get("moves") or []
    more = (
        ngettext("all {n} move: {moves}", "all {n} moves: {moves}", len(moves)).format(
            n=len(moves), moves=", ".join(moves)
        )
        if len(moves) > MAX_INLINE_MOVES
        else ""
    )
    return _printable(line), more


def clock_text(ms: int) -> str:
    """A clock for people: ``1:02:03``, ``2:03``, ``0:09.5`` under ten seconds."""
    if ms < 10_000:
        return f"0:{ms / 1000:04.1f}"
    seconds = ms // 1000
    hours, minutes = seconds // 3600, seconds % 3600 // 60
    if hours:
        return f"{hours}:{minutes:02d}:{seconds % 60:02d}"
    return f"{minutes}:{seconds % 60:02d}"


def _clocks(board: GameSeen) -> dict[str, str | None]:
    """Each side's last ``%clk`` among the moves followed (None: none given)."""
    out: dict[str, str | None] = {"white": None, "black": None}
    game, parsed = board.game, board.parsed
    if game is None or parsed is None:
        return out
    plies = len(board.seen)
    last_mover_white = game.turn == chess.BLACK  # not game.board: that copies the move stack
    for ply in range(plies, 0, -1):  # from the last move back, until both are known
        white = last_mover_white == ((plies - ply) % 2 == 0)
        side = "white" if white else "black"
        if out[side] is None:
            ms = parse_clk(parsed.comments.get(ply, ""))
            if ms is not None:
                out[side] = clock_text(ms)
        if out["white"] is not None and out["black"] is not None:
            break
    return out


def _state(board: GameSeen) -> tuple[BoardState, list[str], str]:
    """The board's state word; the moves that make a claim good when it is
    ``claimable_with_move``; and the state in words for people: who may
    claim which rule, with which moves, or which ending the rules impose."""
    if board.ended is not None:
        return "ended", [], gettext("ended")
    imposed = sorted((ply, rule) for (rule, kind), ply in board.events.first.items() if kind == AUTOMATIC)
    if imposed:  # an ending the rules impose: the arbiter stops the game
        return MUST_STOP, [], gettext("must stop: {rule}").format(rule=laws.rule_name(imposed[0][1]))
    game = board.game
    if game is None:
        return PLAYING, [], gettext("playing")
    who = side_name(game.turn)
    now = game.claimable_now()
    if now:
        rules_now = gettext(" or ").join(laws.rule_in_sentence(r.value) for r in now)
        return "claimable", [], gettext("{side} may claim {rules}").format(side=who, rules=rules_now)
    moves: list[str] = []
    rules: list[str] = []
    for rule in _CLAIM_RULES:
        for move in game.intended_moves(rule):
            san = game.san(move)
            if rule.value not in rules:
                rules.append(rule.value)
            if san not in moves:
                moves.append(san)
    if not moves:
        return PLAYING, [], gettext("playing")
    named = ", ".join(game.move_label(san) for san in moves[:MAX_NAMED_MOVES])
    claims = gettext(" or ").join(laws.rule_in_sentence(r) for r in rules)
    said = {"side": who, "rules": claims, "moves": named, "n": len(moves) - MAX_NAMED_MOVES}
    if len(moves) <= MAX_NAMED_MOVES:
        return "claimable_with_move", moves, gettext("{side} may claim {rules} with {moves}").format(**said)
    words = ngettext(
        "{side} may claim {rules} with {moves} or {n} other move",
        "{side} may claim {rules} with {moves} or {n} other moves",
        len(moves) - MAX_NAMED_MOVES,
    )
    return "claimable_with_move", moves, words.format(**said)


MAX_NAMED_MOVES = 3  # intended moves named on a board; more are counted


def _note(view: BoardView) -> str:
    """What else the board's card says: an error, a game no longer in the
    source, the recorded result and what the rules give, a flag fall."""
    notes = []
    if view["error"] is not None:
        notes.append(gettext("Cannot be read further: {error}").format(error=view["error"]))
    if view["removed"]:
        notes.append(gettext("No longer in the source."))
    result, verdict = view["result"], view["verdict"]
    words = gettext(VERDICT_WORDS[verdict]) if verdict in VERDICT_WORDS else verdict
    if result and view["expected_result"]:
        notes.append(
            gettext("{result} recorded; the rules give {expected} ({verdict})").format(
                result=result, expected=view["expected_result"], verdict=words
            )
        )
    elif result:
        notes.append(f"{result} ({words})" if verdict and verdict != "ok" else result)
    if view["flag"]:
        notes.append(view["flag"])
    return " · ".join(notes)


def flag_sentence(ended: WatchEventDict, board: chess.Board) -> str | None:
    """For a loss on time, one sentence: whether the opponent could mate
    (FIDE 6.9, or US Chess 14E when those rules were chosen), with the
    proof; None for any other ending. ``board``: the final position."""
    forfeit = ended.get("time_forfeit")
    if not forfeit:
        return None
    who = side_name(forfeit["flagged"])
    other = side_name("black" if forfeit["flagged"] == "white" else "white")
    proof = ended.get("proof")
    reason = proof["reason"] if proof is not None else None
    article = laws.flag_citation(forfeit["rules"])
    if forfeit["by_rule"] == "1/2-1/2" and forfeit["opponent_winnable"] is not False:
        article = laws.USCF_INSUFFICIENT  # a draw though a mate exists: the US Chess rule
    can = forfeit["opponent_winnable"]
    if can is True:
        mover = chess.BLACK if forfeit["flagged"] == "white" else chess.WHITE  # the side that can mate
        san = proof["line"] if proof is not None else None
        line = numbered_line(board, proof_line(board, mover, san), PROOF_PLIES)
        how = gettext("a mating line: {line}").format(line=line) if line else reason or gettext("a checkmate exists")
        said = gettext("{side}'s flag fell and {other} can still checkmate ({how})").format(
            side=who, other=other, how=how
        )
    elif can is False:
        said = gettext(
            "{side}'s flag fell, but {other} cannot checkmate by any series of legal moves (proven: {reason})"
        ).format(side=who, other=other, reason=reason or gettext("not enough material to checkmate"))
    else:
        said = gettext("{side}'s flag fell; whether {other} can checkmate was not decided within the search").format(
            side=who, other=other
        )
    return gettext("{sentence}: {result} by {rules}").format(
        sentence=said, result=forfeit["by_rule"] or forfeit["recorded"], rules=article
    )


def _base_view(number: int, board: GameSeen) -> BoardView:
    """A board's view with nothing worked out: its tags and counts only."""
    plies = len(board.seen)
    moves = move_number(plies, *start_of(board.headers))[0] if plies else 0
    return {
        "game": number,
        "board": board_number(board.headers, number),
        "white": board.headers.get("White"),
        "black": board.headers.get("Black"),
        "round": board.headers.get("Round"),
        "plies": plies,
        "moves": moves,
        "move_text": gettext("move {n}").format(n=moves) if plies else gettext("no move yet"),
        "last_move": None,
        "last_uci": None,
        "clocks": {"white": None, "black": None},
        "fen": None,
        "placement": None,
        "state": PLAYING,
        "state_text": gettext("playing"),
        "claim_moves": [],
        "error": None,
        "removed": board.parsed is None,
        "result": board.ended,
        "expected_result": None,
        "verdict": None,
        "flag": None,
        "note": "",
        "clocks_text": "",
        "urgency": _URGENCY[PLAYING],
    }


def board_view(number: int, board: GameSeen, ended: WatchEventDict | None) -> BoardView:
    """What the page shows of one board, plain JSON-able data."""
    game = board.game
    state, moves, words = _state(board)
    view = _base_view(number, board)
    clocks = _clocks(board)
    view["state"], view["claim_moves"] = state, moves
    view["state_text"] = words
    view["clocks"] = {"white": clocks["white"], "black": clocks["black"]}
    if clocks["white"] or clocks["black"]:
        view["clocks_text"] = gettext("Clocks: White {white} · Black {black}").format(
            white=clocks["white"] or "–", black=clocks["black"] or "–"
        )
    view["error"] = board.error[1] if board.error is not None else None
    if board.sans:
        view["last_move"] = board.sans[-1]
        number, white = move_number(len(board.seen), *start_of(board.headers))
        view["move_text"] = numbered(number, white, board.sans[-1])
    if game is not None:
        fen = view["fen"] = game.fen()
        view["placement"] = fen.split(" ")[0]  # what the small board draws
        view["last_uci"] = game.last_move.uci() if game.last_move is not None else None
    if ended is not None:
        view["verdict"], view["expected_result"] = ended["verdict"], ended["expected_result"]
        if game is not None:
            view["flag"] = flag_sentence(ended, game.board)
    view["note"] = _note(view)
    urgent = _URGENCY[state]
    if view["error"] is not None or view["expected_result"] is not None:
        urgent = min(urgent, 1 if view["error"] is not None else 3)
    view["urgency"] = urgent
    return view


class Follower:
    """The games of one source as last seen, and the page's log of them."""

    def __init__(self, flag_rules: str = timeout.FIDE) -> None:
        if flag_rules not in (timeout.FIDE, timeout.USCF):
            raise BadRequestError(
                gettext("flag_rules must be {fide} or {uscf}").format(fide=repr(timeout.FIDE), uscf=repr(timeout.USCF))
            )
        self.tracker = Tracker(flag_rules)
        self.log: list[ArbiterEvent] = []
        self.ended: dict[int, ArbiterEvent] = {}  # per game, its standing ``ended`` event
        self._standing: dict[int, list[ArbiterEvent]] = {}  # per game, events a correction may void
        self._shown: dict[int, tuple[Any, ...]] = {}  # per game, what its view was made from

    def update(self, text: str, cut: str | None = None) -> FollowUpdate:
        """Follow the source's whole new text (``cut``: why it was cut
        short, if it was: its last game is said to be cut, not judged; see
        :meth:`pychessdraw.records.tracker.Tracker.update`). Returns
        ``events`` (new, in the source's order, each with ``id`` and
        ``text``), ``voided`` (ids of earlier events a correction or restart
        made void), ``boards`` (the views of the boards that changed) and
        ``count`` (boards in all)."""
        new: list[ArbiterEvent] = []
        voided: list[int] = []
        for found in self.tracker.update(text, cut):
            event = self._event(found)
            new.append(event)
            self.log.append(event)
            voided += self._void(event)
        boards: list[BoardView] = []
        for number, board in enumerate(self.tracker.boards, 1):
            made_of = (board.parsed, self.ended.get(number), board.ended, board.error, len(board.seen))
            shown = self._shown.get(number)
            # the same parse and ended event (identity: comparing parses would cost a walk of their moves)
            if shown is None or shown[0] is not made_of[0] or shown[1] is not made_of[1] or shown[2:] != made_of[2:]:
                self._shown[number] = made_of
                boards.append(self._view(number, board, new))
        return {"events": new, "voided": voided, "boards": boards, "count": len(self.tracker.boards)}

    def _event(self, found: WatchEventDict) -> ArbiterEvent:
        """An event of the tracker as the log's: its id, ``watch``'s line, and the arbiter's short line."""
        seen = self.tracker.boards[found["game"] - 1] if 0 < found["game"] <= len(self.tracker.boards) else None
        board = board_number(seen.headers, found["game"]) if seen is not None else found["game"]
        line, more = arbiter_line(found, board)
        return {**found, "id": len(self.log) + 1, "text": describe(found), "board": board, "line": line, "more": more}

    def said_again(self) -> FollowUpdate:
        """Every sentence already made said again in the current language:
        the whole log (``events``: each event with its id, its ``text``,
        ``line`` and ``more`` made again; the log kept so, for its download)
        and every board's view, nothing followed anew. Limit: a reason
        inside an event or a board (a move the parser refused) was said
        when the text was read and stays in that language."""
        for event in self.log:
            event["line"], event["more"] = arbiter_line(event, event["board"])
            event["text"] = describe(event)
        faults: list[ArbiterEvent] = []
        boards = [self._view(number, board, faults) for number, board in enumerate(self.tracker.boards, 1)]
        return {"events": list(self.log), "voided": [], "boards": boards, "count": len(self.tracker.boards)}

    def _view(self, number: int, board: GameSeen, new: list[ArbiterEvent]) -> BoardView:
        """The board's view; a fault of the referee in it is said on that
        board and as an ``error`` event in ``new``, not raised: the other
        boards go on."""
        try:
            return board_view(number, board, self.ended.get(number))
        except Exception as exc:  # a fault of the referee: said, not raised
            view = _base_view(number, board)
            reason = view["error"] = gettext("internal error of the referee ({kind}): board not shown").format(
                kind=type(exc).__name__
            )
            view["urgency"] = 1
            said: WatchEventDict = {
                "game": number,
                "white": view["white"],
                "black": view["black"],
                "round": view["round"],
                "ply": view["plies"],
                "move": None,
                "label": None,
                "rule": None,
                "kind": ERROR,
                "code": InternalError.code,
                "reason": reason,
            }
            fault = self._event(said)
            self.log.append(fault)
            new.append(fault)
            return view

    def _void(self, event: ArbiterEvent) -> list[int]:
        """Keep the game's standing events; the ids this event voids."""
        number, kind = event["game"], event["kind"]
        rows = self._standing.setdefault(number, [])
        if kind == RESTARTED:
            gone, rows[:] = list(rows), []
        elif kind == CORRECTED:
            gone = [e for e in rows if e["ply"] > event["ply"] or e["kind"] == ENDED]
            rows[:] = [e for e in rows if e["ply"] <= event["ply"] and e["kind"] != ENDED]
        else:
            if kind == ENDED:
                self.ended[number] = event
            if kind in (AUTOMATIC, CLAIMABLE, WITH_MOVE, ENDED, ERROR):
                rows.append(event)
            return []
        if kind == RESTARTED or any(e["kind"] == ENDED for e in gone):
            self.ended.pop(number, None)
        return [e["id"] for e in gone]


#: Tags that name a game in a stream, in the order tried (a relay's game URL first).
STREAM_KEYS = ("GameURL", "Event", "Site", "Round", "Board", "White", "Black")


class StreamRound:
    """A source that sends each game's whole PGN again whenever it changes
    (as lichess's broadcast stream does), kept as the round's whole text
    for :class:`Follower`: each game at the place it first came, replaced
    by its latest version. A game is taken once it is followed by a blank
    line after its move text, or by the next game's tags.

    Limits: a game is known by its ``GameURL`` tag, else by its event,
    site, round, board and players, so a game whose players' names are
    corrected is a new game (the old one stays); a game longer than
    ``limit`` characters is dropped, with a note."""

    def __init__(self, limit: int = DEFAULT_MAX_BYTES) -> None:
        self.limit = limit
        self.pending = ""
        self.games: dict[tuple[str | None, ...], str] = {}

    def feed(self, chunk: str) -> tuple[bool, str | None]:
        """Take what the stream sent next: (whether the round changed, a note)."""
        self.pending += chunk
        pieces = split_games(self.pending)
        if pieces and not self._whole(pieces[-1]):
            self.pending = pieces.pop()
        else:
            self.pending = ""
        note = None
        if len(self.pending) > self.limit:
            note = gettext("a game of the stream is larger than the limit ({limit} characters): dropped").format(
                limit=i18n.number(self.limit)
            )
            self.pending = ""
        changed = False
        for piece in pieces:
            games = games_in_text(piece)
            first = next(iter(games), None)
            if first is None:
                continue
            key = tuple(first.headers.get(tag) for tag in STREAM_KEYS)
            key = key[:1] if key[0] else key
            if self.games.get(key) != piece:
                self.games[key] = piece
                changed = True
        return changed, note

    @staticmethod
    def _whole(piece: str) -> bool:
        """Move text, then a blank line: nothing more of this game will come."""
        body = piece.rstrip(" \t")
        if not body.endswith(("\n\n", "\r\n\r\n")):
            return False
        return any(line.strip() and not line.lstrip().startswith("[") for line in piece.splitlines())

    def text(self) -> str:
        return "".join(piece if piece.endswith("\n\n") else piece.rstrip() + "\n\n" for piece in self.games.values())


def _ok(update: FollowUpdate) -> FollowReply:
    """An update as the worker's answer."""
    return {
        "ok": True,
        "events": update["events"],
        "voided": update["voided"],
        "boards": update["boards"],
        "count": update["count"],
    }


class ArbiterBridge:
    """The arbiter worker's entry: :meth:`handle` takes a JSON request
    ``{"op", "args"}`` and returns a JSON answer ``{"ok": true, ...}`` or
    ``{"ok": false, "error": {"code", "message"}}``, checked and run by the
    game bridge's dispatcher (:class:`pychessdraw.web.dispatch.Dispatcher`
    over :class:`~pychessdraw.web.contract.FollowOperations`). Several
    sources are followed at once (sections of one event), each by its own
    :class:`Follower`, known by the number ``source`` (0 when not given).
    Ops: ``follow_start`` (``flag_rules``, ``source``: a new follower for
    that source; without ``source``, every source is dropped and source 0
    starts again), ``follow_update`` (``text``, the source's whole text:
    :meth:`Follower.update`), ``follow_feed`` (``text``, what a stream sent
    next: :class:`StreamRound`, then :meth:`Follower.update`, with a
    ``note`` when a game was dropped), ``follow_drop`` (``source``: no
    longer followed, its follower freed), ``follow_log`` (every event so
    far, source by source), ``set_language`` (``language``: the sentences
    made from now on, the page's: boards, events, refusals),
    ``follow_again`` (``source``: its whole log and every board said again
    in that language, after a switch: :meth:`Follower.said_again`).

    Limits: a sentence already made stays in the language it was made in
    until ``follow_again`` says it again; the ids of events and the game numbers are each source's own
    (the page tells the sources apart by their number)."""

    def __init__(self) -> None:
        self.sources: dict[int, tuple[Follower, StreamRound]] = {0: (Follower(), StreamRound())}
        self._language = i18n.ENGLISH  # the sentences' language, set by the page (set_language)
        self.dispatcher = Dispatcher[FollowReply](
            FollowOperations,
            {
                "follow_start": self._start,
                "follow_update": self._update,
                "follow_feed": self._feed,
                "follow_log": self._log,
                "follow_drop": self._drop,
                "follow_again": self._again,
                "set_language": self._set_language,
            },
        )

    @property
    def follower(self) -> Follower:
        """Source 0's follower (the one source when only one is followed)."""
        return self._source({})[0]

    def handle(self, request: str) -> str:
        """One request as JSON text, the answer as JSON text; any failure
        (a bad request, a fault of the referee) is ``ok: false`` in the
        project's words, and the follower is left as it was."""
        answer: FollowReply
        with i18n.language(self._language):
            try:
                answer = self.dispatcher.run(request)
            except Exception as exc:
                answer = {"ok": False, "error": error_info(referee_error(exc))}
        return json.dumps(answer)

    def _set_language(self, args: dict[str, Any]) -> FollowReply:
        self._language = i18n.check_language(args["language"])
        return {"ok": True}

    def _source(self, args: Mapping[str, Any]) -> tuple[Follower, StreamRound]:
        """The follower of the source named in ``args`` (0 when none is named)."""
        number = args.get("source", 0)
        if number not in self.sources:
            if number != 0:
                raise BadRequestError(
                    gettext("source {number} is not followed: start it first (follow_start)").format(number=number)
                )
            self.sources[0] = (Follower(), StreamRound())
        return self.sources[number]

    def _start(self, args: dict[str, Any]) -> FollowReply:
        made = (Follower(args.get("flag_rules", timeout.FIDE)), StreamRound())
        if "source" not in args:
            self.sources.clear()
        self.sources[args.get("source", 0)] = made
        return {"ok": True}

    def _drop(self, args: dict[str, Any]) -> FollowReply:
        self.sources.pop(args["source"], None)
        return {"ok": True}

    def _again(self, args: dict[str, Any]) -> FollowReply:
        """The source's log and boards said again in the current language (:meth:`Follower.said_again`)."""
        return _ok(self._source(args)[0].said_again())

    def _feed(self, args: dict[str, Any]) -> FollowReply:
        """The next piece of a stream (:class:`StreamRound`)."""
        follower, stream = self._source(args)
        changed, note = stream.feed(args["text"])
        out: FollowUpdate = (
            follower.update(stream.text())
            if changed
            else {"events": [], "voided": [], "boards": [], "count": len(follower.tracker.boards)}
        )
        reply = _ok(out)
        reply["note"] = note
        return reply

    def _update(self, args: dict[str, Any]) -> FollowReply:
        return _ok(self._source(args)[0].update(args["text"], args.get("cut")))

    def _log(self, args: dict[str, Any]) -> FollowReply:
        return {"ok": True, "events": [e for n in sorted(self.sources) for e in self.sources[n][0].log]}
