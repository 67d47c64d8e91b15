"""Reading a move typed by a person or found in a PGN: SAN or UCI.

Errors speak chess: "3...Qxe9 is not legal here", with the move's number
and side taken from the board, and carry ``ply``, ``token`` and
``move_label`` so that callers never parse the message.
"""

from __future__ import annotations

import re
from typing import Any

import chess

from .contract import MoveCandidateDict
from .errors import AmbiguousMoveError, BadRequestError, IllegalMoveError, InvalidMoveError, PromotionNeededError

_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_ANNOTATION = re.compile(r"[!?]+$")
_NULL = {"--", "0000", "Z0", "@@@@"}
MAX_TOKEN = 40  # no move is longer; longer text is cut in errors, never parsed
_SIDE = {chess.WHITE: "White", chess.BLACK: "Black"}


def move_label(board: chess.Board, text: str) -> str:
    """``text`` with the move number and side of ``board``: "3.e4", "3...e5"."""
    dots = "." if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{dots}{text}"


def candidates(board: chess.Board, moves: list[chess.Move]) -> list[MoveCandidateDict]:
    return [{"uci": board.uci(m), "san": board.san(m)} for m in moves]


def parse_move(board: chess.Board, text: str, *, ply: int | None = None) -> chess.Move:
    """Parse ``text`` (SAN like ``Nf3``/``O-O``/``e8=Q``, or UCI like
    ``g1f3``) as a legal move on ``board``. ``ply`` (the ply the move would
    make) goes into the error details.

    Raises InvalidMoveError (not a move), IllegalMoveError (not legal here),
    PromotionNeededError (``e8`` where ``e8=Q`` etc. are legal),
    AmbiguousMoveError (``Rd2`` with two rooks), BadRequestError (not text).
    """
    if not isinstance(text, str):
        raise BadRequestError(f"a move must be text in SAN or UCI, not {type(text).__name__}")
    token = _ANNOTATION.sub("", text.strip())
    shown = token[:MAX_TOKEN]
    label = move_label(board, shown)
    details: dict[str, Any] = {"token": text[:MAX_TOKEN], "move_label": label}
    if ply is not None:
        details["ply"] = ply
    if not token:
        raise InvalidMoveError(f"{move_label(board, '')} no move given", **details)
    if len(token) > MAX_TOKEN:
        raise InvalidMoveError(f"{label}... is not a move: write it in SAN (Nf3, O-O, e8=Q) or UCI (g1f3)",
                               **details)
    if token in _NULL:
        raise IllegalMoveError(f"{label}: a null move is not a legal move", **details)
    if _UCI.match(token):
        try:
            return board.parse_uci(token)
        except chess.IllegalMoveError:
            raise _illegal(board, token, label, details, uci=True) from None
        except ValueError:
            pass  # not UCI after all: try SAN
    try:
        return board.parse_san(token)
    except chess.AmbiguousMoveError:
        found = _ambiguous(board, token)
        names = ", ".join(c["san"] for c in found)
        raise AmbiguousMoveError(f"{label} is ambiguous: write {names}" if names else f"{label} is ambiguous",
                                 candidates=found, **details) from None
    except chess.IllegalMoveError:
        raise _illegal(board, token, label, details, uci=False) from None
    except ValueError:
        raise InvalidMoveError(f"{label} is not a move: write it in SAN (Nf3, O-O, e8=Q) or UCI (g1f3)",
                               **details) from None


def _illegal(board: chess.Board, token: str, label: str, details: dict[str, Any], *, uci: bool) -> IllegalMoveError:
    promotions = _promotions(board, token, uci=uci)
    if promotions:
        names = ", ".join(c["san"] for c in promotions)
        return PromotionNeededError(f"{label}: say which piece the pawn becomes: {names}",
                                    candidates=promotions, **details)
    why = f" ({_SIDE[board.turn]} is in check)" if board.is_check() else ""
    return IllegalMoveError(f"{label} is not legal here{why}", **details)


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
    fits = [m for m in board.generate_legal_moves(to_mask=chess.BB_SQUARES[to])
            if board.piece_type_at(m.from_square) == piece
            and (not file or chess.square_file(m.from_square) == ord(file) - ord("a"))
            and (not rank or chess.square_rank(m.from_square) == int(rank) - 1)]
    return candidates(board, fits)
