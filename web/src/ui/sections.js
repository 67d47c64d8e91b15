// SPDX-License-Identifier: GPL-3.0-or-later
// Room for features: a feature module adds its own section to a column of
// the page (e.g. clocks beside the draw panel, a review table under the moves).
import { $, el } from "./dom.js";

/**
 * @param {{id: string, title: string, column?: "side"|"info", before?: string}} opts
 *   column "side": under the draw panel (first screen); "info": with the moves and set-up.
 *   before: the id of an element of that column to insert before.
 * @returns {HTMLElement} the section's body, to fill
 */
export function addSection({ id, title, column = "side", before }) {
  const col = /** @type {HTMLElement} */ (document.querySelector(column === "side" ? ".side-col" : ".info-col"));
  const h = el("h2", { attrs: { id: `${id}-title` } }, title);
  const body = el("div", { class: "feature-body" });
  const sec = el("section", { class: "feature", attrs: { id, "aria-labelledby": `${id}-title` }, dataset: { testid: id } }, h, body);
  const ref = before ? document.getElementById(before) : null;
  if (ref && ref.parentElement === col) col.insertBefore(sec, ref);
  else col.append(sec);
  void $; // keeps the helper import shared
  return body;
}
