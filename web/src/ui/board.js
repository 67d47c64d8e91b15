// SPDX-License-Identifier: GPL-3.0-or-later
// The board view: chessground configured from the controller's state. It
// holds no chess logic: destinations, check and arrows come from the facts.
import { Chessground } from "@lichess-org/chessground";
import { $, el, setText } from "./dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").Facts} Facts */

/** @typedef {import("@lichess-org/chessground/types").Key} Key */

/** A square the referee sent, as chessground's key (the referee sends only squares). @param {string} square */
export const key = (square) => /** @type {Key} */ (square);

/**
 * The legal destinations of the bridge's moves, as chessground wants them.
 * @param {import("../contract.js").LegalMove[]} moves
 * @returns {Map<Key, Key[]>}
 */
export function destsOf(moves) {
  /** @type {Map<Key, Key[]>} */
  const dests = new Map();
  for (const m of moves) {
    const a = dests.get(key(m.from));
    if (!a) dests.set(key(m.from), [key(m.to)]);
    else if (!a.includes(key(m.to))) a.push(key(m.to));
  }
  return dests;
}

/**
 * Arrows for the intended moves of claims that few moves allow.
 * @param {Facts|null} f
 */
export function claimArrows(f) {
  /** @type {{orig: Key, dest: Key, brush: string}[]} */
  const shapes = [];
  if (!f || f.outcome || !f.live) return shapes;
  for (const g of f.claims) {
    if (!g.arrows) continue;
    for (const m of g.moves) shapes.push({ orig: key(m.uci.slice(0, 2)), dest: key(m.uci.slice(2, 4)), brush: "green" });
  }
  return shapes;
}

/**
 * While the computer is to move, the visitor's move is kept as a premove
 * (control/premove.js); chessground's click or right click cancels it.
 * @param {Controller} ctrl
 */
const premovable = (ctrl) => ({ enabled: false, showDests: true, castle: true, events: {
  set: (/** @type {string} */ orig, /** @type {string} */ dest) => ctrl.premoves.setFromBoard(orig, dest),
  unset: () => { if (ctrl.state.premove?.orig) ctrl.premoves.cancel(); },
} });

/**
 * The premove kept, on the board: a badge (hook: premove) and chessground's
 * squares, both following the controller's state.
 * @param {Controller} ctrl @param {import("@lichess-org/chessground/api").Api} cg @param {HTMLElement} host
 * @returns {() => void} its render
 */
function premoveView(ctrl, cg, host) {
  const badge = el("div", { class: "premove-badge", dataset: { testid: "premove" }, attrs: { "aria-hidden": "true" } });
  badge.hidden = true;
  /** @type {HTMLElement} */ (host.parentElement).append(badge);
  return () => {
    const p = ctrl.state.premove;
    const cur = cg.state.premovable.current;
    if (cur && !(p && p.orig === cur[0] && p.dest === cur[1])) cg.cancelPremove();
    badge.hidden = !p;
    host.dataset.premove = p ? p.text : "";
    if (p) setText(badge, t("Premove {move}", { move: p.text }));
  };
}

/**
 * A proof's line or marks over the game (features/proof.js): nothing can be
 * moved. False when no proof is shown.
 * @param {import("@lichess-org/chessground/api").Api} cg @param {HTMLElement} host
 * @param {import("../ctrl.js").CtrlState} s
 */
function renderProof(cg, host, s) {
  const p = s.proof;
  if (!p) return false;
  cg.set({
    fen: p.fen,
    orientation: s.orientation,
    check: p.check,
    lastMove: p.lastMove ? [key(p.lastMove[0]), key(p.lastMove[1])] : undefined,
    movable: { free: false, color: undefined, dests: new Map() },
    highlight: { lastMove: true, check: true, custom: new Map([...p.squares].map(([sq, c]) => [key(sq), c])) },
  });
  cg.setAutoShapes(p.shapes.map((sh) => ({ orig: key(sh.orig), brush: sh.brush })));
  host.dataset.fen = p.fen;
  host.dataset.proof = "1";
  return true;
}

/**
 * The game's squares again once a proof is left.
 * @param {import("@lichess-org/chessground/api").Api} cg @param {HTMLElement} host
 */
function leaveProof(cg, host) {
  if (!host.dataset.proof) return;
  delete host.dataset.proof;
  cg.set({ highlight: { lastMove: true, check: true, custom: new Map() } });
}

/**
 * chessground caches the board's screen position and refreshes it only on
 * scroll/resize; a banner appearing can move the board without either.
 * @param {Controller} ctrl @param {import("@lichess-org/chessground/api").Api} cg @param {HTMLElement} host
 */
function followBounds(ctrl, cg, host) {
  for (const type of ["mousedown", "touchstart"]) {
    host.addEventListener(type, () => {
      cg.state.dom.bounds.clear();
      if (!ctrl.canMove() && ctrl.state.engine !== "ready") ctrl.explainNoMove();
    }, { capture: true, passive: true });
  }
  window.addEventListener("resize", () => cg.redrawAll());
}

/** @param {Controller} ctrl */
export function mountBoard(ctrl) {
  const host = $("board");
  const s = ctrl.state;
  const cg = Chessground(host, {
    fen: ctrl.shownFen(),
    orientation: s.orientation,
    coordinates: true,
    // the ranks by the a-file, where chessground then marks each label's square colour rightly
    ranksPosition: "left",
    movable: { free: false, color: undefined, dests: new Map(), showDests: true,
      events: { after: (orig, dest) => { ctrl.boardMove(orig, dest, performance.now()); } } },
    premovable: premovable(ctrl),
    draggable: { enabled: true, showGhost: true },
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    drawable: { enabled: true, visible: true },
  });
  followBounds(ctrl, cg, host);
  const renderPremove = premoveView(ctrl, cg, host);

  function render() {
    if (renderProof(cg, host, ctrl.state)) return;
    leaveProof(cg, host);
    const st = ctrl.shown();
    const ply = ctrl.shownPly();
    const row = ply > 0 ? ctrl.state.rows[ply - 1] : null;
    const canMove = ctrl.canMove() && !ctrl.state.ask && !ctrl.state.promotion;
    // while the referee starts, any piece may be moved: the move is kept and judged once it is ready
    const early = ctrl.state.engine === "loading" && ctrl.state.early.known;
    const pre = ctrl.isLive() && !ctrl.state.ask && !ctrl.state.promotion ? ctrl.premoves.side() : null;
    const fen = ctrl.shownFen();
    // The side to move and its check come with the move list's row (or the
    // game's start), not with the facts: a browsed position's facts arrive
    // later, and until then the shown facts are the current position's.
    const game = ctrl.state.game;
    const turn = row ? (row.white ? "black" : "white") : game ? game.start_turn : st ? st.turn : "white";
    const check = row ? row.check : game ? game.start_check : !!(st && st.check);
    cg.set({
      fen,
      orientation: ctrl.state.orientation,
      turnColor: turn,
      check: check ? turn : false,
      lastMove: row ? [key(row.uci.slice(0, 2)), key(row.uci.slice(2, 4))] : undefined,
      movable: early ? { free: true, color: "both" }
        : pre ? { free: false, color: pre, dests: new Map() }
          : { free: false, color: canMove && st ? st.turn : undefined, dests: canMove && st ? destsOf(st.legal_moves) : new Map() },
      premovable: { enabled: !!pre },
    });
    renderPremove();
    cg.setAutoShapes(ctrl.isLive() ? claimArrows(st) : []);
    host.dataset.fen = fen;
    host.dataset.orientation = ctrl.state.orientation;
    host.dataset.chess960 = ctrl.state.game && ctrl.state.game.chess960 ? "1" : "0";
    if (!st) return;
    const where = ctrl.isLive() ? t("Current position") : t("Viewing {where}", { where: st.where });
    $("board-desc").textContent = where + ". " + st.description;
  }
  ctrl.redraw.add("board", { parts: ["board", "orientation", "dialogs", "game"], render });
  render();
  return cg;
}
