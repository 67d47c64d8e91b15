// SPDX-License-Identifier: GPL-3.0-or-later
// The page's language (web/src/ui/language.js): the one picked here before,
// else the browser's first shipped one, else English; each plural rule as
// gettext's Plural-Forms says it; tn() picks the form the language needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PLURALS, chooseLanguage, shipped } from "../src/ui/language.js";
import { t, tn, useCatalog } from "../src/i18n.js";

/** @param {Record<string, string>} items */
const storage = (items) => /** @type {any} */ ({ getItem: (/** @type {string} */ k) => items[k] ?? null });

test("the language: the one picked, else the browser's first shipped, else English", () => {
  assert.equal(chooseLanguage(storage({}), ["de-DE", "en-US"]), "de");
  assert.equal(chooseLanguage(storage({}), ["ja-JP", "pt-BR", "fr"]), "pt");
  assert.equal(chooseLanguage(storage({}), ["ja-JP"]), "en");
  assert.equal(chooseLanguage(storage({ "pychessdraw.language": "ru" }), ["de-DE"]), "ru");
  assert.equal(chooseLanguage(storage({ "pychessdraw.language": "xx" }), ["nl-BE"]), "nl");
  assert.equal(chooseLanguage(null, []), "en");
  assert.equal(shipped("PL_pl"), "pl");
  assert.equal(shipped(""), null);
});

test("the plural rules give gettext's forms (Russian and Polish: three)", () => {
  const ru = PLURALS["n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"];
  const pl = PLURALS["n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"];
  assert.deepEqual([1, 2, 5, 11, 21, 22, 25, 111, 0].map(ru), [0, 1, 2, 2, 0, 1, 2, 2, 2]);
  assert.deepEqual([1, 2, 5, 12, 21, 22, 25, 0].map(pl), [0, 1, 2, 2, 2, 1, 2, 2]);
  assert.deepEqual([0, 1, 2].map(PLURALS["(n > 1)"]), [0, 0, 1]);
  assert.deepEqual([0, 1, 2].map(PLURALS["(n != 1)"]), [1, 0, 1]);
});

test("tn() picks the language's form and fills the count; a message without a translation stays English", () => {
  const ru = PLURALS["n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"];
  useCatalog("ru", { "{n} ply": ["{n} полуход", "{n} полухода", "{n} полуходов"], Undo: "Отменить" }, ru);
  try {
    assert.equal(tn("{n} ply", "{n} plies", 1), "1 полуход");
    assert.equal(tn("{n} ply", "{n} plies", 3), "3 полухода");
    assert.equal(tn("{n} ply", "{n} plies", 7), "7 полуходов");
    assert.equal(t("Undo"), "Отменить");
    assert.equal(t("Flip"), "Flip");
  } finally {
    useCatalog("en", {}, PLURALS["(n != 1)"]);
  }
  assert.equal(tn("{n} ply", "{n} plies", 3), "3 plies");
});
