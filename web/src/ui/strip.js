// SPDX-License-Identifier: GPL-3.0-or-later
// The move strip: the moves on one line that scrolls sideways, right by the
// board, as chess sites show them on a phone (the move table is further
// down there). One button per ply ("1. e4", "e5"), the move shown marked
// aria-current and kept in view; a click browses to it. Updated as the move
// list is: a move appends one button. Shown by the style sheet at narrow
// widths only (hook move-strip).
import { t } from "../i18n.js";
import { $, closestTo, el } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").MoveRow} MoveRow */

/** @param {MoveRow} m  @param {boolean} first  the game's first move (numbered even for Black) */
function stripButton(m, first) {
  const text = m.white ? `${m.number}. ${m.san}` : first ? `${m.number}… ${m.san}` : m.san;
  return el("button", { class: "ply", dataset: { ply: String(m.ply) }, attrs: { type: "button" } }, text);
}

/** @param {Controller} ctrl */
export function mountStrip(ctrl) {
  const strip = $("move-strip");
  /** @type {HTMLElement[]} ply 1.. at index 0.. */
  let buttons = [];
  /** @type {HTMLElement|null} */
  let current = null;
  let start = "";
  const empty = el("span", { class: "strip-empty" }, t("No moves yet"));

  function sync() {
    const s = ctrl.state;
    if (!s.game) return;
    if (start !== s.game.start_fen || s.rowsChange.keep === 0) {
      strip.replaceChildren();
      buttons = [];
      current = null;
      start = s.game.start_fen;
    }
    const keep = Math.min(s.rowsChange.keep, s.rows.length);
    while (buttons.length > keep) /** @type {HTMLElement} */ (buttons.pop()).remove();
    for (let i = buttons.length; i < s.rows.length; i++) {
      const b = stripButton(s.rows[i], i === 0);
      strip.append(b);
      buttons.push(b);
    }
    if (!buttons.length) strip.replaceChildren(empty);
    else if (empty.isConnected) empty.remove();
  }

  function mark() {
    const cur = buttons[ctrl.shownPly() - 1] || null;
    if (cur !== current) {
      if (current) current.removeAttribute("aria-current");
      if (cur) cur.setAttribute("aria-current", "true");
      current = cur;
    }
    // sideways only, within the strip: the page never scrolls for it
    if (cur && strip.scrollWidth > strip.clientWidth) {
      const left = cur.offsetLeft; // the strip is position: relative
      if (left < strip.scrollLeft) strip.scrollLeft = Math.max(0, left - 8);
      else if (left + cur.offsetWidth > strip.scrollLeft + strip.clientWidth) {
        strip.scrollLeft = left + cur.offsetWidth - strip.clientWidth + 8;
      }
    } else if (!cur) strip.scrollLeft = 0;
  }

  strip.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-ply]");
    if (b instanceof HTMLElement) ctrl.goto(Number(b.dataset.ply));
  });
  ctrl.redraw.add("strip", { parts: ["moves", "game", "browse"], render: (_s, dirty) => {
    if (dirty.has("moves") || dirty.has("game")) sync();
    mark();
  } });
  // shown (a narrower window) or resized: the current move back in view
  if (typeof ResizeObserver === "function") new ResizeObserver(() => mark()).observe(strip);
}
