// SPDX-License-Identifier: GPL-3.0-or-later
// Bare Pyodide boot in a module worker, for comparison with the app (web_bench.py).
const t0 = performance.now();
const w = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
w.onmessage = (/** @type {MessageEvent} */ ev) => {
  const ms = performance.now() - t0;
  window.__bare = { ...ev.data, page_ms: ms, nav_ms: performance.now() };
  /** @type {HTMLElement} */ (document.getElementById("out")).textContent = ev.data.ok
    ? `Pyodide ${ev.data.version} ready ${Math.round(ms)} ms after the script started (${Math.round(performance.now())} ms after navigation)`
    : `failed: ${ev.data.message}`;
  document.body.dataset.bare = ev.data.ok ? "ready" : "failed";
};
