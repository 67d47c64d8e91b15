// SPDX-License-Identifier: GPL-3.0-or-later
// Moves made while the referee starts: kept in order (state.queued) and
// judged once it has restored the game, only where the board already shows
// the game's position (state.early.known).
import { t } from "../i18n.js";


/** @typedef {import("../ctrl.js").Controller} Controller */

/** A move made before the referee has replayed a game whose position the board does not show yet. */
/** The refusal while the referee replays the game (in the language shown when it is made). */
export const replaying = () => ({ code: "loading", message: t("The referee is still replaying the game: moves can be played in a moment.") });

export class EarlyMoves {
  /** @param {Controller} ctrl */
  constructor(ctrl) {
    this.ctrl = ctrl;
  }

  /**
   * Keep a move made before the referee is ready, or refuse it with the reason.
   * @param {string} move  SAN or UCI, as typed or moved on the board
   * @returns {Promise<null>}
   */
  keep(move) {
    const ctrl = this.ctrl;
    if (!ctrl.state.early.known) {
      // the board shows the game's start, not its position: a move made there would be judged in another
      ctrl.showError(replaying());
      return Promise.resolve(null);
    }
    ctrl.state.queued = [...ctrl.state.queued, move];
    ctrl.announce(t("{move} will be played when the referee is ready", { move }));
    ctrl.changed("queue");
    return Promise.resolve(null);
  }

  /** Play the moves kept; stop at the first the referee refuses or that asks a question. */
  async play() {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    while (s.queued.length) {
      const [move, ...rest] = s.queued;
      s.queued = rest;
      ctrl.changed("queue");
      const r = await ctrl.play(move);
      if (!r || !r.ok || s.ask || s.promotion) {
        s.queued = [];
        ctrl.changed("queue");
        return;
      }
    }
  }
}
