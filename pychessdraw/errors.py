"""Errors as values with stable codes.

Every error the referee raises carries a ``code`` that never changes between
releases and crosses the JS/Python boundary unchanged (the browser worker, the
CLI and the scan report all use it), and a ``message`` for people.
"""

from __future__ import annotations

from typing import Any


class RefereeError(ValueError):
    """Base class: ``code`` is stable, ``message`` is for people."""

    code = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}


class BadRequestError(RefereeError):
    code = "bad_request"


class BadFenError(RefereeError):
    code = "bad_fen"


class InvalidMoveError(RefereeError):
    """The text is not a move in SAN or UCI."""

    code = "invalid_move"


class IllegalMoveError(RefereeError):
    code = "illegal_move"


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
