#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark of the pychessdraw web page in headless Chromium over loopback.

    python3 benchmarks/web_bench.py [--plies 200] [--runs 3] [--json out.json] [--no-build]

Measures, from navigation start (the page's own performance.now()):
  * board drawn (chessground on screen), engine ready (Bridge() built in the
    worker), first state on screen; cold (empty HTTP cache) and warm (reload,
    the browser revalidates every file: 304s);
  * a bare Pyodide boot of the same files in a module worker (web/dist/bare.html),
    cold and warm, for comparison;
  * the time from a move (Enter in the move box) to the updated draw panel over
    a PLIES-ply game that no rule ends, from window.__perf marks inside the page:
    median and p95 overall, for the first and for the last 50 plies.
Goals: board <= 500 ms; engine ready <= bare boot + 500 ms; panel p95 < 30 ms,
independent of the game length. The figures are printed; exit status is 0
whether or not a goal is met (see the "goal" column).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = WEB / "dist"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def long_game(plies: int, seed: int = 2024) -> list[str]:
    """A deterministic random game of `plies` moves after which no rule has ended it."""
    import chess

    rng = random.Random(seed)
    for _attempt in range(200):
        board = chess.Board()
        ok = True
        while len(board.move_stack) < plies:
            moves = list(board.legal_moves)
            rng.shuffle(moves)
            # prefer quiet moves so that material stays on the board
            moves.sort(key=lambda m: board.is_capture(m) or m.promotion is not None)
            for m in moves:
                board.push(m)
                if board.outcome(claim_draw=False) is None and not board.is_insufficient_material():
                    break
                board.pop()
            else:
                ok = False
                break
        if ok:
            return [m.uci() for m in board.move_stack]
    raise RuntimeError("could not generate a long game")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def chromium(p):
    for exe in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(exe).exists():
            return p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
    return p.chromium.launch(args=CHROMIUM_ARGS)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3, help="page loads per cold/warm figure (median reported)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()

    if not a.no_build or not (DIST / "index.html").exists():
        subprocess.run([sys.executable, str(WEB / "build.py")], check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, str(WEB))
    import serve  # noqa: E402

    srv = serve.make_server(DIST, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_address[1]}/"

    from playwright.sync_api import sync_playwright

    res: dict = {"plies": a.plies, "runs": a.runs}
    with sync_playwright() as p:
        browser = chromium(p)

        def app_load(ctx, page):
            page.goto(base)
            page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=120_000)
            return page.evaluate("() => window.__boot")

        def bare_load(page):
            page.goto(base + "bare.html")
            page.wait_for_selector("body[data-bare=ready]", state="attached", timeout=120_000)
            return page.evaluate("() => window.__bare")

        loads = {"app_cold": [], "app_warm": [], "bare_cold": [], "bare_warm": []}
        for _ in range(a.runs):
            # app: cold then warm in one context (same HTTP cache)
            ctx = browser.new_context()
            page = ctx.new_page()
            loads["app_cold"].append(app_load(ctx, page))
            page.evaluate("() => localStorage.clear()")
            page.goto("about:blank")
            loads["app_warm"].append(app_load(ctx, page))
            ctx.close()
            ctx = browser.new_context()
            page = ctx.new_page()
            loads["bare_cold"].append(bare_load(page))
            page.goto("about:blank")
            loads["bare_warm"].append(bare_load(page))
            ctx.close()

        def med(key, field):
            return statistics.median(x[field] for x in loads[key])

        for kind in ("cold", "warm"):
            res[f"board_ms_{kind}"] = med(f"app_{kind}", "board_ms")
            res[f"engine_ms_{kind}"] = med(f"app_{kind}", "ready_ms")
            res[f"first_state_ms_{kind}"] = med(f"app_{kind}", "restored_ms")
            res[f"bare_ms_{kind}"] = med(f"bare_{kind}", "nav_ms")
        res["worker_timings_cold"] = loads["app_cold"][0]["worker"]

        # the long game
        moves = long_game(a.plies)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        app_load(ctx, page)
        page.evaluate("() => { window.__perf.length = 0; }")
        box = page.get_by_test_id("move-input")
        for i, uci in enumerate(moves):
            seq = page.evaluate("() => Number(document.body.dataset.seq || 0)")
            box.fill(uci)
            box.press("Enter")
            t_end = time.monotonic() + 20
            # as a player would: the next move comes after the position's analysis
            while page.evaluate("() => Number(document.body.dataset.seq || 0) <= %d || document.body.dataset.idle !== '1'" % seq):
                if time.monotonic() > t_end:
                    raise RuntimeError(f"no answer to move {i + 1} {uci}")
            err = page.get_by_test_id("error")
            if err.is_visible():
                raise RuntimeError(f"move {i + 1} {uci} refused: {err.inner_text()}")
        page.wait_for_timeout(100)
        perf = page.evaluate("() => window.__perf.filter(r => r.op === 'play')")
        ana = page.evaluate("() => window.__perf.filter(r => r.op === 'analyse')")
        plies_done = page.evaluate("() => Number(document.querySelector('[data-testid=draw-panel]').dataset.ply)")
        ctx.close()
        browser.close()
    srv.shutdown()

    ms = [r["ms"] for r in perf]
    paint = [r.get("paint_ms", r["ms"]) for r in perf]
    py = [r["worker_ms"] for r in perf]
    ui = [r["ms"] - r.get("recv_ms", r["ms"]) for r in perf]
    res.update(
        plies_played=plies_done,
        panel_median_ms=statistics.median(ms), panel_p95_ms=pct(ms, 95), panel_max_ms=max(ms),
        panel_first50_p95_ms=pct(ms[:50], 95), panel_last50_p95_ms=pct(ms[-50:], 95),
        panel_first50_median_ms=statistics.median(ms[:50]), panel_last50_median_ms=statistics.median(ms[-50:]),
        paint_median_ms=statistics.median(paint), paint_p95_ms=pct(paint, 95),
        python_median_ms=statistics.median(py), python_p95_ms=pct(py, 95),
        ui_render_median_ms=statistics.median(ui), ui_render_p95_ms=pct(ui, 95),
        analyse_count=len(ana),
        analyse_median_ms=statistics.median([r["ms"] for r in ana]) if ana else None,
        analyse_p95_ms=pct([r["ms"] for r in ana], 95) if ana else None,
    )

    def line(name, value, goal=""):
        print(f"  {name:<44} {value:>9.1f} ms   {goal}")

    print(f"pychessdraw web benchmark (headless Chromium, loopback; median of {a.runs} loads)")
    for kind in ("cold", "warm"):
        print(f" {kind} load:")
        b, e, bare = res[f"board_ms_{kind}"], res[f"engine_ms_{kind}"], res[f"bare_ms_{kind}"]
        line("board drawn", b, f"goal <= 500: {'met' if b <= 500 else 'MISSED'}")
        line("engine ready (Bridge built)", e,
             f"goal <= bare + 500 = {bare + 500:.0f}: {'met' if e <= bare + 500 else 'MISSED'}")
        line("first game state on screen", res[f"first_state_ms_{kind}"])
        line("bare Pyodide boot, same files, module worker", bare)
    wt = res["worker_timings_cold"]
    print(f"  (cold, inside the worker: Pyodide {wt['pyodide']} ms, wheels fetched {wt['wheels_fetched']} ms, "
          f"unpacked {wt['wheels_unpacked']} ms, Bridge ready {wt['bridge']} ms)")
    print(f" move -> draw panel updated, {plies_done}-ply game ({len(ms)} moves typed):")
    line("median", res["panel_median_ms"])
    line("p95", res["panel_p95_ms"], f"goal < 30: {'met' if res['panel_p95_ms'] < 30 else 'MISSED'}")
    line("max", res["panel_max_ms"])
    line("p95, plies 1-50", res["panel_first50_p95_ms"])
    line(f"p95, plies {max(1, len(ms) - 49)}-{len(ms)}", res["panel_last50_p95_ms"])
    line("median, plies 1-50 / last 50", res["panel_first50_median_ms"],
         f"/ {res['panel_last50_median_ms']:.1f} ms")
    line("to next frame painted: median", res["paint_median_ms"])
    line("to next frame painted: p95", res["paint_p95_ms"])
    line("of which Python (bridge.handle) median", res["python_median_ms"])
    line("of which Python (bridge.handle) p95", res["python_p95_ms"])
    line("of which UI rendering after the answer: median", res["ui_render_median_ms"])
    line("of which UI rendering after the answer: p95", res["ui_render_p95_ms"])
    if ana:
        print(f" follow-up 'analyse' (page-budget dead-position search, after the panel is updated; {len(ana)} applied):")
        line("answer applied: median", res["analyse_median_ms"])
        line("answer applied: p95", res["analyse_p95_ms"])
    if a.json:
        a.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
