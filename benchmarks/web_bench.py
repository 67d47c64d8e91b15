#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Start-up and move benchmark of the pychessdraw web page, in headless Chromium
over loopback, against a bare Pyodide boot of the same files in the same run.

    python3 benchmarks/web_bench.py [--runs 3] [--plies 200] [--levers] [--json out.json] [--no-build] [--dist DIR]

The bare boot is web/bench/bare.html (served beside web/dist, not part of
the public site): a module worker that runs loadPyodide()
from the same dist/pyodide/ files and imports nothing. Every figure is the
median of --runs loads, each in a fresh browser context (empty HTTP cache,
no service worker), served by web/serve.py (gzip, as a static host):

  cold        engine ready (window.__boot.ready_ms, from navigation start) on a
              first visit                              goal <= 0.5 x bare cold
  repeat      the same context again after the service worker holds the site
                                                       goal <= 1500 ms
  offline     the same context with the network off: reload, engine ready,
              then a move played (must work)
  throttled   cold, Chromium's network emulation at 10 Mbit/s down and up,
              40 ms latency (CDP Network.emulateNetworkConditions)
                                                       goal <= 10000 ms
  board       the board drawn, cold: the page's mark (window.__boot.board_ms,
              chessground has drawn the position) and, measured from outside
              the page (an init script, so any build compares), the frame
              showing its pieces painted (on a first visit index.html holds
              the start position: web/start_board.py)  goal <= 300 ms (painted)
              beside the page's first contentful paint and the browser's floor:
              the first paint of a small static page of the build
  move        a move typed (Enter) -> draw panel updated, p95 over a
              PLIES-ply game (window.__perf)           goal < 30 ms

--locale de-DE adds, in the same run, the page in that browser locale
beside English (en-US), alternately: cold start-up, repeat visit (the
catalog of the page's words is fetched on a first visit, then comes from
the service worker's cache) and the move -> panel p95 of a game as long.

--levers adds, in the same run, what each start-up lever gives: the page
without the memory snapshot (its request answered 404, so the worker boots
Pyodide, unpacks the wheels, imports pychessdraw), cold and throttled, and the
throttled loads without gzip (the server sends files as they are).
Exit status 0 whether or not a goal is met (see the "goal" column).
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
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import launch as chromium  # noqa: E402  (e2e/chromium.py: the tests' executable and flags)

WEB = ROOT / "web"
DIST = WEB / "dist"
THROTTLE = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}
TIMEOUT_MS = 180_000
# When the first frame showing the board's pieces has been painted: a task
# queued from requestAnimationFrame runs after that frame.
BOARD_PAINTED = """
(() => {
  const mo = new MutationObserver(() => {
    if (!document.querySelector('cg-board piece')) return;
    mo.disconnect();
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { window.__boardPainted = performance.now(); };
      ch.port2.postMessage(null);
    });
  });
  mo.observe(document, {childList: true, subtree: true});
})();
"""


# The first contentful paint of the page (Paint Timing), null before it.
FCP = "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null"


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


def serve_dist(gzip_on: bool):
    sys.path.insert(0, str(WEB))
    import serve  # noqa: E402  (web/serve.py)

    srv = serve.make_server(DIST.resolve(), "127.0.0.1", 0, compress=gzip_on, overlay=WEB / "bench")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


class Bench:
    def __init__(self, browser, base: str):
        self.browser = browser
        self.base = base

    def context(self, throttled: bool = False, snapshot: bool = True, locale: str = "en-US"):
        ctx = self.browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
        ctx.add_init_script(BOARD_PAINTED)
        if not snapshot:  # as if the build had none: the worker boots Python
            ctx.route("**/pyodide/snapshot-*.gz", lambda route: route.fulfill(status=404, body="none"))
        page = ctx.new_page()
        if throttled:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", THROTTLE)
        return ctx, page

    def app(self, page, query: str = "") -> dict:
        page.goto(self.base + query)
        page.wait_for_selector("body[data-engine=ready]", state="attached", timeout=TIMEOUT_MS)
        b = page.evaluate(f"() => ({{...window.__boot, board_painted: window.__boardPainted, fcp: {FCP}}})")
        b["ready"] = b.get("ready_ms") or b.get("engine_ms")
        return b

    def app_fresh(self, query: str = "", snapshot: bool = True) -> dict:
        ctx, page = self.context(snapshot=snapshot)
        try:
            return self.app(page, query)
        finally:
            ctx.close()

    def floor(self) -> float:
        """The browser's own floor: the first contentful paint of a small static
        page of the build (the licence index: one heading, a list of links)."""
        ctx, page = self.context()
        try:
            page.goto(self.base + "LICENSES/index.html")
            page.wait_for_function(f"() => {FCP} !== null", timeout=TIMEOUT_MS)
            return page.evaluate(f"() => {FCP}")
        finally:
            ctx.close()

    def bare(self, page) -> dict:
        page.goto(self.base + "bare.html")
        page.wait_for_selector("body[data-bare=ready]", state="attached", timeout=TIMEOUT_MS)
        b = page.evaluate("() => window.__bare")
        b["ready"] = b["nav_ms"]
        return b

    def play(self, page, uci: str) -> None:
        seq = page.evaluate("() => Number(document.body.dataset.seq || 0)")
        box = page.get_by_test_id("move-input")
        box.fill(uci)
        box.press("Enter")
        t_end = time.monotonic() + 20
        # as a player would: the next move comes after the position's analysis
        while page.evaluate(
            "(s) => Number(document.body.dataset.seq || 0) <= s || document.body.dataset.idle !== '1'", seq
        ):
            if time.monotonic() > t_end:
                raise RuntimeError(f"no answer to {uci}")
        err = page.get_by_test_id("error")
        if err.is_visible():
            raise RuntimeError(f"{uci} refused: {err.inner_text()}")


def visits(bench: Bench, runs: int) -> dict[str, list[dict]]:
    """bare cold/warm, app cold -> repeat -> offline, in fresh contexts, interleaved."""
    out: dict[str, list[dict]] = {k: [] for k in ("bare_cold", "bare_repeat", "cold", "repeat", "offline", "floor")}
    for _ in range(runs):
        out["floor"].append({"fcp": bench.floor()})
        ctx, page = bench.context()
        out["bare_cold"].append(bench.bare(page))
        page.goto("about:blank")
        out["bare_repeat"].append(bench.bare(page))
        ctx.close()

        ctx, page = bench.context()
        out["cold"].append(bench.app(page))
        page.wait_for_selector("body[data-offline-ready=true]", state="attached", timeout=TIMEOUT_MS)
        page.evaluate("() => localStorage.clear()")
        page.goto("about:blank")
        rep = bench.app(page)
        rep["controlled"] = page.evaluate("() => !!navigator.serviceWorker.controller")
        out["repeat"].append(rep)
        page.evaluate("() => localStorage.clear()")
        page.goto("about:blank")
        ctx.set_offline(True)
        off = bench.app(page)
        bench.play(page, "e2e4")
        off["played"] = page.get_by_test_id("draw-panel").get_attribute("data-ply") == "1"
        out["offline"].append(off)
        ctx.close()
    return out


def languages(bench: Bench, runs: int, locale: str, plies: int) -> dict[str, dict]:
    """English and LOCALE alternately: cold, then repeat (service worker), then moves."""
    out: dict[str, dict] = {lang: {"cold": [], "repeat": []} for lang in ("en-US", locale)}
    for _ in range(runs):
        for lang in out:
            ctx, page = bench.context(locale=lang)
            out[lang]["cold"].append(bench.app(page))
            page.wait_for_selector("body[data-offline-ready=true]", state="attached", timeout=TIMEOUT_MS)
            page.evaluate("() => localStorage.clear()")
            page.goto("about:blank")
            out[lang]["repeat"].append(bench.app(page))
            out[lang]["lang"] = page.evaluate("() => document.documentElement.lang")
            ctx.close()
    for lang in out:
        out[lang]["moves"] = moves(bench, plies, lang) if plies else None
    return out


def throttled(bench: Bench, runs: int, snapshot: bool = True, bare: bool = True) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {"bare": [], "app": []}
    for _ in range(runs):
        if bare:
            ctx, page = bench.context(throttled=True)
            out["bare"].append(bench.bare(page))
            ctx.close()
        ctx, page = bench.context(throttled=True, snapshot=snapshot)
        out["app"].append(bench.app(page, "?nosw"))
        ctx.close()
    return out


def moves(bench: Bench, plies: int, locale: str = "en-US") -> dict:
    game = long_game(plies)
    ctx, page = bench.context(locale=locale)
    bench.app(page, "?nosw")
    page.evaluate("() => { window.__perf.length = 0; }")
    for uci in game:
        bench.play(page, uci)
    page.wait_for_timeout(100)
    perf = page.evaluate("() => window.__perf.filter(r => r.op === 'play')")
    ply = int(page.get_by_test_id("draw-panel").get_attribute("data-ply"))
    ctx.close()
    ms = [r["ms"] for r in perf]
    return {
        "plies": ply,
        "median": statistics.median(ms),
        "p95": pct(ms, 95),
        "max": max(ms),
        "python_p95": pct([r["worker_ms"] for r in perf], 95),
    }


def med(xs: list[dict], key: str = "ready") -> float:
    return statistics.median(x[key] for x in xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3, help="loads per figure (median reported)")
    ap.add_argument("--levers", action="store_true", help="also measure without the snapshot and without gzip")
    ap.add_argument("--locale", help="also measure the page in this browser locale beside en-US (e.g. de-DE)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--dist", type=Path, help="measure this built site instead of web/dist (implies --no-build)")
    a = ap.parse_args()
    global DIST
    if a.dist:
        DIST, a.no_build = a.dist, True

    if not a.no_build or not (DIST / "index.html").exists():
        subprocess.run([sys.executable, str(WEB / "build.py")], check=True, stdout=subprocess.DEVNULL)
    boot = json.loads((DIST / "boot.json").read_text())
    srv, base = serve_dist(gzip_on=True)

    from playwright.sync_api import sync_playwright

    res: dict = {"runs": a.runs, "snapshot": boot.get("snapshot")}
    with sync_playwright() as p:
        browser = chromium(p)
        bench = Bench(browser, base)
        v = visits(bench, a.runs)
        t = throttled(bench, a.runs)
        lev: dict = {}
        if a.levers:
            # each lever against bare boots measured in the same loop (the load on a shared
            # machine drifts between the parts of a run)
            lev["nosnap_cold"] = {"bare": [], "app": []}
            for _ in range(a.runs):
                ctx, page = bench.context()
                lev["nosnap_cold"]["bare"].append(bench.bare(page))
                ctx.close()
                lev["nosnap_cold"]["app"].append(bench.app_fresh("?nosw", snapshot=False))
            lev["nosnap_throttled"] = throttled(bench, a.runs, snapshot=False)
        mv = moves(bench, a.plies) if a.plies else None
        langs = languages(bench, a.runs, a.locale, a.plies) if a.locale else None
        if langs:
            res["languages"] = langs
        if a.levers:
            srv.shutdown()
            srv, base = serve_dist(gzip_on=False)
            bench.base = base
            lev["plain"] = throttled(bench, a.runs)
        browser.close()
    srv.shutdown()

    bare_cold, bare_rep, bare_thr = med(v["bare_cold"]), med(v["bare_repeat"]), med(t["bare"])
    res.update(
        bare_cold_ms=bare_cold,
        bare_repeat_ms=bare_rep,
        bare_throttled_ms=bare_thr,
        cold_ms=med(v["cold"]),
        repeat_ms=med(v["repeat"]),
        offline_ms=med(v["offline"]),
        throttled_ms=med(t["app"]),
        board_ms=med(v["cold"], "board_ms"),
        board_repeat_ms=med(v["repeat"], "board_ms"),
        board_painted_ms=med(v["cold"], "board_painted"),
        fcp_ms=med(v["cold"], "fcp"),
        floor_fcp_ms=med(v["floor"], "fcp"),
        board_painted_repeat_ms=med(v["repeat"], "board_painted"),
        paths={k: [x.get("worker", {}).get("path") for x in v[k]] for k in ("cold", "repeat", "offline")},
        repeat_controlled=all(x["controlled"] for x in v["repeat"]),
        offline_played=all(x["played"] for x in v["offline"]),
        worker_cold=v["cold"][0].get("worker"),
        worker_repeat=v["repeat"][0].get("worker"),
        moves=mv,
    )
    for k, xs in lev.items():
        res[f"lever_{k}_ms"] = med(xs["app"])
        res[f"lever_{k}_bare_ms"] = med(xs["bare"])
        res[f"lever_{k}_paths"] = [x.get("worker", {}).get("path") for x in xs["app"]]

    if a.json:
        a.json.write_text(json.dumps(res, indent=1))

    def line(name: str, ms: float, peer: float | None = None, goal: str = "") -> None:
        ratio = f"{ms / peer:5.2f} x bare" if peer else " " * 12
        print(f"  {name:<46} {ms:8.0f} ms  {ratio}   {goal}")

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print(
        f"pychessdraw web start-up (headless Chromium, loopback, median of {a.runs}; "
        f"snapshot: {res['snapshot'] or 'none'})"
    )
    line("bare Pyodide boot, cold", bare_cold, bare_cold)
    line(
        "page: engine ready, cold",
        res["cold_ms"],
        bare_cold,
        f"goal <= 0.5 x bare = {bare_cold / 2:.0f} ms: {verdict(res['cold_ms'] <= bare_cold / 2)}",
    )
    line("bare Pyodide boot, repeat (HTTP cache)", bare_rep, bare_cold)
    line(
        "page: engine ready, repeat (service worker)",
        res["repeat_ms"],
        bare_cold,
        f"goal <= 1500 ms: {verdict(res['repeat_ms'] <= 1500)}",
    )
    line(
        "page: engine ready, offline reload",
        res["offline_ms"],
        bare_cold,
        f"must load and play: {verdict(res['offline_played'])}",
    )
    line("bare Pyodide boot, 10 Mbit/s 40 ms, cold", bare_thr, bare_thr)
    line(
        "page: engine ready, 10 Mbit/s 40 ms, cold",
        res["throttled_ms"],
        bare_thr,
        f"goal <= 10000 ms: {verdict(res['throttled_ms'] <= 10000)}",
    )
    line("page: board drawn (page's mark), cold", res["board_ms"], bare_cold)
    line(
        "page: board painted, cold",
        res["board_painted_ms"],
        bare_cold,
        f"goal <= 300 ms: {verdict(res['board_painted_ms'] <= 300)}",
    )
    line("page: first contentful paint, cold", res["fcp_ms"], bare_cold)
    line("browser floor: a small static page, first paint", res["floor_fcp_ms"], bare_cold)
    line("page: board drawn (page's mark), repeat", res["board_repeat_ms"], bare_cold)
    line("page: board painted, repeat", res["board_painted_repeat_ms"], bare_cold)
    print(f"  start-up path taken: {res['paths']}; repeat controlled by the service worker: {res['repeat_controlled']}")
    print(f"  inside the worker, cold: {res['worker_cold']}")
    print(f"  inside the worker, repeat: {res['worker_repeat']}")
    if lev:
        print(" levers (each against the bare boots measured in its own loop):")
        for key, name in (
            ("nosnap_cold", "no snapshot (boot + unpack + import), cold"),
            ("nosnap_throttled", "no snapshot, 10 Mbit/s 40 ms"),
            ("plain", "no gzip: page (snapshot), 10 Mbit/s 40 ms"),
        ):
            if f"lever_{key}_ms" in res:
                line("  bare boot, same loop", res[f"lever_{key}_bare_ms"], res[f"lever_{key}_bare_ms"])
                line(name, res[f"lever_{key}_ms"], res[f"lever_{key}_bare_ms"])
    if langs:
        en, xx = langs["en-US"], langs[a.locale]
        print(f" the page in {a.locale} (<html lang={xx['lang']}>) beside en-US, alternately in the same loop:")
        for key in ("cold", "repeat"):
            print(
                f"  {key:<8} en-US {med(en[key]):6.0f} ms, {a.locale} {med(xx[key]):6.0f} ms: {med(xx[key]) / med(en[key]):.2f}x"
            )
        if en["moves"] and xx["moves"]:
            print(
                f"  move -> panel p95: en-US {en['moves']['p95']:.1f} ms, {a.locale} {xx['moves']['p95']:.1f} ms: "
                f"{xx['moves']['p95'] / en['moves']['p95']:.2f}x"
            )
    if mv:
        print(f" move -> draw panel updated, {mv['plies']}-ply game:")
        print(
            f"  median {mv['median']:.1f} ms, p95 {mv['p95']:.1f} ms (goal < 30: {verdict(mv['p95'] < 30)}), "
            f"max {mv['max']:.1f} ms; Python p95 {mv['python_p95']:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
