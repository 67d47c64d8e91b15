// SPDX-License-Identifier: GPL-3.0-or-later
// What the page's controller (ctrl.js) is built on: the state and the
// questions it answers (the position shown, whether a move can be made),
// the requests and their answers applied in one change, the seats, the
// messages. It composes the small controllers: the request queue
// (requests.js), the answers (replies.js), the analysis scheduler
// (analysis.js), the announcer (announcer.js), the address (address.js)
// and the one redraw (redraw.js: changed() marks parts, the views draw once).
// No DOM.

import { isEmpty, STD_FEN } from "../persist.js";
import { Address } from "./address.js";
import { AnalysisScheduler } from "./analysis.js";
import { Announcer } from "./announcer.js";
import { Emitter } from "./emitter.js";
import { Redraw } from "./redraw.js";
import { applyRefusal, applyReply, CHANGING } from "./replies.js";
import { RequestQueue } from "./requests.js";
import { initialState } from "./state.js";
import { messageOf } from "../errors.js";
import { t, tMarked } from "../i18n.js";

/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("../contract.js").OpName} OpName */
/** @template {OpName} K @typedef {import("../contract.js").ArgsOf<K>} ArgsOf */
/** @typedef {import("../contract.js").ErrorInfo} ErrorInfo */
/** @typedef {import("../persist.js").GameRecord} GameRecord */
/** @typedef {import("../referee/client.js").Referee} Referee */
/** @typedef {import("./state.js").CtrlState} CtrlState */
/** @typedef {import("./state.js").CtrlEvents} CtrlEvents */
/** @typedef {import("./state.js").Part} Part */
/** @typedef {import("./state.js").Nav} Nav */

/** @extends {Emitter<CtrlEvents>} */
export class ControllerBase extends Emitter {
  /**
   * @param {{referee: Referee, storage: Storage, nav: Nav}} deps
   */
  constructor({ referee, storage, nav }) {
    super();
    this.referee = referee;
    this.storage = storage;
    /** @type {CtrlState} */
    this.state = initialState(storage, nav);
    /** The views, drawn once per task from the parts changed; then the "change" listeners. */
    this.redraw = new Redraw(this.state, (dirty) => this.emit("change", this.state, dirty));
    this.requests = new RequestQueue(referee);
    this.analysis = new AnalysisScheduler(this);
    this.announcer = new Announcer(this.state, (...parts) => this.changed(...parts));
    this.address = new Address(this, storage, nav);
    /** While a proof is on the board (state.proof), the step keys and buttons step through its line. @type {((delta: number) => void) | null} */
    this.proofStep = null;
    this.listen(referee);
  }

  /** The referee's start-up: progress and failure (ready: the Controller). @param {Referee} referee */
  listen(referee) {
    referee.on("progress", (e) => {
      this.state.engineText = tMarked(e.stage); // marked in worker.js
      this.state.progress = { step: e.step, steps: e.steps };
      this.changed("engine");
    });
    referee.on("failed", (e) => {
      this.state.engine = "failed";
      this.state.engineText = t("The Python referee could not start: {reason}. The board cannot take moves; reload the page to try again.", { reason: e.message });
      this.changed("engine", "board", "panel");
    });
  }

  /** Mark parts changed: the views draw them once, at the end of this task (control/redraw.js). @param {Part[]} parts */
  changed(...parts) {
    this.redraw.mark(parts);
  }

  /** Actions sent and not yet answered (the clocks' flag-fall check). */
  get userPending() {
    return this.requests.pending;
  }

  /** Resolves once every action sent so far is answered and applied. */
  get queue() {
    return this.requests.tail;
  }

  // ---------------------------------------------------------------- derived
  /** The facts of the position shown (browsed or current). */
  shown() {
    const s = this.state;
    return s.browse == null ? s.live : s.browseFacts || s.live;
  }

  shownPly() {
    const s = this.state;
    return s.browse == null ? (s.live ? s.live.ply : 0) : s.browse;
  }

  /** The FEN on the board: from the rows, so browsing needs no request. */
  shownFen() {
    const s = this.state;
    const ply = this.shownPly();
    if (ply === 0) return s.game ? s.game.start_fen : s.early.fen; // no game yet: the referee is starting
    return s.rows[ply - 1] ? s.rows[ply - 1].fen : s.live ? s.live.fen : STD_FEN;
  }

  isLive() {
    return this.state.browse == null;
  }

  canMove() {
    const s = this.state;
    return s.engine === "ready" && this.isLive() && !!s.live && !s.live.outcome;
  }

  /** @returns {GameRecord|null} */
  record() {
    const s = this.state;
    if (!s.game) return null;
    return { start_fen: s.game.start_fen, chess960: s.game.chess960, moves: s.rows.map((r) => r.uci), ending: s.ending, headers: s.game.headers, ...(s.live ? { flag_rules: s.live.flag_rules } : {}) };
  }

  /** Something would be lost if the game were replaced. */
  hasGame() {
    const rec = this.record();
    return !!rec && !isEmpty(rec);
  }

  // ---------------------------------------------------------------- requests
  /**
   * A bridge request in the same queue as the page's own (for features).
   * @template {OpName} K
   * @param {K} op @param {ArgsOf<K>} [args]
   * @returns {Promise<Answer>}
   */
  request(op, args = /** @type {ArgsOf<K>} */ ({})) {
    return this.referee.request(op, args);
  }

  /**
   * Send a request that changes what the page shows; replies apply in order.
   * @template {OpName} K
   * @param {K} op @param {ArgsOf<K>} [args]
   * @param {{t0?: number, push?: boolean}} [opts]  push: a new history entry (default: for new and load_pgn)
   * @returns {Promise<Answer|null>}
   */
  act(op, args = /** @type {ArgsOf<K>} */ ({}), opts = {}) {
    const t0 = opts.t0 ?? performance.now();
    if (this.referee.state !== "ready") {
      this.showError(this.state.engine === "failed"
        ? { code: "not_running", message: t("The referee is not running (see the message at the top).") }
        : { code: "loading", message: t("The referee is still starting: try again in a moment.") });
      return Promise.resolve(null);
    }
    this.emit("acting", op, args); // before it is sent: the clocks stop for a claim (FIDE 9.5.1)
    const push = opts.push ?? (op === "new" || op === "load_pgn");
    const sent = this.requests.send(op, args, (r) => this.apply(op, args, r, t0, push), (e) => {
      const error = { code: "internal", message: messageOf(e) };
      this.showError(error);
      this.emit("reply", op, args, { ok: false, error }); // features waiting for the answer: none comes
    });
    this.changed("idle"); // in this task: a test or a feature waiting for idle must not see the previous "1"
    return sent;
  }

  /** Whether no request (action or analysis) is outstanding: the one place it is worked out. */
  isIdle() {
    return this.requests.pending === 0 && this.analysis.running === 0;
  }

  /**
   * Apply the referee's answer to an action (control/replies.js), start the
   * analysis, then tell the views and features once.
   * @param {string} op @param {Record<string, unknown>} args @param {Answer} r @param {number} t0 @param {boolean} push
   */
  apply(op, args, r, t0, push) {
    const s = this.state;
    /** @type {Set<Part>} */
    const parts = new Set(["idle"]);
    if (!r.ok) {
      const err = applyRefusal(s, op, r, parts);
      this.emit("reply", op, args, r);
      this.changed(...parts);
      this.announce(t("Error: {message}", { message: err.message }));
      return;
    }
    const played = applyReply(s, op, args, r, parts);
    // the analysis request goes out first, so that data-idle never says "idle" in between
    if (r.facts && CHANGING.has(op)) this.analysis.analyse(0);
    this.emit("reply", op, args, r);
    this.changed(...parts);
    if (played) this.emit("move", s.rows[s.rows.length - 1]);
    const facts = r.facts;
    if (!facts) return;
    // timed once the views have drawn the answer
    this.redraw.after(() => this.emit("perf", { op, ply: facts.ply, ms: performance.now() - t0, worker_ms: r.worker_ms,
      recv_ms: (r.recv_at ?? 0) - t0, to_worker_ms: (r.t_worker_recv ?? 0) - (r.t_main_sent ?? 0),
      from_worker_ms: (r.t_main_recv ?? 0) - (r.t_worker_sent ?? 0) }));
    const pushHash = push && !!r.game;
    setTimeout(() => {
      this.address.save(pushHash);
      this.announcer.reply(op, r);
    }, 0);
  }

  // ---------------------------------------------------------------- seats
  /**
   * The sides the visitor plays (a computer opponent takes the other).
   * @param {{white: boolean, black: boolean}} seats
   */
  setSeats(seats) {
    const s = this.state;
    if (s.seats.white === seats.white && s.seats.black === seats.black) return;
    s.seats = { white: seats.white, black: seats.black };
    this.changed("seats", "panel", "dialogs");
  }

  /** @param {"white"|"black"} color  whether the visitor acts for that side */
  mayAct(color) {
    return this.state.seats[color];
  }

  /** @param {boolean} decide  live clocks run: they, not buttons, decide flag falls */
  setClocksDecide(decide) {
    if (this.state.clocksDecide === decide) return;
    this.state.clocksDecide = decide;
    this.changed("seats");
  }

  /**
   * Refuse an action for a side the visitor does not play.
   * @param {"white"|"black"} color @param {"claim"|"resign"} what
   */
  refuseFor(color, what) {
    const side = color === "white" ? t("White") : t("Black");
    const message = what === "claim" ? t("{side} is played by the computer: you claim only for your own side.", { side })
      : t("{side} is played by the computer: you resign only for your own side.", { side });
    this.showError({ code: "not_your_side", message });
  }

  // ---------------------------------------------------------------- messages
  /** @param {ErrorInfo} err */
  showError(err) {
    this.state.error = err;
    this.state.seq++;
    this.changed("error");
    this.announce(t("Error: {message}", { message: err.message }));
  }

  dismissError() {
    if (!this.state.error) return;
    this.state.error = null;
    this.changed("error");
  }

  /** @param {string} text */
  announce(text) {
    this.announcer.say(text);
  }
}
