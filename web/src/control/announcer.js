// SPDX-License-Identifier: GPL-3.0-or-later
// What the live region says: one sentence per change worth hearing (a move,
// a claim's verdict, the end, a claim that became possible), never the same
// sentence twice in a row. Sentences said before the page redraws are said
// together: the redraw writes the region once (control/redraw.js).
import { t, tn } from "../i18n.js";

/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("./state.js").CtrlState} CtrlState */
/** @typedef {import("./state.js").Part} Part */

export class Announcer {
  /** @param {CtrlState} state @param {(...parts: Part[]) => void} changed */
  constructor(state, changed) {
    this.state = state;
    this.changed = changed;
    this.last = "";
    /** Said since the live region was last written. @type {string[]} */
    this.unsaid = [];
  }

  /** @param {string} text */
  say(text) {
    if (!text || text === this.last) return;
    this.last = text;
    this.unsaid.push(text);
    this.state.announce = this.unsaid.join(" ");
    this.changed("announce");
  }

  /** The live region holds state.announce: what comes next starts afresh. */
  written() {
    this.unsaid = [];
  }

  /** What an answer to `op` changed, in words. @param {string} op @param {Answer} r */
  reply(op, r) {
    const s = this.state;
    const f = s.live;
    if (!f) return;
    const parts = [];
    const last = s.rows[s.rows.length - 1];
    if ((op === "play" || op === "claim") && last && r.moves && r.moves.add.length) parts.push(`${last.label}.`);
    if (op === "claim" && r.claim) parts.push(`${r.claim.headline}.`);
    if (f.outcome) parts.push(t("Game over: {headline}, {reason}.", { headline: f.outcome.headline, reason: f.outcome.reason }));
    else {
      if (f.check) parts.push(t("Check."));
      for (const g of f.claims) parts.push(`${g.text}.`);
      if (f.halfmove.level === "near") parts.push(tn("{n} ply toward the fifty-move rule.", "{n} plies toward the fifty-move rule.", f.halfmove.value));
    }
    this.say(parts.join(" "));
  }
}
