// SPDX-License-Identifier: GPL-3.0-or-later
// The page budget's benchmark (benchmarks/bench_page_dead.py): Pyodide from this
// site's dist/pyodide/ with the wheels the app ships (boot.json's list, unpacked
// in its order, as the app's worker does when it boots without its snapshot),
// then {id, code, data} -> {id, ok, result}: DATA = data in Python, result =
// the value of the code's last expression (a str). Timing is done in Python.
/** @typedef {import("pyodide").PyodideAPI} Pyodide */
const PYODIDE_MJS = "./pyodide/pyodide.mjs"; // copied beside this file by the build (typed by the npm package)
const base = new URL("./", import.meta.url);
const t0 = performance.now();

/** @param {string} rel */
async function fetchOk(rel) {
  const r = await fetch(new URL(rel, base));
  if (!r.ok) throw new Error(`${rel}: HTTP ${r.status}`);
  return r;
}

/** @returns {Promise<Pyodide>} */
async function boot() {
  const manifest = /** @type {{wheels: string[]}} */ (await (await fetchOk("boot.json")).json());
  const wheels = Promise.all(manifest.wheels.map(async (w) => (await fetchOk(w)).arrayBuffer()));
  wheels.catch(() => {}); // reported when awaited below
  const { loadPyodide } = await /** @type {Promise<typeof import("pyodide")>} */ (import(PYODIDE_MJS));
  const py = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  const extractDir = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const buf of await wheels) py.unpackArchive(buf, "wheel", { extractDir });
  py.runPython("import importlib; importlib.invalidate_caches()");
  return py;
}

const started = boot();
started.then(
  (py) => postMessage({ type: "ready", pyodide: py.version, boot_ms: performance.now() - t0 }),
  (e) => postMessage({ type: "failed", message: String(e) }),
);

onmessage = async (/** @type {MessageEvent<{id: number, code: string, data: string}>} */ ev) => {
  const { id, code, data } = ev.data;
  try {
    const py = await started;
    py.globals.set("DATA", data);
    postMessage({ id, ok: true, result: String(py.runPython(code)) });
  } catch (e) {
    postMessage({ id, ok: false, message: String(e) });
  }
};
