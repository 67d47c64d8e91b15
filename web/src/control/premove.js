// SPDX-License-Identifier: GPL-3.0-or-later
// Premoves: a move the visitor makes while the computer is to move (on the
// board, as chessground's premovable allows, or typed in the move box) is
// kept, one at a time, and played the moment the computer's reply is
// applied, if the referee's legal moves then contain it; a move no longer
// legal is dropped with a word. A click on the board (chessground), a right
// click, Escape, a game replaced or taken back, or the game's end cancel it.
// No DOM, no chess logic: the board's premove squares are chessground's
// geometry, the legality is the referee's (the facts' legal moves).

import { t } from "../i18n.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {"white"|"black"} Color */

/**
 * A premove kept: for `color`, made at ply `ply` (the computer to move),
 * from the board (orig, dest) or typed (text only).
 * @typedef {{color: Color, ply: number, text: string, orig?: string, dest?: string}} Premove
 */

/** The operations after which a premove no longer applies. */
const CANCELLING = new Set(["new", "load_pgn", "restore", "undo", "agree", "resign", "flag"]);

/**
 * The move to play for a board premove: the referee's legal move from orig
 * to dest; of several (promotions), the queen, as the chess sites premove.
 * @param {{uci: string, from: string, to: string, promotion?: string|null}[]} legal
 * @param {string} orig @param {string} dest
 * @returns {string|null} its UCI, or null when none is legal
 */
export function premoveUci(legal, orig, dest) {
  const cands = legal.filter((m) => m.from === orig && m.to === dest);
  if (!cands.length) return null;
  const queen = cands.find((m) => m.promotion === "q" || m.uci.endsWith("q"));
  return (queen ?? cands[0]).uci;
}

export class Premoves {
  /** @param {Controller} ctrl */
  constructor(ctrl) {
    this.ctrl = ctrl;
    ctrl.on("change", () => {
      // after every listener has seen the reply: the premove's move is a new action
      if (ctrl.state.premove) queueMicrotask(() => this.due());
    });
    ctrl.on("reply", (op, _args, r) => {
      if (r.ok && CANCELLING.has(op)) this.cancel(false);
    });
  }

  /**
   * The side a move made now would be a premove for: the computer is to
   * move on the live position and the visitor plays the other side.
   * @returns {Color|null}
   */
  side() {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    const f = s.live;
    if (s.engine !== "ready" || !f || f.outcome || ctrl.mayAct(f.turn)) return null;
    const other = f.turn === "white" ? "black" : "white";
    return ctrl.mayAct(other) ? other : null;
  }

  /**
   * Keep a premove made on the board. When the reply came first, it is
   * simply a move now.
   * @param {string} orig @param {string} dest
   */
  setFromBoard(orig, dest) {
    if (!this.side()) {
      if (this.ctrl.canMove()) this.ctrl.boardMove(orig, dest, performance.now());
      else this.ctrl.changed("board");
      return;
    }
    this.#keep({ orig, dest, text: `${orig}-${dest}` });
  }

  /**
   * Keep a typed move (SAN or UCI) as the premove; the referee reads it
   * after the reply.
   * @param {string} text
   * @returns {boolean} whether it was kept (the computer is to move)
   */
  keepTyped(text) {
    if (!this.side()) return false;
    this.#keep({ text });
    return true;
  }

  /** @param {{text: string, orig?: string, dest?: string}} move */
  #keep(move) {
    const s = this.ctrl.state;
    const f = /** @type {import("../contract.js").Facts} */ (s.live);
    s.premove = { color: /** @type {Color} */ (this.side()), ply: f.ply, ...move };
    this.ctrl.announce(t("Premove {move}: played after the computer's reply (a click on the board cancels it)", { move: move.text }));
    this.ctrl.changed("board", "queue");
  }

  /** @param {boolean} [say]  announce it (a player's cancel; not a game replaced) */
  cancel(say = true) {
    const p = this.ctrl.state.premove;
    if (!p) return;
    this.ctrl.state.premove = null;
    if (say) this.ctrl.announce(t("Premove {move} cancelled", { move: p.text }));
    this.ctrl.changed("board", "queue");
  }

  /** Play the premove if the computer has replied; drop it if it no longer applies. */
  due() {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    const p = s.premove;
    const f = s.live;
    if (!p) return;
    // the game ended or went back, or no computer plays the other side now (two players)
    const other = p.color === "white" ? "black" : "white";
    if (!f || f.outcome || f.ply < p.ply || s.engine !== "ready" || ctrl.mayAct(other) || !ctrl.mayAct(p.color)) {
      this.cancel(false);
      return;
    }
    if (f.ply === p.ply || f.turn !== p.color || s.ask || s.promotion) return; // not replied yet
    s.premove = null;
    ctrl.changed("board", "queue");
    if (!p.orig || !p.dest) {
      void ctrl.play(p.text);
      return;
    }
    const uci = premoveUci(f.legal_moves, p.orig, p.dest);
    if (uci) void ctrl.play(uci, { t0: performance.now() });
    else ctrl.announce(t("Premove {move} is not legal after the reply: cancelled", { move: p.text }));
  }
}
