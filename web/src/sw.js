// SPDX-License-Identifier: GPL-3.0-or-later
// Service worker: keeps every file of one build in one cache, so that after a
// first visit the page loads (and Python starts) from disk, also offline.
//
// web/precache.mjs (workbox-build's injectManifest) writes in the list of
// every file of dist/ but this one, each with its sha256 as revision, and
// the build id (esbuild's define), so each new build is a byte-different
// sw.js, which the browser installs beside the old one:
//  * install: a new cache "pychessdraw-<build>"; files whose sha256 did not
//    change are copied from the previous build's cache, the others fetched
//    (bypassing the HTTP cache) and checked against their sha256. Any failure
//    fails the install: the old build keeps serving, the browser retries later.
//  * activate: the other pychessdraw caches are deleted, open pages are
//    claimed; boot.js then reloads them onto the new build (the game survives
//    in localStorage and the URL).
//  * fetch: files of the manifest come from the cache (ignoring ?query; HEAD
//    requests get the headers), anything else from the network.
/** The build and its files (path: sha256). */
const MANIFEST = {
  build: __PCD_BUILD__,
  files: Object.fromEntries(self.__WB_MANIFEST.map((e) => [e.url, e.revision ?? ""])),
};
const PREFIX = "pychessdraw-";
const CACHE = PREFIX + MANIFEST.build;
// the webworker lib types self as a plain worker: this one is a service worker
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const scope = new URL(sw.registration.scope);

const urlOf = (/** @type {string} */ path) => new URL(path, scope).href;
const hex = (/** @type {ArrayBuffer} */ buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** @param {string} path @param {string} sha */
async function previousCopy(path, sha) {
  // an unchanged file (same sha256 in an older build's manifest) is reused
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await caches.open(name);
    const m = await old.match(urlOf("__manifest__.json"));
    if (!m) continue;
    const files = (await m.json()).files || {};
    if (files[path] !== sha) continue;
    const r = await old.match(urlOf(path));
    if (r) return r;
  }
  return null;
}

// The Python snapshot is kept inflated (31 MB instead of 6): reading it from
// disk is faster than inflating it at every start. worker.js knows it by the
// header x-pychessdraw-inflated.
const INFLATE = /^pyodide\/snapshot-[0-9a-f]+\.gz$/;

/** @param {string} path @param {string} sha */
async function fetchChecked(path, sha) {
  const r = await fetch(urlOf(path), { cache: "no-cache" });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  let body = await r.arrayBuffer();
  const got = hex(await crypto.subtle.digest("SHA-256", body));
  if (got !== sha) throw new Error(`${path}: sha256 ${got.slice(0, 12)}… is not this build's ${sha.slice(0, 12)}…`);
  const headers = new Headers();
  for (const h of ["content-type", "last-modified"]) if (r.headers.has(h)) headers.set(h, r.headers.get(h) ?? "");
  if (INFLATE.test(path)) {
    body = await new Response(new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    headers.set("content-type", "application/octet-stream");
    headers.set("x-pychessdraw-inflated", "1");
  }
  return new Response(body, { status: 200, headers });
}

async function install() {
  const cache = await caches.open(CACHE);
  const entries = Object.entries(MANIFEST.files);
  let next = 0;
  // a few at a time: the big files dominate, and this runs after the page is ready
  const worker = async () => {
    while (next < entries.length) {
      const [path, sha] = entries[next++];
      const have = await cache.match(urlOf(path));
      if (have) continue; // an interrupted install resumed
      const r = (await previousCopy(path, sha)) || (await fetchChecked(path, sha));
      await cache.put(urlOf(path), r);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  // written last: a cache holding the manifest is complete
  await cache.put(urlOf("__manifest__.json"), new Response(JSON.stringify(MANIFEST), {
    headers: { "content-type": "application/json" },
  }));
}

sw.addEventListener("install", (ev) => {
  ev.waitUntil(install().then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

const paths = new Set(Object.keys(MANIFEST.files));

/** @param {Request} request */
function pathOf(request) {
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  let path = decodeURIComponent(url.pathname.slice(scope.pathname.length));
  if (path === "" || path.endsWith("/")) path += "index.html";
  return paths.has(path) ? path : null;
}

sw.addEventListener("fetch", (ev) => {
  const method = ev.request.method;
  if (method !== "GET" && method !== "HEAD") return;
  const path = pathOf(ev.request);
  if (!path) return; // not ours: the network, as without a service worker
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(urlOf(path));
    if (!hit) return fetch(ev.request);
    // HEAD (the worker checks that the wheels are there): headers only
    return method === "HEAD" ? new Response(null, { status: 200, headers: hit.headers }) : hit;
  })());
});

sw.addEventListener("message", (ev) => {
  if (ev.data && ev.data.op === "status" && ev.ports[0]) {
    caches.open(CACHE)
      .then((c) => c.match(urlOf("__manifest__.json")))
      .then((m) => ev.ports[0].postMessage({ build: MANIFEST.build, complete: !!m }))
      .catch(() => ev.ports[0].postMessage({ build: MANIFEST.build, complete: false })); // no cache storage: not offline-ready
  }
});
