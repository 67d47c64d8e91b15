"""Proofs on the board: what the page needs to play a mating line or to mark
why a side cannot mate, and the verdicts found per position.

:class:`VerdictCache` keeps the dead-position verdicts of every position the
page has had searched (the live one, browsed ones), keyed by the position
(pieces, side to move, castling rights, a legal en passant square): browsing
back to a position answers at once, and a deeper search refines only what a
shallower one left open. Verdicts do not depend on the move counters or the
history (FIDE 5.2.2 asks only whether some series of legal moves mates).

:func:`proof_view` turns a side's verdict into display-ready facts: each
move of the mating line with the position after it (the page never parses
a FEN or a SAN), or the squares that show why the side cannot mate. Limits:
the marks illustrate the proof, they are not the proof itself; a
cannot-mate answer found by exhausting the search (not by material or
locked pawns) has no squares to mark, only its sentence.
"""

from __future__ import annotations

from collections import OrderedDict

import chess

from ..contract import ColorName
from ..deadposition import Verdict
from ..deadposition.material import material_cannot_mate
from ..deadposition.reach import saturate
from ..deadposition.static import head_on_pawns
from ..i18n import gettext, ngettext
from ..outcome import side_name
from ..rules.dead import SearchBudget
from .contract import ProofMark, ProofStep, ProofView, Winnability
from .present import proof_line

PositionId = tuple[str, bool, int, int | None, bool]


def position_id(board: chess.Board) -> PositionId:
    """The position as the dead-position search sees it (no move counters)."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.clean_castling_rights(), ep, board.chess960)


class VerdictCache:
    """The verdicts found per position, the most recently used kept
    (at most ``size`` positions: a long game browsed end to end fits)."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._found: OrderedDict[PositionId, tuple[SearchBudget, dict[chess.Color, Verdict]]] = OrderedDict()

    def get(self, board: chess.Board) -> tuple[SearchBudget, dict[chess.Color, Verdict]] | None:
        key = position_id(board)
        found = self._found.get(key)
        if found is not None:
            self._found.move_to_end(key)
        return found

    def put(self, board: chess.Board, budget: SearchBudget, found: dict[chess.Color, Verdict]) -> None:
        """Keep ``found``, unless a decided answer would be traded for an undecided one."""
        key = position_id(board)
        old = self._found.get(key)
        if old is not None and _decided(old[1]) > _decided(found):
            return
        self._found[key] = (budget, dict(found))
        self._found.move_to_end(key)
        while len(self._found) > self.size:
            self._found.popitem(last=False)


def _decided(found: dict[chess.Color, Verdict]) -> int:
    return sum(v.winnable is not None for v in found.values())


def _steps(board: chess.Board, sans: list[str]) -> list[ProofStep]:
    replay = board.copy(stack=False)
    steps: list[ProofStep] = []
    for san in sans:
        number, white = replay.fullmove_number, replay.turn == chess.WHITE
        move = replay.parse_san(san)
        replay.push(move)
        steps.append(
            {
                "san": san,
                "label": f"{number}.{san}" if white else f"{number}...{san}",
                "fen": replay.fen(),
                "last_move": [chess.square_name(move.from_square), chess.square_name(move.to_square)],
                "check": replay.is_check(),
                "mate": replay.is_checkmate(),
            }
        )
    return steps


def cannot_mate_marks(board: chess.Board, color: chess.Color) -> tuple[list[ProofMark], str]:
    """The squares that show why ``color`` cannot mate, and what they mean:
    its pieces where its material cannot mate; else the pawns locked for
    good and the squares the other king can ever reach (the reachability
    proof's fixpoint, :func:`pychessdraw.deadposition.reach.saturate`);
    else nothing."""
    if material_cannot_mate(board, color) is not None:
        marks: list[ProofMark] = [
            {"square": chess.square_name(sq), "kind": "piece"} for sq in chess.scan_forward(board.occupied_co[color])
        ]
        return marks, gettext("Marked: the pieces of {side}, which cannot checkmate by any series of moves.").format(
            side=side_name(color)
        )
    locked = head_on_pawns(board)
    locked |= locked << 8  # both pawns of each locked pair
    if not locked or (board.ep_square is not None and board.has_legal_en_passant()):
        return [], ""
    saturated = saturate(board)
    if saturated is None:  # pragma: no cover - only with a promoter
        return [], ""
    pieces, frozen = saturated
    wall = locked & (frozen[chess.WHITE] | frozen[chess.BLACK])
    region = 0
    for p in pieces:
        if p.kind == chess.KING and p.color != color:
            region = p.reach & ~board.occupied
    marks = [{"square": chess.square_name(sq), "kind": "wall"} for sq in chess.scan_forward(wall)]
    marks += [{"square": chess.square_name(sq), "kind": "region"} for sq in chess.scan_forward(region)]
    if not marks:
        return [], ""
    if color == chess.WHITE:
        legend = gettext(
            "Circled: the pawns locked for good. Shaded: the squares the black king can ever reach;"
            " no piece of White can checkmate it there."
        )
    else:
        legend = gettext(
            "Circled: the pawns locked for good. Shaded: the squares the white king can ever reach;"
            " no piece of Black can checkmate it there."
        )
    return marks, legend


def proof_view(board: chess.Board, ply: int, color: chess.Color, verdict: Verdict, win: Winnability) -> ProofView:
    """``color``'s answer in ``board`` (the game's position at ``ply``) as
    the page shows it on a board; ``win`` is the panel's words for it."""
    name: ColorName = "white" if color == chess.WHITE else "black"
    view: ProofView = {
        "ply": ply,
        "color": name,
        "answer": win["answer"],
        "title": win["text"],
        "text": win["proof"],
        "legend": "",
        "start_fen": board.fen(),
        "steps": [],
        "marks": [],
    }
    if win["answer"] == "yes" and verdict.line:
        replay = board.copy(stack=False)
        sans = [replay.san_and_push(m) for m in verdict.line]
        steps = _steps(board, proof_line(board, color, sans) or sans)
        view["steps"] = steps
        view["title"] = ngettext(
            "{side} can checkmate: a mating line of {count} ply",
            "{side} can checkmate: a mating line of {count} plies",
            len(steps),
        ).format(side=side_name(color), count=len(steps))
    elif win["answer"] == "no":
        view["marks"], view["legend"] = cannot_mate_marks(board, color)
    return view


__all__ = ["VerdictCache", "cannot_mate_marks", "position_id", "proof_view"]
