"""Following a live round as its PGN text grows: the tracker that
``pychessdraw watch`` and the page's Arbiter view share.

The caller reads the source again and again (the CLI's file and HTTP
sources are :mod:`pychessdraw.batch.watch`; the page reads its own);
:class:`Tracker` compares each game's moves with what it saw last time and
reports what is new as events, one
:class:`~pychessdraw.contract.WatchEventDict` each:

- ``automatic``, ``claimable``, ``claimable_with_move``: the events of
  ``pychessdraw scan`` (:func:`pychessdraw.records.scan.observe`), at the same ply
  with the same rule, found as the moves arrive;
- ``ended``: a result was recorded (with the referee's verdict on it, and
  for a loss on time whether the opponent could mate, as ``scan`` says,
  with the ``proof``: a mating line, or the reason there is none);
- ``error``: the game cannot be read further (broken text, an illegal
  move, a bad FEN), with the reason; the other games go on, and the game
  goes on if a later version of the text mends it;
- ``corrected``: moves already seen were taken back or changed (a shorter
  PGN, a mistyped move fixed): the game's events after ``ply`` are void,
  and so is an ``ended`` event;
- ``restarted``: the game at this number is another game (its players,
  round or start position changed, e.g. a game inserted before it): all
  its earlier events are void and it is followed from its start;
- ``removed``: the source no longer lists this game (a file caught while
  rewritten, a game withdrawn); its events stand, and if a game with the
  same tags comes back at that number it goes on where it was, with no
  event said twice.

So, for a source that has stopped changing, the events of a game since its
last ``restarted`` (less those voided by a ``corrected``) are the events
``scan`` reports for that game, same rule, kind and ply. Limits: the deep
search of a final position that might be dead (``scan``'s ``auto``) runs
once, when the game's result is recorded, not at every ply of a game in
progress (a dead position that only that search proves is reported then);
a game ``error`` stops at the first bad ply, as ``scan`` does.

Incremental: the text is cut where games start
(:class:`pychessdraw.pgn.GameStarts`) and only the pieces that changed are
parsed again; each board keeps its :class:`~pychessdraw.game.Game`, so a
move appended costs one ply of referee work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, cast

from .. import laws
from ..contract import ClaimRuleName, TerminationName, WatchEventDict, WatchEventKind
from ..errors import InternalError, RefereeError
from ..game import Game
from ..i18n import gettext, marked, ngettext
from ..moves import after_move, move_number, numbered, start_of
from ..outcome import Termination, termination_from_record
from ..pgn import _HEADER, LINE_LIMIT, GameStarts, PgnGame, game_from_headers, games_in_text, raw_lines
from ..rules import timeout
from .final_search import dead_undecided, targeted_final
from .judge import RESULTS, judge
from .scan import AUTOMATIC, Events, audit_time_forfeit, lost_on_time, observe

ENDED: Final = "ended"
ERROR: Final = "error"
CORRECTED: Final = "corrected"
RESTARTED: Final = "restarted"
REMOVED: Final = "removed"
KINDS: tuple[WatchEventKind, ...] = (
    "automatic",
    "claimable",
    "claimable_with_move",
    ENDED,
    ERROR,
    CORRECTED,
    RESTARTED,
    REMOVED,
)
#: Tags that say which game a board holds: when one changes, it is another game.
IDENTITY_TAGS = ("White", "Black", "Round", "Event", "FEN", "SetUp", "Variant")
#: The code of the ``error`` said of a game that runs into the end of a text cut short.
SOURCE_CUT: Final = "source_cut"
DEFAULT_MAX_BYTES = 16 << 20  # a round of 64 long games with clocks is under 2 MB


@dataclass
class GameSeen:
    """What was seen of one game: its Game, the tokens pushed and their SAN."""

    key: tuple[str | None, ...]
    headers: dict[str, str]
    game: Game | None = None
    events: Events = field(default_factory=Events)
    seen: list[str] = field(default_factory=list)
    sans: list[str] = field(default_factory=list)
    parsed: PgnGame | None = None  # the parse last followed (the same object: no change); None: removed
    error: tuple[int, str] | None = None  # the error last reported
    ended: str | None = None  # the result last reported
    cut: bool = False  # its text ran into the end of a text cut short


def _identity(headers: dict[str, str]) -> tuple[str | None, ...]:
    return tuple(headers.get(tag) for tag in IDENTITY_TAGS)


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:  # the usual case, at C speed
        return n
    return next(i for i in range(n) if a[i] != b[i])


def split_games(text: str) -> list[str]:
    """The text cut at each game start (a whole tag line right after a blank
    line, :class:`GameStarts`): each piece is read as the whole text would
    be, so an unchanged piece need not be parsed again.

    The rule of :class:`GameStarts` looks at a line and the one before it
    only, so the lines are not walked one by one: a regular expression finds
    the blank lines followed by a line that begins with ``[`` (a round of
    1,000 games has some 50,000 lines, and about 1,000 such), and the tag
    line is checked there
    (:func:`split_games_by_lines` is the walk, kept as the reference)."""
    if "\r" in text:  # CR line ends: the quick cut below knows LF only
        return split_games_by_lines(text)
    pieces: list[str] = []
    begin = 0
    first = _FIRST_BLANK.match(text)
    for found in ([first] if first else []) + list(_AFTER_BLANK.finditer(text)):
        at = found.end()  # the candidate tag line's start, right after a whole blank line
        end = text.find("\n", at) + 1 or len(text)
        line = text[at:end]
        if len(line) >= LINE_LIMIT and not line.endswith("\n"):
            continue  # the last line, without its end: not whole
        if _HEADER.match(line) is None:
            continue
        pieces.append(text[begin:at])
        begin = at
    if len(text) > begin:
        pieces.append(text[begin:])
    return pieces


#: A blank line followed by a line that begins, after blanks, with ``[`` (LF line ends; at the text's start: _FIRST_BLANK).
_AFTER_BLANK = re.compile(r"\n[^\S\n]*\n(?=[^\S\n]*\[)")
_FIRST_BLANK = re.compile(r"[^\S\n]*\n(?=[^\S\n]*\[)")


def split_games_by_lines(text: str) -> list[str]:
    """:func:`split_games` line by line with :class:`GameStarts` (slower; the reference)."""
    pieces: list[str] = []
    starts = GameStarts()
    begin = pos = 0
    for line in raw_lines(text):
        whole = len(line) < LINE_LIMIT or line.endswith(("\n", "\r"))
        if starts.feed(line, whole) and pos > begin:
            pieces.append(text[begin:pos])
            begin = pos
        pos += len(line)
    if pos > begin:
        pieces.append(text[begin:pos])
    return pieces


class Tracker:
    """The games of a source as last seen; :meth:`update` with the source's
    whole new text returns the new events (dicts; see the module docstring).
    A game's number is its place in the source, from 1."""

    def __init__(self, flag_rules: str = timeout.FIDE) -> None:
        self.flag_rules = flag_rules
        self.boards: list[GameSeen] = []
        self.cache: dict[str, list[PgnGame]] = {}  # piece of text -> its games
        self.plies_pushed = 0  # referee work done, for tests and benchmarks

    def read(self, text: str) -> list[PgnGame]:
        """The games of ``text``, parsing only pieces not seen last time."""
        cache: dict[str, list[PgnGame]] = {}
        games: list[PgnGame] = []
        for piece in split_games(text):
            found = self.cache.get(piece)
            if found is None:
                found = list(games_in_text(piece))  # as the scan reads them: the reader drops no-game text
            cache[piece] = found
            games += found
        self.cache = cache
        return games

    def update(self, text: str, cut: str | None = None) -> list[WatchEventDict]:
        """The events since the last text, game by game in the source's
        order, each game's in ply order. Only games whose piece of text
        changed are looked at; a game's moves are compared with those seen
        and only the new ones are played. A fault of the referee in one game
        is that game's ``error`` (code ``internal``); it is not followed
        again until another game stands at its number.

        ``cut``: why the source's text was cut short (a size limit), if it
        was. Its last game may then go on past the cut: it is followed to
        the cut and said to be cut (an ``error`` with code
        :data:`SOURCE_CUT`), never ended nor taken back for a result the
        cut hid."""
        out: list[WatchEventDict] = []
        games = self.read(text)
        for number, parsed in enumerate(games, 1):
            board = self.boards[number - 1] if number <= len(self.boards) else None
            is_cut = cut is not None and number == len(games)
            if board is not None and board.parsed is parsed and board.cut == is_cut:
                continue  # its piece of text did not change
            key = _identity(parsed.headers)
            if board is None or board.key != key:
                if board is not None:
                    out.append(_event(number, board, RESTARTED, None, 0, reason=gettext("another game at this number")))
                board = GameSeen(key=key, headers=parsed.headers)
                self.boards[number - 1 : number] = [board]
                self._start(number, board, out)
            try:
                self._follow(number, board, parsed, out, cut if is_cut else None)
            except Exception as exc:  # a fault of the referee: this game stops (until it restarts), not the watch
                board.game, board.parsed = None, parsed
                out.append(
                    _event(
                        number,
                        board,
                        ERROR,
                        None,
                        len(board.seen),
                        code=InternalError.code,
                        reason=gettext("internal error of the referee ({kind}): game not followed").format(
                            kind=type(exc).__name__
                        ),
                    )
                )
        for number in range(len(games) + 1, len(self.boards) + 1):
            board = self.boards[number - 1]
            if board.parsed is not None:  # not said yet
                board.parsed = None
                out.append(_event(number, board, REMOVED, None, board.game.ply if board.game else 0))
        return out

    def _start(self, number: int, board: GameSeen, out: list[WatchEventDict]) -> None:
        """Set the board at its start position and observe it."""
        try:
            board.game = game_from_headers(board.headers, flag_rules=self.flag_rules)
        except RefereeError as exc:
            board.error = (0, exc.message)
            out.append(_event(number, board, ERROR, None, 0, code=exc.code, reason=exc.message))
            return
        self._observe(number, board, out)

    def _follow(
        self, number: int, board: GameSeen, parsed: PgnGame, out: list[WatchEventDict], cut: str | None = None
    ) -> None:
        board.headers, board.parsed, board.cut = parsed.headers, parsed, cut is not None
        if board.game is None:
            return  # its start position cannot be set up: said once in _start
        kept = _common_prefix(board.seen, parsed.tokens)
        # past a cut the result is unknown: none is taken, none taken back
        result = _result(parsed) if cut is None else board.ended
        if kept < len(board.seen) or (board.ended is not None and result != board.ended):
            self._take_back(number, board, kept, out)
        error = self._push(number, board, parsed.tokens[kept:], out)
        if error is None and cut is not None and board.ended is None:
            said = gettext("the source is cut after ply {ply} ({why}): the game is not judged")
            error = (SOURCE_CUT, said.format(ply=len(board.seen), why=cut))
        elif error is None and parsed.error is not None and len(parsed.tokens) == len(board.seen):
            error = (parsed.error.code, parsed.error.message)
        self._say_error(number, board, error, out)
        if error is None and result is not None and board.ended != result:
            self._end(number, board, result, out)

    def _take_back(self, number: int, board: GameSeen, kept: int, out: list[WatchEventDict]) -> None:
        """Undo the moves after ``kept``; events after it are void."""
        game = board.game
        assert game is not None
        while game.ply > kept:
            game.undo()
        del board.seen[kept:], board.sans[kept:]
        board.events.first = {k: p for k, p in board.events.first.items() if p <= kept}
        board.ended = board.error = None
        out.append(_event(number, board, CORRECTED, None, kept, reason=gettext("moves or result taken back")))

    def _push(
        self, number: int, board: GameSeen, tokens: list[str], out: list[WatchEventDict]
    ) -> tuple[str, str] | None:
        """Play the new tokens, observing each new position once; the first
        bad one stops it: ``(code, reason)``, the way ``scan`` words it."""
        game = board.game
        assert game is not None
        for token in tokens:
            try:
                move = game.parse_move(token)
            except RefereeError as exc:
                ply = game.ply + 1
                return exc.code, gettext("ply {ply} ({token}): {reason}").format(
                    ply=ply, token=repr(token), reason=exc.message
                )
            board.sans.append(game.san(move))
            game.push(move)
            board.seen.append(token)
            self.plies_pushed += 1
            self._observe(number, board, out)
        return None

    def _say_error(
        self, number: int, board: GameSeen, error: tuple[str, str] | None, out: list[WatchEventDict]
    ) -> None:
        """Report an error once, until it changes or is mended."""
        if error is None:
            board.error = None
            return
        seen = (len(board.seen), error[1])
        if board.error != seen:
            board.error = seen
            out.append(_event(number, board, ERROR, None, len(board.seen), code=error[0], reason=error[1]))

    def _observe(self, number: int, board: GameSeen, out: list[WatchEventDict]) -> None:
        assert board.game is not None
        before = len(board.events.first)
        observe(board.game, board.events)
        for rule, kind in list(board.events.first)[before:]:
            out.append(self._found(number, board, rule, kind))

    def _found(self, number: int, board: GameSeen, rule: str, kind: str) -> WatchEventDict:
        game = board.game
        assert game is not None
        event = _event(number, board, _kind(kind), _rule(rule), game.ply)
        if kind == "claimable_with_move":  # the moves that make the claim good
            event["moves"] = [game.san(m) for m in game.intended_moves(rule)]
        return event

    def _end(self, number: int, board: GameSeen, result: str, out: list[WatchEventDict]) -> None:
        """A result was recorded: the final position's search, as ``scan``
        runs it, then the referee's verdict on the record."""
        game = board.game
        assert game is not None
        before = len(board.events.first)
        final = targeted_final(game, lost_on_time(board.headers))
        outcome = final["outcome"]
        if outcome is not None and outcome["termination"] == Termination.DEAD_POSITION.value:
            board.events.add(Termination.DEAD_POSITION.value, AUTOMATIC, game.ply)
        for rule, kind in list(board.events.first)[before:]:
            out.append(self._found(number, board, rule, kind))
        forfeit = audit_time_forfeit(board.headers, final)
        report = {
            "headers": board.headers,
            "plies": game.ply,
            "final": final,
            "error": None,
            "events": board.events.to_list(),
            "time_forfeit": forfeit,
            "dead_undecided": dead_undecided(game.board, final),
        }
        recorded = termination_from_record(board.headers.get("Termination"), board.headers.get("TerminationDetails"))
        board.ended = result
        event = _event(number, board, ENDED, None if recorded is None else recorded.value, game.ply)
        verdict = judge(report)
        event["result"], event["time_forfeit"] = result, forfeit
        event["verdict"], event["expected_result"], event["ended_at"] = (
            verdict["verdict"],
            verdict["expected_result"],
            verdict["ended_at"],
        )
        if verdict["verdict"] == "ended_earlier" and verdict["ended_at"] is not None:
            event["ended_after"] = after_move(
                verdict["ended_at"], *start_of(board.headers)
            )  # an earlier ending in words
        if forfeit is not None and "winnable_detail" in final:  # FIDE 6.9: the opponent's mate, or why none
            event["proof"] = final["winnable_detail"]["black" if forfeit["flagged"] == "white" else "white"]
        out.append(event)


def _result(parsed: PgnGame) -> str | None:
    """The recorded result, if the game has one: the move text's, else the tag's."""
    result = parsed.result if parsed.result in RESULTS else parsed.headers.get("Result")
    return result if result in RESULTS else None


def _kind(kind: str) -> WatchEventKind:
    """An event kind of :func:`pychessdraw.records.scan.observe` (text there) as the contract's."""
    for known in KINDS:
        if known == kind:
            return known
    raise ValueError(f"not an event kind: {kind!r}")


def _rule(rule: str) -> TerminationName:
    """A rule of :func:`pychessdraw.records.scan.observe` (text there) as the contract's."""
    for known in Termination:
        if known.value == rule:
            return known.value
    raise ValueError(f"not a rule: {rule!r}")


def _event(
    number: int,
    board: GameSeen,
    kind: WatchEventKind,
    rule: TerminationName | None,
    ply: int,
    *,
    code: str | None = None,
    reason: str | None = None,
) -> WatchEventDict:
    """An event at ``ply`` of game ``number``: who, where, what (an
    error's ``code``, a ``reason`` where given)."""
    move = board.sans[ply - 1] if 0 < ply <= len(board.sans) else None
    first = start_of(board.headers)
    event: WatchEventDict = {
        "game": number,
        "white": board.headers.get("White"),
        "black": board.headers.get("Black"),
        "round": board.headers.get("Round"),
        "ply": ply,
        "move": move,
        "label": None if move is None else numbered(*move_number(ply, *first), move),  # "29.Ng1"
        "rule": rule,
        "kind": kind,
    }
    if code is not None:
        event["code"] = code
    if reason is not None:
        event["reason"] = reason
    return event


def describe(event: WatchEventDict) -> str:
    """One line for people, in the page's words (the JSON keeps the names):
    ``game 3 (A - B, round 1.3) after 29.Ng1: threefold repetition can be
    claimed with Ng8 (FIDE 9.2.1.1)``."""
    who = f"{event['white'] or '?'} - {event['black'] or '?'}"
    if event["round"] not in (None, "", "?", "-"):
        who = gettext("{players}, round {round}").format(players=who, round=event["round"])
    label = event.get("label")
    when = gettext("after {move}").format(move=label) if label else gettext("at the start")
    where = gettext("game {game} ({players}) {when}").format(game=event["game"], players=who, when=when)
    # Tags are a stranger's text: no escape sequence reaches the terminal.
    return "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in f"{where}: {what_happened(event)}")


#: An ended game's record, by the referee's verdict (``judge``).
_VERDICT_WORDS = {
    "ok": marked("the record stands"),
    "wrong_result": marked("the rules give {expected_result}"),
    "ended_earlier": marked("the rules ended it earlier, {ended_after} ({expected_result})"),
    "undecided": marked("undecided: it stands unless a draw is proven"),
    "error": marked("the record cannot be judged"),
}
#: The events without a rule, in words (their JSON name is the kind).
_KIND_WORDS = {
    "error": marked("error"),
    "corrected": marked("corrected"),
    "restarted": marked("restarted"),
    "removed": marked("removed"),
    "ended": marked("ended"),
}


def what_happened(event: WatchEventDict, max_moves: int | None = None) -> str:
    """What happened, for people: the rule's name and its article, or the
    event. ``max_moves``: at most that many of a claim's intended moves are
    named, the others counted ("Kg2, Kh2 or any of 17 moves"); None names
    them all (``watch``'s line)."""
    kind, rule = event["kind"], event["rule"]
    if rule is not None and kind == "automatic":
        return gettext("{rule} ends the game ({article})").format(
            rule=laws.rule_name(rule), article=laws.fide(laws.ARTICLE[rule])
        )
    if rule is not None and kind in ("claimable", "claimable_with_move"):
        with_move = kind == "claimable_with_move"
        moves = event.get("moves") or []
        claim = cast(ClaimRuleName, rule)  # a claimable event's rule is a claim's (observe)
        said = {"rule": laws.rule_name(rule), "article": laws.fide(laws.CLAIM_ARTICLE[(claim, with_move)])}
        if max_moves is not None and len(moves) > max_moves:
            words = ngettext(
                "{rule} can be claimed with {moves} or any of {n} move ({article})",
                "{rule} can be claimed with {moves} or any of {n} moves ({article})",
                len(moves),
            )
            return words.format(moves=", ".join(moves[:max_moves]), n=len(moves), **said)
        if with_move:
            return gettext("{rule} can be claimed with {moves} ({article})").format(
                moves=gettext(" or ").join(moves), **said
            )
        return gettext("{rule} can be claimed ({article})").format(**said)
    if kind == ENDED:
        return gettext("ended {result}: {verdict}").format(
            result=event["result"], verdict=gettext(_VERDICT_WORDS[event["verdict"]]).format(**event)
        )
    words = gettext(_KIND_WORDS[kind]) if kind in _KIND_WORDS else kind
    return gettext("{event}: {reason}").format(event=words, reason=event["reason"]) if event.get("reason") else words
