// SPDX-License-Identifier: GPL-3.0-or-later
// The page's language: the one the browser asks for (navigator.languages) or
// the one picked (the picker at the top, remembered), its catalog loaded
// lazily (dist/i18n/<code>.json, built from the page's .po files by
// web/build_i18n.py; English needs none), <html lang> and dir set, and the
// words already on screen put into it without a reload.
//
// Words the markup holds are marked there (index.html: data-i18n for an
// element's text, data-i18n-attr="aria-label title" for attributes), with
// the English text as the message id. Words a module makes once, at mount,
// are tText()/tAttr() (the same message, kept in step on a switch); words
// rendered on every change are t()/tn() and come back with the re-render
// the switch asks for (the "language" event, then a change of every part).
import { LANGUAGES, LAWS } from "../contract.js";
import { currentLocale, t, useCatalog } from "../i18n.js";

export const LANGUAGE_KEY = "pychessdraw.language";
/** The event on `document` once another language is shown (`detail`: its code). */
export const LANGUAGE_EVENT = "pcd-language";
const ENGLISH = "en";
// Scripts written right to left: none is shipped yet, and the layout uses
// logical properties, so that one joins with its catalog.
const RIGHT_TO_LEFT = new Set(["ar", "fa", "he", "ur"]);

/**
 * Each language's plural rule, by the Plural-Forms expression of its .po
 * (the build refuses an expression missing here: web/build_i18n.py).
 * @type {Record<string, (n: number) => number>}
 */
export const PLURALS = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "(n > 1)": (n) => (n > 1 ? 1 : 0),
  "n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2": (n) =>
    n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2,
  "n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2": (n) =>
    n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2,
};

/** @param {string | null | undefined} tag a BCP 47 tag ("de-DE") @returns {string | null} a shipped language */
export function shipped(tag) {
  if (!tag) return null;
  const code = tag.toLowerCase().split(/[-_]/)[0];
  return Object.prototype.hasOwnProperty.call(LANGUAGES, code) ? code : null;
}

/**
 * The language to start in: the one picked here before, else the first of
 * the browser's that is shipped, else English.
 * @param {Storage | null} storage @param {readonly string[]} wanted navigator.languages
 */
export function chooseLanguage(storage, wanted) {
  /** @type {string | null} */
  let saved = null;
  try {
    saved = storage ? storage.getItem(LANGUAGE_KEY) : null;
  } catch {
    // no storage: the browser's languages decide
  }
  const picked = shipped(saved);
  if (picked) return picked;
  for (const tag of wanted) {
    const code = shipped(tag);
    if (code) return code;
  }
  return ENGLISH;
}

/**
 * Placeholders of words made once; a value that is itself words (a level's
 * name) is a function, asked again in each language.
 * @typedef {Record<string, string | number | (() => string)>} Params
 */
/** @type {Map<Text, {msgid: string, params?: Params}>} */
const texts = new Map();
/** @type {Array<{e: Element, name: string, msgid: string, params?: Params}>} */
const attrs = [];

/** @param {string} msgid @param {Params} [params] */
function tNow(msgid, params) {
  if (!params) return t(msgid);
  return t(msgid, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "function" ? v() : v])));
}
/** The English text of each marked element or attribute of the markup. @type {WeakMap<Element, Map<string, string>>} */
const markup = new WeakMap();
// The articles the markup's words cite ({name}), as the referee sends them
// (laws.py): the markup types none, and they are filled in every language.
const MARKUP_FACTS = {
  threefold_with_move: LAWS.claim_article.threefold_repetition_with_move,
  fifty_with_move: LAWS.claim_article.fifty_moves_with_move,
  dead_position: LAWS.article.dead_position,
  flag_fall: LAWS.article.time_forfeit,
};

/**
 * A text node of words made once (a section's title, a button's word), kept
 * in the page's language on a switch.
 * @param {string} msgid @param {Params} [params]
 */
export function tText(msgid, params) {
  const node = document.createTextNode(tNow(msgid, params));
  texts.set(node, { msgid, params });
  return node;
}

/**
 * Set an attribute of words made once (aria-label, title, placeholder), kept in the page's language.
 * @template {Element} E
 * @param {E} e @param {string} name @param {string} msgid @param {Params} [params]
 * @returns {E}
 */
export function tAttr(e, name, msgid, params) {
  e.setAttribute(name, tNow(msgid, params));
  attrs.push({ e, name, msgid, params });
  return e;
}

/** @param {Element} e @param {string} key @param {() => string} read */
function english(e, key, read) {
  let m = markup.get(e);
  if (!m) markup.set(e, (m = new Map()));
  let text = m.get(key);
  if (text == null) m.set(key, (text = read().replace(/\s+/g, " ").trim()));
  return text;
}

/**
 * Read the markup's marked words (their English) before anything changes
 * them: app.js calls it first, with the page's markup as written.
 */
export function rememberMarkup(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) {
    const text = english(e, "", () => e.textContent || "");
    if (text.includes("{")) e.textContent = t(text, MARKUP_FACTS);
  }
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of (e.getAttribute("data-i18n-attr") || "").split(/\s+/).filter(Boolean)) {
      const text = english(e, name, () => e.getAttribute(name) || "");
      if (text.includes("{")) e.setAttribute(name, t(text, MARKUP_FACTS));
    }
  }
}

/**
 * A marked attribute's words in the current language, as the markup has
 * them (a control's own tooltip, before a reason is added to it); "" where
 * the markup gives none (what the attribute holds then is the page's own
 * reason, in the language it was written in, never the control's own).
 * @param {Element} e @param {string} name
 */
export function markedAttr(e, name) {
  const text = markup.get(e)?.get(name);
  return text == null ? "" : t(text, MARKUP_FACTS);
}

/** Put the markup's marked words and the words made once into the current language. */
export function translatePage(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) {
    e.textContent = t(english(e, "", () => e.textContent || ""), MARKUP_FACTS);
  }
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of (e.getAttribute("data-i18n-attr") || "").split(/\s+/).filter(Boolean)) {
      e.setAttribute(name, t(english(e, name, () => e.getAttribute(name) || ""), MARKUP_FACTS));
    }
  }
  for (const [node, { msgid, params }] of texts) node.data = tNow(msgid, params);
  for (const { e, name, msgid, params } of attrs) e.setAttribute(name, tNow(msgid, params));
}

/**
 * Load `code`'s catalog (none for English) and show the page in it.
 * @param {string} code a shipped language
 * @param {(url: string) => Promise<Response>} [get]
 */
export async function showLanguage(code, get = (url) => fetch(url)) {
  if (code === ENGLISH) useCatalog(ENGLISH, {}, PLURALS["(n != 1)"]);
  else {
    const res = await get(`i18n/${code}.json`);
    if (!res.ok) throw new Error(`i18n/${code}.json: HTTP ${res.status}`);
    /** @type {{plural: string, messages: Record<string, string | string[]>}} */
    const cat = await res.json();
    useCatalog(code, cat.messages, PLURALS[cat.plural]);
  }
  const html = document.documentElement;
  html.lang = code;
  html.dir = RIGHT_TO_LEFT.has(code) ? "rtl" : "ltr";
  translatePage();
  document.dispatchEvent(new CustomEvent(LANGUAGE_EVENT, { detail: code }));
}

/** The language shown (English until a catalog is loaded). */
export function shownLanguage() {
  return currentLocale();
}

/**
 * The picker at the top of the page (hook "language"): a language picked is
 * remembered here, shown at once, and asked of the referee, the game kept.
 * @param {{setLanguage: (code: string) => Promise<unknown>}} ctrl
 * @param {Storage | null} storage
 */
export function mountLanguagePicker(ctrl, storage) {
  rememberMarkup();
  const pick = /** @type {HTMLSelectElement | null} */ (document.getElementById("language"));
  if (!pick) return;
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement("option");
    o.value = code;
    o.lang = code; // each name in its own language, for a screen reader
    o.textContent = name;
    pick.append(o);
  }
  pick.value = currentLocale();
  document.addEventListener(LANGUAGE_EVENT, () => {
    pick.value = currentLocale();
  });
  pick.addEventListener("change", async () => {
    const code = shipped(pick.value) || ENGLISH;
    try {
      storage?.setItem(LANGUAGE_KEY, code);
    } catch {
      // not remembered: the switch still happens
    }
    await showLanguage(code);
    await ctrl.setLanguage(code);
  });
}
