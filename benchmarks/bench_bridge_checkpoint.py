#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What all-or-nothing costs the bridge: every request starts from a
checkpoint of the game (``Game.checkpoint``: copies of the move list and the
history) and of the bridge's rows, put back on any failure.

    PYTHONPATH=. python benchmarks/bench_bridge_checkpoint.py [--repeat N]

For games of 100, 2,000 and 20,000 plies (the bridge's limit; knight moves
back and forth, restored in one request past the fivefold repetition), it
prints the time of a checkpoint, of a rollback after one move taken back, of
a whole refused request (``play`` on the finished game: checkpoint, refusal,
rollback, JSON) and of a ``status_at`` of the last ply, in microseconds, the
best of N. Figures are printed; the exit status does not depend on them.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Callable

from pychessdraw.web.bridge import Bridge

SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]


def best_us(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    repeat = parser.parse_args().repeat
    print(f"{'plies':>7} {'checkpoint':>11} {'rollback':>9} {'refused':>9} {'status_at':>10}  (us, best of {repeat})")
    for plies in (100, 2_000, 20_000):
        bridge = Bridge()
        reply = bridge.call({"op": "restore", "args": {"moves": (SHUFFLE * plies)[:plies]}})
        assert reply["ok"], reply
        game = bridge.game

        def undo_and_rollback() -> None:
            point = game.checkpoint()
            game.undo()
            game.rollback(point)

        refused = json.dumps({"op": "play", "args": {"move": "e4"}})
        assert not json.loads(bridge.handle(refused))["ok"]
        status = json.dumps({"op": "status_at", "args": {"ply": plies}})
        print(
            f"{plies:>7} {best_us(game.checkpoint, repeat):>11.1f} {best_us(undo_and_rollback, repeat):>9.1f} "
            f"{best_us(lambda: bridge.handle(refused), repeat):>9.1f} "
            f"{best_us(lambda: bridge.handle(status), repeat):>10.1f}"
        )


if __name__ == "__main__":
    main()
