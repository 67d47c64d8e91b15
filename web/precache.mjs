// SPDX-License-Identifier: GPL-3.0-or-later
// The service worker's precache manifest, made by workbox-build's
// injectManifest: every file of dist/ but sw.js, each with its sha256 as its
// revision (src/sw.js checks every file it caches against it). The build id,
// a hash of the manifest without boot.js, is written into boot.js and sw.js
// (esbuild's define), so that a page can tell whether the service worker in
// charge holds its build. Run by web/build.py (build_page.write_service_worker):
//   node precache.mjs DIST   prints {"build", "files", "bytes"} as JSON
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { getManifest, injectManifest } from "workbox-build";

const dist = process.argv[2];
if (!dist) throw new Error("usage: node precache.mjs DIST");
const src = new URL("src/", import.meta.url).pathname;
const sha256 = (/** @type {Buffer} */ buf) => createHash("sha256").update(buf).digest("hex");

/** @param {string[]} ignores  files of dist/ left out */
const options = (ignores) => ({
  globDirectory: dist,
  globPatterns: ["**/*"],
  globIgnores: ignores,
  maximumFileSizeToCacheInBytes: 256 * 1024 * 1024, // the snapshot and Pyodide's wasm are tens of MB
  manifestTransforms: [
    /** @param {Array<{url: string, revision: string | null, size: number}>} entries */
    async (entries) => ({
      manifest: entries.map((e) => ({ ...e, revision: sha256(readFileSync(join(dist, decodeURIComponent(e.url))))})),
      warnings: [],
    }),
  ],
});

/** @param {string} from @param {string} to @param {string} build */
function define(from, to, build) {
  buildSync({ entryPoints: [join(src, from)], outfile: to, define: { __PCD_BUILD__: JSON.stringify(build) }, logLevel: "warning" });
}

const before = await getManifest(options(["sw.js", "boot.js"]));
const listed = before.manifestEntries ?? [];
const entries = listed.map((e) => [e.url, e.revision]).sort();
const build = sha256(Buffer.from(JSON.stringify(entries))).slice(0, 16);
define("boot.js", join(dist, "boot.js"), build);
const tmp = mkdtempSync(join(tmpdir(), "pcd-sw-"));
try {
  define("sw.js", join(tmp, "sw.js"), build);
  const done = await injectManifest({ ...options(["sw.js"]), swSrc: join(tmp, "sw.js"), swDest: join(dist, "sw.js") });
  for (const w of done.warnings) console.error(`workbox: ${w}`);
  console.log(JSON.stringify({ build, files: done.count, bytes: done.size }));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
