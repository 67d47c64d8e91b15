// SPDX-License-Identifier: GPL-3.0-or-later
// Adds CPython bytecode (unchecked-hash .pyc, the interpreter of the Pyodide
// in node_modules) to pure-Python wheels, so the browser imports them without
// compiling the sources first. Sources stay in the wheel; RECORD lists the pycs.
// Usage: node web/precompile.mjs OUT_DIR WHEEL...
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [outDir, ...wheels] = process.argv.slice(2);
if (!outDir || !wheels.length) {
  console.error("usage: node precompile.mjs OUT_DIR WHEEL...");
  process.exit(2);
}
const py = await loadPyodide({ indexURL: path.join(here, "node_modules/pyodide/") });
py.runPython(`
import base64, hashlib, importlib.util, sys, zipfile
from importlib import _bootstrap_external as be
import sysconfig

SITE = sysconfig.get_paths()["purelib"]

def precompile(src, dst):
    added = []
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        record = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == record:
                continue
            zout.writestr(info, data)
            if info.filename.endswith(".py"):
                code = compile(data, SITE + "/" + info.filename, "exec", dont_inherit=True)
                pyc = bytes(be._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                head, _, name = info.filename.rpartition("/")
                target = (head + "/" if head else "") + "__pycache__/" + name[:-3] + "." + sys.implementation.cache_tag + ".pyc"
                zout.writestr(target, pyc)
                digest = base64.urlsafe_b64encode(hashlib.sha256(pyc).digest()).rstrip(b"=").decode()
                added.append(f"{target},sha256={digest},{len(pyc)}")
        text = zin.read(record).decode().rstrip("\\n").split("\\n")
        rec_line = [l for l in text if l.startswith(record + ",")]
        rest = [l for l in text if not l.startswith(record + ",")]
        zout.writestr(record, "\\n".join(rest + added + rec_line) + "\\n")
    return len(added)
`);
const precompile = py.globals.get("precompile");
const tag = py.runPython("import sys; sys.implementation.cache_tag");
for (const w of wheels) {
  const name = path.basename(w);
  py.FS.writeFile(`/tmp/in-${name}`, new Uint8Array(fs.readFileSync(w)));
  const n = precompile(`/tmp/in-${name}`, `/tmp/out-${name}`);
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, name), py.FS.readFile(`/tmp/out-${name}`));
  console.log(`precompiled ${n} modules (${tag}) into ${name}`);
}
precompile.destroy();
