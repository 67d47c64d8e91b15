// SPDX-License-Identifier: GPL-3.0-or-later
// Module worker: starts Python (Pyodide) with python-chess + pychessdraw from
// this site, then answers {id, op, args} with {id, ok, ...} by calling
// pychessdraw.bridge.Bridge().handle(json) -> json. Only strings cross into Python.
//
// Two ways to start, chosen per load (the "ready" event's timings.path says which):
//  * "snapshot": restore the memory snapshot made by the build (web/snapshot.mjs:
//    an interpreter that has already imported pychessdraw and what it imports
//    lazily), a fraction of a bare Pyodide boot. The modules are in memory but
//    their files are not, and need not be on the way to "ready":
//    - python_stdlib.zip (2.5 MB) is fetched after "ready" and written where
//      the snapshot's zipimporter expects it; an import that needs it earlier
//      fetches it synchronously (a finder first on sys.meta_path);
//    - the wheels are written to /tmp and unpacked only by the first import
//      that nothing else finds (a finder last on sys.meta_path).
//  * "boot": a normal loadPyodide(), then unpack the wheels and import. Used when
//    the build has no snapshot (boot.json "snapshot": null), or when the
//    snapshot cannot be fetched, inflated or restored.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const t0 = performance.now();
const timings = { path: null };
const mark = (name) => { timings[name] = Math.round(performance.now() - t0); };

function progress(stage, step, steps) {
  postMessage({ type: "progress", stage, step, steps });
}

let booted = false;
// Pyodide does not reject loadPyodide() when the wasm cannot be fetched or
// compiled (Emscripten aborts inside a promise): report such failures instead
// of hanging.
function bootFailure(what) {
  if (booted) return;
  booted = true;
  postMessage({ type: "failed", message: what, timings });
}
addEventListener("unhandledrejection", (ev) => {
  const r = ev.reason;
  if (!ready) bootFailure(String((r && r.message) || r || "unknown error while loading Pyodide"));
});
addEventListener("error", (ev) => {
  if (!ready) bootFailure(String(ev.message || "error while loading Pyodide"));
});

// Pyodide 314 catches a failed wasm fetch/compile itself, only logs
// "wasm instantiation failed!" and never settles loadPyodide(): watch for it.
const warn = console.warn.bind(console);
let wasmFailed = false;
console.warn = (...a) => {
  warn(...a);
  if (ready) return;
  if (a[0] === "wasm instantiation failed!") {
    wasmFailed = true;
    setTimeout(() => bootFailure("pyodide.asm.wasm could not be loaded or compiled"), 0);
  } else if (wasmFailed && a[0] instanceof Error) {
    bootFailure(`pyodide.asm.wasm could not be loaded or compiled (${a[0].message})`);
  }
};

let handle = null; // PyProxy of Bridge.handle (destroyed on shutdown)
let bridge = null; // PyProxy of the Bridge instance
let hasBatch = false; // the bridge answers "batch" itself
let pyodide = null;
const queue = [];
let ready = false;

const base = new URL("./", import.meta.url);
// test hook (e2e/test_startup.py): the interpreter and the start-up marks
self.__pychessdraw = { pyodide: () => pyodide, timings };
// {wheels: [paths in unpacking order], snapshot: path|null}, written in by
// web/build.py (boot.json holds the same); null: fetch boot.json.
const BOOT = /*BOOT*/ null;

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

async function fetchJson(name) {
  const r = await fetch(new URL(name, base));
  if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
  return r.json();
}

// The snapshot as bytes: gzipped on the server (any static host can serve
// it; the service worker caches the small form), inflated here.
async function fetchSnapshot(rel) {
  const r = await fetch(new URL(rel, base));
  if (!r.ok) throw new Error(`${rel}: HTTP ${r.status}`);
  const raw = await new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  mark("snapshot_fetched");
  return new Uint8Array(raw);
}

const pyOptions = () => ({
  indexURL: new URL("pyodide/", base).href,
  stdout: (s) => console.log("[py]", s),
  stderr: (s) => console.warn("[py]", s),
});

const WHEEL_DIR = "/tmp/pychessdraw-wheels";
// After a restore: the first import that no other finder resolves unpacks the
// wheels into site-packages (as a normal boot does) and is retried once.
const UNPACK_ON_MISS = `
import sys

class UnpackWheelsOnMiss:  # imports only when it acts: nothing new before "ready"
    def __init__(self, wheels):
        self.wheels = list(wheels)

    def find_spec(self, name, path=None, target=None):
        if not self.wheels:
            return None
        import importlib, importlib.machinery, sysconfig, zipfile

        site = sysconfig.get_paths()["purelib"]
        for w in self.wheels:
            with zipfile.ZipFile(w) as z:
                z.extractall(site)
        self.wheels = []
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(name, path, target)

def install(paths):
    sys.meta_path.append(UnpackWheelsOnMiss(paths.to_py()))

install
`;

// After a restore the standard library file is empty (loadPyodide was given an
// empty one): the zipimporter in the snapshot still holds the real zip's
// directory, so writing the real bytes at the same path makes every stdlib
// module importable again. fetchStdlibLater() does that after "ready"; this
// finder does it synchronously if an import comes first.
const FETCH_STDLIB_ON_MISS = `
import sys
from js import XMLHttpRequest  # imported now: find_spec must not import

class FetchStdlibOnMiss:
    def __init__(self, url):
        self.url = url
        self.path = next(p for p in sys.path if p.endswith(".zip"))

    def find_spec(self, name, path=None, target=None):
        self.loaded()
        xhr = XMLHttpRequest.new()
        xhr.open("GET", self.url, False)  # a worker may block
        xhr.responseType = "arraybuffer"
        xhr.send(None)
        if xhr.status != 200:
            raise ImportError(f"{name}: the standard library could not be fetched (HTTP {xhr.status})")
        with open(self.path, "wb") as f:
            f.write(xhr.response.to_bytes())
        return None  # the path finders now see it

    def pending(self):
        return self in sys.meta_path

    def loaded(self):
        if self in sys.meta_path:
            sys.meta_path.remove(self)

def install(url):
    finder = FetchStdlibOnMiss(url)
    sys.meta_path.insert(0, finder)
    return finder

install
`;
let stdlibFinder = null; // PyProxy while the snapshot's stdlib is still empty

async function fetchStdlibLater() {
  if (!stdlibFinder) return;
  try {
    const bytes = new Uint8Array(await fetchBytes(stdlibFinder.url));
    if (stdlibFinder.pending()) {
      pyodide.FS.writeFile(stdlibFinder.path, bytes);
      stdlibFinder.loaded();
    }
  } catch (e) {
    console.warn("pychessdraw: the standard library will be fetched when first needed:", e);
  } finally {
    stdlibFinder.destroy();
    stdlibFinder = null;
  }
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  progress("Downloading Python (Pyodide)…", 1, 4);
  const manifest = BOOT || (await fetchJson("boot.json"));
  mark("manifest");
  // The wheels are fetched while Pyodide starts.
  const wheels = Promise.all(manifest.wheels.map((w) => fetchBytes(new URL(w, base))));
  wheels.catch(() => {}); // reported when awaited below
  if (manifest.snapshot) {
    try {
      const snap = fetchSnapshot(manifest.snapshot);
      snap.catch(() => {}); // loadPyodide rejects with it
      // an empty standard library for now: see fetchStdlibLater()
      const stdLibURL = URL.createObjectURL(new Blob([]));
      pyodide = await loadPyodide({ ...pyOptions(), _loadSnapshot: snap, stdLibURL });
      URL.revokeObjectURL(stdLibURL);
      timings.path = "snapshot";
      stdlibFinder = pyodide.runPython(FETCH_STDLIB_ON_MISS)(new URL("pyodide/python_stdlib.zip", base).href);
    } catch (e) {
      // wrong build, truncated download, no DecompressionStream...: boot normally
      timings.snapshot_error = String((e && e.message) || e).slice(0, 300);
      console.warn("pychessdraw: the Python snapshot could not be used, starting Python normally:", e);
      pyodide = null;
    }
  }
  if (!pyodide) {
    pyodide = await loadPyodide(pyOptions());
    timings.path = "boot";
  }
  mark("pyodide");
  progress("Installing python-chess and pychessdraw…", 2, 4);
  const bufs = await wheels;
  mark("wheels_fetched");
  if (timings.path === "snapshot") {
    pyodide.FS.mkdirTree(WHEEL_DIR);
    const paths = manifest.wheels.map((w, i) => {
      const p = `${WHEEL_DIR}/${w.split("/").pop()}`;
      pyodide.FS.writeFile(p, new Uint8Array(bufs[i]));
      return p;
    });
    const install = pyodide.runPython(UNPACK_ON_MISS);
    install(paths);
    install.destroy();
  } else {
    const extractDir = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    for (const buf of bufs) pyodide.unpackArchive(buf, "wheel", { extractDir });
  }
  mark("wheels_unpacked");
  progress("Starting the referee…", 3, 4);
  // (after a restore, no invalidate_caches(): it would re-read the stdlib zip)
  bridge = pyodide.runPython(
    (timings.path === "boot" ? "import importlib; importlib.invalidate_caches()\n" : "") +
      "from pychessdraw.bridge import Bridge\nBridge()",
  );
  handle = bridge.handle;
  hasBatch = JSON.parse(handle(JSON.stringify({ op: "batch", args: { requests: [] } }))).ok === true;
  mark("bridge");
  progress("Ready", 4, 4);
}

function call(msg) {
  const { id, op, args } = msg;
  if (op === "batch" && !hasBatch) {
    // Several bridge requests in one message (restoring a saved game):
    // stops at the first error; returns the last response.
    let last = null;
    for (const r of args.requests || []) {
      last = JSON.parse(handle(JSON.stringify(r)));
      if (!last.ok) break;
    }
    return { id, ...(last || JSON.parse(handle(JSON.stringify({ op: "state", args: {} })))) };
  }
  const text = handle(JSON.stringify({ op, args: args || {} }));
  return { id, ...JSON.parse(text) };
}

const now = () => performance.timeOrigin + performance.now();

function answer(msg) {
  const recvAbs = msg.recv_abs;
  if (msg.op === "__shutdown") {
    if (handle) handle.destroy();
    if (bridge) bridge.destroy();
    handle = bridge = null;
    postMessage({ id: msg.id, ok: true });
    close();
    return;
  }
  let resp;
  const t = performance.now();
  try {
    resp = call(msg);
  } catch (e) {
    resp = { id: msg.id, ok: false, error: { code: "internal", message: String(e && e.message || e) } };
  }
  resp.worker_ms = performance.now() - t;
  resp.t_worker_recv = recvAbs;
  resp.t_worker_sent = now();
  postMessage(resp);
}

onmessage = (ev) => {
  ev.data.recv_abs = now();
  if (ready) answer(ev.data);
  else queue.push(ev.data);
};

boot().then(
  () => {
    if (booted) return;
    booted = true;
    ready = true;
    postMessage({ type: "ready", timings, python: pyodide.version });
    while (queue.length) answer(queue.shift());
    fetchStdlibLater();
  },
  (e) => bootFailure(String((e && e.message) || e)),
);
