"""FEN read in chess words: parse, then validate, then hand to python-chess.

Every refusal is a :class:`~pychessdraw.errors.BadFenError` whose message
says what is wrong and where, in the words of the FEN standard's fields
(piece placement, side to move, castling, en passant, halfmove clock,
fullmove number) and of the board (ranks, squares, kings, checks); the
field is also in ``details["field"]``. No message is python-chess's.

What is read as python-chess reads it: missing trailing fields take their
defaults (``w - - 0 1``), as EPD and lichess's editor allow; castling may be
``KQkq`` or Shredder/X-FEN files (``HAha``); a fullmove number of 0 is read
as 1. Limits: the position checks are those of python-chess's
``Board.status()`` (kings, pawn and piece counts, pawns on the first or last
rank, castling rights, en passant, checks): a position that passes them may
still be unreachable (8 pawns and 2 queens, say), and is then accepted.
"""

from __future__ import annotations

import re

import chess

from .errors import BadFenError
from .i18n import gettext, marked, ngettext
from .outcome import side_name

MAX_FEN = 200  # a FEN is under 100 characters; longer text is refused unread
#: The FEN's fields by their names: ``details["field"]`` (English in every language, as a code).
FIELDS = (
    marked("piece placement"),
    marked("side to move"),
    marked("castling"),
    marked("en passant"),
    marked("halfmove clock"),
    marked("fullmove number"),
)
_PIECE_NAMES = {
    chess.PAWN: marked("the pawn on {square}"),
    chess.KNIGHT: marked("the knight on {square}"),
    chess.BISHOP: marked("the bishop on {square}"),
    chess.ROOK: marked("the rook on {square}"),
    chess.QUEEN: marked("the queen on {square}"),
    chess.KING: marked("the king on {square}"),
}
_CASTLING = re.compile(r"^(?:-|[KQkqA-Ha-h]+)$")
_SQUARE = re.compile(r"^[a-h][1-8]$")
_NUMBER = re.compile(r"^[0-9]+$")  # not \d: it takes any script's digits


class _Refusal(Exception):
    """One problem found: the field it is in and what is wrong."""

    def __init__(self, field: str, text: str) -> None:
        super().__init__(text)
        self.field, self.text = field, text


def read_fen(fen: str, chess960: bool = False) -> chess.Board:
    """The board of ``fen`` (text), or BadFenError naming the field and the
    problem: "bad FEN, piece placement: rank 6 ('44') has two digits in a
    row: ...", "impossible position: Black is in check but it is White's
    move: the side not to move cannot be in check (side to move)"; every
    problem of an impossible position is listed, ``details["field"]`` is the
    first one's. ``fen`` is shown in ``details["fen"]``, cut to MAX_FEN.
    The message is in the current language (:mod:`pychessdraw.i18n`), the field's name in ``details`` English."""
    shown = fen if len(fen) <= MAX_FEN else fen[:MAX_FEN] + "..."
    if len(fen) > MAX_FEN:
        raise BadFenError(
            gettext("bad FEN: {count} characters is far too long for a FEN").format(count=len(fen)), fen=shown
        )
    try:
        fields = _check_syntax(fen)
        board = chess.Board(" ".join(fields), chess960=chess960)
        problems = _position_problems(board, fields[2])
    except _Refusal as refusal:
        text = (
            gettext("bad FEN, {field}: {problem}").format(field=gettext(refusal.field), problem=refusal.text)
            if refusal.field
            else gettext("bad FEN: {problem}").format(problem=refusal.text)
        )
        raise BadFenError(text, fen=shown, **({"field": refusal.field} if refusal.field else {})) from None
    except ValueError:  # python-chess refused what the checks above let through: say so in our words
        raise BadFenError(gettext("bad FEN: it cannot be read as a FEN"), fen=shown) from None
    if problems:
        text = "; ".join(f"{p.text} ({gettext(p.field)})" for p in problems)
        raise BadFenError(
            gettext("impossible position: {problems}").format(problems=text), fen=shown, field=problems[0].field
        )
    return board


def _check_syntax(fen: str) -> list[str]:
    """The fields of ``fen`` once each is well formed (missing ones filled
    in with their defaults); raises _Refusal at the first bad one."""
    fields = fen.split()
    if not fields:
        raise _Refusal(
            FIELDS[0],
            gettext(
                "the FEN is empty: it starts with the pieces, rank 8 first, such as "
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
            ),
        )
    if len(fields) > 6:
        names = ", ".join(gettext(f) for f in FIELDS)
        raise _Refusal(
            "", gettext("{count} fields, a FEN has at most 6 ({fields})").format(count=len(fields), fields=names)
        )
    fields += ["w", "-", "-", "0", "1"][len(fields) - 1 :]
    _check_placement(fields[0])
    if fields[1] not in ("w", "b"):
        raise _Refusal(
            FIELDS[1],
            gettext("{text} is neither w (White to move) nor b (Black to move)").format(text=repr(fields[1][:10])),
        )
    if not _CASTLING.match(fields[2]) or len(set(fields[2])) != len(fields[2]):
        raise _Refusal(
            FIELDS[2],
            gettext(
                "{text} is not castling rights: write - for none, or some of "
                "KQkq once each (K: White king side, Q: White queen side, k and q: Black)"
            ).format(text=repr(fields[2][:10])),
        )
    if fields[3] != "-" and not _SQUARE.match(fields[3]):
        raise _Refusal(
            FIELDS[3],
            gettext("{text} is not a square: write - or the square a pawn has just passed over, such as e3").format(
                text=repr(fields[3][:10])
            ),
        )
    for index in (4, 5):
        if not _NUMBER.match(fields[index]):
            raise _Refusal(
                FIELDS[index],
                gettext("{text} is not a whole number (digits only, such as {example})").format(
                    text=repr(fields[index][:10]), example=("0", "1")[index - 4]
                ),
            )
    return fields


def _check_placement(placement: str) -> None:
    ranks = placement.split("/")
    if len(ranks) == 1:
        raise _Refusal(
            FIELDS[0],
            gettext(
                "{text} is not the pieces: a FEN starts with the 8 ranks, rank 8 "
                "first, separated by / (rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR)"
            ).format(text=repr(placement[:10])),
        )
    if len(ranks) != 8:
        raise _Refusal(
            FIELDS[0],
            ngettext(
                "{count} rank, not 8 (ranks are separated by /, rank 8 first)",
                "{count} ranks, not 8 (ranks are separated by /, rank 8 first)",
                len(ranks),
            ).format(count=len(ranks)),
        )
    for number, rank in zip(range(8, 0, -1), ranks, strict=False):
        squares, digit = 0, False
        for char in rank:
            if char in "0123456789" and digit:
                raise _Refusal(
                    FIELDS[0],
                    gettext(
                        "rank {number} ({text}) has two digits in a row: write the empty squares as one number"
                    ).format(number=number, text=repr(rank[:10])),
                )
            if char in "12345678":
                squares += int(char)
            elif char in "pnbrqkPNBRQK":
                squares += 1
            elif char in "09":
                raise _Refusal(
                    FIELDS[0],
                    gettext("rank {number} holds {text}: digits count empty squares, from 1 to 8").format(
                        number=number, text=repr(char)
                    ),
                )
            else:
                raise _Refusal(
                    FIELDS[0],
                    gettext(
                        "rank {number} holds {text}, which is no piece: pieces are "
                        "KQRBNP for White, kqrbnp for Black, and digits 1-8 count empty squares"
                    ).format(number=number, text=repr(char)),
                )
            digit = char in "0123456789"
        if squares != 8:
            raise _Refusal(
                FIELDS[0],
                gettext("rank {number} ({text}) has {count} squares, not 8").format(
                    number=number, text=repr(rank[:10]), count=squares
                ),
            )


def _position_problems(board: chess.Board, castling: str) -> list[_Refusal]:
    """What makes ``board`` impossible, in chess words, the pieces first;
    empty when ``board.status()`` finds nothing wrong. ``castling`` is the
    FEN's field (python-chess keeps only the rights it could place)."""
    status = board.status()
    if status == chess.STATUS_VALID:
        return []
    found = [_Refusal(FIELDS[0], text) for text in _material_problems(board)]
    if status & chess.STATUS_BAD_CASTLING_RIGHTS:
        found += [_Refusal(FIELDS[2], text) for text in _castling_problems(board, castling)]
    if status & chess.STATUS_INVALID_EP_SQUARE:
        found.append(_Refusal(FIELDS[3], _ep_problem(board)))
    if status & chess.STATUS_OPPOSITE_CHECK:
        found.append(
            _Refusal(
                FIELDS[1],
                gettext("{side} is in check but it is {other}'s move: the side not to move cannot be in check").format(
                    side=side_name(not board.turn), other=side_name(board.turn)
                ),
            )
        )
    elif status & (chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK):
        single = len(board.checkers()) == 1  # only an en passant square makes one checker impossible
        found.append(_Refusal(FIELDS[3] if single else FIELDS[0], _check_problem(board)))
    if not found:  # a flag this module does not word (python-chess added one): still in chess words
        found.append(_Refusal(FIELDS[0], gettext("no game of chess can reach this position")))
    return found


def _material_problems(board: chess.Board) -> list[str]:
    found = []
    for color in chess.COLORS:
        side = side_name(color)
        kings = len(board.pieces(chess.KING, color))
        if kings != 1:
            text = gettext("{side} has no king") if kings == 0 else gettext("too many kings: {side} has {count}")
            found.append(text.format(side=side, count=kings))
        pawns = len(board.pieces(chess.PAWN, color))
        if pawns > 8:
            found.append(gettext("{side} has {count} pawns, at most 8").format(side=side, count=pawns))
        pieces = len(chess.SquareSet(board.occupied_co[color]))
        if pieces > 16:
            found.append(gettext("{side} has {count} pieces and pawns, at most 16").format(side=side, count=pieces))
    back = chess.SquareSet(board.pawns & chess.BB_BACKRANKS)
    if back:
        names = ", ".join(chess.square_name(s) for s in back)
        found.append(
            gettext(
                "pawns on the first or last rank ({squares}): a pawn never stands on its first rank "
                "and promotes on reaching the last"
            ).format(squares=names)
        )
    return found


def _castling_problems(board: chess.Board, castling: str) -> list[str]:
    """Each castling right that the kings and rooks deny; KQkq are checked
    on the FEN's letters (standard chess: king on e1/e8, rook in the
    corner), other letters and Chess960 on the rights python-chess kept."""
    found = []
    for letter in castling:
        if letter not in "KQkq" or board.chess960:
            continue
        color = letter.isupper()
        back = 0 if color else 7
        corner = chess.square(7 if letter in "Kk" else 0, back)
        found += _denied(board, color, corner, chess.square(4, back))
    if not found:
        for corner in chess.SquareSet(board.castling_rights & ~board.clean_castling_rights()):
            color = chess.WHITE if chess.square_rank(corner) == 0 else chess.BLACK
            king = board.king(color)
            found += _denied(board, color, corner, king if king is not None else chess.square(4, 0 if color else 7))
    return found or [gettext("the castling rights do not fit the kings and rooks")]


def _denied(board: chess.Board, color: chess.Color, corner: chess.Square, king: chess.Square) -> list[str]:
    """Why ``color`` may not castle with the rook on ``corner`` (none when it may)."""
    king_side = chess.square_file(corner) > chess.square_file(king)
    if board.piece_at(corner) != chess.Piece(chess.ROOK, color):
        text = (
            (
                gettext("White cannot castle king side: there is no white rook on {square}"),
                gettext("White cannot castle queen side: there is no white rook on {square}"),
            ),
            (
                gettext("Black cannot castle king side: there is no black rook on {square}"),
                gettext("Black cannot castle queen side: there is no black rook on {square}"),
            ),
        )[color == chess.BLACK][not king_side]
        return [text.format(square=chess.square_name(corner))]
    if board.king(color) != king or chess.square_rank(king) != chess.square_rank(corner):
        text = (
            (
                gettext("White cannot castle king side: the white king is not on {square}"),
                gettext("White cannot castle queen side: the white king is not on {square}"),
            ),
            (
                gettext("Black cannot castle king side: the black king is not on {square}"),
                gettext("Black cannot castle queen side: the black king is not on {square}"),
            ),
        )[color == chess.BLACK][not king_side]
        return [text.format(square=chess.square_name(king))]
    return []


def _ep_problem(board: chess.Board) -> str:
    square = board.ep_square
    assert square is not None  # only asked when python-chess flags the en passant square
    name = chess.square_name(square)
    rank = 6 if board.turn == chess.WHITE else 3
    if chess.square_rank(square) != rank - 1:
        return gettext(
            "{square} cannot be the en passant square with {side} to move: it must be on rank {rank}"
        ).format(square=name, side=side_name(board.turn), rank=rank)
    ahead = 8 if board.turn == chess.BLACK else -8  # from the square passed over, towards the mover's pawn
    text = (
        gettext(
            "{square} is not the square a white pawn has just passed over: that needs a white "
            "pawn on {pawn}, and {square} and {start} empty"
        )
        if board.turn == chess.BLACK
        else gettext(
            "{square} is not the square a black pawn has just passed over: that needs a black "
            "pawn on {pawn}, and {square} and {start} empty"
        )
    )
    return text.format(square=name, pawn=chess.square_name(square + ahead), start=chess.square_name(square - ahead))


def _check_problem(board: chess.Board) -> str:
    king = board.king(board.turn)
    side = side_name(board.turn)
    if king is None:
        return gettext("{side} is in check in a way no last move can give").format(side=side)
    checkers = board.checkers()
    pieces = [
        gettext(_PIECE_NAMES[board.piece_type_at(s) or chess.PAWN]).format(square=chess.square_name(s))
        for s in checkers
    ]
    names = gettext(" and ").join(pieces)
    if len(checkers) > 2:
        return gettext("{side} is in check from {count} pieces ({pieces}): no move gives more than two checks").format(
            side=side, count=len(checkers), pieces=names
        )
    if len(checkers) == 1 and board.ep_square is not None:
        return gettext(
            "{side} is in check from {pieces}, which {other}'s last move, a pawn's two-square "
            "move past {square}, cannot have given"
        ).format(side=side, pieces=names, other=side_name(not board.turn), square=chess.square_name(board.ep_square))
    return gettext("{side} is in check from {pieces} at once, which no last move can give").format(
        side=side, pieces=names
    )
