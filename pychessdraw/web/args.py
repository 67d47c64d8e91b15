"""The bridge's validation: every argument of a request checked (a value of
the wrong JSON type is a ``bad_request``, never an exception of Python's),
and every refusal worded for the page (one short line, no FEN dump, never
Python's own message). The names each operation takes are
:class:`pychessdraw.web.contract.Operations`'.
"""

from __future__ import annotations

import re
from typing import Any, cast

import chess

from .. import pgn
from ..contract import FlagRulesName
from ..errors import BadFenError, BadRequestError, InternalError, RefereeError, shown
from ..fen import MAX_FEN
from ..game import Game
from ..i18n import gettext, marked
from ..rules import timeout
from .contract import ErrorInfo

COLORS = {"white": chess.WHITE, "black": chess.BLACK}
ENDING_OPS = ("agree", "resign", "flag", "claim", "recorded")
_MOVE_ERRORS = {
    "illegal_move": marked("{label} is not legal here"),
    "invalid_move": marked("{label} is not a move"),
    "ambiguous_move": marked("{label} is ambiguous here"),
    "promotion_needed": marked("{label} needs a promotion piece"),
}
_FEN_DUMP = re.compile(r"\S+/\S+/\S+/\S+/\S+/\S+/\S+/\S+(?:\s+[wb]\s+\S+\s+\S+(?:\s+\d+\s+\d+)?)?")


def only(args: dict[str, Any], names: frozenset[str]) -> None:
    extra = [k for k in args if k not in names]
    if extra:
        raise BadRequestError(gettext("unknown argument {name}").format(name=repr(str(extra[0])[:40])))


def arg_text(args: dict[str, Any], name: str, limit: int) -> str:
    value = args.get(name)
    if not isinstance(value, str):
        raise BadRequestError(gettext("{name} must be text").format(name=repr(name)))
    if len(value) > limit:
        raise BadRequestError(
            gettext("{name} is too long (at most {limit} characters)").format(name=repr(name), limit=limit)
        )
    return value


def arg_opt_text(args: dict[str, Any], name: str, limit: int) -> str | None:
    if args.get(name) is None:
        return None
    return arg_text(args, name, limit)


def arg_fen(args: dict[str, Any], name: str) -> str | None:
    fen = arg_opt_text(args, name, 100_000)
    if fen is not None and (len(fen) > MAX_FEN or "\n" in fen.strip()):
        raise BadFenError(
            gettext("this is not a FEN: it is too long for one (a game in PGN goes in the PGN box)")
            if "." in fen or "[" in fen
            else gettext("this is not a FEN: it is too long for one")
        )
    return fen


def arg_flag(args: dict[str, Any], name: str) -> bool:
    """A true-or-false argument, absent or null meaning false (its type is
    the dispatcher's to check: :mod:`pychessdraw.web.dispatch`)."""
    return args.get(name) is True


def arg_flag_rules(args: dict[str, Any]) -> FlagRulesName | None:
    """The flag-fall rules named, if any (checked by the dispatcher against the contract's set)."""
    value = args.get("flag_rules")
    return value if timeout.is_rules(value) else None


def arg_color(args: dict[str, Any]) -> str:
    name = args.get("color")
    if not isinstance(name, str) or name not in COLORS:
        raise BadRequestError(gettext("'color' must be 'white' or 'black', not {value}").format(value=shown(name)))
    return name


def arg_clocks(args: dict[str, Any]) -> tuple[dict[str, float], dict[int, int]] | None:
    """export_pgn's ``time_control`` {base_s, increment_s, delay_s} and
    ``clocks`` {ply: ms}, both or neither."""
    tc, clocks = args.get("time_control"), args.get("clocks")
    if tc is None and clocks is None:
        return None
    if (
        not isinstance(tc, dict)
        or set(tc) - {"base_s", "increment_s", "delay_s"}
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 86_400 for v in tc.values())
    ):
        raise BadRequestError(gettext("'time_control' must be {{base_s, increment_s, delay_s}} in seconds"))
    if (
        not isinstance(clocks, dict)
        or len(clocks) > pgn.MAX_PLIES
        or not all(
            isinstance(k, str) and k.isdigit() and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**9
            for k, v in clocks.items()
        )
    ):
        raise BadRequestError(gettext("'clocks' must map plies to milliseconds"))
    return {k: float(v) for k, v in tc.items()}, {int(k): v for k, v in clocks.items()}


def saved_headers(value: object) -> dict[str, str]:
    """A saved game's tags (a new dict): checked in full by :func:`_check_start`."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > pgn.MAX_HEADERS:
        raise BadRequestError(gettext("'headers' must map at most {n} tag names to text").format(n=pgn.MAX_HEADERS))
    return dict(value)


def saved_ending(value: object) -> dict[str, Any] | None:
    """A saved ending {op, color, auto}, every part checked (a colour of any JSON type)."""
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or set(value) - {"op", "color", "auto"}
        or not isinstance(value.get("op"), str)
        or value["op"] not in ENDING_OPS
    ):
        raise BadRequestError(gettext("'ending' must be null or {{op: agree|resign|flag|claim|recorded, color}}"))
    if value["op"] in ("resign", "flag") or value.get("color") is not None:
        arg_color(value)
    if "auto" in value and not isinstance(value["auto"], bool):
        raise BadRequestError(gettext("'ending.auto' must be true or false"))
    return value


def check_start(headers: dict[str, str], game: Game) -> None:
    """Saved tags checked as an imported game's (tag names, one-line values,
    a supported Variant, a legal FEN); the FEN and Variant they name must be
    the saved game's own start, or every later export would be of another game."""
    named = pgn.game_from_headers(headers)
    if "Variant" in headers and named.chess960 != game.chess960:
        raise BadRequestError(
            gettext("the saved Variant tag {value} is not the saved game's variant").format(
                value=repr(headers["Variant"][:40])
            )
        )
    if "FEN" in headers and named.start_fen != game.start_fen:
        raise BadRequestError(gettext("the saved FEN tag is not the saved game's start position"))


def referee_error(exc: Exception) -> RefereeError:
    """Any failure as a RefereeError in the project's words: an unexpected
    exception's own message (Python's) is never shown."""
    if isinstance(exc, RefereeError):
        return exc
    if isinstance(exc, RecursionError):
        return BadRequestError(gettext("the request is nested too deeply"))
    return InternalError(
        gettext(
            "the referee could not answer this request (a fault of its own, not of the request); the game is as it was"
        )
    )


def promotions(game: Game, text: str) -> list[dict[str, Any]]:
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
                out.append(
                    {
                        "uci": game.uci(move),
                        "san": game.san(move),
                        "from": chess.square_name(move.from_square),
                        "to": chess.square_name(move.to_square),
                        "promotion": piece,
                    }
                )
                break
    return out


def move_error(exc: RefereeError, label: str, ply: int | None = None) -> RefereeError:
    """A move error in chess words ("3...Qxz9 is not legal here"): the
    library's own where it names the move, else worded here."""
    if "move_label" in exc.details:
        return exc
    tail = _MOVE_ERRORS.get(exc.code)
    if tail is None:
        return exc
    err = type(exc)(gettext(tail).format(label=label), move_label=label, **({"ply": ply} if ply is not None else {}))
    return err


def error_info(exc: RefereeError) -> ErrorInfo:
    out: dict[str, object] = dict(exc.to_dict())
    out["message"] = short(str(out.get("message", "")))
    # keep the structured fields JSON-safe and short
    return cast(
        ErrorInfo, {k: (v if isinstance(v, (int, bool, list)) or v is None else short(str(v))) for k, v in out.items()}
    )


def short(text: str, limit: int = 160) -> str:
    """One line, at most ``limit`` characters, no FEN dumps."""
    text = _FEN_DUMP.sub("the position", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


MAX_NAME = 100  # a player's name or an event, as the page lets them be typed
_DATE = re.compile(r"\d{4}\.\d{2}\.\d{2}")


def arg_game_tags(args: dict[str, Any]) -> dict[str, str]:
    """export_pgn's ``players`` {white, black}, ``event`` and ``date``
    (YYYY.MM.DD) as PGN tags (White, Black, Event, Date), only those given;
    a name is one line of at most :data:`MAX_NAME` characters."""
    out: dict[str, str] = {}
    players = args.get("players")
    if players is not None:
        if not isinstance(players, dict) or set(players) - {"white", "black"}:
            raise BadRequestError(gettext("'players' must be {{white, black}}"))
        for key, tag in (("white", "White"), ("black", "Black")):
            if key in players:
                out[tag] = _one_line(players[key], key)
    if args.get("event") is not None:
        out["Event"] = _one_line(args["event"], "event")
    date = args.get("date")
    if date is not None:
        if not isinstance(date, str) or not _DATE.fullmatch(date):
            raise BadRequestError(gettext("'date' must be YYYY.MM.DD, not {value}").format(value=shown(date)))
        out["Date"] = date
    return out


def _one_line(value: object, name: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME or any(ord(c) < 32 for c in value):
        raise BadRequestError(
            gettext("{name} must be one line of at most {limit} characters").format(name=repr(name), limit=MAX_NAME)
        )
    return value.strip()
