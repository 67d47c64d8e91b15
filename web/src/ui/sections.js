// SPDX-License-Identifier: GPL-3.0-or-later
// Room for features: a feature module adds its own section to the page.
// The board, the result, the claim prompt and the draw panel keep the first
// screen, where a player looks first; features go with the game actions and the moves, or
// where index.html gives them a home: an element [data-sections~=ID] (the
// settings dialog holds the time control and the opponent; the Review view
// holds the review).
import { el } from "./dom.js";

/**
 * @param {{id: string, title: string | Node, column?: "side"|"info", before?: string}} opts
 *   column "side": with the actions, right after the move list (on the first
 *   screen where the window allows); "info": at the end of the set-up.
 *   before: the id of an element of that column to insert before (ignored
 *   when it names the draw panel or anything outside that place).
 * @returns {HTMLElement} the section's body, to fill
 */
export function addSection({ id, title, column = "side", before }) {
  const info = /** @type {HTMLElement} */ (document.querySelector(".info-col"));
  const h = el("h2", { attrs: { id: `${id}-title` } }, title);
  const body = el("div", { class: "feature-body" });
  const sec = el("section", { class: "feature", attrs: { id, "aria-labelledby": `${id}-title` }, dataset: { testid: id } }, h, body);
  const home = document.querySelector(`[data-sections~="${id}"]`);
  const ref = before ? document.getElementById(before) : null;
  if (home) home.append(sec);
  else if (ref && ref.parentElement === info) info.insertBefore(sec, ref);
  else if (column === "side") info.append(sec);
  else (document.getElementById("setup") ?? info).append(sec);
  return body;
}
