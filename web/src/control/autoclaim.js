// SPDX-License-Identifier: GPL-3.0-or-later
// Claiming threefold repetition automatically, as the chess sites offer:
// a setting (never, always, or when the claimer's clock shows under 30 s),
// off by default since FIDE asks the player to claim (9.2.1). When on and
// the referee's facts say the visitor to move may claim threefold
// repetition now, or its prompt asks whether to claim with the move just
// made, the claim goes to the referee as any claim, marked `auto`: the
// verdict, the saved ending and the exported PGN say so. No DOM.

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {"never"|"always"|"under30"} AutoClaimMode */

export const AUTO_CLAIM_KEY = "pychessdraw.autoclaim.v1";
/** @type {readonly AutoClaimMode[]} */
export const AUTO_CLAIM_MODES = ["never", "always", "under30"];
/** The time under which "under30" claims. */
export const UNDER_MS = 30_000;
const THREEFOLD = "threefold_repetition";

/** @param {unknown} v @returns {AutoClaimMode} */
export function asMode(v) {
  return AUTO_CLAIM_MODES.includes(/** @type {AutoClaimMode} */ (v)) ? /** @type {AutoClaimMode} */ (v) : "never";
}

export class AutoClaim {
  /**
   * @param {Controller} ctrl
   * @param {{storage: Storage|null, clockMs?: (color: "white"|"black") => number|null}} opts
   *   clockMs: the time left on that side's live clock, null when no clock runs
   */
  constructor(ctrl, { storage, clockMs = () => null }) {
    this.ctrl = ctrl;
    this.storage = storage;
    this.clockMs = clockMs;
    /** @type {AutoClaimMode} */
    this.mode = "never";
    try {
      this.mode = asMode(storage?.getItem(AUTO_CLAIM_KEY));
    } catch {
      // storage refused: off
    }
    /** @type {string|null} the position last claimed in: one claim each */
    this.claimed = null;
    ctrl.on("change", () => queueMicrotask(() => this.check()));
  }

  /** @param {string} value */
  setMode(value) {
    this.mode = asMode(value);
    try {
      this.storage?.setItem(AUTO_CLAIM_KEY, this.mode);
    } catch {
      // not remembered: this visit only
    }
    this.check();
  }

  /** @param {"white"|"black"} color */
  wants(color) {
    if (this.mode === "always") return true;
    if (this.mode !== "under30") return false;
    const ms = this.clockMs(color);
    return ms != null && ms < UNDER_MS;
  }

  /** Claim if the setting asks for it now (called after every change). */
  check() {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    const f = s.live;
    if (this.mode === "never" || s.engine !== "ready" || !f || f.outcome || !ctrl.mayAct(f.turn)) return;
    if (ctrl.userPending > 0 || !this.wants(f.turn)) return; // an answer on its way decides first
    if (s.ask && s.ask.rule === THREEFOLD) {
      void ctrl.answerClaimPrompt(true, { auto: true });
      return;
    }
    const where = `${f.ply}|${f.fen}`;
    if (this.claimed === where || !f.claims.some((g) => g.rule === THREEFOLD && g.now)) return;
    this.claimed = where;
    void ctrl.claim(null, { auto: true });
  }
}
