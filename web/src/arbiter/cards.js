// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's drawing of the model: a board's card (placed once in
// the round's order, never moved by its state), a log row, the "needs the
// arbiter now" strip. Every word comes from the worker (pychessdraw.web.follow):
// nothing here builds a sentence; the source's text goes in as text only.
import { Chessground } from "@lichess-org/chessground";
import { key } from "../ui/board.js";
import { el } from "../ui/dom.js";

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {{card: HTMLElement, cg: ReturnType<typeof Chessground>, at: number[]}} Card */

/** @param {string|null} s */
const orDash = (s) => (s == null || s === "" ? "?" : s);

/**
 * One board of the grid, with its board number.
 * @param {BoardView} b
 * @returns {Card}
 */
export function makeCard(b) {
  const cgHost = el("div", { class: "arb-cg" });
  const card = el("article", {
    class: "arb-board",
    attrs: { id: `arb-board-${b.game}`, tabindex: "-1" },
    dataset: { testid: "arbiter-board", game: String(b.game), board: String(b.board) },
  },
  el("header", { class: "arb-head" }, el("span", { class: "arb-num", text: String(b.board) }),
    el("span", { class: "arb-players" }), el("span", { class: "arb-round" })),
  cgHost,
  el("p", { class: "arb-line" }, el("span", { class: "arb-state" }), el("span", { class: "arb-moves" })),
  el("p", { class: "arb-clocks" }),
  el("p", { class: "arb-note" }));
  const cg = Chessground(cgHost, { viewOnly: true, coordinates: false, animation: { enabled: false },
    drawable: { enabled: false, visible: false }, highlight: { lastMove: true, check: false } });
  return { card, cg, at: [b.board, b.game] };
}

/** @param {number[]} a @param {number[]} b */
const before = (a, b) => a[0] - b[0] || a[1] - b[1];

/**
 * Put a new card into the grid at its place in the round's order (by board
 * number, then place in the source); cards already there never move.
 * @param {HTMLElement} grid @param {Card[]} placed  the grid's cards, in order (kept) @param {Card} c
 */
export function placeCard(grid, placed, c) {
  let lo = 0;
  let hi = placed.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(placed[mid].at, c.at) <= 0) lo = mid + 1;
    else hi = mid;
  }
  grid.insertBefore(c.card, lo < placed.length ? placed[lo].card : null);
  placed.splice(lo, 0, c);
}

/** @param {HTMLElement} card @param {string} cls @param {string} text */
const setText = (card, cls, text) => {
  const e = /** @type {HTMLElement} */ (card.querySelector(`.${cls}`));
  if (e.textContent !== text) e.textContent = text;
};

/**
 * Show a board's latest view in its card (its place does not change).
 * @param {Card} c @param {BoardView} b
 */
export function fillCard(c, b) {
  const { card, cg } = c;
  card.dataset.state = b.state;
  card.dataset.urgency = String(b.urgency);
  card.dataset.error = b.error ? "1" : "";
  setText(card, "arb-players", `${orDash(b.white)} – ${orDash(b.black)}`);
  setText(card, "arb-round", b.round && b.round !== "?" ? `round ${b.round}` : "");
  setText(card, "arb-state", b.state_text); // the referee's words, as every text of the card
  setText(card, "arb-moves", b.move_text);
  setText(card, "arb-clocks", b.clocks_text);
  setText(card, "arb-note", b.note);
  card.title = b.note;
  if (b.fen) {
    const last = b.last_uci ? [key(b.last_uci.slice(0, 2)), key(b.last_uci.slice(2, 4))] : undefined;
    cg.set({ fen: b.placement ?? undefined, lastMove: last });
  }
}

/**
 * One row of the log: the arbiter's short line, "more" for the intended
 * moves past five, and the source it came from.
 * @param {ArbiterEvent} e @param {string} source @param {number} generation
 */
export function eventRow(e, source, generation) {
  const time = new Date().toLocaleTimeString("en-GB");
  const more = e.more ? el("details", { class: "arb-more" }, el("summary", { text: "more" }), el("span", { text: e.more })) : null;
  return el("li", {
    class: `arb-event arb-kind-${e.kind}`,
    attrs: { title: e.text },
    dataset: { testid: "arbiter-event", id: String(e.id), game: String(e.game), board: String(e.board), ply: String(e.ply),
      rule: e.rule ?? "", kind: e.kind, source, generation: String(generation) },
  }, el("time", { text: time }), " ", el("span", { class: "arb-text", text: e.line }), " ", more,
  el("span", { class: "arb-from", text: source }));
}

/**
 * The "needs the arbiter now" strip: one button a board, most urgent first;
 * a click brings the board into view.
 * @param {HTMLElement} strip @param {BoardView[]} urgent @param {(game: number) => void} jump
 */
export function fillStrip(strip, urgent, jump) {
  strip.replaceChildren(...urgent.map((b) => {
    const button = el("button", { class: "arb-urgent-board", attrs: { type: "button" },
      dataset: { board: String(b.board), game: String(b.game), urgency: String(b.urgency) } },
    el("span", { class: "arb-urgent-num", text: String(b.board) }), " ", el("span", { text: b.error ?? b.state_text }));
    button.addEventListener("click", () => jump(b.game));
    return button;
  }));
  strip.hidden = urgent.length === 0;
}
