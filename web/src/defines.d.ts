// SPDX-License-Identifier: GPL-3.0-or-later
// What web/build.py (and web/precache.mjs) define through esbuild's `define` when it writes dist/.

/** boot.js and sw.js: the build id. */
declare const __PCD_BUILD__: string;
/** sw.js: every other file of the build with its sha256 (workbox-build's injectManifest writes it in). */
interface WorkerGlobalScope {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
}
/** worker.js: the wheels in unpacking order and the snapshot (boot.json holds the same). */
declare const __PCD_BOOT__: { wheels: string[]; snapshot: string | null } | null;
/** worker.js: the Python module whose Bridge answers (pychessdraw.web.bridge; .follow for the arbiter). */
declare const __PCD_BRIDGE__: string;
declare const __PCD_BRIDGE_CLASS__: string;
