// SPDX-License-Identifier: GPL-3.0-or-later
// The page's own words. Every sentence a person reads on the page goes
// through t() or tn(), written once, in English, as the message id; the
// catalogs of the other languages are built from the same gettext .po files
// as the referee's sentences. Until a catalog is loaded, the English text
// is shown. Placeholders are {name}, filled from the params.

/** @type {Record<string, string | string[]>} */
let catalog = {};
/** @type {(n: number) => number} */
let pluralIndex = (n) => (n === 1 ? 0 : 1);
let locale = "en";

/** @param {string} text @param {Record<string, string | number> | undefined} params */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/**
 * The message in the page's language.
 * @param {string} msgid the English text
 * @param {Record<string, string | number>} [params]
 */
export function t(msgid, params) {
  const found = catalog[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/**
 * A message with a count, in the plural form the language needs.
 * @param {string} singular @param {string} plural @param {number} n
 * @param {Record<string, string | number>} [params] ({n} is given too)
 */
export function tn(singular, plural, n, params) {
  const forms = catalog[singular];
  const all = { n, ...(params || {}) };
  if (Array.isArray(forms) && forms.length) {
    const form = forms[Math.min(pluralIndex(n), forms.length - 1)];
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** The language shown (a BCP 47 tag such as "de"). */
export function currentLocale() {
  return locale;
}

/**
 * Use a loaded catalog.
 * @param {string} tag
 * @param {Record<string, string | string[]>} messages
 * @param {(n: number) => number} [plural]
 */
export function useCatalog(tag, messages, plural) {
  locale = tag;
  catalog = messages;
  if (plural) pluralIndex = plural;
}

/**
 * Marks a message for the page's catalog where it is made but not shown (the
 * worker, which has no catalog; a table read later) and returns it unchanged:
 * tMarked() says it in the page's language where it is shown.
 * @param {string} msgid the English text
 */
export function marked(msgid) {
  return msgid;
}

/**
 * A message made elsewhere and marked there (marked()), in the page's
 * language; a text no catalog holds (a browser's own error) as it came.
 * @param {string} msgid @param {Record<string, string | number>} [params]
 */
export function tMarked(msgid, params) {
  return t(msgid, params);
}
