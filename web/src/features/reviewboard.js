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

/** @typedef {import("../contract.js").ReviewGame} ReviewGame */
/** @typedef {import("../contract.js").ReviewPly} ReviewPly */
/** @typedef {import("../contract.js").ReviewRow} ReviewRow */
/** @typedef {import("@lichess-org/chessground/types").Key} Key */

/** The stage's elements. */
function buildStage() {
  const dom = {
    back: el("button", { attrs: { type: "button" }, class: "review-back", dataset: { testid: "review-back" } }, t("← Games")),
    title: el("h2", { class: "review-title" }),
    verdict: el("p", { class: "review-verdict", dataset: { testid: "review-verdict" } }),
    goto: el("button", { attrs: { type: "button" }, class: "review-goto", dataset: { testid: "review-goto" } }, t("Go to the move")),
    board: el("div", { class: "board review-board", dataset: { testid: "review-board" }, attrs: { role: "img", "aria-label": t("Board of the reviewed game") } }),
    top: el("div", { class: "review-clock" }),
    bottom: el("div", { class: "review-clock" }),
    white: el("span", { class: "review-clock-face", dataset: { testid: "review-clock-white" }, attrs: { "aria-label": t("White's clock") } }),
    black: el("span", { class: "review-clock-face", dataset: { testid: "review-clock-black" }, attrs: { "aria-label": t("Black's clock") } }),
    nav: el("div", { class: "nav review-nav", attrs: { role: "group", "aria-label": t("Move navigation") } }),
    cont: el("button", { attrs: { type: "button" }, class: "review-continue", dataset: { testid: "review-continue" } }, t("Continue this position in Play")),
    moves: el("div", { class: "review-moves", dataset: { testid: "review-moves" }, attrs: { role: "group", "aria-label": t("Moves of the reviewed game") } }),
    where: el("p", { class: "review-where" }),
    claims: el("ul", { class: "review-claims" }),
    ended: el("p", { class: "review-ended" }),
    proof: el("div", { class: "proof-slot", dataset: { role: "proof-slot" } }),
  };
  /** @type {Record<string, HTMLButtonElement>} */
  const navs = {};
  for (const [k, label, text] of [["first", t("First position"), "«"], ["prev", t("Previous move"), "‹"], ["next", t("Next move"), "›"], ["last", t("Last position"), "»"], ["flip", t("Flip the board"), "⇅"]]) {
    navs[k] = /** @type {HTMLButtonElement} */ (el("button", { attrs: { type: "button", "aria-label": label, title: label }, dataset: { testid: `review-nav-${k}` } }, text));
    dom.nav.append(navs[k]);
  }
  const panel = el("section", { class: "review-panel", dataset: { testid: "review-panel" }, attrs: { "aria-label": t("Draw rules at the position shown") } },
    dom.where, dom.claims, dom.ended, dom.proof);
  const head = el("div", { class: "review-head" }, dom.back, dom.title, el("div", { class: "review-verdict-line" }, dom.verdict, dom.goto));
  const boardCol = el("div", { class: "review-board-col" }, dom.top, el("div", { class: "review-board-wrap" }, dom.board), dom.bottom, dom.nav, dom.cont);
  const side = el("div", { class: "review-side" }, dom.moves, panel);
  const stage = el("section", { class: "review-stage", dataset: { testid: "review-stage" }, attrs: { "aria-label": t("The reviewed game") } },
    head, boardCol, side);
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
  cg.set({ fen: p.fen, lastMove: last });
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
 * Arrows, Home and End browse the Review's board while the Review is shown
 * (outside text boxes; the Play game's keys stay in Play).
 * @param {StageDom} dom @param {() => boolean} open @param {() => number} at @param {(n: number) => void} goto
 */
function browseKeys(dom, open, at, goto) {
  document.addEventListener("keydown", (ev) => {
    const tg = /** @type {HTMLElement|null} */ (ev.target);
    if (!open() || dom.stage.hidden || document.documentElement.dataset.view !== "review") return;
    if (tg && (tg.tagName === "INPUT" || tg.tagName === "TEXTAREA" || tg.tagName === "SELECT" || tg.isContentEditable)) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const ply = at();
    /** @type {Record<string, number>} */
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: Infinity };
    if (!(ev.key in to)) return;
    ev.preventDefault();
    goto(to[ev.key]);
  });
}

/**
 * The Review's own board.
 * @param {{onContinue: (g: ReviewGame, ply: number) => void, onBack: () => void, onPly: (ply: number) => void}} deps
 */
export function reviewBoard({ onContinue, onBack, onPly }) {
  const dom = buildStage();
  const cg = Chessground(dom.board, { viewOnly: true, coordinates: true, ranksPosition: "left", animation: { enabled: true, duration: 120 } });
  /** @type {ReviewGame | null} */
  let game = null;
  let ply = 0;
  let white = true; // white at the bottom
  const place = () => {
    dom.top.replaceChildren(white ? dom.black : dom.white);
    dom.bottom.replaceChildren(white ? dom.white : dom.black);
  };
  /** @param {number} n */
  const goto = (n) => {
    if (!game) return;
    ply = Math.max(0, Math.min(game.plies.length - 1, n));
    showPly(dom, game, ply, cg);
    onPly(ply);
  };
  dom.navs.first.addEventListener("click", () => goto(0));
  dom.navs.prev.addEventListener("click", () => goto(ply - 1));
  dom.navs.next.addEventListener("click", () => goto(ply + 1));
  dom.navs.last.addEventListener("click", () => goto(Infinity));
  dom.navs.flip.addEventListener("click", () => {
    white = !white;
    cg.set({ orientation: white ? "white" : "black" });
    place();
  });
  dom.goto.addEventListener("click", () => { if (game && game.goto !== null) goto(game.goto); });
  dom.cont.addEventListener("click", () => { if (game) onContinue(game, ply); });
  dom.back.addEventListener("click", onBack);
  dom.moves.addEventListener("click", (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest("button[data-ply]") : null;
    if (b instanceof HTMLElement) goto(Number(b.dataset.ply));
  });
  browseKeys(dom, () => game !== null, () => ply, goto);
  place();
  /**
   * @param {ReviewRow | null} row @param {ReviewGame | null} g @param {string | null} problem
   * @param {number} at  the ply to show first
   */
  const show = (row, g, problem, at) => {
    game = g;
    dom.stage.hidden = !row;
    dom.stage.dataset.state = row ? "open" : "closed";
    if (!row) return;
    setText(dom.title, t("Game {n}: {white} – {black}, {result}", { n: row.game, white: row.white, black: row.black, result: row.result }));
    dom.stage.dataset.game = String(row.game);
    dom.stage.dataset.clocks = g && g.has_clocks ? "on" : "off";
    for (const c of [dom.top, dom.bottom]) c.hidden = !(g && g.has_clocks);
    setText(dom.verdict, problem ? t("The game could not be opened: {problem}", { problem }) : g ? g.sentence : "");
    dom.verdict.className = `review-verdict verdict-${g ? g.verdict : "error"}`;
    dom.goto.hidden = !g || g.goto === null;
    dom.moves.replaceChildren(...(g ? moveList(g) : []));
    if (!g) return;
    cg.redrawAll();
    goto(at);
  };
  return { stage: dom.stage, side: dom.side, show, goto, redraw: () => cg.redrawAll() };
}
