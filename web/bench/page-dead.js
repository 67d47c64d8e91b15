// SPDX-License-Identifier: GPL-3.0-or-later
// The page budget's benchmark (benchmarks/bench_page_dead.py): starts the worker
// and hands it the driver's Python: window.__dead.run(code, data) -> the str
// that the code's last expression gives (DATA = data in Python).
/** @typedef {{id: number, ok: boolean, result?: string, message?: string}} Answer */
/** @typedef {{type: "ready", pyodide: string, boot_ms: number} | {type: "failed", message: string}} Boot */
const w = new Worker(new URL("page-dead-worker.js", import.meta.url), { type: "module" });
/** @type {Map<number, {resolve: (s: string) => void, reject: (e: Error) => void}>} */
const waiting = new Map();
let next = 0;
const out = /** @type {HTMLElement} */ (document.getElementById("out"));

/** @param {string} code  Python whose last expression is a str @param {string} data */
function run(code, data) {
  const id = ++next;
  return /** @type {Promise<string>} */ (new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, code, data });
  }));
}

/** @param {Boot} boot */
function started(boot) {
  /** @type {any} */ (window).__dead = { ...boot, run }; // any: the driver's hook on the global
  out.textContent = boot.type === "ready"
    ? `Pyodide ${boot.pyodide} ready in ${Math.round(boot.boot_ms)} ms`
    : `failed: ${boot.message}`;
  document.body.dataset.dead = boot.type;
}

w.onmessage = (/** @type {MessageEvent<Boot | Answer>} */ ev) => {
  if ("type" in ev.data) {
    started(ev.data);
    return;
  }
  const a = ev.data;
  const p = waiting.get(a.id);
  waiting.delete(a.id);
  if (p && a.ok) p.resolve(a.result ?? "");
  else if (p) p.reject(new Error(a.message));
};
