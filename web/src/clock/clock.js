// SPDX-License-Identifier: GPL-3.0-or-later
// A two-sided chess clock: increment (Fischer) or US Chess delay, pause and
// resume, takebacks, flag detection, and a lossless snapshot for reload.
// Pure: it reads time only through the injected `now()` (milliseconds), so
// tests drive it with a fake time source; it never touches the DOM.
//
// When the clocks start: the first move of the game starts the opponent's
// clock (no time is charged, and no increment added, for the first move), as
// on the big sites. A move made while paused resumes the clocks. A takeback
// restores both clocks to what they showed when that position arose.

import { UNTIMED, parseTimeControl } from "./timecontrol.js";

/**
 * @typedef {"white" | "black"} Color
 * @typedef {import("./timecontrol.js").TimeControl} TimeControl
 * @typedef {{white: number, black: number}} Times
 * @typedef {{ms: number, running: boolean, low: boolean}} SideView
 * @typedef {{timed: boolean, started: boolean, paused: boolean, over: boolean,
 *   flagged: Color | null, turn: Color, white: SideView, black: SideView}} ClockView
 * @typedef {{v: 1, tc: string, base: Times, turn: Color, started: boolean, over: boolean,
 *   flagged: Color | null, elapsed: number, snapshots: Times[], startPly: number,
 *   startTurn: Color}} ClockData
 */

/** @param {Color} c @returns {Color} */
export const other = (c) => (c === "white" ? "black" : "white");

/**
 * Below this many milliseconds a side is low on time: a tenth of the base
 * time, at least 2 s and at most 20 s (1+0: 6 s; 3+2: 18 s; 90+30: 20 s).
 * @param {TimeControl} tc
 */
export function lowTimeMs(tc) {
  if (tc.kind === "untimed") return 0;
  return Math.min(20_000, Math.max(2_000, Math.round(tc.baseMs / 10)));
}

/**
 * A clock reading as players read it: "h:mm:ss" from an hour, "m:ss" from
 * 10 s, "0:0s.t" (tenths) under 10 s. Time is cut down, never rounded up,
 * so a clock shows 0:00.0 only when the flag has fallen.
 * @param {number} ms
 */
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  if (t < 10_000) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export class ChessClock {
  /**
   * @param {TimeControl} [tc] default untimed
   * @param {{now?: () => number, turn?: Color, ply?: number}} [options]
   *   `now`: the time source in ms (default performance.now);
   *   `turn`, `ply`: the side to move and the ply of the position the clocks start from.
   */
  constructor(tc = UNTIMED, options = {}) {
    /** @type {() => number} */
    this.now = options.now ?? (() => performance.now());
    /** @type {TimeControl} */
    this.tc = tc;
    /** Remaining ms: the side to move's as at the start of its turn, the other's as is. @type {Times} */
    this.base = { white: 0, black: 0 };
    /** @type {Color} */
    this.turn = "white";
    /** @type {Color} */
    this.startTurn = "white";
    this.startPly = 0;
    this.started = false;
    this.paused = false;
    this.over = false;
    /** @type {Color | null} */
    this.flagged = null;
    /** ms of the current turn already spent before `since`. */
    this.elapsed = 0;
    /** Time-source value at which the current running stretch began, or null. @type {number | null} */
    this.since = null;
    /** Both clocks at each ply from `startPly` (index 0: the start). @type {Times[]} */
    this.snapshots = [];
    this.reset(tc, options);
  }

  /**
   * Set both clocks to the base time of `tc` for a game at `ply` with `turn` to move.
   * @param {TimeControl} tc
   * @param {{turn?: Color, ply?: number}} [at]
   */
  reset(tc, at = {}) {
    this.tc = tc;
    const base = tc.kind === "untimed" ? 0 : tc.baseMs;
    this.base = { white: base, black: base };
    this.turn = at.turn ?? "white";
    this.startTurn = this.turn;
    this.startPly = at.ply ?? 0;
    this.started = false;
    this.paused = false;
    this.over = false;
    this.flagged = null;
    this.elapsed = 0;
    this.since = null;
    this.snapshots = [{ ...this.base }];
  }

  get timed() {
    return this.tc.kind !== "untimed";
  }

  /** The side whose clock is counting down now, or null. @returns {Color | null} */
  get running() {
    return this.since !== null ? this.turn : null;
  }

  /** ms spent on the current turn so far (pauses excluded). */
  turnElapsed() {
    return this.elapsed + (this.since !== null ? Math.max(0, this.now() - this.since) : 0);
  }

  /** @param {number} elapsed ms of a turn @returns {number} ms taken off the clock */
  charge(elapsed) {
    return this.tc.kind === "delay" ? Math.max(0, elapsed - this.tc.delayMs) : elapsed;
  }

  /** Remaining ms of `color` now (never below 0). @param {Color} color */
  remaining(color) {
    if (color !== this.turn || !this.started || this.over) return Math.max(0, this.base[color]);
    return Math.max(0, this.base[color] - this.charge(this.turnElapsed()));
  }

  /** ms until the running side's flag falls (Infinity when no clock runs). */
  msUntilFlag() {
    if (this.since === null) return Infinity;
    const allowance = this.base[this.turn] + (this.tc.kind === "delay" ? this.tc.delayMs : 0);
    return Math.max(0, allowance - this.turnElapsed());
  }

  /** @param {Color} color */
  isLow(color) {
    return this.timed && this.remaining(color) < lowTimeMs(this.tc);
  }

  /**
   * Call often while a clock runs, and before applying a move: when the
   * running side's time is up, its flag falls, the clocks stop, and its
   * colour is returned (once); otherwise null.
   * @returns {Color | null}
   */
  tick() {
    if (this.since === null || this.msUntilFlag() > 0) return null;
    this.base[this.turn] = 0;
    this.elapsed = 0;
    this.since = null;
    this.over = true;
    this.flagged = this.turn;
    return this.turn;
  }

  /**
   * The side to move has moved. Charges its turn, adds the increment, starts
   * the opponent's clock (the first move starts the clocks, uncharged), and
   * resumes the clocks if they were paused. Returns false, and changes
   * nothing, when the mover's flag had already fallen (call tick() first).
   */
  moveMade() {
    if (this.over) {
      this.turn = other(this.turn);
      this.snapshots.push({ ...this.base });
      return true;
    }
    if (this.tick() !== null) return false;
    const mover = this.turn;
    if (this.started && this.timed) {
      const left = this.base[mover] - this.charge(this.turnElapsed());
      this.base[mover] = left + (this.tc.kind === "increment" ? this.tc.incrementMs : 0);
    }
    this.started = this.started || this.timed;
    this.turn = other(mover);
    this.elapsed = 0;
    this.paused = false;
    this.since = this.timed ? this.now() : null;
    this.snapshots.push({ ...this.base });
    return true;
  }

  /**
   * Take back the last move: both clocks return to what they showed when
   * the earlier position arose. No-op at the start.
   */
  undo() {
    if (this.snapshots.length <= 1) return;
    this.snapshots.pop();
    this.turn = other(this.turn);
    this.#restoreLast();
  }

  /**
   * The game ended (flag, claim, mate...) is taken back without a move:
   * the clocks show what they showed at the start of this turn, paused.
   */
  reopen() {
    if (!this.over) return;
    this.over = false;
    this.flagged = null;
    // paused before the restore, which starts a clock that is not paused
    this.paused = this.timed && this.snapshots.length > 1;
    this.#restoreLast();
  }

  #restoreLast() {
    this.base = { ...this.snapshots[this.snapshots.length - 1] };
    this.started = this.timed && this.snapshots.length > 1;
    this.elapsed = 0;
    this.since = this.started && !this.paused && !this.over ? this.now() : null;
  }

  /** Stop the clock of the side to move (keeps its time). */
  pause() {
    if (this.since !== null) {
      this.elapsed += Math.max(0, this.now() - this.since);
      this.since = null;
    }
    if (this.timed && !this.over) this.paused = true;
  }

  resume() {
    this.paused = false;
    if (this.started && !this.over && this.since === null) this.since = this.now();
  }

  /** The game is over: freeze both clocks as they are. */
  stop() {
    if (this.over) return;
    if (this.started && this.timed) this.base[this.turn] = this.remaining(this.turn);
    this.elapsed = 0;
    this.since = null;
    this.paused = false;
    this.over = true;
  }

  /**
   * Add `ms` to `color`'s clock (FIDE 9.5.3: two minutes to the opponent of
   * a player whose claim was wrong). Untimed clocks are left alone.
   * @param {Color} color @param {number} ms
   */
  addTime(color, ms) {
    if (!this.timed) return;
    this.base[color] += ms;
    this.snapshots[this.snapshots.length - 1][color] += ms;
  }

  /** The ply of the position now on the clock. */
  get ply() {
    return this.startPly + this.snapshots.length - 1;
  }

  /**
   * Both clocks as they stood at `ply` (when that position arose), or null
   * for a ply the clocks did not see.
   * @param {number} ply @returns {Times | null}
   */
  at(ply) {
    const s = this.snapshots[ply - this.startPly];
    return s ? { ...s } : null;
  }

  /**
   * The mover's remaining ms after each move the clocks saw, for the
   * `[%clk]` comments of an exported game: `[{ply, ms}]`, plies ascending.
   * @returns {{ply: number, ms: number}[]}
   */
  moveClocks() {
    if (!this.timed) return [];
    const out = [];
    for (let k = 1; k < this.snapshots.length; k++) {
      const mover = k % 2 === 1 ? this.startTurn : other(this.startTurn);
      out.push({ ply: this.startPly + k, ms: this.snapshots[k][mover] });
    }
    return out;
  }

  /** What a view needs to draw both clocks. @returns {ClockView} */
  view() {
    /** @param {Color} c @returns {SideView} */
    const side = (c) => ({ ms: this.remaining(c), running: this.running === c, low: this.isLow(c) });
    return {
      timed: this.timed, started: this.started, paused: this.paused, over: this.over,
      flagged: this.flagged, turn: this.turn, white: side("white"), black: side("black"),
    };
  }

  /**
   * Everything needed to restore the clocks after a reload (they come back
   * paused: nobody's time runs while the page is closed).
   * @returns {ClockData}
   */
  toJSON() {
    return {
      v: 1, tc: this.tc.text, base: { ...this.base }, turn: this.turn, started: this.started,
      over: this.over, flagged: this.flagged, elapsed: this.turnElapsed(),
      snapshots: this.snapshots.map((s) => ({ ...s })), startPly: this.startPly, startTurn: this.startTurn,
    };
  }

  /**
   * A clock from `toJSON()` output, paused. Throws an Error on data that
   * is not a saved clock (the caller then starts afresh).
   * @param {unknown} data
   * @param {{now?: () => number}} [options]
   */
  static fromJSON(data, options = {}) {
    const d = /** @type {ClockData} */ (data);
    const isColor = (/** @type {unknown} */ c) => c === "white" || c === "black";
    const isTimes = (/** @type {unknown} */ t) =>
      typeof t === "object" && t !== null &&
      Number.isFinite(/** @type {Times} */ (t).white) && Number.isFinite(/** @type {Times} */ (t).black);
    if (!d || d.v !== 1 || typeof d.tc !== "string" || !isTimes(d.base) || !isColor(d.turn) ||
        !isColor(d.startTurn) || !Array.isArray(d.snapshots) || d.snapshots.length < 1 ||
        !d.snapshots.every(isTimes) || !Number.isInteger(d.startPly) || d.startPly < 0 ||
        !Number.isFinite(d.elapsed) || d.elapsed < 0 || (d.flagged !== null && !isColor(d.flagged))) {
      throw new Error("not a saved clock");
    }
    const clock = new ChessClock(parseTimeControl(d.tc), { now: options.now, turn: d.startTurn, ply: d.startPly });
    clock.base = { ...d.base };
    clock.turn = d.turn;
    clock.snapshots = d.snapshots.map((s) => ({ white: s.white, black: s.black }));
    clock.started = Boolean(d.started) && clock.timed;
    clock.over = Boolean(d.over);
    clock.flagged = d.flagged;
    clock.elapsed = clock.started && !clock.over ? d.elapsed : 0;
    clock.since = null;
    clock.paused = clock.started && !clock.over;
    return clock;
  }
}
