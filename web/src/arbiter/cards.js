// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's drawing of the model: a board's card (placed once in
// the round's order, never moved by its state), a log row, the "needs the
// arbiter now" strip. Every word comes from the worker (pychessdraw.web.follow):
// nothing here builds a sentence; the source's text goes in as text only.
import { Chessground } from "@lichess-org/chessground";
import { key } from "../ui/board.js";
import { el } from "../ui/dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("./model.js").Board} Board */
/**
 * A drawn board: its card, its small board, its place in the order (source,
 * board number, place in the source) and its texts, kept so that a change
 * touches only them (no query of the card at each update).
 * @typedef {{card: HTMLElement, cg: ReturnType<typeof Chessground>, at: number[], texts: Record<string, HTMLElement>, fen: string}} Card
 */

/** @param {string|null} s */
const orDash = (s) => (s == null || s === "" ? "?" : s);

/** The text parts of a card, by class. */
const PARTS = ["arb-num", "arb-players", "arb-round", "arb-state", "arb-moves", "arb-clocks", "arb-note"];

/**
 * One board of the grid, with its board number (its source's letter before
 * it, "B12", when two sources have boards at the same number).
 * @param {Board} b @param {string} letter  its source's letter
 * @returns {Card}
 */
export function makeCard(b, letter) {
  /** @type {Record<string, HTMLElement>} */
  const texts = {};
  for (const cls of PARTS) texts[cls] = el(cls === "arb-clocks" || cls === "arb-note" ? "p" : "span", { class: cls });
  const cgHost = el("div", { class: "arb-cg" });
  const card = el("article", {
    class: "arb-board",
    attrs: { id: `arb-board-${b.src}-${b.game}`, tabindex: "-1" },
    dataset: { testid: "arbiter-board", game: String(b.game), board: String(b.board), source: letter },
  },
  el("header", { class: "arb-head" }, texts["arb-num"], texts["arb-players"], texts["arb-round"]),
  cgHost,
  el("p", { class: "arb-line" }, texts["arb-state"], texts["arb-moves"]),
  texts["arb-clocks"],
  texts["arb-note"]);
  const cg = Chessground(cgHost, { viewOnly: true, coordinates: false, animation: { enabled: false },
    drawable: { enabled: false, visible: false }, highlight: { lastMove: true, check: false } });
  return { card, cg, at: [b.src, b.board, b.game], texts, fen: "" };
}

/** A board's number as the arbiter reads it: "12", or "B12" when another source has a board 12. @param {Board} b @param {string} letter @param {boolean} named */
export const boardLabel = (b, letter, named) => (named ? `${letter}${b.board}` : String(b.board));

/** @param {number[]} a @param {number[]} b */
const before = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

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

/**
 * Show a board's latest view in its card (its place does not change); only
 * what changed is written (a board redrawn only when its position did).
 * @param {Card} c @param {BoardView} b @param {string} label  its number as shown (boardLabel)
 */
export function fillCard(c, b, label) {
  const { card, cg, texts } = c;
  const set = (/** @type {string} */ cls, /** @type {string} */ text) => {
    if (texts[cls].textContent !== text) texts[cls].textContent = text;
  };
  if (card.dataset.state !== b.state) card.dataset.state = b.state;
  if (card.dataset.urgency !== String(b.urgency)) card.dataset.urgency = String(b.urgency);
  if (card.dataset.error !== (b.error ? "1" : "")) card.dataset.error = b.error ? "1" : "";
  set("arb-num", label);
  set("arb-players", `${orDash(b.white)} – ${orDash(b.black)}`);
  set("arb-round", b.round && b.round !== "?" ? t("round {round}", { round: b.round }) : "");
  set("arb-state", b.state_text); // the referee's words, as every text of the card
  set("arb-moves", b.move_text);
  set("arb-clocks", b.clocks_text);
  set("arb-note", b.note);
  if (card.title !== b.note) card.title = b.note;
  const drawn = `${b.placement}|${b.last_uci}`;
  if (b.fen && drawn !== c.fen) {
    c.fen = drawn;
    const last = b.last_uci ? [key(b.last_uci.slice(0, 2)), key(b.last_uci.slice(2, 4))] : undefined;
    cg.set({ fen: b.placement ?? undefined, lastMove: last });
  }
}

/**
 * One row of the log: its source's letter (shown when several are
 * followed), the arbiter's short line, "more" for the intended moves past
 * five, and the source it came from.
 * @param {ArbiterEvent} e @param {{name: string, id: number, letter: string}} source @param {number} generation
 */
export function eventRow(e, source, generation) {
  const time = new Date().toLocaleTimeString("en-GB");
  const more = e.more ? el("details", { class: "arb-more" }, el("summary", { text: t("more") }), el("span", { text: e.more })) : null;
  return el("li", {
    class: `arb-event arb-kind-${e.kind}`,
    attrs: { title: e.text },
    dataset: { testid: "arbiter-event", id: String(e.id), game: String(e.game), board: String(e.board), ply: String(e.ply),
      rule: e.rule ?? "", kind: e.kind, source: source.name, src: String(source.id), letter: source.letter,
      generation: String(generation) },
  }, el("time", { text: time }), " ", el("span", { class: "arb-letter", text: source.letter }), " ",
  el("span", { class: "arb-text", text: e.line }), " ", more, el("span", { class: "arb-from", text: source.name }));
}

/**
 * A log row's words said again (another language): its line, its title and
 * its "more"; its time, its place and its marks stay.
 * @param {HTMLElement} row @param {ArbiterEvent} e
 */
export function rewordRow(row, e) {
  row.title = e.text;
  const text = row.querySelector(".arb-text");
  if (text) text.textContent = e.line;
  const more = row.querySelector(".arb-more");
  if (more) {
    const summary = more.querySelector("summary");
    if (summary) summary.textContent = t("more");
    const all = more.querySelector("span");
    if (all) all.textContent = e.more;
  }
}

/**
 * The "needs the arbiter now" strip: one button a board, most urgent first;
 * a click brings the board into view.
 * @param {HTMLElement} strip @param {Board[]} urgent @param {(b: Board) => string} label
 * @param {(b: Board) => void} jump
 */
export function fillStrip(strip, urgent, label, jump) {
  strip.replaceChildren(...urgent.map((b) => {
    const button = el("button", { class: "arb-urgent-board", attrs: { type: "button" },
      dataset: { board: String(b.board), game: String(b.game), urgency: String(b.urgency), src: String(b.src) } },
    el("span", { class: "arb-urgent-num", text: label(b) }), " ", el("span", { text: b.error ?? b.state_text }));
    button.addEventListener("click", () => jump(b));
    return button;
  }));
  strip.hidden = urgent.length === 0;
}
