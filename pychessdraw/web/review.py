"""Reviewing a PGN file as it streams in: feed text chunks of any size, get
back the report of every game completed so far (the scan report of
:func:`pychessdraw.records.scan.scan_game`, with its verdict), then flush the last
game at the end of the input. The page's review runs this in its worker.

Memory is bounded by the longest game, not by the file: only the lines of
the game being read are held. A game longer than ``max_game_chars`` (a text
with no game boundary, or garbage) is skipped up to the next game and
reported as a ``bad_pgn`` error, so that memory stays bounded there too.

Each result is ``{"line": str, "row": dict}``: ``line`` is the report as the
CLI's ``scan`` prints it (one JSON line, same bytes), ``row`` the few fields a
table of games shows (players, recorded result, verdict, events, the error in
chess words) plus ``start``/``end``, the game's character offsets in the text
fed so far, so that a page can re-read just that game from its file.

Games are delimited by :func:`pychessdraw.pgn.read_games` itself (a game is
complete once the next one's header begins), so a review and a scan of the
same text see the same games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from .. import laws, pgn
from ..errors import BadPgnError, BadRequestError
from ..i18n import gettext, marked, ngettext, number
from ..moves import after_move, move_number, numbered, start_of
from ..outcome import side_name
from ..pgn import PgnGame, read_games
from ..records.final_search import AUTO, FinalSearch
from ..records.scan import scan_game
from ..rules import dead, timeout
from .contract import Reply, ReviewEvent, ReviewResult, ReviewRow, ReviewWords

# Lines as a text file reads them (LF, CR LF or CR), not as str.splitlines
# (which also cuts at form feeds, U+2028...): the scan's lines, so the same games.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")

#: Games longer than this many characters are skipped as errors: the
#: reader's own limit (:data:`pychessdraw.pgn.MAX_GAME_CHARS`), so that a
#: review and a scan skip the same games.
MAX_GAME_CHARS = pgn.MAX_GAME_CHARS


class ReviewSession:
    """One review of one text stream. ``feed`` and ``finish`` return the
    reports of the games they complete, numbered from ``start``."""

    def __init__(
        self,
        *,
        final_search: FinalSearch = AUTO,
        flag_rules: str = timeout.FIDE,
        start: int = 1,
        max_game_chars: int = MAX_GAME_CHARS,
        part: int = 0,
        parts: int = 1,
    ) -> None:
        """``final_search``: as ``scan``'s (default ``AUTO``, the CLI's
        default, so that the verdicts are the CLI's).
        ``part``/``parts``: this session judges only every ``parts``-th
        game from the ``part``-th (0-based) and skips the others, so that
        ``parts`` sessions fed the same text (in parallel workers) share the
        work; each still reads every game, a few per cent of the cost."""
        if flag_rules not in timeout.RULES:
            raise BadRequestError(f"flag rules must be one of {', '.join(timeout.RULES)}, not {flag_rules!r}")
        if not 0 <= part < parts:
            raise BadRequestError(f"part must be from 0 to parts - 1, not {part} of {parts}")
        self.part, self.parts = part, parts
        self.final_search = final_search
        self.flag_rules = flag_rules
        self.max_game_chars = max_game_chars
        self.start = self.next_number = start
        self.games = 0
        self.plies = 0
        self.chars = 0  # characters fed so far
        self.finished = False
        self._partial = ""  # an unfinished last line
        self._lines: list[str] = []  # the lines of the game being read
        self._lines_chars = 0
        self._lines_start = 0  # offset of self._lines[0] in the text
        self._skipping: int | None = None  # start offset of an over-long game being skipped

    def feed(self, text: str) -> list[ReviewResult]:
        """Take the next chunk of text; returns the reports of the games it completes."""
        if self.finished:
            raise BadRequestError("this review has already finished")
        self.chars += len(text)
        text = self._partial + text
        # Whole lines only, and a "\r" at the end waits for a "\n" that may
        # follow: "\r" + "\n" read as two lines would be a blank line, which
        # the reader takes for the end of a game.
        cut = max(text.rfind("\n"), text.rfind("\r", 0, len(text) - 1)) + 1
        self._partial = text[cut:]
        if not cut:
            return self._check_size([])
        return self._check_size(self._take(_LINE.findall(text, 0, cut)))

    def finish(self) -> list[ReviewResult]:
        """The end of the input: reports of the games still open."""
        if self.finished:
            return []
        self.finished = True
        lines = [self._partial] if self._partial else []
        self._partial = ""
        out = self._take(lines, final=True)
        if self._skipping is not None:
            result = self._too_long(self._skipping, self.chars)
            if result is not None:
                out.append(result)
            self._skipping = None
        return out

    # -- internals -----------------------------------------------------------
    def _take(self, new: list[str], final: bool = False) -> list[ReviewResult]:
        out: list[ReviewResult] = []
        if self._skipping is not None:
            new = self._skip(new, out)
        lines = self._lines
        lines.extend(new)
        # Parse what is held; every game the reader yields before it has run
        # out of lines is complete (it has seen the next game's header).
        consumed = 0

        def source() -> Iterator[str]:
            nonlocal consumed
            for line in lines:
                consumed += 1
                yield line

        boundary = 0  # index of the first line of the game being read
        for parsed in read_games(source()):
            exhausted = consumed == len(lines)
            if exhausted and not final:
                break  # the last game may go on in the next chunk
            # The line that told the reader the game was over is the next
            # game's first header line; at the end of input there is none.
            end = consumed - 1 if not exhausted and lines[consumed - 1].lstrip().startswith("[") else consumed
            start = self._lines_start
            self._lines_start += sum(map(len, lines[boundary:end]))
            boundary = end
            result = self._report(parsed, start, self._lines_start)
            if result is not None:
                out.append(result)
            if exhausted:
                break
        if final:
            boundary = len(lines)
        del lines[:boundary]
        self._lines_chars = sum(map(len, lines))
        return out

    def _check_size(self, out: list[ReviewResult]) -> list[ReviewResult]:
        """Start skipping a game that has grown past the limit."""
        if self._skipping is None and self._lines_chars + len(self._partial) > self.max_game_chars:
            self._skipping = self._lines_start
            self._lines_start += self._lines_chars
            self._lines.clear()
            self._lines_chars = 0
        if self._skipping is not None and len(self._partial) > self.max_game_chars:
            self._lines_start += len(self._partial)
            self._partial = ""
        return out

    def _skip(self, new: list[str], out: list[ReviewResult]) -> list[str]:
        """Drop lines of an over-long game up to the next header line."""
        assert self._skipping is not None
        for i, line in enumerate(new):
            if line.lstrip().startswith("["):
                result = self._too_long(self._skipping, self._lines_start)
                if result is not None:
                    out.append(result)
                self._skipping = None
                return new[i:]
            self._lines_start += len(line)
        return []

    def _too_long(self, start: int, end: int) -> ReviewResult | None:
        parsed = PgnGame()
        parsed.error = BadPgnError(
            gettext("game longer than {count} characters: skipped up to the next game").format(
                count=number(self.max_game_chars)
            ),
            ply=0,
            token="",
        )
        return self._report(parsed, start, end)

    def _report(self, parsed: PgnGame, start: int, end: int) -> ReviewResult | None:
        number = self.next_number
        self.next_number += 1
        if (number - self.start) % self.parts != self.part:
            return None  # another session's game
        report = scan_game(parsed, number, final_search=self.final_search, flag_rules=self.flag_rules)
        self.games += 1
        self.plies += report["plies"]
        return {"line": json.dumps(report), "row": row_of(report, start, end)}


def row_of(report: dict[str, Any], start: int = 0, end: int = 0) -> ReviewRow:
    """The fields a table of games shows, from a scan report."""
    headers = report.get("headers") or {}
    error = report.get("error")
    first_move, black_first = start_of(headers)
    return {
        "game": report["game"],
        "white": headers.get("White", "?"),
        "black": headers.get("Black", "?"),
        "result": headers.get("Result", "*"),
        "verdict": report["verdict"],
        "expected_result": report["expected_result"],
        "ended_at": report["ended_at"],
        "plies": report["plies"],
        "events": [event_row(e, first_move, black_first) for e in report["events"]],
        "detail": detail_of(report, first_move, black_first),
        "error": None if error is None else error_in_words(error, headers),
        "error_ply": None if error is None else error.get("ply"),
        "first_move": first_move,
        "black_first": black_first,
        "start": start,
        "end": end,
    }


def event_row(event: dict[str, Any], first_move: int = 1, black_first: bool = False) -> ReviewEvent:
    """A scan event with its words, naming who could claim and with which
    move: "Black could claim threefold repetition with move 17...",
    "White could claim the fifty-move rule after Black's move 20",
    "Checkmate ended the game after Black's move 30" (the move numbers are
    counted here, not on the page)."""
    ply, kind = event["ply"], event["kind"]
    rule, the_rule = laws.rule_name(event["rule"]), laws.rule_in_sentence(event["rule"])
    after = after_move(ply, first_move, black_first)
    if kind == "automatic":
        label = gettext("{rule} ended the game {where}").format(rule=f"{rule[:1].upper()}{rule[1:]}", where=after)
    else:
        # the claimant is the side to move after ``ply``
        number, mover_white = move_number(ply + 1, first_move, black_first)
        claimant = side_name(mover_white)
        with_move = (
            gettext("with move {move}").format(move=numbered(number, mover_white, ""))
            if kind == "claimable_with_move"
            else after
        )
        label = gettext("{side} could claim {rule} {when}").format(side=claimant, rule=the_rule, when=with_move)
    return {"ply": ply, "rule": event["rule"], "kind": kind, "label": label}


_UNDECIDED = marked("not decided within the search budget: the recorded result stands unless a draw is proven")


def detail_of(report: dict[str, Any], first_move: int = 1, black_first: bool = False) -> str:
    """A verdict's reason in a few words, for the table: where the rules
    ended the game and the result they give, the result they give, why
    a game is undecided, or how many events it had."""
    verdict, expected = report["verdict"], report.get("expected_result")
    if verdict == "ended_earlier":
        first = next((e for e in report["events"] if e["kind"] == "automatic" and e["ply"] == report["ended_at"]), None)
        rule = laws.rule_name(first["rule"]) if first else gettext("the rules")
        where = after_move(report["ended_at"] or 0, first_move, black_first)
        return gettext("{rule} ended it {where}: the rules give {result}").format(
            rule=rule, where=where, result=expected
        )
    if verdict == "wrong_result":
        return gettext("the rules give {result}").format(result=expected)
    if verdict == "undecided":
        return gettext(_UNDECIDED)
    count = len(report["events"])
    return ngettext("{count} event", "{count} events", count).format(count=count) if count and verdict == "ok" else ""


def error_in_words(error: dict[str, Any], headers: dict[str, str]) -> str:
    """A scan error as a player reads it: the move named by its number and
    side ("12...Qxf9 (Black's move 12) is not legal here"), not by its ply;
    broken text by where it comes ("at Black's move 2 (2...): ...")."""
    message = str(error.get("reason") or error.get("message", ""))
    ply, token = error.get("ply"), error.get("token")
    if not isinstance(ply, int) or ply < 1:
        return message
    number, white = move_number(ply, *start_of(headers))
    side = side_name(white)
    where = numbered(number, white, "")
    if token and error.get("code") != "bad_pgn":
        label = f"{where}{token}"
        rest = message[len(label) :] if message.startswith(label) else f": {message}"
        return gettext("{label} ({side}'s move {number}){rest}").format(
            label=label, side=side, number=number, rest=rest
        )
    return gettext("at {side}'s move {number} ({where}): {message}").format(
        side=side, number=number, where=where, message=message
    )


def words_of(report: dict[str, Any]) -> ReviewWords:
    """A reviewed game's sentences said again, in the current language, from
    its report (as :func:`row_of` says them). Limit: a parser's reason inside
    ``error`` was said when the game was read and stays in that language."""
    headers = report.get("headers") or {}
    error = report.get("error")
    first_move, black_first = start_of(headers)
    return {
        "game": report["game"],
        "detail": detail_of(report, first_move, black_first),
        "error": None if error is None else error_in_words(error, headers),
        "events": [event_row(e, first_move, black_first) for e in report["events"]],
    }


#: Characters of one ``review_feed`` chunk (the page sends 64 KB).
MAX_CHUNK = 4_000_000
#: Reports of one ``review_words`` request.
MAX_WORDS = 5_000
_SEARCHES: dict[str, FinalSearch] = {"auto": AUTO, "static": dead.STATIC, "page": dead.PAGE}


class ReviewOps:
    """The bridge's review operations, every argument validated (a bad one
    raises BadRequestError and changes nothing):

    - ``review_start {flag_rules?, start?, part?, parts?, search?}``: a new
      review (any review under way is dropped); ``search`` is the final
      position's search: ``"auto"`` (default: ``scan``'s default,
      :data:`pychessdraw.records.final_search.AUTO` with the same budget, so that
      the page's verdicts are the CLI's: the flagged side's opponent in a
      loss on time and the positions that might be dead, searched deeply),
      ``"static"`` (as ``scan --search static``: no search, faster, more
      games ``undecided``) or ``"page"``.
    - ``review_feed {text}``: the next chunk of the file.
    - ``review_finish {}``: the end of the file.
    - ``review_words {lines}``: the sentences of games already reviewed
      (their reports, as ``line`` gave them) said again in the current
      language (:func:`words_of`), after the page's language changed.

    Each answers ``{"ok": true, "results": [{"line", "row"}...]}`` for the
    games completed (see :class:`ReviewSession`)."""

    def __init__(self) -> None:
        self.session: ReviewSession | None = None

    def start(self, args: dict[str, Any]) -> Reply:
        rules = args.get("flag_rules", timeout.FIDE)
        if rules not in timeout.RULES:
            raise BadRequestError(f"'flag_rules' must be one of {', '.join(timeout.RULES)}")
        start, part, parts = (_count(args, "start", 1), _count(args, "part", 0), _count(args, "parts", 1))
        if parts < 1 or parts > 64 or start < 1:
            raise BadRequestError("'parts' must be from 1 to 64 and 'start' at least 1")
        search = args.get("search", AUTO)
        if not isinstance(search, str) or search not in _SEARCHES:
            raise BadRequestError("'search' must be 'auto', 'static' or 'page'")
        self.session = ReviewSession(
            final_search=_SEARCHES[search], flag_rules=str(rules), start=start, part=part, parts=parts
        )
        return {"ok": True, "results": []}

    def feed(self, args: dict[str, Any]) -> Reply:
        text = args.get("text")
        if not isinstance(text, str):
            raise BadRequestError("'text' must be text")
        if len(text) > MAX_CHUNK:
            raise BadRequestError(f"'text' is too long (at most {MAX_CHUNK} characters a chunk)")
        return {"ok": True, "results": self._session().feed(text)}

    def finish(self, args: dict[str, Any]) -> Reply:
        return {"ok": True, "results": self._session().finish()}

    def game(self, args: dict[str, Any]) -> Reply:
        """``review_game {pgn, game?, flag_rules?, search?}``: one game for
        the Review's own board (:func:`pychessdraw.web.reviewgame.review_game`);
        no review needs to be under way, and nothing else changes."""
        from .reviewgame import review_game  # (imports this module)

        text = args.get("pgn")
        if not isinstance(text, str) or len(text) > MAX_CHUNK:
            raise BadRequestError(f"'pgn' must be one game's text (at most {MAX_CHUNK} characters)")
        rules = args.get("flag_rules", timeout.FIDE)
        if rules not in timeout.RULES:
            raise BadRequestError(f"'flag_rules' must be one of {', '.join(timeout.RULES)}")
        search = args.get("search", "auto")
        if not isinstance(search, str) or search not in _SEARCHES:
            raise BadRequestError("'search' must be 'auto', 'static' or 'page'")
        number = _count(args, "game", 1)
        found = review_game(text, final_search=_SEARCHES[search], flag_rules=str(rules), number=number)
        return {"ok": True, "review_game": found}

    def words(self, args: dict[str, Any]) -> Reply:
        """``review_words {lines}``: no review needs to be under way, nothing changes."""
        lines: list[str] = args["lines"]
        if len(lines) > MAX_WORDS or sum(map(len, lines)) > MAX_CHUNK:
            raise BadRequestError(f"'lines' must be at most {MAX_WORDS} reports of {MAX_CHUNK} characters in all")
        said: list[ReviewWords] = []
        for line in lines:
            try:
                report = json.loads(line)
                said.append(words_of(report))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise BadRequestError(
                    f"'lines' must be reports as the review gave them ({type(exc).__name__})"
                ) from exc
        return {"ok": True, "review_words": said}

    def _session(self) -> ReviewSession:
        if self.session is None:
            raise BadRequestError("no review under way: send review_start first")
        return self.session


def _count(args: dict[str, Any], name: str, default: int) -> int:
    value = args.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadRequestError(f"'{name}' must be a whole number from 0")
    return value
