#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the static pychessdraw web site into web/dist/.

Usage: python3 web/build.py [--out DIR] [--project-dir DIR] [--skip-npm]

Steps (each prints what it did):
  1. npm ci in web/ when node_modules is missing or older than package-lock.json
  2. wheels: pychessdraw (from the repo root), python-chess (the version installed
     here, within pyproject.toml's range; built from the sdist once, cached in
     web/.cache/), micropip 0.11.1 (downloaded once, cached);
     the first two get CPython 3.14 bytecode added by Pyodide's own interpreter
     running under node (web/precompile.mjs), so that the browser imports faster
  3. Pyodide core files copied from node_modules/pyodide, the lock file rewritten so
     that its micropip entry names the wheel shipped in dist (file name and sha256)
  4. the UI bundled with esbuild (app.js draws the board, chunks/ hold the rest of
     the page), index.html with its CSS (chessground's and app.css) inlined and
     the start position drawn in its board element, the worker and pages copied
  5. licence notices of everything shipped, in dist/LICENSES/
  6. the Pyodide memory snapshot (web/snapshot.mjs under node: Python booted from
     dist/pyodide/ with the wheels of dist/wheels/ unpacked and pychessdraw
     imported), gzipped, cached by the hash of those inputs; boot.json tells the
     worker its name (null when it could not be made: the page then boots Python)
  7. the service worker dist/sw.js, holding the sha256 of every other file of
     dist/ (workbox-build's injectManifest, web/precache.mjs; a new build is a
     new sw.js: browsers pick it up and swap caches)
Only the Python standard library is needed here; node and npm must be installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from build_common import CACHE, NM, ROOT, SRC, WEB, copy, die, need_tool, run, say, sha256
from build_i18n import write_catalogs
from build_licences import copy_engine, write_licenses
from build_page import bundle_ui, write_app_manifest, write_index, write_service_worker, write_workers
from build_wheels import build_pychessdraw_wheel, chess_wheel, micropip_wheel, precompile

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]


# ---------------------------------------------------------------- npm
def ensure_node_modules(skip: bool) -> None:
    lock = WEB / "package-lock.json"
    stamp = NM / ".package-lock.json"  # written by npm on every install
    if skip:
        say("npm: skipped (--skip-npm)")
    elif NM.is_dir() and stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        say("npm: node_modules up to date, npm ci skipped")
    else:
        need_tool("node", "Node.js 20+ (apt-get install nodejs npm, or https://nodejs.org)")
        npm = need_tool("npm", "npm (apt-get install npm, or install Node.js 20+ which includes it)")
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB)
    for rel in ["pyodide/pyodide.mjs", "@lichess-org/chessground/dist/chessground.js", "esbuild/bin/esbuild"]:
        if not (NM / rel).exists():
            die(f"node_modules/{rel} missing; run 'npm ci' in {WEB}")


# ---------------------------------------------------------------- snapshot
def make_snapshot(dist: Path, wheel_rels: list[str]) -> str | None:
    """dist/pyodide/snapshot-<key>.gz made from exactly these dist files; its
    path relative to dist, or None (with a warning) when it cannot be made."""
    inputs = [dist / "pyodide" / f for f in PYODIDE_FILES] + [dist / w for w in wheel_rels]
    h = hashlib.sha256()
    for p in inputs:
        h.update(p.name.encode() + sha256(p).encode())
    h.update((WEB / "snapshot.mjs").read_bytes())
    h.update((WEB / "snapshot_files.py").read_bytes())
    key = h.hexdigest()[:16]
    name = f"snapshot-{key}.gz"
    cached = CACHE / name
    for old in (dist / "pyodide").glob("snapshot-*.gz"):
        if old.name != name:
            old.unlink()
    if not cached.exists():
        node = shutil.which("node")
        if not node:
            say("WARNING: no node on PATH: no snapshot, the page boots Python at every load")
            return None
        say("snapshot: booting Pyodide under node, importing pychessdraw (node web/snapshot.mjs)")
        tmp = CACHE / (name + ".part")
        r = subprocess.run(
            [node, str(WEB / "snapshot.mjs"), str(dist), str(tmp), *wheel_rels], cwd=WEB, capture_output=True, text=True
        )
        if r.returncode != 0 or not tmp.exists():
            say("WARNING: no snapshot (the page will boot Python at every load):\n" + (r.stderr or r.stdout)[-2000:])
            tmp.unlink(missing_ok=True)
            return None
        for line in r.stdout.splitlines():
            say(line)
        for old in CACHE.glob("snapshot-*.gz"):
            old.unlink()
        tmp.rename(cached)
    else:
        say(f"snapshot: inputs unchanged, reusing {name}")
    copy(cached, dist / "pyodide" / name)
    return f"pyodide/{name}"


# ---------------------------------------------------------------- main
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=WEB / "dist")
    ap.add_argument("--project-dir", type=Path, default=ROOT, help="where pyproject.toml of pychessdraw is")
    ap.add_argument("--skip-npm", action="store_true", help="never run npm ci")
    ap.add_argument("--dev", action="store_true", help="unminified bundle with source maps")
    ap.add_argument("--no-precompile", action="store_true", help="ship the wheels without added bytecode")
    ap.add_argument("--no-snapshot", action="store_true", help="ship no memory snapshot (the page boots Python)")
    a = ap.parse_args()
    t0 = time.monotonic()
    dist: Path = a.out.resolve()
    dist.mkdir(parents=True, exist_ok=True)

    ensure_node_modules(a.skip_npm)

    # wheels
    wdir = dist / "wheels"
    wdir.mkdir(exist_ok=True)
    pcd = build_pychessdraw_wheel(a.project_dir.resolve())
    chess = chess_wheel()
    mp = micropip_wheel()
    if not a.no_precompile:
        pcd, chess = precompile([pcd, chess])
    for old in wdir.glob("*.whl"):
        if old.name not in (pcd.name, chess.name):
            old.unlink()
    for w in (pcd, chess):
        copy(w, wdir / w.name)
    (dist / "wheels.json").write_text(
        json.dumps({"chess": "wheels/" + chess.name, "pychessdraw": "wheels/" + pcd.name}, indent=1) + "\n"
    )
    say(f"wheels: {pcd.name}, {chess.name} -> dist/wheels/, manifest dist/wheels.json")

    # pyodide
    pdir = dist / "pyodide"
    n = 0
    for f in PYODIDE_FILES:
        src = NM / "pyodide" / f
        if not src.exists():
            die(f"{src} missing (pyodide npm package layout changed?)")
        if f != "pyodide-lock.json":
            n += copy(src, pdir / f)
    lock = json.loads((NM / "pyodide/pyodide-lock.json").read_text())
    entry = lock["packages"].get("micropip")
    if entry is None:
        die("pyodide-lock.json has no micropip entry")
    entry["file_name"] = mp.name
    entry["sha256"] = sha256(mp)
    (pdir / "pyodide-lock.json").write_text(json.dumps(lock))
    n += copy(mp, pdir / mp.name)
    say(
        f"pyodide: core files in dist/pyodide/ ({n} updated); lock entry micropip -> {mp.name} sha256 {entry['sha256'][:12]}…"
    )

    # chessground's CSS goes into index.html (write_index); earlier builds copied it to dist/cg/
    shutil.rmtree(dist / "cg", ignore_errors=True)

    # UI bundle: app.js draws the board, then imports the rest (chunks/page-*.js)
    preload = bundle_ui(dist, a.dev)
    for f in ("app.css", "favicon.svg", "fonts/figurines.woff"):
        if (SRC / f).exists():
            (dist / f).parent.mkdir(exist_ok=True)
            copy(SRC / f, dist / f)
    for f in ("bare.html", "bare.js", "bare-worker.js"):  # the benchmark's page: web/bench/, not the public site
        (dist / f).unlink(missing_ok=True)
    write_index(dist, preload)
    write_catalogs(dist)
    write_app_manifest(dist)
    (dist / ".nojekyll").write_text("")
    say(
        f"ui: app.js + {len(list((dist / 'chunks').glob('*.js')))} chunks bundled (esbuild), "
        "index.html (CSS inlined, module preloads), app.css copied"
    )

    write_licenses(dist, chess, mp, a.project_dir.resolve())
    copy_engine(dist)

    # the worker unpacks the wheels in this order, as the snapshot was made
    wheel_rels = ["wheels/" + chess.name, "wheels/" + pcd.name]
    snap = None
    if a.no_snapshot:
        for old in (dist / "pyodide").glob("snapshot-*.gz"):
            old.unlink()
        say("snapshot: none (--no-snapshot)")
    else:
        snap = make_snapshot(dist, wheel_rels)
    boot = {"wheels": wheel_rels, "snapshot": snap}
    (dist / "boot.json").write_text(json.dumps(boot, indent=1) + "\n")
    write_workers(dist, boot)
    write_service_worker(dist)
    size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    say(f"done in {time.monotonic() - t0:.1f} s: {dist} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
