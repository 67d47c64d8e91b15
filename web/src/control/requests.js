// SPDX-License-Identifier: GPL-3.0-or-later
// The request queue: the page's actions go to the referee one after the
// other and their answers apply in the order sent. Each action starts a new
// generation, so that an analysis answered after it is known to be stale.

/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("../contract.js").OpName} OpName */
/** @template {OpName} K @typedef {import("../contract.js").ArgsOf<K>} ArgsOf */
/** @typedef {import("../referee/client.js").Referee} Referee */

export class RequestQueue {
  /** @param {Referee} referee */
  constructor(referee) {
    this.referee = referee;
    /** The last action sent: awaiting it waits for every action before. @type {Promise<unknown>} */
    this.tail = Promise.resolve();
    /** Actions sent and not yet answered. */
    this.pending = 0;
    /** Actions sent so far. */
    this.gen = 0;
  }

  /**
   * Send an action after those already sent.
   * @template {OpName} K
   * @param {K} op @param {ArgsOf<K>} args
   * @param {(r: Answer) => void} onAnswer  runs in the order the actions were sent
   * @param {(e: unknown) => void} onFailure  the worker failed: no answer comes
   * @returns {Promise<Answer|null>}  the answer, or null on a failure
   */
  send(op, args, onAnswer, onFailure) {
    this.pending++;
    this.gen++;
    const run = async () => {
      /** @type {Answer} */
      let r;
      try {
        r = await this.referee.request(op, args);
      } catch (e) {
        this.pending--;
        onFailure(e);
        return null;
      }
      this.pending--;
      onAnswer(r);
      return r;
    };
    const p = this.tail.then(run, run);
    this.tail = p;
    return p;
  }

  /** @param {number} gen  whether no action came since generation `gen` and none is outstanding */
  isCurrent(gen) {
    return gen === this.gen && this.pending === 0;
  }
}
