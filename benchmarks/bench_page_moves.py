#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Play view's answers in headless Chromium, against a peer build in the same run:
how soon a move updates the draw panel, and how soon a position shown
says whether each side can mate.

    python benchmarks/bench_page_moves.py [--plies 120] [--games 3] [--rounds 2] [--peer DIR] [--no-build] [--dist DIR]

Per round and per site (this build, web/dist, and --peer, another build of the
page, such as the main branch's: ``git worktree add ../prev main && make -C
../prev site``, then ``--peer ../prev/web/dist``), alternately, each in a
fresh browser context at 1280x900, served by web/serve.py as web_bench.py does:

  move -> panel   a move typed (Enter) until the draw panel shows it: the
                  page's own window.__perf records ("play"), as web_bench.py
  move -> mate    the same keypress until the panel says, for both sides,
                  whether they can mate ("Yes" or "No", not "Not decided
                  yet"): over that game, and over --games real games played
                  in turn (the first lichess-dev games of at least 30 plies,
                  each up to its 80th ply or the first ply where a rule
                  ends it or allows a claim: pawns and pieces on the board,
                  the obvious positions)
  browse -> mate  --games other lichess-dev games imported as PGN (their
                  positions never searched), then ArrowLeft from the end to
                  the start: each keypress until the browsed position's
                  answers are both decided

The two last are timed from outside the page (an init script: the keypress,
then a MutationObserver on the panel's data-ply and the data-white /
data-black of its "can mate" list), so any build compares. A position not
decided within 5 s counts as 5000 ms. Prints, per site, the median, p95 and
worst of each, and this build's p95 and median as ratios of the peer's (the
machine's load moves both alike). Exit status 0 whether or not a goal is met.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import web_bench  # noqa: E402  (the game, the build, web/serve.py, Chromium)

WAIT_S = 5.0
# the keypress (Enter in the move box, an arrow key) and when the panel answers both sides
DECIDED = """
(() => {
  window.__mate = {t0: null, ply: null, where: null, done: []};
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === 'ArrowLeft') window.__mate.t0 = performance.now();
  }, true);
  const check = () => {
    const m = window.__mate, panel = document.querySelector('[data-testid=draw-panel]');
    const win = document.querySelector('[data-testid=winnable]');
    if (m.t0 === null || !panel || !win || Number(panel.dataset.ply) !== m.ply) return;
    // a browsed position: the panel shows its own facts (their "where"), not the live ones meanwhile
    const where = document.getElementById('dp-where');
    if (m.where !== null && !(where && where.textContent.includes(m.where))) return;
    const known = (v) => v === 'true' || v === 'false';
    if (known(win.dataset.white) && known(win.dataset.black)) {
      m.done.push(performance.now() - m.t0);
      m.t0 = null;
    }
  };
  const mo = new MutationObserver(check);
  const start = () => mo.observe(document.body, {subtree: true, attributes: true, childList: true,
    characterData: true, attributeFilter: ['data-ply', 'data-white', 'data-black']});
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
})();
"""


def until_decided(page, ply: int, press, where: str | None = None) -> float:
    """Press (a move or a key) expecting the panel at ``ply`` (and, browsing, the
    words ``where`` in its title); ms until both sides are decided."""
    page.evaluate("([p, w]) => { Object.assign(window.__mate, {ply: p, where: w, done: [], t0: null}); }", [ply, where])
    press()
    end = time.monotonic() + WAIT_S
    while time.monotonic() < end:
        done = page.evaluate("() => window.__mate.done")
        if done:
            return float(done[0])
        time.sleep(0.005)
    return WAIT_S * 1000


def wait_idle(page) -> None:
    end = time.monotonic() + 20
    while not page.evaluate("() => document.body.dataset.idle === '1'"):
        if time.monotonic() > end:
            raise RuntimeError("the page did not come to rest")
        time.sleep(0.005)


def answer_until(page, done, what: str, step: float) -> None:
    """Wait for ``done()``, confirming "the game will be replaced" when asked."""
    end = time.monotonic() + 10
    while not done():
        if page.get_by_test_id("confirm-dialog").is_visible():
            page.get_by_test_id("confirm-yes").click()
        if time.monotonic() > end:
            raise RuntimeError(what)
        time.sleep(step)
    wait_idle(page)


def new_game(page) -> None:
    seq = page.evaluate("() => Number(document.body.dataset.seq || 0)")
    page.get_by_test_id("new-game").click()
    answer_until(
        page, lambda: page.evaluate("(s) => Number(document.body.dataset.seq || 0) > s", seq), "no new game", 0.01
    )


def import_pgn(page, pgn: str, plies: int) -> None:
    page.evaluate("() => { document.getElementById('pgn-box').open = true; }")
    page.get_by_test_id("pgn-input").fill(pgn)
    page.get_by_test_id("load-pgn").click()
    done = lambda: page.get_by_test_id("draw-panel").get_attribute("data-ply") == str(plies)  # noqa: E731
    answer_until(page, done, "the PGN was not imported", 0.02)


def one_site(browser, base: str, game: list[str], played: list[list[str]], browsed: list[list[str]]) -> dict:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(DECIDED)
    page = ctx.new_page()
    bench = web_bench.Bench(browser, base)
    try:
        bench.app(page, "?nosw")
        page.evaluate("() => { window.__perf.length = 0; }")
        mate: list[float] = []
        for i, uci in enumerate(game):
            mate.append(until_decided(page, i + 1, lambda u=uci: bench.play(page, u)))
        panel = [r["ms"] for r in page.evaluate("() => window.__perf.filter(r => r.op === 'play')")]
        print(f"    {len(game)} plies of the random game", file=sys.stderr, flush=True)
        real: list[float] = []
        for moves in played:
            new_game(page)
            for i, uci in enumerate(moves):
                real.append(until_decided(page, i + 1, lambda u=uci: bench.play(page, u)))
            print(f"    a real game played ({len(moves)} plies)", file=sys.stderr, flush=True)
        browse: list[float] = []
        for moves in browsed:
            import_pgn(page, pgn_of(moves), len(moves))
            page.locator("body").click(position={"x": 2, "y": 2})  # the keys browse, outside any text box
            labels = move_labels(moves)
            for ply in range(len(moves) - 1, -1, -1):
                where = "the start position" if ply == 0 else f"after {labels[ply - 1]},"
                browse.append(until_decided(page, ply, lambda: page.keyboard.press("ArrowLeft"), where))
        return {"panel": panel, "mate": mate, "real": real, "browse": browse}
    finally:
        ctx.close()


def real_games(n: int) -> list[list[str]]:
    """The first ``n`` lichess-dev games of at least 30 plies (standard start),
    each up to its 80th ply or the ply before a rule ends it or allows a claim."""
    import io

    import bench_deadposition as deadbench
    import chess.pgn
    from bench_lichess import lichess_games

    out: list[list[str]] = []
    for text in lichess_games(deadbench.SHARED / "corpus" / "lichess-dev.pgn.zst"):
        game = chess.pgn.read_game(io.StringIO(text))
        if game is None or game.headers.get("FEN") or game.headers.get("Variant", "Standard") != "Standard":
            continue
        board, moves = game.board(), []
        for move in game.mainline_moves():
            board.push(move)
            if board.outcome(claim_draw=True) is not None or len(moves) >= 80:
                break
            moves.append(move.uci())
        if len(moves) >= 30:
            out.append(moves)
        if len(out) >= n:
            break
    return out


def move_labels(game: list[str]) -> list[str]:
    """Each move as the page labels it ("12.Nf3", "12...Nc6")."""
    import chess

    board, out = chess.Board(), []
    for uci in game:
        move = chess.Move.from_uci(uci)
        dots = "." if board.turn == chess.WHITE else "..."
        out.append(f"{board.fullmove_number}{dots}{board.san(move)}")
        board.push(move)
    return out


def pgn_of(game: list[str]) -> str:
    import chess

    board = chess.Board()
    return board.variation_san([chess.Move.from_uci(u) for u in game]) + " *"


def summary(ms: list[float]) -> dict[str, float]:
    return {"median": statistics.median(ms), "p95": web_bench.pct(ms, 95), "max": max(ms), "n": len(ms)}


def serve(dist: Path) -> tuple[object, str]:
    sys.path.insert(0, str(web_bench.WEB))
    import serve as web_serve  # noqa: E402  (web/serve.py)

    srv = web_serve.make_server(dist.resolve(), "127.0.0.1", 0, compress=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--games", type=int, default=3, help="real games played, and as many others browsed")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--peer", type=Path, help="another built site (its dist/) measured in the same run")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--dist", type=Path, help="measure this built site instead of web/dist (implies --no-build)")
    a = ap.parse_args()
    dist = a.dist or web_bench.DIST
    if not a.dist and (not a.no_build or not (dist / "index.html").exists()):
        subprocess.run([sys.executable, str(web_bench.WEB / "build.py")], check=True, stdout=subprocess.DEVNULL)
    sites = {"this build": dist} | ({"peer": a.peer} if a.peer else {})
    game = web_bench.long_game(a.plies)
    games = real_games(2 * a.games)
    played, browsed = games[: a.games], games[a.games :]
    servers = {name: serve(path) for name, path in sites.items()}
    runs: dict[str, dict[str, list[float]]] = {
        name: {"panel": [], "mate": [], "real": [], "browse": []} for name in sites
    }
    start_load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = web_bench.chromium(p)
        for r in range(a.rounds):
            for name in sites if r % 2 == 0 else reversed(list(sites)):
                got = one_site(browser, servers[name][1], game, played, browsed)
                for k, v in got.items():
                    runs[name][k] += v
                print(f"  round {r + 1}: {name} done", file=sys.stderr, flush=True)
        browser.close()
    for srv, _ in servers.values():
        srv.shutdown()

    labels = {
        "panel": "move -> panel",
        "mate": "move -> can mate, random game",
        "real": "move -> can mate, real games",
        "browse": "browse -> can mate, imported",
    }
    print(
        f"pychessdraw Play view, {a.plies}-ply game, {a.rounds} rounds, headless Chromium {browser.version}; "
        f"load average {start_load} at the start, " + ", ".join(f"{x:.1f}" for x in os.getloadavg()) + " at the end"
    )
    for name, path in sites.items():
        print(f" {name}: {path}")
        for k, label in labels.items():
            s = summary(runs[name][k])
            undecided = sum(x >= WAIT_S * 1000 for x in runs[name][k]) if k != "panel" else 0
            over = sum(x >= 100 for x in runs[name][k])
            print(
                f"  {label:<28} median {s['median']:7.1f} ms  p95 {s['p95']:7.1f} ms  max {s['max']:7.1f} ms"
                f"  ({s['n']} positions, {over} at 100 ms or more, {undecided} not decided in {WAIT_S:.0f} s)"
            )
    if a.peer:
        print(" this build / peer:")
        for k, label in labels.items():
            mine, peer = summary(runs["this build"][k]), summary(runs["peer"][k])
            print(f"  {label:<28} p95 {mine['p95'] / peer['p95']:.2f}x, median {mine['median'] / peer['median']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
