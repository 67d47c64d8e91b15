"""Reading a move typed by a person or found in a PGN: SAN or UCI."""

from __future__ import annotations

import re

import chess

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
_ANNOTATION = re.compile(r"[!?]+$")
_NULL = {"--", "0000", "Z0", "@@@@"}


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """Parse ``text`` (SAN like ``Nf3``/``O-O``, or UCI like ``g1f3``) as a
    legal move on ``board``. Raises InvalidMoveError, IllegalMoveError or
    AmbiguousMoveError with a message naming the move."""
    token = _ANNOTATION.sub("", text.strip())
    if not token:
        raise InvalidMoveError("empty move", token=text)
    if token in _NULL:
        raise IllegalMoveError(f"null move {token!r} is not a legal move", token=text)
    if _UCI.match(token):
        try:
            return board.parse_uci(token)
        except chess.IllegalMoveError:
            raise IllegalMoveError(f"illegal move {token!r} in {board.fen()}", token=text) from None
        except ValueError:
            pass  # e.g. "b1c3" cannot fail here, but fall back to SAN to be safe
    try:
        return board.parse_san(token)
    except chess.AmbiguousMoveError:
        raise AmbiguousMoveError(f"ambiguous move {token!r} in {board.fen()}", token=text) from None
    except chess.IllegalMoveError:
        raise IllegalMoveError(f"illegal move {token!r} in {board.fen()}", token=text) from None
    except ValueError:
        raise InvalidMoveError(f"{token!r} is not a move in SAN or UCI", token=text) from None
