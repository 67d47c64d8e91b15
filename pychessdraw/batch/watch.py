"""Following a live PGN source: ``pychessdraw watch``.

A source (a file another program keeps rewriting, or an http(s) URL) is
read again every interval; :class:`Tracker` compares each game's moves with
what it saw last time and reports what is new as events, one dict each:

- ``automatic``, ``claimable``, ``claimable_with_move``: the events of
  ``pychessdraw scan`` (:func:`pychessdraw.batch.scan.observe`), at the same ply
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

import email.utils
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.client import HTTPException, HTTPMessage
from typing import IO, Any, Protocol

from .. import laws
from ..errors import BadRequestError, InternalError, RefereeError
from ..game import Game
from ..moves import after_move, move_number, numbered, start_of
from ..outcome import Termination, termination_from_record
from ..pgn import LINE_LIMIT, GameStarts, PgnGame, game_from_headers, games_in_text, raw_lines
from ..rules import timeout
from .final_search import dead_undecided, targeted_final
from .judge import RESULTS, judge
from .scan import AUTOMATIC, Events, audit_time_forfeit, lost_on_time, observe

ENDED, ERROR, CORRECTED, RESTARTED, REMOVED = "ended", "error", "corrected", "restarted", "removed"
KINDS = ("automatic", "claimable", "claimable_with_move", ENDED, ERROR, CORRECTED, RESTARTED, REMOVED)
#: Tags that say which game a board holds: when one changes, it is another game.
IDENTITY_TAGS = ("White", "Black", "Round", "Event", "FEN", "SetUp", "Variant")
DEFAULT_INTERVAL = 2.0
DEFAULT_MAX_BYTES = 16 << 20  # a round of 64 long games with clocks is under 2 MB
HTTP_TIMEOUT = 10.0  # seconds for one request: a host that hangs is a host down
MAX_BACKOFF = 60.0  # seconds between tries of a source that keeps failing


class SourceDown(Exception):
    """The source did not answer (a missing file, a refused connection, an
    HTTP error): the watch keeps its state and tries again later."""


@dataclass
class Board:
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
    be, so an unchanged piece need not be parsed again."""
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
        self.boards: list[Board] = []
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

    def update(self, text: str) -> list[dict[str, Any]]:
        """The events since the last text, game by game in the source's
        order, each game's in ply order. Only games whose piece of text
        changed are looked at; a game's moves are compared with those seen
        and only the new ones are played. A fault of the referee in one game
        is that game's ``error`` (code ``internal``); it is not followed
        again until another game stands at its number."""
        out: list[dict[str, Any]] = []
        games = self.read(text)
        for number, parsed in enumerate(games, 1):
            board = self.boards[number - 1] if number <= len(self.boards) else None
            if board is not None and board.parsed is parsed:
                continue  # its piece of text did not change
            key = _identity(parsed.headers)
            if board is None or board.key != key:
                if board is not None:
                    out.append(_event(number, board, RESTARTED, None, 0, reason="another game at this number"))
                board = Board(key=key, headers=parsed.headers)
                self.boards[number - 1 : number] = [board]
                self._start(number, board, out)
            try:
                self._follow(number, board, parsed, out)
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
                        reason=f"internal error of the referee ({type(exc).__name__}): game not followed",
                    )
                )
        for number in range(len(games) + 1, len(self.boards) + 1):
            board = self.boards[number - 1]
            if board.parsed is not None:  # not said yet
                board.parsed = None
                out.append(_event(number, board, REMOVED, None, board.game.ply if board.game else 0))
        return out

    def _start(self, number: int, board: Board, out: list[dict[str, Any]]) -> None:
        """Set the board at its start position and observe it."""
        try:
            board.game = game_from_headers(board.headers, flag_rules=self.flag_rules)
        except RefereeError as exc:
            board.error = (0, exc.message)
            out.append(_event(number, board, ERROR, None, 0, code=exc.code, reason=exc.message))
            return
        self._observe(number, board, out)

    def _follow(self, number: int, board: Board, parsed: PgnGame, out: list[dict[str, Any]]) -> None:
        board.headers, board.parsed = parsed.headers, parsed
        if board.game is None:
            return  # its start position cannot be set up: said once in _start
        kept = _common_prefix(board.seen, parsed.tokens)
        result = _result(parsed)
        if kept < len(board.seen) or (board.ended is not None and result != board.ended):
            self._take_back(number, board, kept, out)
        error = self._push(number, board, parsed.tokens[kept:], out)
        if error is None and parsed.error is not None and len(parsed.tokens) == len(board.seen):
            error = (parsed.error.code, parsed.error.message)
        self._say_error(number, board, error, out)
        if error is None and result is not None and board.ended != result:
            self._end(number, board, result, out)

    def _take_back(self, number: int, board: Board, kept: int, out: list[dict[str, Any]]) -> None:
        """Undo the moves after ``kept``; events after it are void."""
        game = board.game
        assert game is not None
        while game.ply > kept:
            game.undo()
        del board.seen[kept:], board.sans[kept:]
        board.events.first = {k: p for k, p in board.events.first.items() if p <= kept}
        board.ended = board.error = None
        out.append(_event(number, board, CORRECTED, None, kept, reason="moves or result taken back"))

    def _push(self, number: int, board: Board, tokens: list[str], out: list[dict[str, Any]]) -> tuple[str, str] | None:
        """Play the new tokens, observing each new position once; the first
        bad one stops it: ``(code, reason)``, the way ``scan`` words it."""
        game = board.game
        assert game is not None
        for token in tokens:
            try:
                move = game.parse_move(token)
            except RefereeError as exc:
                ply = game.ply + 1
                return exc.code, f"ply {ply} ({token!r}): {exc.message}"
            board.sans.append(game.san(move))
            game.push(move)
            board.seen.append(token)
            self.plies_pushed += 1
            self._observe(number, board, out)
        return None

    def _say_error(self, number: int, board: Board, error: tuple[str, str] | None, out: list[dict[str, Any]]) -> None:
        """Report an error once, until it changes or is mended."""
        if error is None:
            board.error = None
            return
        seen = (len(board.seen), error[1])
        if board.error != seen:
            board.error = seen
            out.append(_event(number, board, ERROR, None, len(board.seen), code=error[0], reason=error[1]))

    def _observe(self, number: int, board: Board, out: list[dict[str, Any]]) -> None:
        assert board.game is not None
        before = len(board.events.first)
        observe(board.game, board.events)
        for rule, kind in list(board.events.first)[before:]:
            out.append(self._found(number, board, rule, kind))

    def _found(self, number: int, board: Board, rule: str, kind: str) -> dict[str, Any]:
        game = board.game
        assert game is not None
        extra: dict[str, Any] = {}
        if kind == "claimable_with_move":  # the moves that make the claim good
            extra["moves"] = [game.san(m) for m in game.intended_moves(rule)]
        return _event(number, board, kind, rule, game.ply, **extra)

    def _end(self, number: int, board: Board, result: str, out: list[dict[str, Any]]) -> None:
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
        extra: dict[str, Any] = {}
        if forfeit is not None and "winnable_detail" in final:  # FIDE 6.9: the opponent's mate, or why none
            extra["proof"] = final["winnable_detail"]["black" if forfeit["flagged"] == "white" else "white"]
        out.append(
            _event(
                number,
                board,
                ENDED,
                None if recorded is None else recorded.value,
                game.ply,
                result=result,
                time_forfeit=forfeit,
                **judge(report),
                **extra,
            )
        )


def _result(parsed: PgnGame) -> str | None:
    """The recorded result, if the game has one: the move text's, else the tag's."""
    result = parsed.result if parsed.result in RESULTS else parsed.headers.get("Result")
    return result if result in RESULTS else None


def _event(number: int, board: Board, kind: str, rule: str | None, ply: int, **extra: Any) -> dict[str, Any]:
    move = board.sans[ply - 1] if 0 < ply <= len(board.sans) else None
    first = start_of(board.headers)
    if kind == ENDED and extra.get("verdict") == "ended_earlier":
        extra["ended_after"] = after_move(extra["ended_at"], *first)  # the words of an earlier ending
    return {
        "game": number,
        "white": board.headers.get("White"),
        "black": board.headers.get("Black"),
        "round": board.headers.get("Round"),
        "ply": ply,
        "move": move,
        "label": None if move is None else numbered(*move_number(ply, *first), move),  # "29.Ng1"
        "rule": rule,
        "kind": kind,
        **extra,
    }


def describe(event: dict[str, Any]) -> str:
    """One line for people, in the page's words (the JSON keeps the names):
    ``game 3 (A - B, round 1.3) after 29.Ng1: threefold repetition can be
    claimed with Ng8 (FIDE 9.2.1.1)``."""
    who = f"{event['white'] or '?'} - {event['black'] or '?'}"
    if event["round"] not in (None, "", "?", "-"):
        who += f", round {event['round']}"
    label = event.get("label")
    where = f"game {event['game']} ({who}) " + (f"after {label}" if label else "at the start")
    # Tags are a stranger's text: no escape sequence reaches the terminal.
    return "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in f"{where}: {_what(event)}")


#: An ended game's record, by the referee's verdict (``judge``).
_VERDICT_WORDS = {
    "ok": "the record stands",
    "wrong_result": "the rules give {expected_result}",
    "ended_earlier": "the rules ended it earlier, {ended_after} ({expected_result})",
    "undecided": "undecided: it stands unless a draw is proven",
    "error": "the record cannot be judged",
}


def _what(event: dict[str, Any]) -> str:
    """What happened, for people: the rule's name and its article, or the event."""
    kind, rule = event["kind"], event["rule"]
    if rule is not None and kind == "automatic":
        return f"{laws.RULE_NAME[rule]} ends the game ({laws.fide(laws.ARTICLE[rule])})"
    if rule is not None and kind in ("claimable", "claimable_with_move"):
        with_move = kind == "claimable_with_move"
        how = " with " + " or ".join(event.get("moves") or ()) if with_move else ""
        return f"{laws.RULE_NAME[rule]} can be claimed{how} ({laws.fide(laws.CLAIM_ARTICLE[(rule, with_move)])})"
    if kind == ENDED:
        return f"ended {event['result']}: " + _VERDICT_WORDS[event["verdict"]].format(**event)
    return f"{kind}: {event['reason']}" if event.get("reason") else kind


# ---- sources -----------------------------------------------------------------


class Source(Protocol):
    """Something to read again and again: the text when it changed, None
    when it did not; raises SourceDown when it does not answer."""

    name: str
    cut: str | None  # why the last text read was cut short, if it was

    def read(self) -> str | None: ...


def _cut(data: bytes, limit: int, why: str | None = None) -> tuple[str, str | None]:
    """The bytes as text, cut at ``limit`` and at their last whole line when
    they are more (or when ``why`` says they were cut short anyway)."""
    if len(data) > limit:
        data, why = data[:limit], f"larger than the limit ({limit:,} bytes, --max-mb): only its first lines are read"
    if why is not None:
        data = data[: data.rfind(b"\n") + 1]
    return data.decode("utf-8", errors="replace"), why


class FileSource:
    """A file, read again when its size or modification time changes (a
    pipe or a device every time), at most ``limit`` bytes. A file that
    changed while it was read is read again at the next tick, not taken half
    written. Limit: a writer that truncates the file and writes it anew may
    still be caught in between (a shorter text: ``corrected`` events); one
    that writes a new file and renames it over the old one never is."""

    def __init__(self, path: str, limit: int = DEFAULT_MAX_BYTES) -> None:
        self.name, self.limit = path, limit
        self.cut: str | None = None
        self.stamp: tuple[int, int] | None = None

    def read(self) -> str | None:
        try:
            with open(self.name, "rb") as handle:
                before = _stamp(os.fstat(handle.fileno()))
                regular = os.path.isfile(self.name)
                if regular and before == self.stamp:
                    return None
                data = handle.read(self.limit + 1)
                after = _stamp(os.fstat(handle.fileno()))
        except OSError as exc:
            raise SourceDown(f"cannot read {self.name!r}: {exc.strerror or exc}") from None
        if regular and (after != before or (len(data) != after[0] and len(data) <= self.limit)):
            return None  # written while read: the next tick reads it whole
        self.stamp = before if regular else None
        text, self.cut = _cut(data, self.limit)
        return text


class _HttpRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects to http(s) only (urllib also follows them to ftp)."""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: HTTPMessage, newurl: str
    ) -> urllib.request.Request | None:
        if not newurl.lower().startswith(("http://", "https://")):
            raise urllib.error.HTTPError(newurl, code, f"redirect to {newurl[:60]!r} refused: not http(s)", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_HttpRedirects)


class HttpSource:
    """An http(s) URL, asked with conditional requests (ETag,
    If-Modified-Since) and a timeout; at most ``limit`` bytes of a body are
    read (an endless stream is cut there), as UTF-8 (bad bytes replaced).
    Redirects are followed to http(s) only; no cookies, no credentials;
    the environment's proxy settings apply, as for any urllib client."""

    def __init__(self, url: str, limit: int = DEFAULT_MAX_BYTES, timeout_s: float = HTTP_TIMEOUT) -> None:
        self.name, self.limit, self.timeout = url, limit, timeout_s
        self.cut: str | None = None
        self.etag: str | None = None
        self.modified: str | None = None

    def read(self) -> str | None:
        request = urllib.request.Request(
            self.name, headers={"User-Agent": "pychessdraw-watch", "Accept-Encoding": "identity"}
        )
        if self.etag:
            request.add_header("If-None-Match", self.etag)
        if self.modified:
            request.add_header("If-Modified-Since", self.modified)
        try:
            with _OPENER.open(request, timeout=self.timeout) as response:
                data, why = self._body(response)
                etag, modified = response.headers.get("ETag"), response.headers.get("Last-Modified")
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return None
            raise SourceDown(f"{self.name}: HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise SourceDown(f"{self.name}: {exc.reason}") from None
        except (OSError, HTTPException) as exc:  # timeouts, resets, broken replies
            raise SourceDown(f"{self.name}: {exc or type(exc).__name__}") from None
        self.etag = etag
        self.modified = modified if modified and email.utils.parsedate_tz(modified) else None
        text, self.cut = _cut(data, self.limit, why)
        return text

    def _body(self, response: IO[bytes]) -> tuple[bytes, str | None]:
        """The body, up to ``limit + 1`` bytes, read for at most the timeout:
        an endless stream is cut then, at its last whole line."""
        deadline = time.monotonic() + self.timeout
        pieces: list[bytes] = []
        size = 0
        read1 = getattr(response, "read1", response.read)
        while size <= self.limit:
            if time.monotonic() > deadline:
                return b"".join(pieces), (
                    f"still sending after {self.timeout:g} s (a stream?): only what came by then is read, at each tick"
                )
            piece = read1(min(1 << 16, self.limit + 1 - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
        return b"".join(pieces), None


def _stamp(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_size, stat.st_mtime_ns


def open_source(name: str, limit: int = DEFAULT_MAX_BYTES) -> FileSource | HttpSource:
    """An http(s) URL or a file name (``file://`` is refused: give the path;
    so is ``-``: standard input cannot be read again)."""
    if name == "-":
        raise BadRequestError(
            "watch reads its source again and again: standard input cannot be; give a file or an http(s) URL"
        )
    lower = name.lower()
    if lower.startswith(("http://", "https://")):
        return HttpSource(name, limit)
    if "://" in name:
        raise BadRequestError(f"watch reads a file or an http(s) URL, not {name[:60]!r}")
    return FileSource(name, limit)


def ticks(
    source: Source,
    interval: float,
    say: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[str]:
    """Each new text of ``source``, forever: asked at most once per
    ``interval`` seconds; a source that does not answer is said once on
    ``say``, asked again after 2, 4, 8... intervals (at most MAX_BACKOFF
    seconds, or the interval if longer), and said again when it answers."""
    failures = 0
    was_cut: str | None = None
    while True:
        start = clock()
        try:
            text = source.read()
        except SourceDown as exc:
            if failures == 0:
                say(f"{exc}; trying again, less often, until it answers")
            failures += 1
        else:
            if failures:
                say(f"{source.name} answers again")
            failures = 0
            if text is not None:
                if source.cut and source.cut != was_cut:
                    say(f"{source.name}: {source.cut}")
                was_cut = source.cut
                yield text
        wait = interval if failures == 0 else min(interval * 2 ** min(failures, 16), max(interval, MAX_BACKOFF))
        sleep(max(0.0, start + wait - clock()))
