// SPDX-License-Identifier: GPL-3.0-or-later
// Module worker: starts Python (Pyodide) with python-chess + pychessdraw from
// this site, then answers {id, op, args} with {id, ok, ...} by calling
// pychessdraw.web.bridge.Bridge().handle(json) -> json. Only strings cross into Python.
//
// Two ways to start, chosen per load (the "ready" event's timings.path says which):
//  * "snapshot": restore the memory snapshot made by the build (web/snapshot.mjs:
//    an interpreter that has already imported pychessdraw and what it imports
//    lazily), a fraction of a bare Pyodide boot. The modules are in memory but
//    their files (python_stdlib.zip, the wheels) are not, and are not needed
//    on the way to "ready": they are fetched after it (see web/snapshot_files.py).
//  * "boot": a normal loadPyodide(), then unpack the wheels and import. Used when
//    the build has no snapshot (boot.json "snapshot": null), or when the
//    snapshot cannot be fetched, inflated or restored.
//
// Types: tsc --strict (web/tsconfig.worker.json, the worker's globals); the
// requests and replies are the generated contract's (src/contract.js).

/** @typedef {import("pyodide").PyodideAPI} Pyodide */
/** @typedef {import("pyodide/ffi").PyProxy} PyProxy */
/** @typedef {import("./contract.js").OpName} OpName */
/** @typedef {import("./contract.js").Reply} Reply */
/** @typedef {{wheels: string[], snapshot: string|null}} BootManifest */
/** @typedef {{id: number, op: OpName|"__shutdown", args?: Record<string, unknown>, recv_abs?: number}} WorkerRequest */
/**
 * The finder's handle (web/snapshot_files.py) until the files are in place.
 * @typedef {PyProxy & {files: PyProxy, pending: () => boolean, written_by_worker: (path: string) => void}} LazyFiles
 */
/**
 * Start-up marks (ms since the worker started) and how it started.
 * @typedef {{path: "snapshot"|"boot"|null, snapshot_inflated_by?: string, snapshot_error?: string} & Record<string, number|string|null|undefined>} Timings
 */

// Imported dynamically: the snapshot's download starts without waiting for
// it. The path is built beside worker.js by web/build.py (not resolvable
// here: the type is pyodide's own).
const PYODIDE_MJS = "./pyodide/pyodide.mjs";
const pyodideModule = /** @type {Promise<typeof import("pyodide")>} */ (import(PYODIDE_MJS));
pyodideModule.catch(() => {}); // reported when awaited

const t0 = performance.now();
/** @type {Timings} */
const timings = { path: null };
const mark = (/** @type {string} */ name) => { timings[name] = Math.round(performance.now() - t0); };

// The worker has no catalog: its words for a person are marked for the page's
// (docs/catalogs.py reads marked()), and the page says them (tMarked in referee/client.js).
const marked = (/** @type {string} */ msgid) => msgid;

/** @param {unknown} e  what was thrown */
const errorText = (e) => String((e instanceof Error && e.message) || e);

/** @param {string} stage @param {number} step @param {number} steps */
function progress(stage, step, steps) {
  postMessage({ type: "progress", stage, step, steps });
}

let booted = false;
// Pyodide does not reject loadPyodide() when the wasm cannot be fetched or
// compiled (Emscripten aborts inside a promise): report such failures instead
// of hanging.
/** @param {string} what */
function bootFailure(what) {
  if (booted) return;
  booted = true;
  postMessage({ type: "failed", message: what, timings });
}
addEventListener("unhandledrejection", (ev) => {
  if (!ready) bootFailure(ev.reason ? errorText(ev.reason) : marked("unknown error while loading Pyodide"));
});
addEventListener("error", (ev) => {
  if (!ready) bootFailure(String(ev.message || marked("error while loading Pyodide")));
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
    setTimeout(() => bootFailure(marked("pyodide.asm.wasm could not be loaded or compiled")), 0);
  } else if (wasmFailed && a[0] instanceof Error) {
    bootFailure(marked("pyodide.asm.wasm could not be loaded or compiled")); // its error: logged above
  }
};

/** @type {(PyProxy & ((request: string) => string))|null} */
let handle = null; // PyProxy of Bridge.handle (destroyed on shutdown)
/** @type {(PyProxy & {handle: PyProxy & ((request: string) => string)})|null} */
let bridge = null; // PyProxy of the Bridge instance
/** @type {Pyodide|null} */
let pyodide = null;
/** @type {WorkerRequest[]} */
const queue = [];
let ready = false;

const base = new URL("./", import.meta.url);
// test hook (e2e/test_startup.py): the interpreter and the start-up marks
/** @type {any} */ (self).__pychessdraw = { pyodide: () => pyodide, timings }; // any: a test hook on the global
// {wheels: [paths in unpacking order], snapshot: path|null}, defined by
// web/build.py through esbuild's define (boot.json holds the same); null: fetch boot.json.
/** @type {BootManifest|null} */
const BOOT = __PCD_BOOT__;

/** @param {string} url */
async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

/** @param {string} name @returns {Promise<BootManifest>} */
async function fetchJson(name) {
  const r = await fetch(new URL(name, base));
  if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
  return r.json();
}

// The snapshot as bytes: gzipped on the server (any static host can serve it
// as a plain file), inflated here as it arrives, unless it comes from the
// service worker's cache, which keeps it inflated (faster than inflating).
/** @param {string} rel */
async function fetchSnapshot(rel) {
  const r = await fetch(new URL(rel, base));
  if (!r.ok) throw new Error(`${rel}: HTTP ${r.status}`);
  const inflated = r.headers.get("x-pychessdraw-inflated") === "1";
  const raw = inflated
    ? await r.arrayBuffer()
    : await new Response(/** @type {ReadableStream<BufferSource>} */ (r.body).pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  timings.snapshot_inflated_by = inflated ? "service worker" : "worker";
  mark("snapshot_fetched");
  return new Uint8Array(raw);
}

const pyOptions = () => ({
  indexURL: new URL("pyodide/", base).href,
  stdout: (/** @type {string} */ s) => console.log("[py]", s),
  stderr: (/** @type {string} */ s) => console.warn("[py]", s),
});

// After a restore, the snapshot holds every module pychessdraw uses, but not
// the files they came from (python_stdlib.zip: loadPyodide is given an empty
// one; the wheels): they are fetched after "ready" (filesLater), leaving the
// bandwidth to the snapshot. The finder that puts them in place if an import
// needs them first lives in the snapshot (web/snapshot_files.py), so that no
// Python source is compiled on the way to "ready"; it fetches with this.
const WHEEL_DIR = "/tmp/pychessdraw-wheels";
/** @param {string} url */
function fetchSync(url) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false); // a worker may block
  xhr.responseType = "arraybuffer";
  xhr.send(null);
  if (xhr.status !== 200) throw new Error(`HTTP ${xhr.status}`);
  return new Uint8Array(xhr.response);
}
/** @type {LazyFiles|null} */
let lazyFiles = null; // PyProxy of FilesAfterRestore until the files are in place

// After "ready" on the snapshot path: the standard library and the wheels.
async function filesLater() {
  const lazy = lazyFiles;
  const py = pyodide;
  if (!lazy || !py) return;
  try {
    const proxy = lazy.files;
    /** @type {Record<string, string>} */
    const files = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    for (const [local, url] of Object.entries(files)) {
      const bytes = new Uint8Array(await fetchBytes(url));
      if (!lazy.pending()) break; // an import came first and did it all
      py.FS.mkdirTree(local.slice(0, local.lastIndexOf("/")) || "/");
      py.FS.writeFile(local, bytes);
      lazy.written_by_worker(local);
    }
  } catch (e) {
    console.warn("pychessdraw: Python's files will be fetched when first needed:", e);
  } finally {
    lazy.destroy();
    lazyFiles = null;
  }
}

class StartError extends Error {}

// A wheel that is not there fails the start (as it does when Python boots),
// but its bytes are not needed yet: a HEAD request (sw.js answers those too).
/** @param {string} url */
async function checkPresent(url) {
  const r = await fetch(url, { method: "HEAD" });
  if (!r.ok) throw new StartError(`${url}: HTTP ${r.status}`);
}

/** @param {BootManifest & {snapshot: string}} manifest @param {string[]} wheelUrls */
async function restore(manifest, wheelUrls) {
  // first: their answers come back at once and free their connections
  const present = Promise.all(wheelUrls.map(checkPresent));
  present.catch(() => {}); // awaited below
  const snap = fetchSnapshot(manifest.snapshot);
  snap.catch(() => {}); // loadPyodide rejects with it
  const { loadPyodide } = await pyodideModule;
  const stdLibURL = URL.createObjectURL(new Blob([])); // the real one comes later
  /** @type {Pyodide} */
  let py;
  try {
    py = pyodide = await loadPyodide({ ...pyOptions(), _loadSnapshot: snap, stdLibURL });
  } finally {
    URL.revokeObjectURL(stdLibURL);
  }
  timings.path = "snapshot";
  mark("pyodide");
  const files = py.pyimport("_pychessdraw_snapshot_files");
  lazyFiles = files.install(new URL("pyodide/python_stdlib.zip", base).href, wheelUrls, WHEEL_DIR, fetchSync);
  files.destroy();
  mark("finder");
  await present;
  mark("wheels_checked");
}

/** @param {string[]} wheelUrls @returns {Promise<Pyodide>} */
async function bootNormally(wheelUrls) {
  const wheels = Promise.all(wheelUrls.map(fetchBytes)); // while Pyodide starts
  wheels.catch(() => {}); // reported when awaited below
  const { loadPyodide } = await pyodideModule;
  const py = pyodide = await loadPyodide(pyOptions());
  timings.path = "boot";
  mark("pyodide");
  progress(marked("Installing python-chess and pychessdraw…"), 2, 4);
  const bufs = await wheels;
  mark("wheels_fetched");
  const extractDir = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const buf of bufs) py.unpackArchive(buf, "wheel", { extractDir });
  py.runPython("import importlib; importlib.invalidate_caches()");
  mark("wheels_unpacked");
  return py;
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error(marked("this browser has no WebAssembly support"));
  progress(marked("Downloading Python (Pyodide)…"), 1, 4);
  const manifest = BOOT || (await fetchJson("boot.json"));
  mark("manifest");
  const wheelUrls = manifest.wheels.map((w) => new URL(w, base).href);
  const snapshot = manifest.snapshot;
  if (snapshot) {
    try {
      await restore({ ...manifest, snapshot }, wheelUrls);
    } catch (e) {
      if (e instanceof StartError) throw e;
      // wrong build, truncated download, no DecompressionStream...: boot normally
      timings.snapshot_error = errorText(e).slice(0, 300);
      console.warn("pychessdraw: the Python snapshot could not be used, starting Python normally:", e);
      if (lazyFiles) lazyFiles.destroy();
      lazyFiles = pyodide = null;
    }
  }
  const py = pyodide || (await bootNormally(wheelUrls));
  progress(marked("Starting the referee…"), 3, 4);
  const mod = py.pyimport(__PCD_BRIDGE__); // pychessdraw.web.bridge, or .follow in arbiter-worker.js (build.py)
  const made = bridge = mod[__PCD_BRIDGE_CLASS__](); // Bridge, or ArbiterBridge
  mod.destroy();
  handle = made.handle;
  mark("bridge");
  progress(marked("Ready"), 4, 4);
}

/** @param {WorkerRequest} msg @returns {Reply & {id: number}} */
function call(msg) {
  const { id, op, args } = msg;
  if (!handle) throw new Error(marked("the referee is not running"));
  const text = handle(JSON.stringify({ op, args: args || {} }));
  return { id, .../** @type {Reply} */ (JSON.parse(text)) };
}

const now = () => performance.timeOrigin + performance.now();

/** @param {WorkerRequest} msg */
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
  /** @type {import("./contract.js").Answer_ & {id: number}} */
  let resp;
  const t = performance.now();
  try {
    resp = call(msg);
  } catch (e) {
    resp = { id: msg.id, ok: false, error: { code: "internal", message: errorText(e) } };
  }
  resp.worker_ms = performance.now() - t;
  resp.t_worker_recv = recvAbs;
  resp.t_worker_sent = now();
  postMessage(resp);
}

onmessage = (/** @type {MessageEvent<WorkerRequest>} */ ev) => {
  ev.data.recv_abs = now();
  if (ready) answer(ev.data);
  else queue.push(ev.data);
};

boot().then(
  () => {
    if (booted) return;
    booted = true;
    ready = true;
    postMessage({ type: "ready", timings, python: pyodide ? pyodide.version : "" });
    for (let msg = queue.shift(); msg; msg = queue.shift()) answer(msg);
    void filesLater(); // catches its own failures: the files then come when first imported
  },
  (e) => bootFailure(errorText(e)),
);
