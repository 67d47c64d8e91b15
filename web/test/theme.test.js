// SPDX-License-Identifier: GPL-3.0-or-later
// The page's colours (web/src/ui/theme.js): the choice resolved on a light
// and on a dark system, and the saved choice read back (anything else is "system").
import { test } from "node:test";
import assert from "node:assert/strict";
import { THEME_KEY, loadThemeChoice, resolveTheme } from "../src/ui/theme.js";

test("system follows the system; light and dark override it", () => {
  assert.equal(resolveTheme("system", true), "dark");
  assert.equal(resolveTheme("system", false), "light");
  for (const dark of [true, false]) {
    assert.equal(resolveTheme("light", dark), "light");
    assert.equal(resolveTheme("dark", dark), "dark");
  }
});

test("the saved choice is read back; an unknown or missing one, or no storage, is system", () => {
  /** @type {Record<string, string>} */
  const store = {};
  const g = /** @type {any} */ (globalThis);
  g.localStorage = { getItem: (/** @type {string} */ k) => store[k] ?? null };
  try {
    assert.equal(loadThemeChoice(), "system");
    store[THEME_KEY] = "dark";
    assert.equal(loadThemeChoice(), "dark");
    store[THEME_KEY] = "sepia";
    assert.equal(loadThemeChoice(), "system");
    g.localStorage = { getItem: () => { throw new Error("refused"); } };
    assert.equal(loadThemeChoice(), "system");
  } finally {
    delete g.localStorage;
  }
});
