// SPDX-License-Identifier: GPL-3.0-or-later
// Makes the Pyodide memory snapshot the page restores instead of booting
// Python and importing pychessdraw (web/build.py runs this under node).
//
// The snapshot is the wasm memory of an interpreter that has booted from the
// very files of the build (DIST/pyodide/), unpacked the very wheels the page
// fetches (DIST/wheels/, in the order given) and imported pychessdraw.web.bridge
// plus the modules it imports lazily. It is only valid with the same
// pyodide.asm.wasm (Pyodide checks its build id), the same python_stdlib.zip
// (zipimport keeps that zip's directory in memory) and the same wheels
// unpacked again after the restore (worker.js does that). Pyodide's snapshot
// API is private (`_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`).
//
// Free heap memory still holds whatever was there before (sources compiled,
// zips read): it is zeroed before the snapshot is taken, which makes the
// gzipped snapshot about 12% smaller (zeroFreeMemory below).
//
// The snapshot is written gzipped (the page inflates it with
// DecompressionStream, so any static host can serve it and the service
// worker caches the small form), then restored once here and asked for a
// state: a snapshot that does not restore is never shipped.
// It also holds the module _pychessdraw_snapshot_files (web/snapshot_files.py):
// the finder the worker installs after a restore, so that no Python source
// has to be compiled on the way to "ready".
// Usage: node web/snapshot.mjs DIST OUT.gz WHEEL_RELPATH...
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

const [dist, out, ...wheels] = process.argv.slice(2);
if (!dist || !out || !wheels.length) {
  console.error("usage: node snapshot.mjs DIST OUT.gz WHEEL_RELPATH...");
  process.exit(2);
}
const indexURL = path.join(path.resolve(dist), "pyodide") + "/";
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const wheelBytes = wheels.map((w) => new Uint8Array(fs.readFileSync(path.join(dist, w))));
// the finder the worker installs after a restore (see snapshot_files.py)
const filesSource = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "snapshot_files.py"), "utf8");
const FILES_MODULE = "_pychessdraw_snapshot_files";

// What the page's worker runs after a restore: keep in step with worker.js.
const IMPORTS = [
  "import importlib",
  "importlib.invalidate_caches()",
  "from pychessdraw.web.bridge import Bridge",
  // imported lazily by pychessdraw (PGN export): free once in the snapshot
  "import chess.pgn",
  "Bridge().handle('{\"op\": \"state\", \"args\": {}}')",
  "import gc",
  "gc.collect()",
].join("\n");

// Zero the free chunks of the heap (emscripten's dlmalloc: chunks follow each
// other from __heap_base to the break; a chunk is free when its CINUSE bit (2)
// is clear; a free chunk's first 24 bytes after the header are free-list
// links, kept) and everything above the break. The walk must land exactly on
// the break, else nothing is touched. Returns the bytes zeroed, or 0.
function zeroFreeMemory(M) {
  M._malloc_trim(0);
  const U32 = M.HEAPU32;
  const heapBase = typeof M.___heap_base === "number" ? M.___heap_base : M.___heap_base.value;
  const brk = M._sbrk(0);
  const regions = [];
  let p = (heapBase + 7) & ~7;
  while (p < brk) {
    const head = U32[(p + 4) >>> 2];
    const size = head & ~7;
    if (size < 16 || p + size > brk) break;
    if (!(head & 2) && size > 40) regions.push([p + 32, p + size]);
    p += size;
  }
  if (p !== brk) {
    console.log(`snapshot: heap walk ended at ${p}, not at the break ${brk}: free memory left as it is`);
    return 0;
  }
  let n = M.HEAPU8.length - brk;
  for (const [a, b] of regions) {
    M.HEAPU8.fill(0, a, b);
    n += b - a;
  }
  M.HEAPU8.fill(0, brk);
  return n;
}

const t0 = performance.now();
const py = await loadPyodide({ indexURL, _makeSnapshot: true });
// into site-packages, as the worker does (unpackArchive's default is the cwd)
const site = (p) => p.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const b of wheelBytes) py.unpackArchive(b, "wheel", { extractDir: site(py) });
py.runPython(IMPORTS);
py.globals.set("files_source", filesSource);
py.runPython(`
import sys, types
m = types.ModuleType("${FILES_MODULE}")
exec(compile(files_source, "snapshot_files.py", "exec"), m.__dict__)
sys.modules[m.__name__] = m
del files_source, m
import gc
gc.collect()
`);
const zeroed = zeroFreeMemory(py._module);
const raw = py.makeMemorySnapshot();
const gz = zlib.gzipSync(raw, { level: 9 });
const made = performance.now() - t0;

// Restore it in a second interpreter as the page does (an empty standard
// library, the files put back by the finder on the first import the snapshot
// does not hold: fractions and chess.polyglot below), and use it.
const t1 = performance.now();
const empty = path.join(path.resolve(dist), "..", ".snapshot-empty-stdlib.zip");
fs.writeFileSync(empty, "");
const py2 = await loadPyodide({ indexURL, _loadSnapshot: zlib.gunzipSync(gz), stdLibURL: empty });
fs.unlinkSync(empty);
const fetchSync = (rel) => new Uint8Array(fs.readFileSync(path.join(dist, rel)));
py2.pyimport(FILES_MODULE).install("pyodide/python_stdlib.zip", wheels, "/tmp/pychessdraw-wheels", fetchSync);
const answer = JSON.parse(
  py2.runPython(`
import json, sys
assert "fractions" not in sys.modules and "chess.polyglot" not in sys.modules
import fractions, chess.polyglot
assert chess.polyglot.__file__.endswith("site-packages/chess/polyglot.py"), chess.polyglot.__file__
from pychessdraw.web.bridge import Bridge
b = Bridge()
for req in [{"op": "play", "args": {"move": m}} for m in ("e4", "e5", "Nf3", "Nc6", "Bb5")] + [
        {"op": "analyse", "args": {}}, {"op": "export_pgn", "args": {}}]:
    r = json.loads(b.handle(json.dumps(req)))
    if not r["ok"]:
        break
json.dumps(r)
`),
);
if (!answer.ok || !String(answer.pgn || "").includes("3. Bb5")) {
  console.error("the restored snapshot answered", JSON.stringify(answer).slice(0, 500));
  process.exit(1);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, gz);
console.log(
  `snapshot: ${(raw.length / 1e6).toFixed(1)} MB raw, ${(gz.length / 1e6).toFixed(1)} MB gzipped; ` +
    `${(zeroed / 1e6).toFixed(1)} MB of free memory zeroed; made in ${Math.round(made)} ms, ` +
    `restored and checked in ${Math.round(performance.now() - t1)} ms`,
);
process.exit(0);
