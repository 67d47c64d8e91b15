#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compare Stockfish WebAssembly builds from npm for the page's computer opponent.

Usage: python benchmarks/engine_candidates.py [--dir DIR] [--movetime MS] [--rounds N]

Fetches the candidate packages with `npm pack` into DIR (default: a cache in
web/.cache/engine-candidates; about 330 MB, once), serves them on loopback
with the page's Content-Security-Policy as an HTTP header (so a build that
needs eval fails here as it would on the site) and WITHOUT the COOP/COEP
headers a static host cannot send, and runs each build in a dedicated Worker
in headless Chromium: load time (new Worker to `readyok`) and nodes per
second over `go movetime` on three positions. The builds take turns within
each round, so the figures compare builds under the same machine load;
report the ratios, not the absolute values.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "web" / ".cache" / "engine-candidates"
PACKAGES = ["stockfish@19.0.0", "stockfish@18.0.8", "stockfish.js@10.0.2", "@lichess-org/stockfish-web@0.5.0"]

# name -> (package dir, worker script, files the build needs, kind)
CANDIDATES: dict[str, tuple[str, str, list[str], str]] = {
    "stockfish 19 lite single-threaded": (
        "stockfish-19.0.0",
        "bin/stockfish-19-lite-single.js",
        ["bin/stockfish-19-lite-single.js", "bin/stockfish-19-lite-single.wasm"],
        "classic",
    ),
    "stockfish 19 full single-threaded": (
        "stockfish-19.0.0",
        "bin/stockfish-19-single.js",
        ["bin/stockfish-19-single.js", "bin/stockfish-19-single.wasm"],
        "classic",
    ),
    "stockfish 19 asm.js": ("stockfish-19.0.0", "bin/stockfish-19-asm.js", ["bin/stockfish-19-asm.js"], "classic"),
    "stockfish 18 lite single-threaded": (
        "stockfish-18.0.8",
        "bin/stockfish-18-lite-single.js",
        ["bin/stockfish-18-lite-single.js", "bin/stockfish-18-lite-single.wasm"],
        "classic",
    ),
    "stockfish.js 10 (SF 10, wasm)": (
        "stockfish.js-10.0.2",
        "stockfish.wasm.js",
        ["stockfish.wasm.js", "stockfish.wasm"],
        "classic",
    ),
    "lichess stockfish-web sf_19_smallnet": (
        "lichess-org-stockfish-web-0.5.0",
        "sf_19_smallnet.js",
        ["sf_19_smallnet.js", "sf_19_smallnet.wasm"],
        "lichess",
    ),
}

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 3 45",
]

CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"

PAGE = """<!doctype html><meta charset="utf-8"><title>engine candidates</title>
<script type="module" src="bench.js"></script>"""

# Runs one build in a Worker; resolves {loadMs, nps: [...], depth: [...]} or {error}.
BENCH_JS = r"""
window.runEngine = (dir, script, kind, positions, movetime) => new Promise((resolve) => {
  const t0 = performance.now();
  let w;
  try {
    if (kind === "lichess") {
      // a module worker wrapping the factory, same-origin under the CSP
      w = new Worker(`wrap/${dir}/${script}`, { type: "module" });
    } else {
      w = new Worker(`${dir}/${script}`);
    }
  } catch (err) { resolve({ error: String(err) }); return; }
  const out = { loadMs: null, nps: [], depth: [] };
  let phase = "boot", idx = 0, lastNps = 0, lastDepth = 0;
  // a build that has not answered `uci` within 30 s never will (lichess's waits for threads forever)
  const timer = setTimeout(() => { w.terminate(); resolve({ ...out, error: `no answer in ${phase}` }); }, 120000);
  const bootTimer = setTimeout(() => { if (phase === "boot") { clearTimeout(timer); w.terminate(); resolve({ ...out, error: "no answer to uci within 30 s" }); } }, 30000);
  const done = (extra) => { clearTimeout(timer); w.terminate(); resolve({ ...out, ...extra }); };
  w.onerror = (e) => { e.preventDefault(); done({ error: "worker error: " + (e.message || "?") }); };
  const next = () => {
    if (idx >= positions.length) { done({}); return; }
    lastNps = 0; lastDepth = 0; phase = "search";
    w.postMessage("ucinewgame");
    w.postMessage("position fen " + positions[idx]);
    w.postMessage("go movetime " + movetime);
  };
  w.onmessage = (e) => {
    const line = typeof e.data === "string" ? e.data : String(e.data);
    if (line.startsWith("fatal") || line.startsWith("error")) { done({ error: line }); return; }
    if (line === "uciok") { w.postMessage("isready"); return; }
    if (line === "readyok" && phase === "boot") { clearTimeout(bootTimer); out.loadMs = Math.round(performance.now() - t0); next(); return; }
    const m = / nps (\d+)/.exec(line); if (m) lastNps = +m[1];
    const d = /^info depth (\d+)/.exec(line); if (d) lastDepth = +d[1];
    if (line.startsWith("bestmove")) { out.nps.push(lastNps); out.depth.push(lastDepth); idx++; next(); }
  };
  w.postMessage("uci");
});
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/wrap/"):
            rest = self.path[len("/wrap/") :]
            directory, script = rest.rsplit("/", 1)
            body = lichess_wrapper(directory, script).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args: object) -> None:
        pass


def lichess_wrapper(directory: str, script: str) -> str:
    """A module worker around lichess's Emscripten module (it exports a factory, not a worker)."""
    return (
        f'import Make from "/{directory}/{script}";\n'
        "let sf;\n"
        "onmessage = async (e) => {\n"
        "  if (!sf) {\n"
        "    try { sf = await Make(); sf.listen = (l) => postMessage(l); sf.onError = (l) => postMessage('error ' + l); }\n"
        "    catch (err) { postMessage('fatal ' + err); return; }\n"
        "  }\n"
        "  sf.uci(e.data);\n"
        "};\n"
    )


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def fetch_packages(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is needed (apt-get install npm)")
    for spec in PACKAGES:
        stem = spec.lstrip("@").replace("/", "-").replace("@", "-")
        if (root / stem).is_dir():
            continue
        print(f"npm pack {spec} ...", flush=True)
        r = subprocess.run([npm, "pack", spec, "--silent"], cwd=root, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(r.stderr)
        tgz = root / r.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as t:
            t.extractall(root / stem, filter="data")
        for child in (root / stem / "package").iterdir():
            child.rename(root / stem / child.name)
        (root / stem / "package").rmdir()
        tgz.unlink()


def chromium() -> str:
    for cand in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if cand and Path(cand).exists():
            return cand
    sys.exit("no Chromium: apt-get install chromium, or set $CHROMIUM")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated substrings of candidate names")
    a = ap.parse_args()
    fetch_packages(a.dir)
    (a.dir / "index.html").write_text(PAGE)
    (a.dir / "bench.js").write_text(BENCH_JS)
    srv = Server(("127.0.0.1", 0), functools.partial(Handler, directory=str(a.dir)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/index.html"

    names = [n for n in CANDIDATES if not a.only or any(s in n for s in a.only.split(","))]
    results: dict[str, list[dict]] = {n: [] for n in names}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("typeof window.runEngine === 'function'")
        for rnd in range(a.rounds):
            order = names[rnd % len(names) :] + names[: rnd % len(names)]
            for name in order:
                pkg, script, _files, kind = CANDIDATES[name]
                r = page.evaluate(
                    "([d, s, k, p, t]) => window.runEngine(d, s, k, p, t)", [pkg, script, kind, POSITIONS, a.movetime]
                )
                results[name].append(r)
                print(f"round {rnd + 1} {name}: {json.dumps(r)}", flush=True)
        browser.close()
    srv.shutdown()

    ref = "stockfish 19 lite single-threaded"

    def mean_nps(rs: list[dict]) -> float | None:
        v = [n for r in rs if not r.get("error") for n in r["nps"]]
        return sum(v) / len(v) if v else None

    ref_nps = mean_nps(results.get(ref, []))
    print(f"\n| build | files shipped | size | load (best) | nodes/s (mean) | vs {ref} | depth in {a.movetime} ms |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        pkg, _s, files, _k = CANDIDATES[name]
        size = sum((a.dir / pkg / f).stat().st_size for f in files)
        rs = results[name]
        errs = [r["error"] for r in rs if r.get("error")]
        nps = mean_nps(rs)
        loads = [r["loadMs"] for r in rs if r.get("loadMs") is not None and not r.get("error")]
        depths = [d for r in rs if not r.get("error") for d in r["depth"]]
        if errs and nps is None:
            print(f"| {name} | {', '.join(files)} | {size / 1e6:.2f} MB | - | fails: {errs[0][:80]} | - | - |")
            continue
        ratio = f"{nps / ref_nps:.2f}x" if nps and ref_nps else "-"
        print(
            f"| {name} | {', '.join(files)} | {size / 1e6:.2f} MB | {min(loads)} ms | {nps:,.0f} | {ratio} | "
            f"{min(depths)}-{max(depths)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
