"""Reading a move typed by a person or found in a PGN: SAN or UCI.

SAN is read as written first; text that fails so is read case-insensitively
where that is unambiguous, as lichess does: ``nf3`` is ``Nf3``, ``o-o`` and
``0-0`` are ``O-O``, ``e8=q`` and ``e8q`` are ``e8=Q``, ``E2E4`` is ``e2e4``.
A lowercase ``b`` names a b-pawn in standard SAN and a bishop in typed text:
for text a person typed (``typed=True``), ``bxc3`` that fits both a b-pawn
and a bishop capture is refused as ambiguous with both candidates; for a PGN
(the default) it is the b-pawn, as the standard says. An uppercase ``B`` is
always a bishop.

Errors speak chess: "3...Qxe9 is not legal here", with the move's number
and side taken from the board, and carry ``ply``, ``token`` and
``move_label`` so that callers never parse the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import chess

from .contract import MoveCandidateDict
from .errors import AmbiguousMoveError, BadRequestError, IllegalMoveError, InvalidMoveError, PromotionNeededError
from .i18n import gettext, marked
from .outcome import side_name

_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_CASTLING = re.compile(r"^[oO0]-[oO0](-[oO0])?([+#]?)$")
_ANNOTATION = re.compile(r"[!?]+$")
_NULL = {"--", "0000", "Z0", "@@@@"}
MAX_TOKEN = 40  # no move is longer; longer text is cut in errors, never parsed
_NOT_A_MOVE = marked("is not a move: write it in SAN (Nf3, O-O, e8=Q) or UCI (g1f3)")


def numbered(number: int, white: bool, text: str) -> str:
    """``text`` with a move number and side: "3.e4" (White), "3...e5" (Black)."""
    return f"{number}.{text}" if white else f"{number}...{text}"


def move_label(board: chess.Board, text: str) -> str:
    """``text`` with the move number and side of the move ``board`` awaits: "3.e4", "3...e5"."""
    return numbered(board.fullmove_number, board.turn == chess.WHITE, text)


def move_number(ply: int, first_move: int = 1, black_first: bool = False) -> tuple[int, bool]:
    """The move number of the ``ply``-th ply of a game (from 1) and whether
    White made it; the game starts at move ``first_move``, Black to move
    when ``black_first``. The one place plies become move numbers."""
    half = ply - 1 + (1 if black_first else 0)
    return first_move + half // 2, half % 2 == 0


def after_move(ply: int, first_move: int = 1, black_first: bool = False) -> str:
    """Where a game stands after its ``ply``-th ply, for people: "after
    White's move 17", or "at the start" (ply 0); in the current language."""
    if ply <= 0:
        return gettext("at the start")
    number, white = move_number(ply, first_move, black_first)
    return gettext("after {side}'s move {number}").format(side=side_name(white), number=number)


def start_of(headers: Mapping[str, str]) -> tuple[int, bool]:
    """A PGN game's first move number and whether Black moves first, from
    its FEN tag (ignored under ``SetUp "0"``); (1, False) without one."""
    fen = headers.get("FEN", "").split() if headers.get("SetUp", "1") != "0" else []
    return (int(fen[5]) if len(fen) > 5 and fen[5].isdigit() else 1), fen[1:2] == ["b"]


def candidates(board: chess.Board, moves: list[chess.Move]) -> list[MoveCandidateDict]:
    return [{"uci": board.uci(m), "san": board.san(m)} for m in moves]


def parse_move(board: chess.Board, text: str, *, ply: int | None = None, typed: bool = False) -> chess.Move:
    """Parse ``text`` (SAN like ``Nf3``/``O-O``/``e8=Q``, or UCI like
    ``g1f3``; any letter case where unambiguous) as a legal move on
    ``board``. ``ply`` (the ply the move would make) goes into the error
    details. ``typed``: the text comes from a person, so a lowercase ``b``
    that fits both a b-pawn and a bishop move is ambiguous (see the module).

    Raises InvalidMoveError (not a move), IllegalMoveError (not legal here),
    PromotionNeededError (``e8`` where ``e8=Q`` etc. are legal),
    AmbiguousMoveError (``Rd2`` with two rooks), BadRequestError (not text).
    """
    if not isinstance(text, str):
        raise BadRequestError(f"a move must be text in SAN or UCI, not {type(text).__name__}")
    token = _ANNOTATION.sub("", text.strip())
    label = move_label(board, token[:MAX_TOKEN])
    details: dict[str, Any] = {"token": text[:MAX_TOKEN], "move_label": label}
    if ply is not None:
        details["ply"] = ply
    if not token:
        raise InvalidMoveError(gettext("{label} no move given").format(label=move_label(board, "")), **details)
    if len(token) > MAX_TOKEN:
        raise InvalidMoveError(f"{label}... {gettext(_NOT_A_MOVE)}", **details)
    if token in _NULL:
        raise IllegalMoveError(gettext("{label}: a null move is not a legal move").format(label=label), **details)
    if _UCI.match(token.lower()):
        if token[0] == "B":  # B1e3: a bishop named by its rank (SAN), or b1e3 typed in capitals (UCI)
            bishop = _rank_named_bishop(board, token, label, details, typed=typed)
            if bishop is not None:
                return bishop
        try:
            return board.parse_uci(token.lower())
        except chess.IllegalMoveError:
            raise _illegal(board, token.lower(), label, details, uci=True) from None
        except ValueError:
            pass  # not UCI after all: try SAN
    return _parse_san(board, token, label, details, typed=typed)


def _rank_named_bishop(
    board: chess.Board, token: str, label: str, details: dict[str, Any], *, typed: bool
) -> chess.Move | None:
    """The bishop move ``B1e3`` names as SAN (PGN writes it when two bishops
    on one file reach e3), or None when it names none. Read as SAN first: an
    uppercase B is a bishop (see the module); typed text that is also a
    different legal UCI move (``b1e3``) is ambiguous."""
    try:
        move = board.parse_san(token)
    except ValueError:
        return None
    if typed:
        try:
            other = board.parse_uci(token.lower())
        except ValueError:
            return move
        if other != move:
            raise _ambiguity(label, candidates(board, [move, other]), details)
    return move


def _spellings(token: str) -> list[str]:
    """The SAN readings of ``token``, as written first: castling with O, o or
    0 as ``O-O``; the rest in lowercase (files, ``x``; python-chess reads a
    lowercase promotion piece) after the first letter, which is lowered when
    it is a file (``E4``) and also raised when it is a lowercase piece letter
    (``nf3``; ``bxc3`` gives both ``bxc3`` and ``Bxc3``)."""
    castling = _CASTLING.match(token)
    if castling:
        return list(dict.fromkeys([token, ("O-O-O" if castling.group(1) else "O-O") + castling.group(2)]))
    first, rest = token[0], token[1:].lower()
    found = [token, (first.lower() if first in "ACDEFGH" else first) + rest]
    if first in "nbrqk":
        found.append(first.upper() + rest)
    return list(dict.fromkeys(found))


def _parse_san(board: chess.Board, token: str, label: str, details: dict[str, Any], *, typed: bool) -> chess.Move:
    """The legal move the readings of ``token`` name: the first that parses
    (every one, when ``typed``: two different moves are ambiguous); else
    the most telling error, ambiguous before illegal before not a move."""
    if not typed:
        try:
            return board.parse_san(token)  # the common case, at the cost it had before other spellings were read
        except ValueError:
            pass
    moves: list[chess.Move] = []
    ambiguous: str | None = None
    illegal: str | None = None
    for spelling in _spellings(token):
        try:
            move = board.parse_san(spelling)
        except chess.AmbiguousMoveError:
            ambiguous = ambiguous or spelling
            continue
        except chess.IllegalMoveError:
            illegal = illegal or spelling
            continue
        except ValueError:
            continue
        if move not in moves:
            moves.append(move)
        if not typed:
            break  # the first reading that parses is the move (a PGN's SAN is read as the standard says)
    if len(moves) > 1 or (typed and moves and ambiguous is not None):  # bxc3: a b-pawn, or one of two bishops
        found = candidates(board, moves) + (_ambiguous(board, ambiguous) if ambiguous is not None else [])
        raise _ambiguity(label, found, details)
    if moves:
        return moves[0]
    if ambiguous is not None:
        raise _ambiguity(label, _ambiguous(board, ambiguous), details)
    if illegal is not None:
        raise _illegal(board, illegal, label, details, uci=False)
    raise InvalidMoveError(f"{label} {gettext(_NOT_A_MOVE)}", **details)


def _ambiguity(label: str, found: list[MoveCandidateDict], details: dict[str, Any]) -> AmbiguousMoveError:
    names = ", ".join(c["san"] for c in found)
    text = gettext("{label} is ambiguous: write {moves}") if names else gettext("{label} is ambiguous")
    return AmbiguousMoveError(text.format(label=label, moves=names), candidates=found, **details)


def _illegal(board: chess.Board, token: str, label: str, details: dict[str, Any], *, uci: bool) -> IllegalMoveError:
    promotions = _promotions(board, token, uci=uci)
    if promotions:
        names = ", ".join(c["san"] for c in promotions)
        return PromotionNeededError(
            gettext("{label}: say which piece the pawn becomes: {moves}").format(label=label, moves=names),
            candidates=promotions,
            **details,
        )
    text = (
        gettext("{label} is not legal here ({side} is in check)")
        if board.is_check()
        else gettext("{label} is not legal here")
    )
    return IllegalMoveError(text.format(label=label, side=side_name(board.turn)), **details)


def _promotions(board: chess.Board, token: str, *, uci: bool) -> list[MoveCandidateDict]:
    """Legal promotions that ``token`` names but for the piece."""
    found = []
    for piece in "QRBN":
        try:
            if uci:
                move = board.parse_uci(token + piece.lower())
            else:
                move = board.parse_san(token.rstrip("+#") + "=" + piece)
        except ValueError:
            continue
        found.append(move)
    return candidates(board, found)


def _ambiguous(board: chess.Board, token: str) -> list[MoveCandidateDict]:
    """The legal moves an ambiguous SAN token fits."""
    match = chess.SAN_REGEX.match(token.rstrip("+#"))
    if not match:
        return []
    piece = chess.PIECE_SYMBOLS.index(match.group(1).lower()) if match.group(1) else chess.PAWN
    to = chess.parse_square(match.group(4))
    file, rank = match.group(2), match.group(3)
    fits = [
        m
        for m in board.generate_legal_moves(to_mask=chess.BB_SQUARES[to])
        if board.piece_type_at(m.from_square) == piece
        and (not file or chess.square_file(m.from_square) == ord(file) - ord("a"))
        and (not rank or chess.square_rank(m.from_square) == int(rank) - 1)
    ]
    return candidates(board, fits)
