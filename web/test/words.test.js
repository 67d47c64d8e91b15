// SPDX-License-Identifier: GPL-3.0-or-later
// No bare English on the page: every string literal of web/src that reads
// as words (two words or more, or one capitalised word) goes through the
// page's markers (t, tn, tText, tAttr, marked, tMarked), or is listed below as words
// no person reads (CSS classes, UCI and Python commands, the developer's
// own errors). The sources are read with espree, ESLint's parser.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as espree from "espree";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const MARKERS = new Set(["t", "tn", "tText", "tAttr", "marked", "tMarked"]);
// the generated contract (the referee's facts and names, sent as they are) and the markers' own module
const SKIPPED = new Set(["contract.js", "i18n.js"]);

/** Literals that read as words but that no person reads, by file. @type {Record<string, string[]>} */
const NOT_SHOWN = {
  "arbiter/cards.js": ["arb-event arb-kind-{}"],
  "arbiter/sources.js": ["{}: HTTP {} {}"], // a source's name and the HTTP status as the server sent it
  "arbiter/view.js": ["Notification"],
  "clock/clock.js": ["not a saved clock"], // caught: the clock starts afresh
  "engine/client.js": ["setoption name UCI_AnalyseMode value false", "setoption name {} value {}", "position fen {}{}",
    " movetime {}", " searchmoves {}", " wtime {} btime {}", " winc {} binc {}", "Skill Level"],
  "engine/player.js": ["Beginner", "Casual", "Club", "Expert", "Strong"], // the levels' keys: features/computer.js names them
  "engine/policy.js": ["clearly worse"], // a judgement's code: judgementWords() names it
  "features/clocks.js": ["clock clock-{}"],
  "features/players.js": ["player-bar player-{}", "White", "Black"],
  "features/reviewboard.js": ["review-mark kind-{}", "review-verdict verdict-{}",
    "(max-width: 899px), (orientation: landscape) and (max-height: 560px)", // a media query
    "no game"], // never shown: the proof control is mounted with an opened game only
  "persist.js": ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
  "review/runner.js": ["review cancelled"], // caught: the controller says the review was cancelled
  "review/table.js": ["unknown verdict {}"], // a page that does not match its contract
  "sw.js": ["{}: sha256 {}… is not this build's {}…", "{}: HTTP {}"],
  "ui/controls.js": ["White", "Black", "Event", "Site", "Date", "Round"],
  "ui/dialogs.js": ["promo promo-{}"],
  "ui/dom.js": ["#{} is missing from index.html", "#{} is not a {} in index.html"],
  "ui/keyboard.js": ["Escape"],
  "ui/language.js": ["i18n/{}.json: HTTP {}"],
  "ui/panel.js": ["button, select"],
  "ui/theme.js": ["(prefers-color-scheme: dark)"],
  "worker.js": [
    "import sysconfig; sysconfig.get_paths()['purelib']",
    "import importlib; importlib.invalidate_caches()",
    "wasm instantiation failed!",
    "{}: HTTP {}",
    "HTTP {}",
    "service worker",
  ],
};

/** @param {string} dir @returns {string[]} */
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith(".js") ? [p] : [];
  });
}

/**
 * Does `text` ({} for a template's holes) read as words a person reads? Two
 * words or more (not a list of CSS classes), one capitalised word, or a
 * template with a word of three letters or more among its holes.
 * @param {string} text @param {boolean} [template]
 */
export function readsAsWords(text, template = false) {
  const words = text.replace(/\{\}/g, " ").match(/\p{L}{2,}/gu) || [];
  if (words.length >= 2 && /^[a-z0-9{} -]*$/.test(text) && /\w-\w/.test(text)) return false; // "claim claim-go"
  if (template && /(^|[^-\p{L}])\p{L}{3,}( ?\{\})|\{\} \p{L}{3,}/u.test(text)) return true;
  if (words.length >= 2) return /\p{L}{2,}[\p{L}'’().,:;!?…-]* +[\p{L}(]/u.test(text);
  return /^[A-Z][a-z]{2,}[.…!?]?$/.test(text);
}

/** @param {any} node */
const calleeName = (node) =>
  node.callee.type === "Identifier" ? node.callee.name
    : node.callee.type === "MemberExpression" ? `${node.callee.object.name || ""}.${node.callee.property.name}` : "";

/** The literals of `code` that read as words and are not marked. @param {string} code @returns {string[]} */
export function bareWords(code) {
  const ast = espree.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  /** @type {string[]} */
  const out = [];
  /** @param {any} node @param {boolean} marked */
  const walk = (node, marked) => {
    if (!node || typeof node.type !== "string") return;
    if (/^(Import|Export(All|Named))Declaration$/.test(node.type) && node.source) return;
    if (node.type === "CallExpression") {
      const name = calleeName(node);
      if (MARKERS.has(name) || name.startsWith("console.")) marked = true;
    }
    // compared with (a key's name, a code), not shown
    if (node.type === "BinaryExpression" && /^[!=]==?$/.test(node.operator)) marked = true;
    // an element's classes
    if (node.type === "Property" && /^(class|className)$/.test(node.key.name ?? node.key.value)) marked = true;
    if (node.type === "AssignmentExpression" && node.left.property?.name === "className") marked = true;
    if (node.type === "CallExpression" && node.callee.object?.property?.name === "classList") marked = true;
    if (node.type === "SwitchCase" || node.type === "Property" && !node.computed) walk(node.value ?? null, marked);
    if (node.type === "SwitchCase") return node.consequent.forEach((n) => walk(n, marked));
    if (node.type === "Property" && !node.computed) return;
    if (node.type === "Literal" && typeof node.value === "string" && !marked && readsAsWords(node.value)) {
      out.push(node.value);
    }
    if (node.type === "TemplateLiteral" && !marked) {
      const text = node.quasis.map((/** @type {any} */ q) => q.value.cooked).join("{}");
      if (readsAsWords(text, true)) out.push(text);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "parent") continue;
      if (Array.isArray(value)) value.forEach((v) => walk(v, marked));
      else if (value && typeof value === "object") walk(value, marked);
    }
  };
  walk(ast, false);
  return out;
}

test("the check finds bare words and passes marked ones, codes and classes", () => {
  assert.deepEqual(bareWords('el("p", {}, "No games reviewed yet.")'), ["No games reviewed yet."]);
  assert.deepEqual(bareWords("const s = `the stream broke (${why}).`;"), ["the stream broke ({})."]);
  assert.deepEqual(bareWords('x.textContent = "Start";'), ["Start"]);
  assert.deepEqual(bareWords("const s = `${n} board${n === 1 ? \"\" : \"s\"}`;"), ["{} board{}"]);
  assert.deepEqual(bareWords("const s = `Done: ${n} game${s} of ${f} in ${t} s.`;"), ["Done: {} game{} of {} in {} s."]);
  assert.deepEqual(bareWords('t("No games reviewed yet."); tn("{n} game", "{n} games", 2); el("p", { class: "a b" })'), []);
  assert.deepEqual(bareWords('if (key === "Escape") {} import "./a b.js"; console.warn("it failed here")'), []);
  assert.deepEqual(bareWords('const o = { "some key": 1, code: "bad_request" }; q.closest(".a .b")'), []);
});

test("no English words on the page that do not go through the catalogs", () => {
  /** @type {string[]} */
  const found = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join("/");
    if (SKIPPED.has(rel)) continue;
    const allowed = new Set(NOT_SHOWN[rel] || []);
    for (const words of bareWords(fs.readFileSync(file, "utf8"))) {
      if (!allowed.has(words)) found.push(`${rel}: ${JSON.stringify(words)}`);
    }
  }
  assert.deepEqual(found, []);
});
