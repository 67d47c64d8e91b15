// SPDX-License-Identifier: GPL-3.0-or-later
// The board's size on a desktop window, as chess sites let players set it:
// a share (60 to 100 %) of the largest board the window allows, kept on this
// device and applied as --board-scale (app.css's --board). Phones keep the
// board as wide as the screen: the style sheet ignores the share there.
// Hook: board-size (the slider in the settings dialog's Display section).
import { el } from "./dom.js";
import { tText } from "./language.js";

export const BOARD_SIZE_KEY = "pychessdraw.board-size.v1";
export const MIN_SIZE = 60;
export const MAX_SIZE = 100;

/** The percentage saved on this device (100 when none or unreadable). @returns {number} */
export function loadBoardSize() {
  try {
    const n = Number(localStorage.getItem(BOARD_SIZE_KEY));
    return Number.isFinite(n) && n >= MIN_SIZE && n <= MAX_SIZE ? n : MAX_SIZE;
  } catch {
    return MAX_SIZE; // storage disabled
  }
}

/** Apply a size (before the first paint: the board never jumps). @param {number} [pct] */
export function applyBoardSize(pct = loadBoardSize()) {
  document.documentElement.style.setProperty("--board-scale", String(pct / 100));
}

/**
 * The slider, in the Display section's body.
 * @param {HTMLElement} body
 */
export function mountBoardSize(body) {
  const input = /** @type {HTMLInputElement} */ (el("input", { attrs: { id: "board-size", type: "range",
    min: String(MIN_SIZE), max: String(MAX_SIZE), step: "5" }, dataset: { testid: "board-size" } }));
  input.value = String(loadBoardSize());
  input.addEventListener("input", () => {
    const pct = Number(input.value);
    applyBoardSize(pct);
    try {
      localStorage.setItem(BOARD_SIZE_KEY, String(pct));
    } catch {
      /* storage disabled: the size lasts as long as the page */
    }
    window.dispatchEvent(new Event("resize")); // chessground redraws for the new size
  });
  body.append(el("div", { class: "row board-size-row" },
    el("label", { class: "inline", attrs: { for: "board-size" } }, tText("Board size")), input));
}
