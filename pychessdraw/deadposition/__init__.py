# SPDX-License-Identifier: GPL-3.0-or-later
"""Dead positions (FIDE 5.2.2) and flag falls (FIDE 6.9): can a side still mate?

``can_checkmate(board, color)`` answers with a :class:`Verdict`:
``True`` with a replay-verified helpmate line, ``False`` only with a proof
(material, locked pawns, or exhaustive search), ``None`` when the budget ran
out.  ``quick_verdict`` is the static, search-free part for scanning every
ply; ``is_dead`` asks both sides.

Modules: ``material`` (material theorems), ``reach`` (locked-pawn
reachability), ``forced`` (single-reply moves), ``helpmate`` and
``ordering`` (the search), ``static`` (cheap gate), ``verify`` (replay of
lines), ``solver`` (the pipeline).
"""

from .solver import can_checkmate, is_dead, quick_verdict
from .verdict import Verdict

__all__ = ["Verdict", "can_checkmate", "is_dead", "quick_verdict"]
