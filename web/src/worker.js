// SPDX-License-Identifier: GPL-3.0-or-later
// Module worker: boots Pyodide, installs python-chess + pychessdraw from this
// site, then answers {id, op, args} with {id, ok, ...} by calling
// pychessdraw.bridge.Bridge().handle(json) -> json. Only strings cross into Python.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const t0 = performance.now();
const timings = {};
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
let pyodide = null;
const queue = [];
let ready = false;

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

async function boot() {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  progress("Downloading Python (Pyodide)…", 1, 4);
  const base = new URL("./", import.meta.url);
  // The wheels are fetched while Pyodide boots.
  const wheels = fetch(new URL("wheels.json", base))
    .then((r) => {
      if (!r.ok) throw new Error(`wheels.json: HTTP ${r.status}`);
      return r.json();
    })
    .then((m) => Promise.all([m.chess, m.pychessdraw].map((w) => fetchBytes(new URL(w, base)))));
  wheels.catch(() => {}); // reported when awaited below
  pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", base).href,
    stdout: (s) => console.log("[py]", s),
    stderr: (s) => console.warn("[py]", s),
  });
  mark("pyodide");
  progress("Installing python-chess and pychessdraw…", 2, 4);
  const bufs = await wheels;
  mark("wheels_fetched");
  for (const buf of bufs) pyodide.unpackArchive(buf, "wheel");
  mark("wheels_unpacked");
  progress("Starting the referee…", 3, 4);
  bridge = pyodide.runPython(
    "import importlib; importlib.invalidate_caches()\n" +
      "from pychessdraw.bridge import Bridge\nBridge()",
  );
  handle = bridge.handle;
  mark("bridge");
  progress("Ready", 4, 4);
}

function call(msg) {
  const { id, op, args } = msg;
  if (op === "batch") {
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
  },
  (e) => bootFailure(String((e && e.message) || e)),
);
