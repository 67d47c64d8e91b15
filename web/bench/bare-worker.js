// SPDX-License-Identifier: GPL-3.0-or-later
// Bare Pyodide boot in a module worker, for comparison with the app (web_bench.py).
const PYODIDE_MJS = "./pyodide/pyodide.mjs"; // copied beside this file by the build (typed by the npm package)
const t0 = performance.now();
/** @type {Promise<typeof import("pyodide")>} */ (import(PYODIDE_MJS))
  .then(({ loadPyodide }) => loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href }))
  .then(
    (py) => { py.runPython("1+1"); postMessage({ ok: true, version: py.version, boot_ms: performance.now() - t0 }); },
    (e) => postMessage({ ok: false, message: String(e) }),
  );
