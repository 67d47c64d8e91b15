// SPDX-License-Identifier: GPL-3.0-or-later
// The length of every function, method and class of the page's code, read
// with typescript's own parser (its API, typescript/unstable/sync), over the
// files of tsconfig.json and tsconfig.worker.json (web/src with the workers
// and the service worker). Run by tests/test_web_js.py: exits 1 when a
// function or method is over the limit (the house's 80 lines; classes are
// listed, not limited).
//   node tools/fnlength.mjs [--limit 80] [--top N]
import { API } from "typescript/unstable/sync";
import { SyntaxKind } from "typescript/unstable/ast";
import { relative } from "node:path";

const argv = process.argv.slice(2);
/** @param {string} name @param {number} dflt */
const opt = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const limit = opt("--limit", 80);
const top = opt("--top", 0);
const root = new URL("..", import.meta.url).pathname;

const FUNCTIONS = new Set([SyntaxKind.FunctionDeclaration, SyntaxKind.FunctionExpression, SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration, SyntaxKind.Constructor, SyntaxKind.GetAccessor, SyntaxKind.SetAccessor]);
const CLASSES = new Set([SyntaxKind.ClassDeclaration, SyntaxKind.ClassExpression]);
const TRIVIA = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;

/** @typedef {{file: string, line: number, lines: number, name: string, kind: string}} Found */

/**
 * Every function and class of one file.
 * @param {any} sf  any: the unstable API ships no types for its nodes' fields
 * @param {string} file @param {Found[]} found
 */
function read(sf, file, found) {
  const text = sf.text;
  const of = (/** @type {any} */ n) => (n && n.pos != null ? text.slice(n.pos, n.end).replace(TRIVIA, "").trim() : "");
  const nameOf = (/** @type {any} */ node) => {
    const p = node.parent;
    if (node.name) return of(node.name);
    if (p && (p.kind === SyntaxKind.VariableDeclaration || p.kind === SyntaxKind.PropertyAssignment)) return of(p.name);
    if (p && p.kind === SyntaxKind.CallExpression) return `(callback of ${of(p.expression).slice(0, 40)})`;
    return "(anonymous)";
  };
  const visit = (/** @type {any} */ node) => {
    const kind = FUNCTIONS.has(node.kind) ? "function" : CLASSES.has(node.kind) ? "class" : null;
    if (kind) {
      const start = node.pos + (TRIVIA.exec(text.slice(node.pos, node.end)) ?? [""])[0].length;
      const first = sf.getLineAndCharacterOfPosition(start).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      found.push({ file: relative(root, file), line: first + 1, lines: last - first + 1, name: nameOf(node), kind });
    }
    node.forEachChild(visit);
  };
  sf.forEachChild(visit);
}

const api = new API({ cwd: root });
/** @type {Found[]} */
const found = [];
const seen = new Set();
try {
  for (const config of ["tsconfig.json", "tsconfig.worker.json"]) {
    const project = api.updateSnapshot({ openProject: `${root}${config}` }).getProjects()[0];
    for (const file of project.program.getSourceFileNames()) {
      if (file.includes("node_modules") || !file.startsWith(root) || seen.has(file)) continue;
      seen.add(file);
      const sf = project.program.getSourceFile(file);
      if (sf) read(sf, file, found);
    }
  }
} finally {
  api.close();
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found.slice(0, top)) console.log(`${String(f.lines).padStart(4)}  ${f.kind.padEnd(8)} ${f.file}:${f.line} ${f.name}`);
const over = found.filter((f) => f.kind === "function" && f.lines > limit);
for (const f of over) console.error(`${f.file}:${f.line} ${f.name}: ${f.lines} lines (limit ${limit})`);
console.log(`${found.length} functions and classes read in ${seen.size} files; ${over.length} functions over ${limit} lines`);
process.exit(over.length ? 1 : 0);
