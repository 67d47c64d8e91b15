// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's state, no DOM: the boards followed (the worker's latest
// view of each), the event log and which events were voided, the count of
// boards by state, the phase of following (one follower at most), the
// boards' order (the round's, never by state) and the urgent strip.
// view.js renders it; nothing here is read back from the page.
import { tn } from "../i18n.js";


/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("../contract.js").FollowUpdate} Update */
/** A board as followed: the worker's view, with the number of its source. @typedef {BoardView & {src: number}} Board */

/** A board's key among every source's: its source's number and its game number. @param {number} src @param {number} game */
export const boardKey = (src, game) => `${src}:${game}`;

/** The states in the grid's count ("3 playing, 1 must stop"), in the order said. */
export const STATE_WORDS = Object.freeze({
  playing: (/** @type {number} */ n) => tn("{n} playing", "{n} playing", n),
  claimable: (/** @type {number} */ n) => tn("{n} claimable", "{n} claimable", n),
  claimable_with_move: (/** @type {number} */ n) => tn("{n} claim with a move", "{n} claim with a move", n),
  must_stop: (/** @type {number} */ n) => tn("{n} must stop", "{n} must stop", n),
  ended: (/** @type {number} */ n) => tn("{n} ended", "{n} ended", n),
});

/** The phases of following: one follower at most, whatever is clicked. @typedef {"idle" | "starting" | "following" | "stopping"} Phase */

/** Which moves each phase allows: the one follower's state machine. @type {Readonly<Record<Phase, Phase[]>>} */
export const PHASES = Object.freeze({
  idle: ["starting"],
  starting: ["following", "idle"],
  following: ["stopping", "idle"],
  stopping: ["idle"],
});

/** Urgency at or below this goes into the "needs the arbiter now" strip (must stop, broken, claim, contradicted result). */
export const URGENT_AT_MOST = 3;

export class ArbiterModel {
  constructor() {
    /** The latest view of each board, by boardKey (source, game). @type {Map<string, Board>} */
    this.boards = new Map();
    /** Every event, oldest first, each marked with its source (its name and number). @type {(ArbiterEvent & {source: string, src: number})[]} */
    this.log = [];
    /** Events taken back (moves undone, another game at that number), as `generation:source:id`. @type {Set<string>} */
    this.voided = new Set();
    /** One per Follow: an answer for an earlier one is dropped. */
    this.generation = 0;
    /** The generation of the boards shown (the last Follow's, kept once it ended): its log rows carry it. */
    this.shown = 0;
    /** Updates applied (the page's test hook). */
    this.applied = 0;
    /** @type {Phase} */
    this.phase = "idle";
    /** The source followed (its name), for the log's marks when one source is followed. */
    this.source = "";
    /** Per board number, the sources that have a board at that number (when two have, cards name their source). @type {Map<number, Set<number>>} */
    this.sourcesAt = new Map();
    /** Whether two sources have a board at the same number. */
    this.collides = false;
  }

  /**
   * Move to another phase; a move the machine does not allow is refused (false), nothing changes.
   * @param {Phase} to
   */
  go(to) {
    if (!PHASES[this.phase].includes(to)) return false;
    this.phase = to;
    return true;
  }

  /**
   * A new source is to be followed: its boards replace the last one's, the
   * log keeps the last one's events (marked with their source). Refused
   * (null) unless idle: one follower at most. Returns the generation.
   * @param {string} source
   */
  begin(source = "") {
    if (!this.go("starting")) return null;
    this.generation++;
    this.shown = this.generation;
    this.source = source;
    this.boards.clear();
    this.sourcesAt.clear();
    this.collides = false;
    return this.generation;
  }

  /** A source no longer followed: its boards leave the grid (its events stay in the log). @param {number} src */
  drop(src) {
    for (const [key, b] of this.boards) if (b.src === src) this.boards.delete(key);
    for (const at of this.sourcesAt.values()) at.delete(src);
    this.collides = [...this.sourcesAt.values()].some((at) => at.size > 1);
  }

  /** The follower ended (stopped, or failed to start), from any phase: idle, and its late answers are stale. */
  end() {
    this.phase = "idle";
    this.generation++;
  }

  /** The boards in the round's order: by source, board number, then place in the source; never by state. */
  ordered() {
    return [...this.boards.values()].sort((a, b) => a.src - b.src || a.board - b.board || a.game - b.game);
  }

  /** The boards that need the arbiter now, most urgent first, then by board number. */
  urgent() {
    return this.ordered().filter((b) => b.urgency <= URGENT_AT_MOST).sort((a, b) => a.urgency - b.urgency);
  }

  /** Whether an event of this generation (and source) was voided. @param {number} id @param {number} [generation] @param {number} [src] */
  isVoid(id, generation = this.generation, src = 0) {
    return this.voided.has(`${generation}:${src}:${id}`);
  }

  /**
   * Take in one update from the worker, for the source numbered `src` (named `name`).
   * @param {Update} u @param {number} [src] @param {string} [name]
   * @returns {{mustStop: ArbiterEvent[]}}  the events that call for the alarm
   */
  apply(u, src = 0, name = this.source) {
    for (const e of u.events) this.log.push({ ...e, source: name, src });
    for (const id of u.voided) this.voided.add(`${this.generation}:${src}:${id}`);
    for (const b of u.boards) {
      this.boards.set(boardKey(src, b.game), { ...b, src });
      let at = this.sourcesAt.get(b.board);
      if (!at) this.sourcesAt.set(b.board, (at = new Set()));
      at.add(src);
      if (at.size > 1) this.collides = true;
    }
    this.applied++;
    return { mustStop: u.events.filter((e) => e.kind === "automatic") };
  }

  /**
   * The same events and boards of source `src` said again (follow_again,
   * after a switch of language): each event of the log keeps its place and
   * its source, its words change (the latest event of that id: a source
   * followed anew numbers its events from 1 again); the boards shown take
   * their new view. Nothing is added.
   * @param {{events: ArbiterEvent[], boards: BoardView[]}} u @param {number} src
   */
  reword(u, src) {
    /** @type {Map<number, number>} */
    const at = new Map();
    for (let i = this.log.length - 1; i >= 0; i--) if (this.log[i].src === src && !at.has(this.log[i].id)) at.set(this.log[i].id, i);
    for (const e of u.events) {
      const i = at.get(e.id);
      if (i !== undefined) this.log[i] = { ...this.log[i], text: e.text, line: e.line, more: e.more };
    }
    for (const b of u.boards) {
      const key = boardKey(src, b.game);
      if (this.boards.has(key)) this.boards.set(key, { ...b, src });
    }
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
      .filter((s) => counts[s]).map((s) => STATE_WORDS[s](counts[s]));
    return tn("{n} board: {states}", "{n} boards: {states}", n, { states: parts.join(", ") });
  }

  /** The log as JSON lines (the download). */
  jsonLines() {
    return this.log.map((e) => JSON.stringify(e)).join("\n") + (this.log.length ? "\n" : "");
  }
}
