# SPDX-License-Identifier: GPL-3.0-or-later
"""Node and wall-clock budget shared by all search phases of one question."""

from __future__ import annotations

import time


class Budget:
    """Counts search nodes; reports exhaustion by node count or deadline.

    The clock is read every 8 nodes: a node costs tens of microseconds (up to
    a millisecond when a static proof runs), the clock about 0.1 us.
    """

    __slots__ = ("limit", "deadline", "used", "_out")

    def __init__(self, nodes: int, seconds: float | None) -> None:
        self.limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.used = 0
        self._out = False

    def spend(self, n: int = 1) -> bool:
        """Account for ``n`` nodes; return True when the budget is exhausted."""
        self.used += n
        if self.used >= self.limit:
            self._out = True
        elif self.deadline is not None and (self.used & 7) == 0:
            if time.perf_counter() >= self.deadline:
                self._out = True
        return self._out

    @property
    def exhausted(self) -> bool:
        if not self._out and self.deadline is not None and time.perf_counter() >= self.deadline:
            self._out = True
        return self._out or self.used >= self.limit

    def share(self, fraction: float) -> Budget:
        """A sub-budget with ``fraction`` of what is left; call ``absorb`` after."""
        left_nodes = max(1, int((self.limit - self.used) * fraction))
        left_time = None
        if self.deadline is not None:
            left_time = max(0.0, (self.deadline - time.perf_counter()) * fraction)
        return Budget(left_nodes, left_time)

    def absorb(self, child: Budget) -> None:
        """Count the nodes a sub-budget used."""
        self.used += child.used
