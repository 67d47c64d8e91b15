// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's state, no DOM: the boards followed (the worker's latest
// view of each), the event log and which events were voided, the count of
// boards by state. view.js renders it; nothing here is read back from the page.

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("../contract.js").FollowUpdate} Update */

/** The states in the grid's count ("3 playing, 1 must stop"), in the order said. */
export const STATE_WORDS = Object.freeze({
  playing: "playing", claimable: "claimable", claimable_with_move: "claim with a move", must_stop: "must stop",
  ended: "ended",
});

export class ArbiterModel {
  constructor() {
    /** The latest view of each board, by game number. @type {Map<number, BoardView>} */
    this.boards = new Map();
    /** Every event, oldest first. @type {ArbiterEvent[]} */
    this.log = [];
    /** Events taken back (moves undone, another game at that number). @type {Set<number>} */
    this.voided = new Set();
    /** One per Follow: an answer for an earlier one is dropped. */
    this.generation = 0;
    /** Updates applied (the page's test hook). */
    this.applied = 0;
  }

  /** A new source is followed: nothing of the last one stays. */
  reset() {
    this.generation++;
    this.boards.clear();
    this.log.length = 0;
    this.voided.clear();
  }

  /**
   * Take in one update from the worker.
   * @param {Update} u
   * @returns {{mustStop: ArbiterEvent[]}}  the events that call for the alarm
   */
  apply(u) {
    this.log.push(...u.events);
    for (const id of u.voided) this.voided.add(id);
    for (const b of u.boards) this.boards.set(b.game, b);
    this.applied++;
    return { mustStop: u.events.filter((e) => e.kind === "automatic") };
  }

  /** How many boards are in each state. @returns {Record<string, number>} */
  counts() {
    /** @type {Record<string, number>} */
    const counts = {};
    for (const b of this.boards.values()) counts[b.state] = (counts[b.state] || 0) + 1;
    return counts;
  }

  /** The grid's count in words: "3 boards: 2 playing, 1 must stop". */
  summary() {
    const counts = this.counts();
    const n = this.boards.size;
    const parts = /** @type {(keyof typeof STATE_WORDS)[]} */ (Object.keys(STATE_WORDS))
      .filter((s) => counts[s]).map((s) => `${counts[s]} ${STATE_WORDS[s]}`);
    return `${n} board${n === 1 ? "" : "s"}: ${parts.join(", ")}`;
  }

  /** The log as JSON lines (the download). */
  jsonLines() {
    return this.log.map((e) => JSON.stringify(e)).join("\n") + (this.log.length ? "\n" : "");
  }
}
