# SPDX-License-Identifier: GPL-3.0-or-later
"""The cyclic garbage collector is paused during a search and restored after."""

from __future__ import annotations

import gc
import threading
from typing import Any

import chess
import pytest

from pychessdraw.deadposition import can_checkmate, is_dead, solver
from pychessdraw.deadposition.closure import explore as real_explore
from pychessdraw.deadposition.gcpause import paused_gc

# A long helpmate of a real game (thousands of nodes, far more allocations
# than the collector's first threshold).
LONG = "8/8/2K3Q1/8/5P1P/1k4P1/8/4b3 b - - 0 54"


def test_collector_paused_during_a_search_and_enabled_after(monkeypatch: pytest.MonkeyPatch) -> None:
    assert gc.isenabled()
    during = []

    def explore(*args: Any, **kwargs: Any) -> Any:
        during.append(gc.isenabled())
        return real_explore(*args, **kwargs)

    monkeypatch.setattr(solver, "explore", explore)
    v = can_checkmate(chess.Board(LONG), chess.BLACK, nodes=200_000)
    assert v.winnable is True and v.nodes > 1_000
    assert during and not any(during)
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        can_checkmate(chess.Board(LONG), chess.BLACK, nodes=2_000)
        is_dead(chess.Board(LONG), nodes=2_000)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_and_concurrent_pauses_resume_once() -> None:
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with paused_gc():
            inside.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    t.start()
    inside.wait(10)
    can_checkmate(chess.Board(LONG), chess.BLACK, nodes=500)
    assert not gc.isenabled()  # the other thread's search still runs
    leave.set()
    t.join()
    assert gc.isenabled()


def test_an_error_inside_resumes_the_collector() -> None:
    try:
        with paused_gc():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
