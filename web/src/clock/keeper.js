// SPDX-License-Identifier: GPL-3.0-or-later
// The clocks' side of the controller: owns the ChessClock, keeps it in step
// with the game (moves, takebacks, new and imported games, endings), ticks
// it, and when a flag falls asks the referee at once (the bridge's `flag`
// op): the referee decides loss or draw (FIDE 6.9, or US Chess rules). A
// wrong draw claim gives the opponent two minutes (FIDE 9.5.3). The clocks
// and the chosen time control survive a reload (the clocks come back
// paused). No DOM: a view subscribes with `onChange`.

import { ChessClock } from "./clock.js";
import { clocksAt } from "./clk.js";
import { UNTIMED, parseTimeControl } from "./timecontrol.js";
import { LAWS, REPLACES_GAME } from "../contract.js";
import { t } from "../i18n.js";
import { messageOf } from "../errors.js";

/**
 * @typedef {"white" | "black"} Color
 * @typedef {import("./clock.js").Times} Times
 * @typedef {{ply: number, white: boolean, clock_ms?: number | null}} ClockRow
 * @typedef {{ply: number, turn: Color, outcome: unknown}} LiveFacts
 * @typedef {{ok: boolean, facts?: LiveFacts, game?: unknown, moves?: {keep: number, add: unknown[]},
 *   claim?: Pick<import("../contract.js").ClaimVerdict, "accepted"|"text"|"wrong_claim"> | null}} ClockReply
 * @typedef {{live: LiveFacts | null, rows: ClockRow[], browse: number | null, engine: string,
 *   game: {start_fen: string} | null}} CtrlLike
 * @typedef {{state: CtrlLike, userPending: number, on: import("../ctrl.js").Controller["on"],
 *   flag: (color: Color) => unknown, request: import("../ctrl.js").Controller["request"],
 *   act: import("../ctrl.js").Controller["act"]}} ControllerLike
 * @typedef {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (t: unknown) => void}} Timers
 * @typedef {{v?: number, tc?: unknown, flag_rules?: unknown, start_fen?: string | null,
 *   clock?: {snapshots?: unknown[], startPly: number} & Record<string, unknown>}} SavedClock  as read back: checked by ChessClock.fromJSON
 * @typedef {{ms: number | null, running: boolean, low: boolean}} SideShown
 * @typedef {{timed: boolean, started: boolean, source: "live" | "recorded" | "none", paused: boolean, over: boolean,
 *   flagged: Color | null, white: SideShown, black: SideShown, tc: string, flagRules: string,
 *   error: string | null, note: string, judging: boolean}} ClocksShown
 */

export const STORE_KEY = "pychessdraw.clock.v1";
export const BONUS_MS = LAWS.wrong_claim_bonus_ms; // FIDE 9.5.3, as the referee sends it
/** @typedef {import("../contract.js").FlagRulesName} FlagRules */
/** @type {readonly FlagRules[]} */
const FLAG_RULES = ["fide", "uscf"];
/** @param {unknown} v @returns {v is FlagRules} */
const isFlagRules = (v) => FLAG_RULES.includes(/** @type {FlagRules} */ (v));
const REPLACING = new Set(/** @type {readonly string[]} */ (REPLACES_GAME));

export class ClockKeeper {
  /**
   * @param {{ctrl: ControllerLike, storage: Storage, now?: () => number, timers?: Timers}} deps
   */
  constructor({ ctrl, storage, now, timers }) {
    this.ctrl = ctrl;
    this.storage = storage;
    this.now = now ?? (() => performance.now());
    this.timers = timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (t) => clearTimeout(/** @type {number} */ (t)) };
    const saved = this.#load();
    /** @type {FlagRules} */
    this.flagRules = saved.flagRules;
    this.clock = new ChessClock(saved.tc, { now: this.now });
    /** @type {SavedClock | null} the saved clock, restored once the saved game is back */
    this.pendingRestore = saved.clock;
    /** @type {string | null} */
    this.error = null;
    this.note = "";
    /** @type {unknown} */
    this.timer = null;
    /** The clock was held at its flag while a move was on its way. */
    this.held = false;
    /** The clocks were stopped for a claim being judged (FIDE 9.5.1). */
    this.judging = false;
    /** @type {Array<() => void>} */
    this.listeners = [];
    ctrl.on("engine-ready", () => {
      // before the page restores its game, so that the game gets these rules
      if (this.flagRules !== "fide") void ctrl.request("rules", { flag_rules: this.flagRules });
    });
    ctrl.on("acting", (op) => this.#onActing(op));
    ctrl.on("reply", (op, _args, r) => this.#onReply(op, r));
    ctrl.on("ready", () => this.#onReady());
    ctrl.on("change", () => this.#onChange());
  }

  /** @param {() => void} fn */
  onChange(fn) {
    this.listeners.push(fn);
  }

  #emit() {
    for (const fn of this.listeners) fn();
  }

  // ------------------------------------------------------------ actions
  /**
   * Apply a time control to the game on the board: both clocks start afresh
   * from the position shown (the next move starts them). Returns false and
   * sets `error` when the text is not a time control.
   * @param {string} text
   */
  setTimeControl(text) {
    let tc;
    try {
      tc = parseTimeControl(text);
    } catch (e) {
      this.error = messageOf(e);
      this.#emit();
      return false;
    }
    this.error = null;
    this.note = "";
    this.#resetToGame(tc);
    this.save();
    this.#schedule();
    this.#emit();
    return true;
  }

  /** Pause, or resume. */
  togglePause() {
    if (this.clock.paused) this.clock.resume();
    else this.clock.pause();
    this.note = "";
    this.save();
    this.#schedule();
    this.#emit();
  }

  /**
   * Whether the clocks hold the game: paused by the player, or about to
   * come back paused from a reload (a saved clock that had started; the
   * restore waits for the game). The computer does not move meanwhile. Not
   * while a claim is judged: that stop is the referee's, not a pause.
   */
  holdsPlay() {
    const saved = this.pendingRestore && this.pendingRestore.clock;
    if (saved) return this.clock.timed && !!saved.started && !saved.over;
    return this.clock.timed && this.clock.paused && !this.clock.over && !this.judging;
  }

  /** The page left the Play view: a running clock pauses there (nobody plays in Review), and says so. */
  pauseAway() {
    if (this.clock.running === null) return;
    this.clock.pause();
    this.note = t("The clocks were paused when you left Play: Resume starts them again.");
    this.save();
    this.#schedule();
    this.#emit();
  }

  /**
   * FIDE flag rules or US Chess (`uscf`): the referee decides flag falls by them.
   * @param {string} rules
   */
  async setFlagRules(rules) {
    if (!isFlagRules(rules)) throw new Error(t("unknown flag rules {rules}", { rules: String(rules) }));
    this.flagRules = rules;
    this.save();
    this.#emit();
    await this.ctrl.act("rules", { flag_rules: rules });
  }

  // ------------------------------------------------------------ the game
  /** @param {import("./timecontrol.js").TimeControl} tc */
  #resetToGame(tc) {
    const live = this.ctrl.state.live;
    this.clock.reset(tc, { turn: live ? live.turn : "white", ply: live ? live.ply : 0 });
    if (live && live.outcome) this.clock.stop();
  }

  /**
   * A claim stops the clocks while the referee judges it, as a claimant
   * stops them for the arbiter (FIDE 9.5.1); the answer starts them again.
   * @param {string} op
   */
  #onActing(op) {
    if (op !== "claim" || this.clock.running === null) return;
    this.clock.pause();
    this.judging = true;
    this.#schedule();
    this.#emit();
  }

  /** @param {string} op @param {ClockReply} r */
  #onReply(op, r) {
    const held = this.held;
    this.held = false;
    const judged = this.judging && op === "claim";
    if (judged) this.judging = false;
    if (!r.ok || !r.facts) {
      if (held || judged) this.clock.resume(); // no move came: the flag falls now
      this.#schedule();
      if (judged) this.#emit();
      return;
    }
    const facts = r.facts;
    const clock = this.clock;
    if (op === "set_language" && facts.ply === clock.ply) {
      this.#emit(); // the same game in other words: the clocks run on
      return;
    }
    if (REPLACING.has(op)) {
      this.note = "";
      this.#resetToGame(clock.tc);
    } else {
      if (op === "undo" && facts.ply === clock.ply && clock.over && !facts.outcome) clock.reopen();
      while (clock.ply > facts.ply && clock.ply > clock.startPly) {
        if (clock.over && !facts.outcome) clock.reopen();
        clock.undo();
      }
      if (clock.ply > facts.ply) this.#resetToGame(clock.tc);
      while (clock.ply < facts.ply) {
        if (!clock.moveMade()) break; // the flag fell first: tick() reports it
      }
      const wrong = op === "claim" && r.claim && !r.claim.accepted ? r.claim.wrong_claim : null;
      if (r.claim && wrong && clock.timed && !facts.outcome) {
        // the referee names the side and the words (FIDE 9.5.3); the clock adds the time
        clock.addTime(wrong.to, wrong.bonus_ms);
        r.claim.text += wrong.text;
        this.note = wrong.note;
      }
    }
    if ((held || judged) && clock.paused) clock.resume(); // the answer made no move: the clock goes on
    if (facts.outcome) clock.stop();
    this.save();
    this.#schedule();
    this.#emit();
  }

  #onReady() {
    const saved = this.pendingRestore;
    this.pendingRestore = null;
    const live = this.ctrl.state.live;
    const game = this.ctrl.state.game;
    if (saved && live && game && saved.start_fen === game.start_fen && saved.clock && saved.clock.snapshots &&
        saved.clock.startPly + saved.clock.snapshots.length - 1 === live.ply) {
      try {
        this.clock = ChessClock.fromJSON(saved.clock, { now: this.now });
        if (live.outcome) this.clock.stop();
      } catch {
        this.#resetToGame(this.clock.tc);
      }
    }
    this.save();
    this.#schedule();
    this.#emit();
  }

  #onChange() {
    const live = this.ctrl.state.live;
    if (live && live.outcome && !this.clock.over) {
      this.clock.stop(); // e.g. the search proved a dead position
      this.save();
      this.#schedule();
    }
    this.#emit();
  }

  // ------------------------------------------------------------ ticking
  #schedule() {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.clock.running === null) return;
    const wait = Math.max(1, Math.min(100, this.clock.msUntilFlag()));
    this.timer = this.timers.setTimeout(() => this.#tick(), wait);
  }

  #tick() {
    this.timer = null;
    // A move on its way to the referee was made before the flag fell: hold
    // the clock at zero until its answer switches it.
    if (this.ctrl.userPending > 0 && this.clock.msUntilFlag() === 0 && this.clock.running !== null) {
      this.clock.pause();
      this.held = true;
      return;
    }
    const flagged = this.clock.tick();
    if (flagged !== null) {
      this.save();
      const live = this.ctrl.state.live;
      if (live && !live.outcome) void this.ctrl.flag(flagged);
    }
    this.#schedule();
    this.#emit();
  }

  // ------------------------------------------------------------ what to show
  /**
   * The clocks as the page should show them: the live clocks at the current
   * position or, while browsing, as they stood at the browsed ply; a game
   * imported with `[%clk]` times shows those.
   * @returns {ClocksShown}
   */
  shown() {
    const s = this.ctrl.state;
    const c = this.clock;
    const ply = s.browse ?? (s.live ? s.live.ply : 0);
    const note = this.judging ? t("The clocks are stopped while the referee judges the claim (FIDE {article}).", { article: LAWS.claim_stops_clocks }) : this.note;
    const base = { tc: c.tc.text, flagRules: this.flagRules, error: this.error, note, flagged: c.flagged,
      started: c.started, judging: this.judging };
    if (c.timed) {
      if (s.browse === null || s.browse === undefined) {
        const v = c.view();
        return { ...base, timed: true, source: "live", paused: v.paused, over: v.over, white: v.white, black: v.black };
      }
      const at = c.at(ply);
      if (at) {
        return { ...base, timed: true, source: "live", paused: c.paused, over: c.over,
          white: { ms: at.white, running: false, low: false }, black: { ms: at.black, running: false, low: false } };
      }
    }
    const entries = s.rows.filter((r) => r.clock_ms != null)
      .map((r) => ({ ply: r.ply, color: /** @type {Color} */ (r.white ? "white" : "black"), ms: r.clock_ms ?? null }));
    if (entries.length) {
      const at = clocksAt(entries, ply);
      return { ...base, timed: c.timed, source: "recorded", paused: false, over: c.over,
        white: { ms: at.white, running: false, low: false }, black: { ms: at.black, running: false, low: false } };
    }
    const v = c.view();
    /** @type {SideShown} */
    const none = { ms: null, running: false, low: false };
    return { ...base, timed: c.timed, source: c.timed ? "live" : "none", paused: v.paused, over: v.over,
      white: c.timed ? { ...v.white, running: false } : none, black: c.timed ? { ...v.black, running: false } : none };
  }

  /**
   * The clock data for an exported game: `{time_control, clocks}` as the
   * bridge's export_pgn takes them, or null when no clock ran.
   * @returns {{time_control: {base_s: number, increment_s: number, delay_s: number}, clocks: Record<string, number>} | null}
   */
  exportArgs() {
    const c = this.clock;
    if (c.tc.kind === "untimed") return null;
    /** @type {Record<string, number>} */
    const clocks = {};
    for (const { ply, ms } of c.moveClocks()) clocks[String(ply)] = Math.round(ms);
    return {
      time_control: {
        base_s: c.tc.baseMs / 1000,
        increment_s: c.tc.kind === "increment" ? c.tc.incrementMs / 1000 : 0,
        delay_s: c.tc.kind === "delay" ? c.tc.delayMs / 1000 : 0,
      },
      clocks,
    };
  }

  // ------------------------------------------------------------ saving
  save() {
    const game = this.ctrl.state.game;
    try {
      this.storage.setItem(STORE_KEY, JSON.stringify({
        v: 1, tc: this.clock.tc.text, flag_rules: this.flagRules,
        start_fen: game ? game.start_fen : null, clock: this.clock.toJSON(),
      }));
    } catch {
      // storage full or disabled: the clocks still run, they just do not survive a reload
    }
  }

  /** @returns {{tc: import("./timecontrol.js").TimeControl, flagRules: FlagRules, clock: SavedClock | null}} */
  #load() {
    try {
      const raw = JSON.parse(this.storage.getItem(STORE_KEY) || "null");
      if (!raw || raw.v !== 1) return { tc: UNTIMED, flagRules: "fide", clock: null };
      const tc = parseTimeControl(String(raw.tc ?? ""));
      const flagRules = isFlagRules(raw.flag_rules) ? raw.flag_rules : "fide";
      return { tc, flagRules, clock: raw };
    } catch {
      return { tc: UNTIMED, flagRules: "fide", clock: null };
    }
  }
}
