// SPDX-License-Identifier: GPL-3.0-or-later
import { loadPyodide } from "./pyodide/pyodide.mjs";
const t0 = performance.now();
loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href }).then(
  (py) => { py.runPython("1+1"); postMessage({ ok: true, version: py.version, boot_ms: performance.now() - t0 }); },
  (e) => postMessage({ ok: false, message: String(e) }),
);
