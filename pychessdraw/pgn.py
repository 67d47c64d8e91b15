"""Reading PGN as a stream of games, and writing a game back as PGN.

The reader keeps one game in memory at a time, and within a game only the
main line's move tokens: comments, variations and NAGs are skipped as they
are read, never stored. So a scan's memory does not grow with the file, nor
with a comment or a line (lines are read in pieces of at most
:data:`LINE_LIMIT` characters; a game stops being stored past
:data:`MAX_PLIES` moves). A game longer than :data:`MAX_GAME_CHARS`
characters is a BadPgnError and the next game is read as usual; past
:data:`MAX_TEXT_CHARS` characters with no game start (``/dev/zero``, a
comment with no end) the text is not PGN and reading stops with that error.

It keeps every game python-chess's reader keeps (tests compare the two on
mutated PGN), never gives one game's tags to another, and recovers where
python-chess gives up:

- a game ends at a blank line after any move text (as python-chess: a
  variation, comment, words or NAGs with no main-line move included), or at
  a tag line (``[Name "value"]``) after move text, so a missing blank line
  between games loses nothing;
- a tag section ends at a blank line followed by a tag line, or at a tag
  already given: a record cut after its tags is a game of its own (with no
  moves), and its tags (``FEN`` too) never reach the next game (python-chess
  merges the two);
- a malformed tag line (``[Event "b`` with no end) is skipped with a
  warning, as python-chess does, and never spoils the next game;
- a ``;`` comment runs to the end of its line whatever it holds (``{``
  included), and a line starting with ``;`` or ``%`` (an escape) is
  skipped; a ``{`` comment runs to the next ``}``, across lines, but one
  left open ends at the next tag section (a tag line after a blank line):
  that game gets a BadPgnError and the next game is read as usual.

- text that is not PGN (prose, a web page, text in another encoding: no
  tag and more words that are no moves than moves) is one game with a
  BadPgnError ("not PGN"), running to the next tag line, never a game of
  0 plies; a byte order mark at the start of any line (a file's start in a
  concatenation) is no text of it.

So a whole tag line right after a whole blank line starts a game whatever
came before it (:class:`GameStarts`): the audit cuts files there.

Broken move text is reported as a BadPgnError naming the ply and the token.
Limits: a ``{`` comment that really contains a blank line followed by a
tag line is cut there (python-chess would read on), and so is a tag section
with a blank line inside it; escaped quotes in tag values are unescaped
(``\\"`` becomes ``"``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import chess

from .errors import BadPgnError, BadRequestError, UnsupportedVariantError
from .game import Game
from .outcome import PGN_TERMINATION, Outcome, Termination, termination_from_record

_HEADER = re.compile(r'^\s*\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_LOOSE_HEADER = re.compile(r'^\s*\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$')  # python-chess's
# Outside comments: a comment or variation mark, a NAG, a move number, or a word.
_TOKEN = re.compile(r"[{};()[]|\$\d*|\d+\.+|[^\s{};()$[]+")
_SPECIAL = re.compile(r"[{};[]")
# A word that is a move (SAN, UCI, castling, null move), annotations allowed.
_MOVE_WORD = re.compile(
    r"(?:[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?|[a-h][1-8][a-h][1-8][qrbn]?"
    r"|[O0]-[O0](?:-[O0])?|--|Z0|0000|@@@@)[+#]?[!?]*"
)
# A word that starts like a move and has a digit ("Qxz9", "e9") is a broken
# move; any other word that is no move ("side", "0:01:00]" of a broken
# comment) is noise, which python-chess skips too.
_MARKUP = re.compile(r"<(?:!doctype|html|\?xml|head|body|!--)", re.IGNORECASE)
_MOVE_ATTEMPT = re.compile(r"[NBRQKPa-h].*\d")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
_CHESS960 = {"chess960", "chess 960", "fischerandom", "fischer random", "freestyle"}
LINE_LIMIT = 1 << 16  # characters read at a time: a line with no end costs no more
MAX_COMMENT = 2_000  # characters kept of one comment (clock times need a few dozen)
MAX_TOKEN = 40  # no move is longer; a longer word is broken text
MAX_PLIES = 20_000  # more than any legal game (the 75-move rule ends one by about 8,850)
MAX_HEADERS = 1_000
MAX_WARNINGS = 10
MAX_SKIPPED = 1_000  # words that are no moves: beyond this, the text is not PGN
MAX_DEPTH = 100  # variations nested deeper are broken text
MAX_KNOWN = 100_000
#: Characters of one game (tags, moves, comments; about 40 times the longest
#: game of the TCEC archive): a longer one is a BadPgnError, skipped up to
#: the next game. This also bounds a line, or a comment, with no end.
MAX_GAME_CHARS = 4_000_000
#: Characters with no game start: past this the text is not PGN (/dev/zero,
#: an endless comment) and reading stops, after the error of that game.
MAX_TEXT_CHARS = 4 * MAX_GAME_CHARS
_KNOWN_MOVES: set[str] = set()  # words already seen to be moves: skips the regex


@dataclass
class PgnGame:
    """One game as read: headers, main-line move tokens, the result token,
    any syntax error (after which ``tokens`` holds what came before it),
    warnings about lines that were skipped (malformed tag lines), and the
    main line's ``{ }`` comments by the ply they follow (0: before the first
    move; each cut to MAX_COMMENT characters), where ``[%clk]`` times live."""

    headers: dict[str, str] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    result: str | None = None
    error: BadPgnError | None = None
    warnings: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)


def _parse_tag(line: str) -> tuple[str, str] | None:
    """``(name, value)`` of a tag line, or None if it is not one."""
    m = _HEADER.match(line)
    if m:
        return m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\")
    m = _LOOSE_HEADER.match(line)
    return (m.group(1), m.group(2)) if m else None


class _Reader:
    """The state of one game being read: tag section, move text, comment."""

    def __init__(self) -> None:
        self.game: PgnGame | None = None
        self.in_brace = False  # inside a { comment
        self.blank_in_brace = False  # ... and a blank line was seen in it
        self.depth = 0  # variation nesting
        self.in_movetext = False  # a line of move text was read: a blank line ends the game
        self.chars = 0  # characters read since the last game ended
        self.over = False  # ... more than MAX_GAME_CHARS
        self.skipped = 0  # words skipped as noise in this game
        self.note: list[str] | None = None  # pieces of the main-line { comment being read
        self.note_len = 0

    def current(self) -> PgnGame:
        if self.game is None:
            self.game = PgnGame()
        return self.game

    def finish(self) -> PgnGame | None:
        """End the game being read; None if nothing of it was read (only
        spaces): every place a game ends keeps the same games."""
        game, self.game = self.game, None
        if game is not None and not (
            game.headers
            or game.tokens
            or game.result
            or game.error
            or game.warnings
            or self.in_movetext
            or self.in_brace
        ):
            game = None
        if game is not None and game.error is None:
            if self.in_brace:
                game.error = _error(game, "unterminated comment '{'", "{")
            elif self.depth:
                game.error = _error(game, "unterminated variation '('", "(")
            elif not (game.headers or game.tokens or game.result) or (
                not game.headers and self.skipped > len(game.tokens)
            ):
                # Prose, a web page, text in another encoding (more words
                # that are no moves than moves, and no tag): no game.
                game.error = BadPgnError(f"not PGN: text with no tag and more words than moves{_sample(game)}", ply=0)
                game.tokens.clear()  # words of the text that look like moves: not a game's
        self.in_brace = self.blank_in_brace = False
        self.note = None
        self.depth = 0
        self.in_movetext = self.over = False
        self.chars = 0
        self.skipped = 0
        return game

    def _open_note(self) -> None:
        # Only main-line comments are kept: those inside variations are not the game's.
        self.note, self.note_len = ([] if not self.depth else None), 0

    def _add_note(self, text: str) -> None:
        if self.note is not None and self.note_len < MAX_COMMENT:
            text = text[: MAX_COMMENT - self.note_len]
            self.note.append(text)
            self.note_len += len(text)

    def _close_note(self, game: PgnGame) -> None:
        if self.note is not None:
            text = " ".join("".join(self.note).split())
            ply = len(game.tokens)
            if text:
                game.comments[ply] = f"{game.comments[ply]} {text}" if ply in game.comments else text
            self.note = None

    def fail(self, message: str, token: str) -> None:
        game = self.current()
        if game.error is None:
            game.error = _error(game, message, token)

    def warn(self, message: str) -> None:
        game = self.current()
        if len(game.warnings) < MAX_WARNINGS:
            game.warnings.append(message)
        elif len(game.warnings) == MAX_WARNINGS:
            game.warnings.append("more warnings not shown")

    def line(self, piece: str, cut: bool) -> PgnGame | None:
        """Read a piece that starts a line (``cut``: the line goes on in the
        next piece); returns the game this line ends, if any."""
        stripped = piece.strip()
        if self.in_brace:
            # A { comment left open ends at the next tag section.
            if not stripped:
                self.blank_in_brace = self.blank_in_brace or not cut
            elif self.blank_in_brace and stripped[0] == "[" and not cut and _HEADER.match(piece):
                done = self.finish()
                self.header(piece)
                return done
            else:
                self.movetext(piece)
            return None
        if not stripped:
            if cut:
                self.movetext(piece)  # a line of spaces with no end: nothing, and no blank line
                return None
            if self.in_movetext and not self._foreign():
                return self.finish()  # a blank line ends the move text (as python-chess)
            return None
        if piece[0] in "%;":
            return None  # an escape line (PGN standard 8.2.2) or a comment line, skipped as python-chess does
        if stripped[0] == "<" and _MARKUP.match(stripped) and self._foreign():
            self.fail(f"not PGN: a web page or XML ({stripped[:40]!r})", stripped[:MAX_TOKEN])
        if stripped[0] == "[" and not cut and (not self.in_movetext or _looks_like_tag(stripped)):
            return self._tag_line(piece, stripped)
        self.in_movetext = True
        self.movetext(piece)
        return None

    def _foreign(self) -> bool:
        """Nothing of a game read yet (no tag, move or result): text that is
        not PGN so far, which runs as one error to the next tag line, not
        to each blank line."""
        game = self.game
        return game is None or not (game.headers or game.tokens or game.result)

    def _tag_line(self, piece: str, stripped: str) -> PgnGame | None:
        tag = _parse_tag(piece)
        game = self.game
        done = None
        # After move text or a broken game, a new game; and a tag given twice
        # starts one too (a record cut after its tags keeps its own FEN).
        if self.in_movetext or (
            game is not None and (game.error is not None or (tag is not None and tag[0] in game.headers))
        ):
            done = self.finish()
        if tag is None:
            self.warn(f"skipped a malformed tag line: {stripped[:60]}")
        else:
            self._store(*tag)
        return done

    def header(self, line: str) -> bool:
        """Store a tag line; False when the line is not a well-formed tag."""
        tag = _parse_tag(line)
        if tag is not None:
            self._store(*tag)
        return tag is not None

    def _store(self, name: str, value: str) -> None:
        game = self.current()
        if len(game.headers) < MAX_HEADERS or name in game.headers:
            game.headers[name] = value

    def check_size(self) -> bool:
        """Mark a game past MAX_GAME_CHARS; False past MAX_TEXT_CHARS: stop."""
        if self.chars > MAX_TEXT_CHARS:
            game = self.current()
            game.error = _error(
                game, f"no game ends within {MAX_TEXT_CHARS:,} characters: not PGN text, reading stopped", ""
            )
            return False
        if self.chars > MAX_GAME_CHARS and not self.over:
            self.over = True
            game = self.current()
            game.error = _error(
                game, f"game longer than {MAX_GAME_CHARS:,} characters: skipped up to the next game", ""
            )
        return True

    def movetext(self, text: str) -> None:
        """Read one piece of move text (outside a { comment at its start)."""
        game = self.current()
        if game.error is not None:
            # After an error only comments matter: they decide where the game ends.
            self._skip_broken(text)
            return
        pos = 0
        if self.in_brace and "}" not in text:
            self._add_note(text)
            return
        if _SPECIAL.search(text) is None:
            self._words(game, _TOKEN.findall(text))
            return
        while pos < len(text):
            if self.in_brace:
                close = text.find("}", pos)
                if close < 0:
                    self._add_note(text[pos:])
                    return
                self._add_note(text[pos:close])
                self._close_note(game)
                self.in_brace = False
                pos = close + 1
                continue
            m = _TOKEN.search(text, pos)
            if m is None:
                return
            tok = m.group()
            pos = m.end()
            if tok == "{":
                self.in_brace, self.blank_in_brace = True, False
                self._open_note()
            elif tok == ";":
                return
            elif tok == "[":  # "[%clk 0:01:00]" outside a comment: skipped, as python-chess does
                close = text.find("]", pos)
                if close >= 0:
                    pos = close + 1
                else:  # no ']' follows: each '[' is skipped alone, and the moves after it count
                    text = text[:pos] + text[pos:].replace("[", " ")
            elif tok == "}":
                self.warn(f"skipped an unmatched '}}' after ply {len(game.tokens)}")
            else:
                self._words(game, (tok,))
                if game.error is not None:
                    return

    def _skip_broken(self, text: str) -> None:
        pos = 0
        while pos < len(text):
            if self.in_brace:
                close = text.find("}", pos)
                if close < 0:
                    return
                self.in_brace, pos = False, close + 1
                continue
            m = _SPECIAL.search(text, pos)
            if m is None or m.group() == ";":
                return
            pos = m.end()
            if m.group() == "[":
                close = text.find("]", pos)
                if close >= 0:
                    pos = close + 1
                else:
                    text = text[:pos] + text[pos:].replace("[", " ")
            if m.group() == "{":
                self.in_brace, self.blank_in_brace = True, False

    def _words(self, game: PgnGame, words: Iterable[str]) -> None:
        tokens = game.tokens
        known = _KNOWN_MOVES
        for tok in words:
            if tok in known:  # the common case, one set lookup
                if not self.depth:
                    tokens.append(tok)
                continue
            first = tok[0]
            if first == "(":
                if not self.depth and not tokens:  # a variation of no move: python-chess skips the '(' too
                    self.warn("skipped a '(' before the first move")
                    continue
                self.depth += 1
                if self.depth > MAX_DEPTH:
                    self.fail(f"variations nested more than {MAX_DEPTH} deep", tok)
                    return
            elif first == ")":
                self.depth -= 1
                if self.depth < 0:
                    self.depth = 0
                    self.warn(f"skipped an unmatched ')' after ply {len(tokens)}")
            elif self.depth or first in "$!?":  # NAGs: "$1", or "!?" standing alone
                continue
            elif tok in RESULTS:
                game.result = tok
            elif tok[-1] == "." and first.isdigit():
                continue  # move number
            elif len(tok) > MAX_TOKEN:
                self.fail(f"not a move after ply {len(tokens)}: {tok[:MAX_TOKEN]!r}...", tok[:MAX_TOKEN])
                return
            elif _MOVE_WORD.fullmatch(tok) or _MOVE_ATTEMPT.match(tok):
                if len(known) < MAX_KNOWN and _MOVE_WORD.fullmatch(tok):
                    known.add(tok)
                tokens.append(tok)  # a broken one fails when it is played, naming the ply
            else:
                self.skipped += 1
                if self.skipped > MAX_SKIPPED:
                    self.fail(f"more than {MAX_SKIPPED} words that are not moves: not PGN move text", tok)
                    return
                self.warn(f"skipped {tok!r} after ply {len(tokens)}: not a move")
        if len(tokens) > MAX_PLIES:
            del tokens[MAX_PLIES:]
            self.fail(f"more than {MAX_PLIES} plies: not a game", tokens[-1])


def _sample(game: PgnGame) -> str:
    """The first word the reader skipped, to show what the text was."""
    for warning in game.warnings:
        if warning.startswith("skipped '") or warning.startswith('skipped "'):
            return f" ({warning})"
    return ""


def _error(game: PgnGame, message: str, token: str) -> BadPgnError:
    return BadPgnError(message, ply=len(game.tokens) + 1, token=token[:MAX_TOKEN])


class _Readable(Protocol):
    def readline(self, size: int = -1, /) -> str: ...


def _pieces(lines: Iterable[str] | _Readable) -> Iterator[str]:
    """The input as pieces of at most LINE_LIMIT characters; a piece ends
    with a newline unless its line goes on in the next piece."""
    readline = getattr(lines, "readline", None)
    if readline is not None:
        while True:
            piece = readline(LINE_LIMIT)
            if not isinstance(piece, str):
                raise BadRequestError(f"PGN must be read as text, not {type(piece).__name__}")
            if not piece:
                return
            yield piece
    else:
        if isinstance(lines, (str, bytes)) or not hasattr(lines, "__iter__"):
            raise BadRequestError(
                "read_games needs a text file or an iterable of lines (for one string: text.splitlines(keepends=True))"
            )
        for line in lines:
            if not isinstance(line, str):
                raise BadRequestError(f"PGN lines must be text, not {type(line).__name__}")
            if len(line) <= LINE_LIMIT:
                yield line
            else:
                for i in range(0, len(line), LINE_LIMIT):
                    yield line[i : i + LINE_LIMIT]


def _carry(piece: str) -> tuple[str, str]:
    """Split a piece cut at LINE_LIMIT before its last word, so that no word
    is cut in two (a word longer than MAX_TOKEN is broken text anyway)."""
    cut = len(piece)
    while cut > 0 and len(piece) - cut <= MAX_TOKEN and not piece[cut - 1].isspace():
        cut -= 1
    if cut == 0 or len(piece) - cut > MAX_TOKEN:
        return piece, ""
    return piece[:cut], piece[cut:]


def whole_line(piece: str, at_start: bool) -> bool:
    """The piece is a whole line (it starts one and is not cut at LINE_LIMIT)."""
    return at_start and (len(piece) < LINE_LIMIT or piece.endswith(("\n", "\r")))


class GameStarts:
    """The one rule for where a game begins whatever came before it: a whole
    tag line (``[Name "value"]``, ``\\"`` escapes allowed) right after a
    whole blank line. :func:`read_games` starts a game there in every state
    (after move text; in a tag section, so a record cut after its tags keeps
    them; in a ``{`` comment left open; after broken text), and ``;``
    comments, ``%`` lines and tag strings end with their line. So a reader
    that starts at such a line knows nothing less than one that read all the
    text before it: the audit cuts files there (``audit.chunks``)."""

    __slots__ = ("after_blank",)

    def __init__(self) -> None:
        self.after_blank = False

    def feed(self, piece: str, whole: bool) -> bool:
        """The next piece (``whole``: see :func:`whole_line`); True if it starts a game."""
        if not whole:
            self.after_blank = False
            return False
        if self.after_blank:
            self.after_blank = piece.isspace()
            return not self.after_blank and _HEADER.match(piece) is not None
        self.after_blank = piece.isspace()
        return False


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def raw_lines(text: str) -> list[str]:
    """The lines of ``text`` as a text file cuts them (at LF, CR LF or CR),
    each with its own line end, so that they join back into ``text``; not
    as ``str.splitlines`` cuts them (also at form feeds, U+2028...)."""
    return _LINE.findall(text)


def text_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` as a text file reads them (:func:`raw_lines`,
    each line end given as LF): every reader of a PGN text (the scan's
    files, the watch, the page's import) reads it so, and so reads the
    same games."""
    for line in _LINE.finditer(text):
        found = line.group()
        yield found if found[-1:] != "\r" and found[-2:] != "\r\n" else found.rstrip("\r\n") + "\n"


def games_in_text(text: str) -> Iterator[PgnGame]:
    """The games of a PGN text in memory, read as a file holding it would be."""
    if not isinstance(text, str):
        raise BadRequestError(f"PGN must be text, not {type(text).__name__}")
    return read_games(text_lines(text))


def read_games(lines: Iterable[str] | _Readable) -> Iterator[PgnGame]:
    """Yield the games of a PGN text: a text file (read in bounded pieces)
    or any iterable of lines. Memory stays bounded whatever the input; a
    game past MAX_GAME_CHARS is a BadPgnError (the next game is read as
    usual) and reading stops past MAX_TEXT_CHARS with no game start."""
    reader = _Reader()
    starts = GameStarts()
    fresh = True  # this piece starts a line
    carry = ""
    for piece in _pieces(lines):
        if fresh and piece.startswith("\ufeff"):
            # A byte order mark starts a file, and a file's start may come
            # anywhere in a concatenation: it is no text of the line.
            piece = piece.lstrip("\ufeff")
            if not piece:
                continue
        cut = len(piece) >= LINE_LIMIT and not piece.endswith(("\n", "\r"))  # the line goes on
        at_start, fresh = fresh, not cut
        reader.chars += len(piece)
        if reader.chars > MAX_GAME_CHARS and not reader.check_size():
            done = reader.finish()
            if done is not None:
                yield done
            return
        if starts.feed(piece, at_start and not cut):
            done = reader.finish()
            reader.header(piece)
        elif not at_start:
            if carry:
                piece, carry = carry + piece, ""
            if cut:
                piece, carry = _carry(piece)
            reader.movetext(piece)
            continue
        else:
            if cut:
                piece, carry = _carry(piece)
            done = reader.line(piece, cut)
        if done is not None:
            yield done
    if carry:
        reader.movetext(carry)
    done = reader.finish()
    if done is not None:
        yield done


def _looks_like_tag(stripped: str) -> bool:
    """``[Name ...``: a tag line, maybe broken (``[%clk ...]`` is not one)."""
    return len(stripped) > 1 and stripped[1].isalnum()


_GAME_OPTIONS = {"search", "flag_rules"}


def _check_options(options: dict[str, Any]) -> None:
    unknown = set(options) - _GAME_OPTIONS
    if unknown:
        raise BadRequestError(
            f"unknown option(s) {', '.join(sorted(map(str, unknown)))[:100]}: only {', '.join(sorted(_GAME_OPTIONS))}"
        )


def _check_headers(headers: object, name: str = "headers") -> dict[str, str]:
    """Tags as a PGN file can hold them: names as the reader reads them (and
    python-chess writes them), values on one line."""
    if not isinstance(headers, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        raise BadRequestError(f"{name} must map tag names to text")
    tag_name = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*").fullmatch  # from re's cache after the first call
    for key, value in headers.items():
        if tag_name(key) is None:
            raise BadRequestError(f"{name}: {key[:40]!r} is not a PGN tag name (letters, digits, _+#=:-)")
        if "\n" in value or "\r" in value:
            raise BadRequestError(f"{name}: the {key} tag holds a line break")
    return headers


def game_from_headers(headers: dict[str, str], **options: Any) -> Game:
    """A new Game at the start position the headers name (FEN, Variant);
    ``options`` (``search``, ``flag_rules``) go to :class:`Game`."""
    _check_headers(headers)
    _check_options(options)
    variant = headers.get("Variant", "").strip().lower()
    chess960 = variant in _CHESS960
    if variant and not chess960 and variant not in {"standard", "normal", "from position"}:
        raise UnsupportedVariantError(f"unsupported variant {headers['Variant']!r}", ply=0)
    fen = headers.get("FEN")
    if fen is not None and headers.get("SetUp", "1") == "0":
        fen = None
    return Game(fen, chess960=chess960, **options)


def play_tokens(game: Game, tokens: list[str]) -> None:
    """Play SAN/UCI tokens; a bad one raises with ``ply``, ``token`` and
    ``move_label`` in its details ("3...Qxe9 is not legal here")."""
    for token in tokens:
        game.play(token)


def parse_one(text: str, **options: Any) -> tuple[Game, PgnGame]:
    """Parse the first game of a PGN text into a Game. Raises BadPgnError (or
    another RefereeError) naming the problem; nothing is returned half-done.
    The result is restored as a declared ending when no rule ended the game
    (a claim that the position bears out, an agreement, a resignation or a
    flag fall)."""
    if not isinstance(text, str):
        raise BadRequestError(f"PGN must be text, not {type(text).__name__}")
    _check_options(options)
    pgn = next(read_games(io.StringIO(text, newline=None)), None)  # lines as a file has them: not at form feeds
    if pgn is None or (not pgn.tokens and not pgn.headers and pgn.error is None):
        raise BadPgnError("no game found in the PGN text", ply=0)
    if pgn.error is not None:
        raise pgn.error
    game = game_from_headers(pgn.headers, **options)
    play_tokens(game, pgn.tokens)
    rule = termination_from_record(
        pgn.headers.get("Termination"), pgn.headers.get("TerminationDetails"), pgn.comments.get(len(pgn.tokens), "")
    )  # the comment after the last move
    _restore_result(game, rule, pgn.result or pgn.headers.get("Result", "*"))
    return game, pgn


def _restore_result(game: Game, term: Termination | None, result: str) -> None:
    """Declare the recorded ending on ``game`` when no rule ended it: the
    rule ``term`` the record names (:func:`~pychessdraw.outcome.termination_from_record`),
    a claim only where the position bears it out; a draw that names no rule
    is an agreement, a win that is no flag fall a resignation."""
    if result not in {"1-0", "0-1", "1/2-1/2"} or game.outcome() is not None:
        return
    if result == "1/2-1/2":
        if term in {Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES} and game.claimable_now():
            game.claim_draw()
        elif term is Termination.TIME_FORFEIT:
            for color in chess.COLORS:
                if game.status().flag_fall(color) == "1/2-1/2":
                    game.flag(color)
                    return
            game.agree_draw()
        else:
            game.agree_draw()
        return
    loser = chess.BLACK if result == "1-0" else chess.WHITE
    if term is Termination.TIME_FORFEIT:
        game.flag(loser)
    else:
        game.resign(loser)


def export(game: Game, headers: dict[str, str] | None = None, comments: dict[int, str] | None = None) -> str:
    """The game as PGN. An ended game gets its Result, the PGN standard's
    Termination word ("normal", or "time forfeit" for a flag fall), the rule
    in pychessdraw's TerminationDetails tag ("Threefold repetition, claimed
    (FIDE 9.2)") and in a comment after the last move, or before the result
    when there is no move ("Draw by threefold repetition, claimed (FIDE
    9.2)"); :func:`parse_one` reads the rule back from either. ``comments``
    are written after the moves of the plies they are keyed by (the ending's
    words after the last one's)."""
    if not isinstance(game, Game):
        raise BadRequestError(f"export needs a Game, not {type(game).__name__}")
    if headers is not None:
        _check_headers(headers)
    if comments is not None and (
        not isinstance(comments, dict)
        or not all(isinstance(k, int) and isinstance(v, str) for k, v in comments.items())
    ):
        raise BadRequestError("comments must map plies to text")
    import chess.pgn  # only here: it pulls in chess.engine, ~140 ms of the browser's start-up

    board = game.board
    pgn = chess.pgn.Game.from_board(board)
    for name, value in (headers or {}).items():
        pgn.headers[name] = value
    outcome: Outcome | None = game.outcome()
    pgn.headers["Result"] = outcome.result() if outcome else "*"
    notes = dict(comments or {})
    if outcome is not None:
        pgn.headers["Termination"] = PGN_TERMINATION[outcome.termination]
        # English in every language: programs read the tag (termination_from_record)
        pgn.headers["TerminationDetails"] = f"{outcome.reason(language='en')} (FIDE {outcome.article})"
        notes[game.ply] = " ".join(filter(None, (notes.get(game.ply, ""), outcome.words())))
    pgn.comment = notes.get(0, "")
    for ply, node in enumerate(pgn.mainline(), 1):
        if ply in notes:
            node.comment = notes[ply]
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=bool(notes))
    return pgn.accept(exporter)
