"""A line of progress on standard error, rewritten in place: the CLI's scan
and the audit both show one. Only when enabled (a terminal, or asked for);
it stops, and the work goes on, when the stream cannot be written (a full or
closed standard error is not worth failing a batch for)."""

from __future__ import annotations

import time
from typing import TextIO


class Progress:
    """Games and plies done so far, shown at most every ``every`` seconds.
    Subclasses say it in their own words (:meth:`line`, :meth:`done`)."""

    def __init__(self, stream: TextIO, enabled: bool, every: float = 0.5) -> None:
        self.stream, self.enabled, self.every = stream, enabled, every
        self.games = self.plies = 0
        self.start = self.last = time.perf_counter()

    def add(self, games: int, plies: int) -> None:
        self.games += games
        self.plies += plies
        now = time.perf_counter()
        if self.enabled and now - self.last >= self.every:
            self.last = now
            self._show("\r" + self.line(max(1e-9, now - self.start)))

    def line(self, seconds: float) -> str:
        return f"{self.games} games, {self.plies} plies, {self.plies / seconds:,.0f} plies/s"

    def done(self) -> str:
        return f"\r{self.games} games, {self.plies} plies, done.{' ' * 20}\n"

    def close(self) -> None:
        if self.enabled:
            self._show(self.done())

    def _show(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except OSError:
            self.enabled = False
