// SPDX-License-Identifier: GPL-3.0-or-later
// The Review's own board, an analysis board apart from the Play game: the
// verdict in one sentence with "go to the move", the board with the game's
// own clocks ([%clk] at the ply shown, as the referee sends them), the move
// list with each move's clock and the marks (where a claim became possible,
// where the rules ended the game, where a flag fell), and the draw panel of
// the ply shown. Everything shown is display-ready from review_game: no
// chess logic and no PGN here. "Continue this position in Play" is the one
// way to the Play game (after its usual question).
//
// Hooks: review-stage, review-verdict, review-goto, review-board,
// review-clock-white, review-clock-black, review-moves (buttons data-ply),
// review-mark (one per marked ply, data-ply), review-panel (data-ply),
// review-continue, review-back; [data-role=proof-slot] in the panel.

import { Chessground } from "@lichess-org/chessground";
import { el, setText } from "../ui/dom.js";
import { t } from "../i18n.js";
import { mountProof } from "./proof.js";
import { tAttr, tText } from "../ui/language.js";

/** @typedef {import("../contract.js").ReviewGame} ReviewGame */
/** @typedef {import("../contract.js").ReviewPly} ReviewPly */
/** @typedef {import("../contract.js").ReviewRow} ReviewRow */
/** @typedef {import("@lichess-org/chessground/types").Key} Key */
/** @typedef {import("@lichess-org/chessground/api").Api} Api */
/** @typedef {import("./proof.js").ProofShown} ProofShown */
/** @typedef {(g: ReviewGame, ply: number, color: "white"|"black") => Promise<import("../contract.js").Answer_>} AskProof */

/** app.css's phones, where the list and the board take turns. */
export const TURNS = "(max-width: 899px), (orientation: landscape) and (max-height: 560px)";

/** The stage's elements. */
function buildStage() {
  const dom = {
    back: el("button", { attrs: { type: "button" }, class: "review-back", dataset: { testid: "review-back" } }, tText("← Games")),
    title: el("h2", { class: "review-title" }),
    verdict: el("p", { class: "review-verdict", dataset: { testid: "review-verdict" } }),
    goto: el("button", { attrs: { type: "button" }, class: "review-goto", dataset: { testid: "review-goto" } }, tText("Go to the move")),
    board: tAttr(el("div", { class: "board review-board", dataset: { testid: "review-board" }, attrs: { role: "img" } }), "aria-label", "Board of the reviewed game"),
    top: el("div", { class: "review-clock" }),
    bottom: el("div", { class: "review-clock" }),
    white: tAttr(el("span", { class: "review-clock-face", dataset: { testid: "review-clock-white" } }), "aria-label", "White's clock"),
    black: tAttr(el("span", { class: "review-clock-face", dataset: { testid: "review-clock-black" } }), "aria-label", "Black's clock"),
    nav: tAttr(el("div", { class: "nav review-nav", attrs: { role: "group" } }), "aria-label", "Move navigation"),
    cont: el("button", { attrs: { type: "button" }, class: "review-continue", dataset: { testid: "review-continue" } }, tText("Continue this position in Play")),
    moves: tAttr(el("div", { class: "review-moves", dataset: { testid: "review-moves" }, attrs: { role: "group" } }), "aria-label", "Moves of the reviewed game"),
    where: el("p", { class: "review-where" }),
    claims: el("ul", { class: "review-claims" }),
    ended: el("p", { class: "review-ended" }),
    proof: el("div", { class: "proof-slot", dataset: { role: "proof-slot" } }),
  };
  /** @type {Record<string, HTMLButtonElement>} */
  const navs = {};
  for (const [k, text] of [["first", "«"], ["prev", "‹"], ["next", "›"], ["last", "»"], ["flip", "⇅"]]) {
    navs[k] = /** @type {HTMLButtonElement} */ (el("button", { attrs: { type: "button" }, dataset: { testid: `review-nav-${k}` } }, text));
    dom.nav.append(navs[k]);
  }
  // each control's name, kept in the page's language (a label and a tooltip)
  for (const name of ["aria-label", "title"]) {
    tAttr(navs.first, name, "First position");
    tAttr(navs.prev, name, "Previous move");
    tAttr(navs.next, name, "Next move");
    tAttr(navs.last, name, "Last position");
    tAttr(navs.flip, name, "Flip the board");
  }
  const panel = tAttr(el("section", { class: "review-panel", dataset: { testid: "review-panel" } },
    dom.where, dom.claims, dom.ended, dom.proof), "aria-label", "Draw rules at the position shown");
  const head = el("div", { class: "review-head" }, dom.back, dom.title, el("div", { class: "review-verdict-line" }, dom.verdict, dom.goto));
  const boardCol = el("div", { class: "review-board-col" }, dom.top, el("div", { class: "review-board-wrap" }, dom.board), dom.bottom, dom.nav, dom.cont);
  const side = el("div", { class: "review-side" }, dom.moves, panel);
  const stage = tAttr(el("section", { class: "review-stage", dataset: { testid: "review-stage" } },
    head, boardCol, side), "aria-label", "The reviewed game");
  stage.hidden = true;
  return { ...dom, navs, panel, side, stage };
}

/** @typedef {ReturnType<typeof buildStage>} StageDom */

/**
 * A move's button in the list: its SAN, its clock, its mark.
 * @param {ReviewPly} p @param {import("../contract.js").ReviewMark | undefined} mark
 */
function moveButton(p, mark) {
  const b = el("button", { attrs: { type: "button" }, class: p.after_end ? "rply after-end" : "rply", dataset: { ply: String(p.ply) } },
    el("span", { class: "rsan" }, p.san));
  if (p.after_end) b.title = t("Played after the rules had ended the game");
  if (mark) b.append(el("span", { class: `review-mark kind-${mark.kind}`, dataset: { testid: "review-mark", ply: String(mark.ply) }, attrs: { title: mark.title, "aria-label": mark.title } }, mark.symbol));
  if (p.clock) b.append(el("span", { class: "rclk" }, p.clock));
  return b;
}

/** The move list, numbered by pairs as lichess shows it. @param {ReviewGame} g */
function moveList(g) {
  const marks = new Map(g.marks.map((m) => [m.ply, m]));
  const out = [];
  const start = marks.get(0);
  if (start) out.push(el("span", { class: "rnum" }, ""), moveButton({ ...g.plies[0], san: t("Start") }, start), el("span"));
  for (const p of g.plies.slice(1)) {
    if (p.white || out.length === 0) out.push(el("span", { class: "rnum" }, `${p.number}.`));
    if (!p.white && out.length % 3 === 1) out.push(el("span", { class: "rply empty" }, "…"));
    out.push(moveButton(p, marks.get(p.ply)));
  }
  return out;
}

/** The board, clocks, list and panel at the ply shown. @param {StageDom} dom @param {ReviewGame} g @param {number} ply @param {import("@lichess-org/chessground/api").Api} cg */
function showPly(dom, g, ply, cg) {
  const p = g.plies[ply];
  const last = p.uci ? /** @type {Key[]} */ ([p.uci.slice(0, 2), p.uci.slice(2, 4)]) : undefined;
  cg.set({ fen: p.fen, lastMove: last, turnColor: p.turn, check: p.check ? p.turn : false });
  dom.board.dataset.fen = p.fen;
  setText(dom.white, p.clock_white ?? "–");
  setText(dom.black, p.clock_black ?? "–");
  for (const b of dom.moves.querySelectorAll("button[data-ply]")) {
    const here = /** @type {HTMLElement} */ (b).dataset.ply === String(ply);
    if (here) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
    if (here) b.scrollIntoView({ block: "nearest" });
  }
  dom.panel.dataset.ply = String(ply);
  setText(dom.where, ply ? t("At {move}", { move: p.label }) : t("At the start"));
  dom.claims.replaceChildren(...p.claims.map((c) => el("li", {}, c)));
  if (!p.claims.length) dom.claims.append(el("li", { class: "none" }, t("Nothing to claim here.")));
  const ended = g.ended_at !== null && ply >= g.ended_at;
  dom.ended.hidden = !ended;
  setText(dom.ended, ended ? (ply === g.ended_at ? g.ended_text ?? "" : t("The rules had ended the game; this move was played after.")) : "");
  dom.stage.dataset.ply = String(ply);
}

/**
 * A proof over the reviewed game (features/proof.js): its line's position or
 * its marks on the Review's board, then the game's ply again (null).
 * @param {StageDom} dom @param {Api} cg @param {ProofShown | null} shown @param {() => void} back  the ply again
 */
function drawProof(dom, cg, shown, back) {
  if (!shown) {
    if (!dom.board.dataset.proof) return;
    delete dom.board.dataset.proof;
    cg.set({ highlight: { lastMove: true, check: true, custom: new Map() } });
    cg.setAutoShapes([]);
    back();
    requestAnimationFrame(() => centreCurrent(dom.moves)); // the list has its room again
    return;
  }
  if (!dom.board.dataset.proof) {
    requestAnimationFrame(() => {
      centreCurrent(dom.moves); // the list made room for the line
      // a phone: the board to the top of the screen, the line's controls below it
      if (window.matchMedia(TURNS).matches) dom.top.parentElement?.scrollIntoView({ block: "start" });
    });
  }
  const key = (/** @type {string} */ sq) => /** @type {Key} */ (sq);
  cg.set({
    fen: shown.fen,
    check: shown.check,
    lastMove: shown.lastMove ? [key(shown.lastMove[0]), key(shown.lastMove[1])] : undefined,
    highlight: { lastMove: true, check: true, custom: new Map([...shown.squares].map(([sq, c]) => [key(sq), c])) },
  });
  cg.setAutoShapes(shown.shapes.map((sh) => ({ orig: key(sh.orig), brush: sh.brush })));
  dom.board.dataset.fen = shown.fen;
  dom.board.dataset.proof = "1";
}

/**
 * The move shown in the middle of the move list's own scroll (the page's
 * scroll left alone; the list is positioned, app.css).
 * @param {HTMLElement} moves
 */
function centreCurrent(moves) {
  const cur = moves.querySelector('[aria-current="true"]');
  if (cur instanceof HTMLElement) moves.scrollTop = cur.offsetTop - (moves.clientHeight - cur.offsetHeight) / 2;
}

/** A reviewed game's ply as the proof control reads it. @param {ReviewPly} p */
const proofFacts = (p) => ({ ply: p.ply, fen: p.fen, winnable: { white: { answer: p.can_mate.white }, black: { answer: p.can_mate.black } } });

/**
 * How the board is browsed: `step` moves along an open proof's line (true),
 * or does nothing (false) when none is open.
 * @typedef {{open: () => boolean, at: () => number, goto: (n: number) => void, step: (delta: number) => boolean}} Browse
 */

/**
 * Arrows, Home and End browse the Review's board while the Review is shown
 * (outside text boxes; the Play game's keys stay in Play); the arrows step
 * through a proof's line while it is shown.
 * @param {StageDom} dom @param {Browse} to
 */
function browseKeys(dom, to) {
  document.addEventListener("keydown", (ev) => {
    const tg = /** @type {HTMLElement|null} */ (ev.target);
    if (!to.open() || dom.stage.hidden || document.documentElement.dataset.view !== "review") return;
    if (tg && (tg.tagName === "INPUT" || tg.tagName === "TEXTAREA" || tg.tagName === "SELECT" || tg.isContentEditable)) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const ply = to.at();
    /** @type {Record<string, number>} */
    const dest = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (!(ev.key in dest)) return;
    ev.preventDefault();
    const delta = ev.key === "ArrowLeft" ? -1 : ev.key === "ArrowRight" ? 1 : 0;
    if (!(delta && to.step(delta))) to.goto(dest[ev.key]);
  });
}

/**
 * The step buttons and the move list browse the board (‹ › step through a
 * proof's line while it is shown), and the keys.
 * @param {StageDom} dom @param {Browse} to
 */
function browseControls(dom, to) {
  dom.navs.first.addEventListener("click", () => to.goto(0));
  dom.navs.prev.addEventListener("click", () => { if (!to.step(-1)) to.goto(to.at() - 1); });
  dom.navs.next.addEventListener("click", () => { if (!to.step(1)) to.goto(to.at() + 1); });
  dom.navs.last.addEventListener("click", () => to.goto(Infinity));
  dom.moves.addEventListener("click", (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest("button[data-ply]") : null;
    if (b instanceof HTMLElement) to.goto(Number(b.dataset.ply));
  });
  browseKeys(dom, to);
}

/**
 * The stage's head, its title and verdict, for a game opened (or that could not be).
 * @param {StageDom} dom @param {ReviewRow} row @param {ReviewGame | null} g @param {string | null} problem
 */
function showHead(dom, row, g, problem) {
  setText(dom.title, t("Game {n}: {white} – {black}, {result}", { n: row.game, white: row.white, black: row.black, result: row.result }));
  dom.stage.dataset.game = String(row.game);
  dom.stage.dataset.clocks = g && g.has_clocks ? "on" : "off";
  for (const c of [dom.top, dom.bottom]) c.hidden = !(g && g.has_clocks);
  setText(dom.verdict, problem ? t("The game could not be opened: {problem}", { problem }) : g ? g.sentence : "");
  dom.verdict.className = `review-verdict verdict-${g ? g.verdict : "error"}`;
  dom.goto.hidden = !g || g.goto === null;
  dom.moves.replaceChildren(...(g ? moveList(g) : []));
}

/**
 * The Review's own board. `askProof` asks the referee for a proof in the
 * reviewed game's position (the proof control in the panel plays it here).
 * @param {{onContinue: (g: ReviewGame, ply: number) => void, onBack: () => void, onPly: (ply: number) => void,
 *   askProof: AskProof}} deps
 */
export function reviewBoard({ onContinue, onBack, onPly, askProof }) {
  const dom = buildStage();
  const cg = Chessground(dom.board, { viewOnly: true, coordinates: true, ranksPosition: "left", animation: { enabled: true, duration: 120 } });
  /** @type {ReviewGame | null} */
  let game = null;
  let ply = 0;
  /** @type {ReviewRow | null} */
  let shownRow = null;
  let white = true; // white at the bottom
  const place = () => {
    dom.top.replaceChildren(white ? dom.black : dom.white);
    dom.bottom.replaceChildren(white ? dom.white : dom.black);
  };
  const redrawPly = () => { if (game) showPly(dom, game, ply, cg); };
  const proof = mountProof(dom.proof, {
    ask: (at, color) => (game ? askProof(game, at, color) : Promise.reject(new Error("no game"))),
    show: (shown) => drawProof(dom, cg, shown, redrawPly),
  });
  /** @param {number} n */
  const goto = (n) => {
    if (!game) return;
    ply = Math.max(0, Math.min(game.plies.length - 1, n));
    proof.leave(); // any move of the game shown, even the same one, leaves an open proof's line
    proof.update(proofFacts(game.plies[ply]));
    showPly(dom, game, ply, cg);
    onPly(ply);
  };
  browseControls(dom, {
    open: () => game !== null, at: () => ply, goto,
    step: (delta) => { if (!proof.isOpen()) return false; proof.step(delta); return true; },
  });
  dom.navs.flip.addEventListener("click", () => {
    white = !white;
    cg.set({ orientation: white ? "white" : "black" });
    place();
  });
  dom.goto.addEventListener("click", () => { if (game && game.goto !== null) goto(game.goto); });
  dom.cont.addEventListener("click", () => { if (game) onContinue(game, ply); });
  dom.back.addEventListener("click", onBack);
  place();
  /**
   * @param {ReviewRow | null} row @param {ReviewGame | null} g @param {string | null} problem
   * @param {number} at  the ply to show first
   */
  const show = (row, g, problem, at) => {
    proof.update(null); // a proof of the game shown before is left
    game = g;
    shownRow = row;
    dom.stage.hidden = !row;
    dom.stage.dataset.state = row ? "open" : "closed";
    if (!row) return;
    showHead(dom, row, g, problem);
    if (!g) return;
    cg.redrawAll();
    goto(at);
  };
  /**
   * The game shown, its sentences said again (another language): the same
   * game at the same ply, an open proof asked again in the new words.
   * @param {ReviewGame} g
   */
  const reword = (g) => {
    if (!game || !shownRow) return;
    game = g;
    showHead(dom, shownRow, g, null);
    showPly(dom, g, ply, cg);
    proof.again(proofFacts(g.plies[ply]));
    onPly(ply);
  };
  return { stage: dom.stage, side: dom.side, show, goto, reword, redraw: () => cg.redrawAll() };
}
