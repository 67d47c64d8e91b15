// SPDX-License-Identifier: GPL-3.0-or-later
// The move list: one button per ply, updated incrementally (a move appends
// one button), the current move marked aria-current="true" and kept in view
// inside the list at any length. Labels come from the bridge's rows.
import { LAWS } from "../contract.js";
import { $, closestTo, el } from "./dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").MoveRow} MoveRow */

/** @param {number} ply @param {string} text */
function plyButton(ply, text) {
  return el("button", { class: "ply", dataset: { ply: String(ply) }, attrs: { type: "button" } }, text);
}

/** A move's button: its SAN, a repeated position's count, a move after the end. @param {MoveRow} m */
function moveButton(m) {
  const b = plyButton(m.ply, m.san);
  if (m.repetition_count >= 2) {
    b.classList.add("rep");
    b.title = t("This position has now occurred {n} times ({claim} allow a claim, {automatic} end the game)", { n: m.repetition_count, claim: LAWS.claim_count, automatic: LAWS.automatic_count });
    b.append(el("span", { class: "rep-mark", attrs: { "aria-hidden": "true" } }, ` ↻${m.repetition_count}`),
      el("span", { class: "sr-only" }, t(", position occurred {n} times", { n: m.repetition_count })));
  }
  if (m.after_end) {
    b.classList.add("after-end");
    b.title = t("Played after the rules had already ended the game");
    b.append(el("span", { class: "sr-only" }, t(", played after the end of the game")));
  }
  return b;
}

/**
 * The list item a move goes in: the last pair, or a new one (a White move,
 * or a first Black move) numbered from the row.
 * @param {HTMLElement} list @param {HTMLElement[]} lis  the pairs so far (a new one is pushed) @param {MoveRow} m
 */
function pairFor(list, lis, m) {
  const li = lis[lis.length - 1];
  const full = li && (li.dataset.white === "1" ? li.childElementCount >= 3 : li.childElementCount >= 2);
  if (li && !m.white && !full) return li;
  const pair = el("li", { class: "pair", dataset: { white: m.white ? "1" : "0" } },
    el("span", { class: "num" }, `${m.number}.${m.white ? "" : ".."}`));
  list.append(pair);
  lis.push(pair);
  return pair;
}

/** @param {Controller} ctrl */
export function mountMoves(ctrl) {
  const list = $("move-list");
  /** @type {HTMLButtonElement[]} */
  let buttons = [];
  /** @type {HTMLElement[]} */
  let lis = [];
  /** @type {HTMLButtonElement|null} */
  let current = null;
  let start = "";

  function reset() {
    const g = ctrl.state.game;
    list.replaceChildren();
    const b0 = plyButton(0, t("Start"));
    list.append(el("li", { class: "start" }, b0));
    buttons = [b0];
    lis = [];
    current = null;
    start = g ? g.start_fen : "";
  }

  /** @param {MoveRow} m */
  function append(m) {
    const b = moveButton(m);
    pairFor(list, lis, m).append(b);
    buttons.push(b);
  }

  function dropTo(/** @type {number} */ keep) {
    while (buttons.length - 1 > keep) {
      const b = /** @type {HTMLButtonElement} */ (buttons.pop());
      const li = /** @type {HTMLElement} */ (b.parentNode);
      b.remove();
      if (li && !li.querySelector("button")) {
        li.remove();
        lis.pop();
      }
    }
  }

  function sync() {
    const s = ctrl.state;
    if (!s.game) return;
    if (start !== s.game.start_fen || !buttons.length || s.rowsChange.keep === 0) reset();
    dropTo(Math.min(s.rowsChange.keep, s.rows.length));
    for (let i = buttons.length - 1; i < s.rows.length; i++) append(s.rows[i]);
  }

  function mark() {
    const cur = buttons[ctrl.shownPly()] || null;
    if (cur !== current) {
      if (current) current.removeAttribute("aria-current");
      if (cur) cur.setAttribute("aria-current", "true");
      current = cur;
    }
    if (cur) keepInView(list, cur);
  }

  list.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-ply]");
    if (b instanceof HTMLElement) ctrl.goto(Number(b.dataset.ply));
  });
  ctrl.redraw.add("moves", { parts: ["moves", "game", "browse"], render: (_s, dirty) => {
    if (dirty.has("moves") || dirty.has("game")) sync();
    mark();
  } });
  // a window made smaller (or the layout changed) keeps the current move in view
  new ResizeObserver(() => current && keepInView(list, current)).observe(list);
}

/**
 * Scroll the list (never the page) so that `item` is visible.
 * @param {HTMLElement} list @param {HTMLElement} item
 */
export function keepInView(list, item) {
  if (list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop; // the list is position: relative
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = Math.max(0, top - 4);
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
}
