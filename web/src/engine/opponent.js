// SPDX-License-Identifier: GPL-3.0-or-later
// The computer opponent as a feature of the page: it watches the controller,
// thinks when it is the computer's turn, and acts through the controller's
// own actions (play, claim, accept or decline an offer, offer a draw), so the
// referee rules on the computer exactly as on a human. No DOM: the view
// (features/computer.js) renders `state` and calls `setOpponent` / `setLevel`.
//
// The engine is created only when the visitor picks the computer. If it
// fails (missing files, a WebAssembly error), the opponent goes back to
// "human", the state says why, and the game goes on between two players.

import { LAWS } from "../contract.js";
import { EngineClient } from "./client.js";
import { ComputerPlayer, DEFAULT_LEVEL, levelById, LEVELS } from "./player.js";
import { messageOf } from "../errors.js";
import { t } from "../i18n.js";

export const PREFS_KEY = "pychessdraw.engine.v1";
/** @typedef {"human"|"computer-white"|"computer-black"} Opponent */
export const OPPONENTS = /** @type {Opponent[]} */ (["human", "computer-white", "computer-black"]);

/**
 * @typedef {Object} FeatureState
 * @property {Opponent} opponent
 * @property {string} level  a Level id
 * @property {import("./client.js").EngineState} status
 * @property {string} detail  why it failed, or what it is doing
 * @property {string} note  what the computer did last, and why
 * @property {"movetime"|"clock"|""} timing  how its last search was timed: the level's time, or the clocks
 */

/**
 * What the feature needs of the page's controller (ctrl.js); a narrow
 * surface so that it can be tested with a stand-in.
 * @typedef {Object} Host
 * @property {Pick<import("../ctrl.js").CtrlState, "live"|"offer"|"game"|"engine"> & {rows: {uci: string}[]}} state
 * @property {import("../ctrl.js").Controller["on"]} on
 * @property {import("../ctrl.js").Controller["request"]} request
 * @property {(move: string, opts?: {offerClaim?: boolean}) => Promise<unknown>} play
 * @property {(move: string|null, opts?: {forComputer?: boolean}) => Promise<unknown>} claim
 * @property {(seats: {white: boolean, black: boolean}) => void} [setSeats]  the sides the visitor plays
 * @property {() => Promise<unknown>} acceptDraw
 * @property {() => void} declineDraw
 * @property {() => void} offerDraw  wrapped: see the constructor
 * @property {() => Promise<unknown>} undo
 */

/**
 * @typedef {Object} FeatureOptions
 * @property {Storage|null} [storage]
 * @property {() => import("./client.js").Clock|null} [clock]  milliseconds left, when clocks run
 * @property {() => boolean} [paused]  the clocks are paused (after a reload too): the computer waits
 * @property {() => import("./player.js").Engine & {state: string, start: () => Promise<void>, terminate: () => void}} [createEngine]
 */

/** The referee refused the computer's question (the engine is fine). */
export class RefereeAnswerError extends Error {}

export class ComputerOpponent {
  /** @param {Host} host @param {FeatureOptions} [opts] */
  constructor(host, opts = {}) {
    this.host = host;
    this.storage = opts.storage ?? null;
    this.clock = opts.clock ?? (() => null);
    this.paused = opts.paused ?? (() => false);
    this.createEngine = opts.createEngine ?? (() => new EngineClient({
      onState: (state, detail) => this.onEngineState(state, detail),
    }));
    const prefs = this.loadPrefs();
    /** @type {FeatureState} */
    this.state = { opponent: "human", level: prefs.level, status: "off", detail: "", note: "", timing: "" };
    /** @type {(ReturnType<FeatureOptions["createEngine"] & {}>)|null} */
    this.engine = null;
    /** @type {ComputerPlayer|null} */
    this.player = null;
    /** @type {{pos: string, offered: boolean}|null} the turn the computer is thinking about */
    this.thinking = null;
    /** @type {string|null} the position the computer last acted on: never twice */
    this.acted = null;
    /** @type {number|null} */
    this.lastOfferPly = null;
    this.ownUndo = false;
    /** What the computer said at each of its turns (the ply it decided at): Undo goes back through it. @type {{ply: number, text: string}[]} */
    this.notes = [];
    /** @type {Array<(s: FeatureState) => void>} */
    this.listeners = [];
    // A visitor's draw offer made on their own turn goes with their next
    // move (FIDE 9.1.2.2); the page's own button would otherwise offer on
    // behalf of the side that has just moved, which is the computer.
    this.offerAfterMove = false;
    const pageOffer = host.offerDraw.bind(host);
    this.pageOffer = pageOffer;
    host.offerDraw = () => {
      const f = host.state.live;
      const side = this.side();
      if (side && f && !f.outcome && f.turn !== side) {
        this.offerAfterMove = true;
        this.state.note = t("Your draw offer will be made with your next move (FIDE {article}).", { article: LAWS.offer });
        this.emit();
        return;
      }
      pageOffer();
    };
    host.on("change", () => this.maybeThink());
    host.on("reply", (op, _args, r) => this.onReply(op, r));
    if (prefs.opponent !== "human") this.setOpponent(prefs.opponent);
  }

  /** @param {(s: FeatureState) => void} fn */
  onChange(fn) {
    this.listeners.push(fn);
  }

  emit() {
    for (const fn of this.listeners) fn(this.state);
  }

  /** Tell the page which sides the visitor plays: all but the computer's. */
  seat() {
    const side = this.side();
    this.host.setSeats?.({ white: side !== "white", black: side !== "black" });
  }

  /** @returns {"white"|"black"|null} */
  side() {
    const o = this.state.opponent;
    return o === "computer-white" ? "white" : o === "computer-black" ? "black" : null;
  }

  // ------------------------------------------------------------ preferences
  /** @returns {{opponent: Opponent, level: string}} */
  loadPrefs() {
    try {
      const raw = this.storage ? JSON.parse(this.storage.getItem(PREFS_KEY) || "null") : null;
      const opponent = raw && OPPONENTS.includes(raw.opponent) ? raw.opponent : "human";
      const level = raw && LEVELS.some((l) => l.id === raw.level) ? raw.level : DEFAULT_LEVEL;
      return { opponent, level };
    } catch {
      return { opponent: "human", level: DEFAULT_LEVEL };
    }
  }

  savePrefs() {
    try {
      this.storage?.setItem(PREFS_KEY, JSON.stringify({ opponent: this.state.opponent, level: this.state.level }));
    } catch {
      // storage full or blocked: the choice lasts for this visit only
    }
  }

  // ------------------------------------------------------------ choices
  /** @param {string} value */
  setOpponent(value) {
    const opponent = OPPONENTS.includes(/** @type {Opponent} */ (value)) ? /** @type {Opponent} */ (value) : "human";
    this.abort();
    this.state.opponent = opponent;
    this.state.note = "";
    this.savePrefs();
    this.seat();
    if (opponent !== "human") {
      if (!this.engine || this.engine.state === "failed") {
        this.state.status = "loading";
        this.state.detail = "";
        const engine = this.createEngine();
        this.engine = engine;
        this.player = new ComputerPlayer(engine, (moves) => this.askReferee(moves));
        engine.start().then(() => this.maybeThink(), () => {});
      }
    }
    this.emit();
    this.maybeThink();
  }

  /** @param {string} id */
  setLevel(id) {
    this.state.level = levelById(id).id;
    this.savePrefs();
    this.emit();
  }

  // ------------------------------------------------------------ engine events
  /** @param {import("./client.js").EngineState} status @param {string} detail */
  onEngineState(status, detail) {
    this.state.status = status;
    this.state.detail = detail;
    if (status === "failed") this.failed(detail);
    this.emit();
  }

  /** @param {string} detail */
  failed(detail) {
    this.thinking = null;
    this.state.status = "failed";
    this.state.detail = detail;
    this.state.opponent = "human";
    this.state.note = t("The computer cannot play ({reason}); the game goes on between two players.", { reason: detail });
    this.savePrefs();
    this.seat();
    this.emit();
  }

  abort() {
    this.thinking = null;
    this.acted = null;
    this.player?.abort();
  }

  /** @param {string} op @param {import("../contract.js").Reply} [reply] */
  onReply(op, reply) {
    if ((op === "play" || op === "claim") && reply && reply.ok && reply.facts && this.offerAfterMove) {
      this.offerAfterMove = false;
      // the visitor has moved: the offer stands now, for the computer to answer
      if (reply.facts.turn === this.side() && !reply.facts.outcome) this.pageOffer();
    }
    if (op === "new" || op === "load_pgn" || op === "restore" || op === "undo") {
      this.acted = null;
      this.offerAfterMove = false;
    }
    if (op === "new" || op === "load_pgn" || op === "restore") {
      this.abort();
      this.state.note = "";
      this.notes = [];
      this.lastOfferPly = null;
      this.emit();
    }
    if (op === "undo") {
      this.abort();
      this.noteAfterUndo();
      const own = this.ownUndo;
      this.ownUndo = false;
      // the visitor took back the computer's reply: take back their own move too
      const f = this.host.state.live;
      if (!own && f && f.turn === this.side() && f.ply > 0 && !f.outcome) {
        this.ownUndo = true;
        void this.host.undo();
      }
    }
  }

  /**
   * After Undo the note names no move taken back: it is what the computer
   * said at its last turn still in the game, or nothing. (A failure's note
   * stays: it says why the computer no longer plays.)
   */
  noteAfterUndo() {
    const f = this.host.state.live;
    this.notes = this.notes.filter((n) => !!f && n.ply < f.ply);
    if (this.state.status === "failed") return;
    this.state.note = this.notes.length ? this.notes[this.notes.length - 1].text : "";
    this.emit();
  }

  // ------------------------------------------------------------ thinking
  /** @param {string[]} moves @returns {Promise<import("./player.js").EngineFacts>} */
  async askReferee(moves) {
    const r = await this.host.request("engine_facts", { moves });
    if (!r || !r.ok || !r.engine_facts) {
      throw new RefereeAnswerError(r && r.error ? r.error.message : t("the referee did not answer"));
    }
    return r.engine_facts;
  }

  maybeThink() {
    const side = this.side();
    const s = this.host.state;
    const f = s.live;
    if (!side || !this.player || !this.engine || this.engine.state === "failed" || this.engine.state === "loading"
        || this.engine.state === "off" || s.engine !== "ready" || !f || f.outcome || f.turn !== side || this.ownUndo
        || this.paused()) {
      if (this.thinking && (!f || f.turn !== side || f.outcome || this.paused())) this.abort();
      return;
    }
    const offered = !!(s.offer && s.offer.to === side);
    const pos = `${f.ply}|${f.fen}|${s.rows.length}`;
    if (pos === this.acted) return; // one action per position (accepting clears the offer, for one)
    // an offer arriving while it thinks without one makes it think again
    if (this.thinking && this.thinking.pos === pos && (this.thinking.offered || !offered)) return;
    if (this.thinking) this.player.abort();
    const key = { pos, offered };
    this.thinking = key;
    void this.turn(key, side, offered);
  }

  /** @param {{pos: string, offered: boolean}} key @param {"white"|"black"} side @param {boolean} offered */
  async turn(key, side, offered) {
    const s = this.host.state;
    const f = /** @type {import("../contract.js").Facts} */ (s.live); // a turn is only taken on a live position
    const player = /** @type {ComputerPlayer} */ (this.player);
    let decision;
    const clock = this.clock();
    this.state.timing = clock ? "clock" : "movetime";
    try {
      decision = await player.think({
        side,
        fen: s.game ? s.game.start_fen : f.fen,
        moves: s.rows.map((r) => r.uci),
        chess960: !!(s.game && s.game.chess960),
        legal: (f.legal_moves || []).map((/** @type {{uci: string}} */ m) => m.uci),
        level: levelById(this.state.level),
        clock,
        offer_pending: offered,
        last_offer_ply: this.lastOfferPly,
      });
    } catch (e) {
      if (this.thinking !== key) return;
      const message = messageOf(e);
      if (e instanceof RefereeAnswerError) {
        // not the engine's fault: say so, and think again at the next change
        this.thinking = null;
        this.state.note = t("The computer could not ask the referee ({reason}).", { reason: message });
        this.emit();
        return;
      }
      this.failed(message);
      return;
    }
    if (!decision || this.thinking !== key) return;
    this.thinking = null;
    this.acted = key.pos;
    this.state.note = decision.text;
    this.notes.push({ ply: f.ply, text: decision.text });
    this.emit();
    if (decision.action === "accept") {
      await this.host.acceptDraw();
      return;
    }
    if (decision.action === "claim") {
      await this.host.claim(decision.move, { forComputer: true });
      return;
    }
    if (decision.declined) this.host.declineDraw();
    await this.host.play(/** @type {string} */ (decision.move), { offerClaim: false });
    if (decision.offer) {
      this.lastOfferPly = f.ply;
      this.pageOffer();
    }
  }
}
