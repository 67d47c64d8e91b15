// SPDX-License-Identifier: GPL-3.0-or-later
// Starts the Python worker as early as possible (before the UI bundle has been
// fetched and run); app.js takes it over and replays what arrived meanwhile.
// Then looks after the service worker (sw.js): offline copy and updates.
// boot.js is not bundled (no import): its words are marked for the page's catalog, said by referee/client.js
const marked = (/** @type {string} */ msgid) => msgid;
/** @type {PcdBoot & {events: Array<MessageEvent | ErrorEvent>}} */
const boot = { worker: null, events: [], error: null, t: performance.now(), sw: null };
if (window.__pcdBoot) {
  // app.js ran first and started the worker itself
} else if ((window.__pcdBoot = boot) && typeof WebAssembly !== "object") {
  boot.error = marked("this browser has no WebAssembly support");
} else {
  try {
    const w = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    w.onmessage = (ev) => boot.events.push(ev);
    w.onerror = (ev) => {
      ev.preventDefault();
      boot.events.push(ev);
    };
    // stays attached when app.js replaces onmessage: the boot path for tests
    w.addEventListener("message", (ev) => {
      if (ev.data && ev.data.type === "ready") boot.ready = ev.data.timings;
    });
    boot.worker = w;
  } catch (e) {
    console.warn("pychessdraw: could not start the worker:", e);
    boot.error = marked("could not start the worker");
  }
}

// ---------------------------------------------------------- service worker
// First visit: registered once the referee is ready, so that caching the site
// (mostly from the HTTP cache by then) does not compete with starting it.
// Later visits: registered at once, which also checks for a new build.
// ?nosw: never registered (tests that must see the network).
// the build this page belongs to (web/build.py defines it through esbuild; its sw.js has the same)
const BUILD = __PCD_BUILD__;
const sw = navigator.serviceWorker;
/** @type {NonNullable<PcdBoot["sw"]>} */
const state = { page: BUILD, build: null, controlled: !!(sw && sw.controller), reloading: false };
/** @type {PcdBoot} */ (window.__pcdBoot).sw = state;

/** @param {(body: HTMLElement) => void} fn */
function whenBody(fn) {
  if (document.body) fn(document.body);
  else document.addEventListener("DOMContentLoaded", () => fn(document.body), { once: true });
}

/** @param {() => void} fn */
function whenEngineReady(fn) {
  whenBody((body) => {
    if (body.dataset.engine === "ready") return fn();
    const mo = new MutationObserver(() => {
      if (body.dataset.engine === "ready") {
        mo.disconnect();
        fn();
      }
    });
    mo.observe(body, { attributes: true, attributeFilter: ["data-engine"] });
  });
}

/** @param {ServiceWorker} worker @returns {Promise<{build: string, complete: boolean}>} */
function status(worker) {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = (ev) => resolve(ev.data);
    worker.postMessage({ op: "status" }, [ch.port2]);
  });
}

// A new build took over this page: reload onto it, unless the user is typing
// (then on leaving the field). The game is kept in localStorage and the URL.
// At most once in 30 s (sessionStorage), should a cache ever disagree.
function reloadOntoNewBuild() {
  if (state.reloading) return;
  try {
    const last = Number(sessionStorage.getItem("pychessdraw.swReload") || 0);
    if (Date.now() - last < 30000) return;
    sessionStorage.setItem("pychessdraw.swReload", String(Date.now()));
  } catch {
    /* no sessionStorage: reload anyway */
  }
  const typing = () => {
    const a = document.activeElement;
    return (a instanceof HTMLTextAreaElement || a instanceof HTMLInputElement) && a.value !== "";
  };
  const go = () => {
    state.reloading = true;
    location.reload();
  };
  if (!typing()) return go();
  document.activeElement?.addEventListener("blur", go, { once: true });
}

async function register() {
  const reg = await sw.register(new URL("sw.js", import.meta.url), { type: "classic", updateViaCache: "none" });
  state.registered = true;
  const active = (await sw.ready).active;
  const s = await status(/** @type {ServiceWorker} */ (active));
  state.build = s.build;
  if (s.complete) whenBody((body) => { body.dataset.offlineReady = "true"; });
  // a newer build took over before this script could listen for it
  if (s.build !== BUILD && sw.controller && sw.controller === active) reloadOntoNewBuild();
  return reg;
}

if (sw && !new URLSearchParams(location.search).has("nosw")) {
  sw.addEventListener("controllerchange", () => {
    if (state.controlled) reloadOntoNewBuild();
    state.controlled = true;
  });
  const start = () => register().catch((/** @type {unknown} */ e) => {
    state.error = String((e instanceof Error && e.message) || e);
    console.warn("pychessdraw: no offline copy:", e);
  });
  if (state.controlled) void start();
  else whenEngineReady(start);
}
