# SPDX-License-Identifier: GPL-3.0-or-later
"""Dead positions (FIDE 5.2.2) and flag falls (FIDE 6.9): can a side still mate?

``can_checkmate(board, color)`` answers with a :class:`Verdict`:
``True`` with a helpmate line python-chess has checked move by move,
``False`` only with a proof (material, locked pawns and reachability,
exhaustive search, or a walk over every reachable position), ``None`` when
the budget ran out.  ``is_dead`` asks both sides.  The caller's board is
never modified; Chess960 boards (``board.chess960``) work.

Scanning every ply: ``quick_verdict`` is the static, search-free part (a few
microseconds in ordinary positions, about a millisecond on locked pawn
walls).  It returns ``False`` for material and locked-wall proofs and
``None`` ("open") otherwise, so a scanner should search only where it
matters: on a flag fall (``can_checkmate`` for the opponent), or for the
dead-position rule when at least one side is already ``False`` (e.g. after
the only legal move must capture the last mating piece) or material is low.

Limits: pure Python (Pyodide-friendly), so a search node costs tens of
microseconds (about half that with the optional compiled build); composed
positions that need tempo counting over large reachable sets stay
undecided (``None``) within normal budgets.  The 50/75
move and repetition rules are ignored, as in "any series of legal moves".

Modules: ``material`` (material theorems), ``patterns`` (known mate
patterns of small material) and ``directed`` (the search towards one), ``reach`` (locked-pawn
reachability and escape squares), ``forced`` (single-reply moves),
``helpmate`` and ``ordering`` (iterative-deepening search), ``closure``
(walk over reachable positions), ``walkboard`` (the walks' board: a
shorter push), ``keys`` (position keys), ``static``
(cheap gate), ``budget``, ``verify`` (lines checked by python-chess),
``solver`` (the pipeline), ``tighten`` (a shorter line to show people),
``native`` (the same search compiled, where ``pychessdraw-native`` is
installed: ``can_checkmate`` and ``is_dead`` here use it).
"""

from .native import can_checkmate, is_dead
from .solver import quick_verdict
from .verdict import Verdict

__all__ = ["Verdict", "can_checkmate", "is_dead", "quick_verdict"]
