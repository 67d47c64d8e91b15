// SPDX-License-Identifier: GPL-3.0-or-later
// Figurine notation, a choice of the Display section: the move lists (Play's
// table and strip, the Review's list, a proof's line) draw the piece letters
// of SAN as figurines (♘f3 for Nf3). The text stays SAN, as FIDE writes it
// (copied, exported and read by screen readers as "Nf3"): the style sheet
// gives those lists a font that draws K Q R B N as figurines and nothing
// else (fonts/figurines.woff, made by web/figurines.py). The choice resolves
// to <html data-notation="figurine|letters">; app.js applies it before the
// board is drawn.
import { el } from "./dom.js";
import { tText } from "./language.js";

export const NOTATION_KEY = "pychessdraw.notation.v1";

/** @typedef {"letters"|"figurine"} Notation */

/** The saved choice; letters when none was saved or storage is refused. @returns {Notation} */
export function loadNotation() {
  try {
    return localStorage.getItem(NOTATION_KEY) === "figurine" ? "figurine" : "letters";
  } catch {
    return "letters";
  }
}

/** Sets <html data-notation> (the saved choice by default). @param {Notation} [notation] */
export function applyNotation(notation = loadNotation()) {
  document.documentElement.dataset.notation = notation;
}

/**
 * The checkbox (data-testid figurines) in the Display section.
 * @param {HTMLElement} body  the section's body
 */
export function mountNotation(body) {
  const box = /** @type {HTMLInputElement} */ (el("input", { attrs: { type: "checkbox", id: "figurines" }, dataset: { testid: "figurines" } }));
  box.checked = loadNotation() === "figurine";
  box.addEventListener("change", () => {
    const notation = box.checked ? "figurine" : "letters";
    try {
      localStorage.setItem(NOTATION_KEY, notation);
    } catch {
      // no storage: the choice holds for this page only
    }
    applyNotation(notation);
  });
  body.append(el("label", { class: "inline", attrs: { for: "figurines" } }, box, " ", tText("Figurines in the move lists (♘f3 for Nf3)")));
}
