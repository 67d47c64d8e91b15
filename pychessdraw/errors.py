"""Errors as values with stable codes.

Every error the referee raises carries a ``code`` that never changes between
releases and crosses the JS/Python boundary unchanged (the browser worker, the
CLI and the scan report all use it), a ``message`` for people (in chess
words: "3...Qxe9 is not legal here", never a FEN dump), and structured
details (``ply``, ``token``, ``move_label``, ``candidates``...) so that no
caller needs to parse the message. The shape is
:class:`pychessdraw.contract.ErrorDict`.

The codes:

- ``bad_request``: an argument of the wrong type or out of range
- ``bad_fen``: a FEN that does not parse, or an impossible position; the
  message names the FEN field and the rank, square or piece at fault, and
  ``field`` holds the field's name (:mod:`pychessdraw.fen`)
- ``invalid_move``: text that is not a move in SAN or UCI
- ``illegal_move``: a move that is not legal in the position
- ``promotion_needed``: a pawn move to the last rank without the piece
  (``e8`` for ``e8=Q``); ``candidates`` lists the choices
- ``ambiguous_move``: SAN that fits several legal moves (``candidates``)
- ``game_over``: a move or action after the game has ended
- ``bad_pgn``: PGN text that cannot be read
- ``unsupported_variant``: a PGN ``Variant`` other than standard or Chess960
- ``nothing_to_undo``: undo at the start of a game
- ``file_error``: a file that cannot be read
- ``internal``: a fault of the referee itself, not of the input (the
  browser bridge answers any unexpected exception so, in its own words,
  and leaves the game as it was)

Every ``RefereeError`` is a ``ValueError``. ``PromotionNeededError`` is an
``IllegalMoveError`` (the move as typed is not legal) with its own code.
"""

from __future__ import annotations

from typing import Any, cast, get_args

from .contract import ErrorCode, ErrorDict


class RefereeError(ValueError):
    """Base class: ``code`` is stable, ``message`` is for people, ``details``
    are the structured fields of :class:`~pychessdraw.contract.ErrorDict`."""

    code = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> ErrorDict:
        return cast(ErrorDict, {"code": self.code, "message": self.message, **self.details})


class BadRequestError(RefereeError):
    code = "bad_request"


class BadFenError(RefereeError):
    code = "bad_fen"


class InvalidMoveError(RefereeError):
    """The text is not a move in SAN or UCI."""

    code = "invalid_move"


class IllegalMoveError(RefereeError):
    code = "illegal_move"


class PromotionNeededError(IllegalMoveError):
    """A pawn move to the last rank typed without the piece to promote to;
    ``details["candidates"]`` lists the legal promotions (UCI and SAN)."""

    code = "promotion_needed"


class AmbiguousMoveError(RefereeError):
    code = "ambiguous_move"


class GameOverError(RefereeError):
    code = "game_over"


class BadPgnError(RefereeError):
    code = "bad_pgn"


class UnsupportedVariantError(RefereeError):
    code = "unsupported_variant"


class NothingToUndoError(RefereeError):
    code = "nothing_to_undo"


class FileError(RefereeError):
    code = "file_error"


class InternalError(RefereeError):
    """Not the caller's fault: an unexpected exception inside the referee,
    told in the project's words (Python's own message is not shown)."""

    code = "internal"


def shown(value: object) -> str:
    """A value for an error message: short, and never a call into the value
    (a list or an object is named by its type)."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)[:40]
    if isinstance(value, str):
        return repr(value[:40])
    return type(value).__name__


CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)
"""Every stable code: the contract's Literal (a test checks one class each)."""
