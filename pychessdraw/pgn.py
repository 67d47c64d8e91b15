"""Reading PGN as a stream of games, and writing a game back as PGN.

The reader keeps one game in memory at a time, so a scan's memory does not
grow with the file. It reads the main line only (variations, comments and
NAGs are skipped) and reports broken text as a BadPgnError naming the ply and
the token; the next game is read as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import chess

from .errors import BadPgnError, BadRequestError, RefereeError, UnsupportedVariantError
from .game import Game
from .outcome import Outcome, Termination

_HEADER = re.compile(r'^\s*\[\s*([A-Za-z0-9_+#=:-]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|\{|\}|;[^\n]*|\$\d+|\(|\)|\d+\.+|1-0|0-1|1/2-1/2|\*|[^\s{}();$]+")
_BRACES = re.compile(r"[{}]")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
_CHESS960 = {"chess960", "chess 960", "fischerandom", "fischer random", "freestyle"}


@dataclass
class PgnGame:
    """One game as read: headers, main-line move tokens, and any syntax error
    (after which ``tokens`` holds what came before it)."""

    headers: dict[str, str] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)
    result: str | None = None
    error: BadPgnError | None = None


def _tokenize(text: str, game: PgnGame) -> None:
    depth = 0
    for match in _TOKEN.finditer(text):
        tok = match.group()
        first = tok[0]
        if first == "{":
            if not tok.endswith("}"):
                game.error = BadPgnError(f"unterminated comment after ply {len(game.tokens)}",
                                         ply=len(game.tokens) + 1, token=tok[:20])
                return
            continue
        if first == ";" or first == "$":
            continue
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth < 0:
                game.error = BadPgnError(f"unmatched ')' after ply {len(game.tokens)}",
                                         ply=len(game.tokens) + 1, token=tok)
                return
        elif tok == "}":
            game.error = BadPgnError(f"unmatched '}}' after ply {len(game.tokens)}",
                                     ply=len(game.tokens) + 1, token=tok)
            return
        elif depth:
            continue
        elif tok in RESULTS:
            game.result = tok
        elif first.isdigit() and tok.endswith("."):
            continue  # move number
        else:
            game.tokens.append(tok)
    if depth:
        game.error = BadPgnError("unterminated variation '('", ply=len(game.tokens) + 1, token="(")


def read_games(lines: Iterable[str]) -> Iterator[PgnGame]:
    """Yield the games of a PGN text given line by line."""
    game: PgnGame | None = None
    movetext: list[str] = []
    in_comment = False

    def finish() -> PgnGame:
        assert game is not None
        if game.error is None:
            _tokenize("".join(movetext), game)
        return game

    for line in lines:
        if not in_comment:
            stripped = line.lstrip()
            if stripped.startswith("%"):
                continue  # escape line (PGN standard 8.2.2)
            if stripped.startswith("["):
                if game is not None and movetext and "".join(movetext).strip():
                    yield finish()
                    game, movetext = None, []
                if game is None:
                    game = PgnGame()
                m = _HEADER.match(line)
                if m:
                    game.headers[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
                elif game.error is None:
                    game.error = BadPgnError(f"broken header line {line.strip()!r}", ply=0, token=line.strip()[:40])
                continue
        if game is None:
            if not line.strip():
                continue
            game = PgnGame()
        movetext.append(line)
        # Track comments that span lines so that a '[' inside one is not a header.
        for ch in _BRACES.findall(line):
            in_comment = ch == "{"
    if game is not None:
        yield finish()


def game_from_headers(headers: dict[str, str], **options: Any) -> Game:
    """A new Game at the start position the headers name (FEN, Variant)."""
    variant = headers.get("Variant", "").strip().lower()
    chess960 = variant in _CHESS960
    if variant and not chess960 and variant not in {"standard", "normal", "from position"}:
        raise UnsupportedVariantError(f"unsupported variant {headers['Variant']!r}", ply=0)
    fen = headers.get("FEN")
    if fen is not None and headers.get("SetUp", "1") == "0":
        fen = None
    return Game(fen, chess960=chess960, **options)


def play_tokens(game: Game, tokens: list[str]) -> None:
    """Play SAN/UCI tokens; a bad one raises with the ply and token named."""
    for token in tokens:
        try:
            game.play(token)
        except RefereeError as exc:
            ply = game.ply + 1
            raise type(exc)(f"ply {ply} ({token!r}): {exc.message}", ply=ply, token=token) from None


def parse_one(text: str, **options: Any) -> tuple[Game, PgnGame]:
    """Parse the first game of a PGN text into a Game. Raises BadPgnError (or
    another RefereeError) naming the problem; nothing is returned half-done.
    The result is restored as a declared ending when no rule ended the game
    (a claim that the position bears out, an agreement, a resignation or a
    flag fall)."""
    if not isinstance(text, str):
        raise BadRequestError(f"PGN must be text, not {type(text).__name__}")
    pgn = next(read_games(text.splitlines(keepends=True)), None)
    if pgn is None or (not pgn.tokens and not pgn.headers and pgn.error is None):
        raise BadPgnError("no game found in the PGN text", ply=0)
    if pgn.error is not None:
        raise pgn.error
    game = game_from_headers(pgn.headers, **options)
    play_tokens(game, pgn.tokens)
    _restore_result(game, pgn.headers.get("Termination", ""), pgn.result or pgn.headers.get("Result", "*"))
    return game, pgn


def _restore_result(game: Game, termination: str, result: str) -> None:
    if result not in {"1-0", "0-1", "1/2-1/2"} or game.outcome() is not None:
        return
    term = termination.strip().lower().replace(" ", "_")
    if result == "1/2-1/2":
        if term in {Termination.THREEFOLD_REPETITION.value, Termination.FIFTY_MOVES.value} and game.claimable_now():
            game.claim_draw()
        elif term in {"time_forfeit", "time forfeit"}:
            for color in chess.COLORS:
                if game.status().flag_fall(color) == "1/2-1/2":
                    game.flag(color)
                    return
            game.agree_draw()
        else:
            game.agree_draw()
        return
    loser = chess.BLACK if result == "1-0" else chess.WHITE
    if term in {"time_forfeit", "time forfeit"}:
        game.flag(loser)
    else:
        game.resign(loser)


def export(game: Game, headers: dict[str, str] | None = None) -> str:
    """The game as PGN, with Result and a Termination tag naming the rule."""
    import chess.pgn  # only here: it pulls in chess.engine, ~140 ms of the browser's start-up
    board = game.board
    pgn = chess.pgn.Game.from_board(board)
    for name, value in (headers or {}).items():
        pgn.headers[name] = value
    outcome: Outcome | None = game.outcome()
    pgn.headers["Result"] = outcome.result() if outcome else "*"
    if outcome is not None:
        pgn.headers["Termination"] = outcome.termination.value
        pgn.headers["TerminationDetails"] = f"{outcome.reason()} (FIDE {outcome.article})"
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    return pgn.accept(exporter)
