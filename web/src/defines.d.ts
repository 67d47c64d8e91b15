// SPDX-License-Identifier: GPL-3.0-or-later
// What web/build.py defines through esbuild's `define` when it writes dist/.

/** boot.js: the build id (its sw.js has the same). */
declare const __PCD_BUILD__: string;
/** sw.js: the build id and the sha256 of every other file of the build. */
declare const __PCD_MANIFEST__: { build: string; files: Record<string, string> };
/** worker.js: the wheels in unpacking order and the snapshot (boot.json holds the same). */
declare const __PCD_BOOT__: { wheels: string[]; snapshot: string | null } | null;
/** worker.js: the Python module whose Bridge answers (pychessdraw.web.bridge; .follow for the arbiter). */
declare const __PCD_BRIDGE__: string;
declare const __PCD_BRIDGE_CLASS__: string;
