// SPDX-License-Identifier: GPL-3.0-or-later
// The page's colours: light or dark. The player's choice (system, light or
// dark) is kept in localStorage; "system" follows prefers-color-scheme, also
// when the system changes it while the page is open. The choice resolves to
// <html data-theme="light|dark">, which theme.css reads; app.js applies it
// before the board is drawn, so that a dark page never flashes light.
import { tText } from "./language.js";
import { el } from "./dom.js";

export const THEME_KEY = "pychessdraw.theme.v1";

/** @typedef {"system"|"light"|"dark"} ThemeChoice */

/** @type {ThemeChoice[]} */
export const THEME_CHOICES = ["system", "light", "dark"];
const LABELS = { system: () => tText("As the system"), light: () => tText("Light"), dark: () => tText("Dark") };

/** The saved choice; "system" when none was saved or storage is refused. @returns {ThemeChoice} */
export function loadThemeChoice() {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return THEME_CHOICES.find((c) => c === v) || "system";
  } catch {
    return "system";
  }
}

/** @param {ThemeChoice} choice */
function saveThemeChoice(choice) {
  try {
    localStorage.setItem(THEME_KEY, choice);
  } catch {
    // no storage: the choice holds for this page only
  }
}

const darkQuery = () => (typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null);

/**
 * The colours a choice gives on this system.
 * @param {ThemeChoice} choice @param {boolean} systemDark
 * @returns {"light"|"dark"}
 */
export function resolveTheme(choice, systemDark) {
  if (choice === "system") return systemDark ? "dark" : "light";
  return choice;
}

/** Sets <html data-theme> from the choice (the saved one by default). @param {ThemeChoice} [choice] */
export function applyTheme(choice = loadThemeChoice()) {
  const q = darkQuery();
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(choice, !!(q && q.matches));
  root.dataset.themeChoice = choice;
}

/** Follows the system's setting while the choice is "system". */
export function followSystemTheme() {
  const q = darkQuery();
  if (q) q.addEventListener("change", () => applyTheme());
}

/**
 * The switch (data-testid theme) in the settings dialog's Display section.
 * @param {typeof import("./sections.js").addSection} addSection
 */
export function mountThemeSwitch(addSection) {
  const body = addSection({ id: "display", title: tText("Display") });
  const select = el("select", { attrs: { id: "theme-choice" }, dataset: { testid: "theme" } },
    ...THEME_CHOICES.map((c) => el("option", { attrs: { value: c } }, LABELS[c]())));
  select.value = loadThemeChoice();
  select.addEventListener("change", () => {
    const choice = THEME_CHOICES.find((c) => c === select.value) || "system";
    saveThemeChoice(choice);
    applyTheme(choice);
  });
  body.append(el("label", { class: "inline", attrs: { for: "theme-choice" } }, tText("Colours")), select);
  return body;
}
