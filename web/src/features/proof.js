// SPDX-License-Identifier: GPL-3.0-or-later
// A proof you can play: where the referee proves that a side can mate, its
// mating line is played on the board move by move, as a variation that does
// not touch the game; where it proves that a side cannot, the squares of the
// proof are marked. A small component: Play mounts it in the draw panel's
// details, the Review view in its draw panel (data-role="proof-slot").
// Everything shown comes from the referee (op "proof"): the positions, the
// moves' labels, the sentences; this file parses no FEN and no SAN.
import { el } from "../ui/dom.js";
import { t } from "../i18n.js";

/**
 * What the control needs of the position shown: Play's facts, or a reviewed
 * game's ply (its `can_mate` answers as `winnable`).
 * @typedef {{ply: number, fen: string, winnable: {white: {answer: import("../contract.js").Answer},
 *   black: {answer: import("../contract.js").Answer}}}} Facts
 */
/** @typedef {import("../contract.js").ProofView} ProofView */
/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {"white"|"black"} Color */

/**
 * What the board shows while a proof is open, ready for chessground's
 * `set` and `setAutoShapes`.
 * @typedef {Object} ProofShown
 * @property {string} fen
 * @property {[string, string] | undefined} lastMove
 * @property {Color | false} check  the side in check
 * @property {{orig: string, brush: string}[]} shapes  circles on the proof's squares
 * @property {Map<string, string>} squares  square -> CSS class (chessground's highlight.custom)
 * @property {string} label  "3.Nxe5 (2 of 27)", "" at the line's start
 */

/**
 * The page around the component.
 * @typedef {Object} ProofHost
 * @property {(ply: number, color: Color) => Promise<Answer>} ask  the referee's "proof" op
 * @property {(shown: ProofShown | null) => void} show  draw this on the board; null: the game again
 */

const BRUSH = { piece: "blue", wall: "red" };

/**
 * The board for step `index` of `view` (-1: the position the proof is of).
 * @param {ProofView} view @param {number} index
 * @returns {ProofShown}
 */
export function proofShown(view, index) {
  /** @type {Map<string, string>} */
  const squares = new Map();
  const shapes = [];
  for (const m of view.marks) {
    if (m.kind === "region") squares.set(m.square, "proof-region");
    else shapes.push({ orig: m.square, brush: BRUSH[m.kind] });
  }
  const step = index >= 0 ? view.steps[index] : null;
  if (!step) return { fen: view.start_fen, lastMove: undefined, check: false, shapes, squares, label: "" };
  const mover = step.label.includes("...") ? "black" : "white";
  return {
    fen: step.fen,
    lastMove: [step.last_move[0], step.last_move[1]],
    check: step.check ? (mover === "white" ? "black" : "white") : false,
    shapes,
    squares,
    label: t("{move} ({n} of {count})", { move: step.label, n: index + 1, count: view.steps.length }),
  };
}

/** @param {string} text @param {string} testid @param {() => void} onClick @param {string} [label] */
function button(text, testid, onClick, label) {
  const b = el("button", { class: "proof-btn", dataset: { testid }, attrs: { type: "button" }, text });
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

/** The control in one slot: the buttons, then an open proof's steps or marks. */
class ProofControl {
  /** @param {HTMLElement} slot @param {ProofHost} host */
  constructor(slot, host) {
    this.slot = slot;
    this.host = host;
    /** @type {Facts | null} */
    this.facts = null;
    /** @type {{view: ProofView, index: number} | null} */
    this.open = null;
    this.asking = 0;
    this.drawn = "";
    slot.classList.add("proof-slot");
  }

  /** Back to the game's position. */
  leave() {
    if (!this.open) return;
    this.open = null;
    this.host.show(null);
    this.render();
  }

  /** @param {number} index  -1: the position before the line */
  go(index) {
    const open = this.open;
    if (!open) return;
    open.index = Math.max(-1, Math.min(open.view.steps.length - 1, index));
    this.host.show(proofShown(open.view, open.index));
    this.render();
    const current = this.slot.querySelector('[aria-current="step"]');
    if (current) current.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** @param {Color} color */
  start(color) {
    const facts = this.facts;
    if (!facts) return;
    const ply = facts.ply;
    const mine = ++this.asking;
    this.slot.dataset.state = "asking";
    this.host.ask(ply, color).then((r) => {
      if (mine !== this.asking || !this.facts || this.facts.ply !== ply) return;
      if (!r.ok || !r.proof) {
        this.slot.dataset.state = "";
        return;
      }
      this.open = { view: r.proof, index: -1 };
      this.go(r.proof.steps.length ? 0 : -1);
    }, () => { this.slot.dataset.state = ""; });
  }

  renderOpen() {
    if (!this.open) return;
    const { view, index } = this.open;
    this.slot.dataset.state = "open";
    this.slot.dataset.color = view.color;
    /** @type {HTMLElement[]} */
    const kids = [el("p", { class: "proof-title", dataset: { testid: "proof-title" } }, view.title)];
    if (view.steps.length) kids.push(this.stepsNav(view, index));
    if (view.legend) kids.push(el("p", { class: "proof-legend", dataset: { testid: "proof-legend" } }, view.legend));
    kids.push(button(view.steps.length ? t("Leave the line") : t("Hide the marks"), "proof-leave", () => this.leave()));
    this.slot.replaceChildren(...kids);
  }

  /** @param {ProofView} view @param {number} index */
  stepsNav(view, index) {
    const list = el("ol", { class: "proof-line", dataset: { testid: "proof-line" } });
    view.steps.forEach((s, i) => {
      const b = el("button", { class: "proof-move", attrs: { type: "button" }, text: s.label });
      if (i === index) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => this.go(i));
      list.append(el("li", {}, b));
    });
    const nav = el("div", { class: "proof-nav" },
      button("«", "proof-first", () => this.go(-1), t("The position before the line")),
      button("‹", "proof-prev", () => this.go(index - 1), t("Previous move of the line")),
      button("›", "proof-next", () => this.go(index + 1), t("Next move of the line")),
      button("»", "proof-last", () => this.go(view.steps.length - 1), t("The mate")));
    const at = el("span", { class: "proof-at", dataset: { testid: "proof-at" }, attrs: { "aria-live": "polite" } },
      index >= 0 ? proofShown(view, index).label : t("Before the line"));
    return el("div", { class: "proof-steps" }, nav, at, list);
  }

  render() {
    if (this.open) return this.renderOpen();
    this.slot.dataset.state = "";
    const kids = [];
    for (const c of /** @type {Color[]} */ (["white", "black"])) {
      const w = this.facts && this.facts.winnable[c];
      if (!w || w.answer === "unknown") continue;
      const yes = w.answer === "yes";
      const text = yes
        ? (c === "white" ? t("Play White's mating line") : t("Play Black's mating line"))
        : (c === "white" ? t("Show why White cannot mate") : t("Show why Black cannot mate"));
      const b = button(text, yes ? "proof-play" : "proof-show", () => this.start(c));
      b.dataset.color = c;
      kids.push(b);
    }
    this.slot.replaceChildren(...kids);
  }

  /**
   * The same position in other words (another language): the buttons drawn
   * again, an open proof asked again and shown at the same step.
   * @param {Facts} facts
   */
  again(facts) {
    this.facts = facts;
    const open = this.open;
    if (!open) return this.render();
    const mine = ++this.asking;
    this.host.ask(facts.ply, open.view.color).then((r) => {
      if (mine !== this.asking || this.open !== open || !r.ok || !r.proof) return;
      this.open = { view: r.proof, index: Math.min(open.index, r.proof.steps.length - 1) };
      this.go(this.open.index);
    }, () => {});
  }

  /** @param {Facts | null} next */
  update(next) {
    const facts = this.facts;
    const moved = !next || !facts || next.ply !== facts.ply || next.fen !== facts.fen;
    this.facts = next;
    // a panel update with the same answers keeps the buttons (and the focus on them)
    const sig = next ? `${next.ply}|${next.fen}|${next.winnable.white.answer}|${next.winnable.black.answer}` : "";
    if (!moved && !this.open && sig === this.drawn) return;
    this.drawn = sig;
    if (moved) {
      this.asking++;
      if (this.open) {
        this.open = null;
        this.host.show(null);
      }
    }
    if (!this.open) this.render();
  }
}

/**
 * Mount the proof control in `slot` (an empty element: Play's
 * `#proof-slot`, the Review view's `[data-role="proof-slot"]`). Call
 * `update(facts)` with the facts of the position shown, at every change of
 * it: a new position leaves an open proof (`host.show(null)`).
 * @param {HTMLElement} slot @param {ProofHost} host
 * `step(delta)` moves along an open line (the board's step buttons and keys).
 * `again(facts)` says the same position again in the page's language (after a switch).
 * @returns {{update: (facts: Facts | null) => void, leave: () => void, again: (facts: Facts) => void,
 *   isOpen: () => boolean, step: (delta: number) => void}}
 */
export function mountProof(slot, host) {
  const control = new ProofControl(slot, host);
  control.render();
  return {
    update: (f) => control.update(f),
    leave: () => control.leave(),
    again: (f) => control.again(f),
    isOpen: () => !!control.open,
    step: (delta) => { if (control.open) control.go(control.open.index + delta); },
  };
}
