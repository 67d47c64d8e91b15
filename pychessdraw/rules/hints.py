"""Knowledge that is not a rule: it never ends a game.

Two pieces of engine draw-evaluation knowledge: can checkmate still be
*forced* against any defence (the classic "cannot force mate" material
list), and material that is drawn in practice though not dead (the draw
evaluation of endgames: KNN v K, minor v minor...). These are what an engine
or a coach would say; the referee reports them apart from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ..i18n import gettext
from ..outcome import side_name


def can_force_mate(board: chess.Board, color: chess.Color) -> bool:
    """Per side: a queen, rook or pawn, or the bishop pair, or
    bishop and knight, or three knights. Otherwise mate needs the opponent's
    help (it may still be *possible*: see rules.material)."""
    ours = board.occupied_co[color]
    if ours & (board.queens | board.rooks | board.pawns):
        return True
    bishops = ours & board.bishops
    knights = ours & board.knights
    if bishops & chess.BB_DARK_SQUARES and bishops & chess.BB_LIGHT_SQUARES:
        return True
    if bishops and knights:
        return True
    return chess.popcount(knights) >= 3


@dataclass(frozen=True)
class Hints:
    can_force_mate: dict[chess.Color, bool]
    practical_draw: str | None
    notes: tuple[str, ...]


def _minors(board: chess.Board, color: chess.Color) -> tuple[int, int]:
    ours = board.occupied_co[color]
    return chess.popcount(ours & board.knights), chess.popcount(ours & board.bishops)


def _has_bishop_pair(board: chess.Board, color: chess.Color) -> bool:
    bishops = board.occupied_co[color] & board.bishops
    return bool(bishops & chess.BB_DARK_SQUARES and bishops & chess.BB_LIGHT_SQUARES)


def practical_draw(board: chess.Board) -> str | None:
    """The classes of material drawn in practice though not dead, or None
    (in the current language, :mod:`pychessdraw.i18n`)."""
    if board.pawns | board.rooks | board.queens:
        return None
    (wn, wb), (bn, bb) = _minors(board, chess.WHITE), _minors(board, chess.BLACK)
    for strong, (sn, sb), (wn_, wb_) in ((chess.WHITE, (wn, wb), (bn, bb)), (chess.BLACK, (bn, bb), (wn, wb))):
        weak_minors = wn_ + wb_
        if (sn, sb) == (2, 0) and weak_minors == 0:
            return gettext("two knights cannot force mate against a bare king")
        if sn + sb == 1 and weak_minors == 1:
            return gettext("one minor piece each")
        if (sn, sb) == (2, 0) and weak_minors == 1:
            return gettext("a minor piece holds against two knights")
        if (sn, sb) == (0, 2) and (wn_, wb_) == (0, 1):
            return gettext("two bishops against a bishop")
        if sn + sb == 2 and weak_minors == 1 and not _has_bishop_pair(board, strong):
            return gettext("two minor pieces against one, without the bishop pair")
    return None


def side_notes(board: chess.Board, color: chess.Color, can_force: bool) -> list[str]:
    """What is known of ``color``'s winning chances, in sentences (the one
    place they are written; the page's panel shows them too)."""
    name = side_name(color)
    ours = board.occupied_co[color] & ~board.kings
    notes = []
    if not can_force and ours:
        notes.append(gettext("{side} cannot force mate: it needs the opponent's help").format(side=name))
    # One-sided draw knowledge: a lone minor piece does not win against pawns.
    if (
        chess.popcount(ours) == 1
        and ours & (board.knights | board.bishops)
        and board.occupied_co[not color] & board.pawns
    ):
        notes.append(
            gettext("{side} has a lone minor piece: it does not win against pawns in practice").format(side=name)
        )
    return notes


def hints(board: chess.Board) -> Hints:
    force = {c: can_force_mate(board, c) for c in chess.COLORS}
    notes = [note for color in chess.COLORS for note in side_notes(board, color, force[color])]
    return Hints(force, practical_draw(board), tuple(notes))
