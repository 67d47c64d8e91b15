// SPDX-License-Identifier: GPL-3.0-or-later
// Starts the Python worker as early as possible (before the UI bundle has been
// fetched and run); app.js takes it over and replays what arrived meanwhile.
const boot = { worker: null, events: [], error: null, t: performance.now() };
if (window.__pcdBoot) {
  // app.js ran first and started the worker itself
} else if ((window.__pcdBoot = boot) && typeof WebAssembly !== "object") {
  boot.error = "this browser has no WebAssembly support";
} else {
  try {
    const w = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    w.onmessage = (ev) => boot.events.push(ev);
    w.onerror = (ev) => {
      ev.preventDefault();
      boot.events.push(ev);
    };
    boot.worker = w;
  } catch (e) {
    boot.error = `could not start the worker (${e.message})`;
  }
}
