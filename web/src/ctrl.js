// SPDX-License-Identifier: GPL-3.0-or-later
// The controller: all page state and every action, no DOM. Views subscribe
// with ctrl.on("change", (state, what) => ...) and call ctrl's actions; the
// referee client carries requests to the Python bridge. Features plug in
// through ctrl.on(...) events and ctrl.request(...) (see web/README.md).

import { clearRecord, decodeHash, encodeHash, isEmpty, loadPrefs, loadRecord, positionBeforeReferee, restoreArgs, saveRecord, savePrefs, STD_FEN } from "./persist.js";
import { REPLACES_GAME } from "./contract.js";

/** @typedef {import("./contract.js").Reply} Reply */
/** @typedef {import("./contract.js").Answer_} Answer */
/** @typedef {import("./contract.js").OpName} OpName */
/** @template {OpName} K @typedef {import("./contract.js").ArgsOf<K>} ArgsOf */
/** @typedef {import("./contract.js").Facts} Facts */
/** @typedef {import("./contract.js").MoveRow} MoveRow */
/** @typedef {import("./contract.js").GameInfo} GameInfo */
/** @typedef {import("./contract.js").LegalMove} LegalMove */
/** @typedef {import("./contract.js").ClaimAsk} ClaimAsk */
/** @typedef {import("./contract.js").ClaimVerdict} ClaimVerdict */
/** @typedef {import("./contract.js").ErrorInfo} ErrorInfo */
/** @typedef {import("./contract.js").Ending} Ending */
/** @typedef {import("./contract.js").Offer} Offer */
/** @typedef {import("./contract.js").PgnGameInfo} PgnGameInfo */
/** @typedef {import("./persist.js").GameRecord} GameRecord */
/** @typedef {import("./referee/client.js").Referee} Referee */

/**
 * @typedef {Object} Confirm
 * @property {string} text
 * @property {string} yes
 * @property {string} no
 * @property {() => void} run
 * @property {"game"} [kind]  about the game in progress (resigning): closed when the game ends
 */

/**
 * @typedef {Object} CtrlState
 * @property {"loading"|"ready"|"failed"} engine
 * @property {string} engineText
 * @property {{step: number, steps: number}} progress
 * @property {GameInfo|null} game
 * @property {MoveRow[]} rows
 * @property {{keep: number, added: number}} rowsChange  the last change of rows (for incremental views)
 * @property {Facts|null} live  the current position
 * @property {number|null} browse  the ply shown, null = the current position
 * @property {Facts|null} browseFacts
 * @property {Ending|null} ending
 * @property {Offer|null} offer  a draw offer waiting for an answer
 * @property {ClaimAsk|null} ask  "claim a draw with this move?"
 * @property {Confirm|null} confirm  "the game will be replaced: go on?"
 * @property {ErrorInfo|null} error
 * @property {ClaimVerdict|null} claim
 * @property {LegalMove[]|null} promotion  the promotions to choose from
 * @property {{pgn: string, games: PgnGameInfo[]}|null} pgnGames
 * @property {string} exported
 * @property {string} announce
 * @property {string} notice  a note that is not an error (restore problems)
 * @property {"white"|"black"} orientation
 * @property {{white: boolean, black: boolean}} seats  the sides the visitor plays (both, unless
 *   a feature plays one: the computer); resigning and claiming are for these sides only
 * @property {boolean} clocksDecide  live clocks decide flag falls (no manual flag buttons)
 * @property {{fen: string, known: boolean}} early  the position drawn before the referee has
 *   answered (the saved game's); known: false when it is only the game's start position
 * @property {string[]} queued  moves made while the referee was starting, judged once it is ready (in order)
 * @property {number} seq  answers applied (test hook)
 * @property {boolean} idle  no request outstanding (test hook)
 */

/**
 * @typedef {"engine"|"game"|"moves"|"board"|"panel"|"dialogs"|"error"|"announce"|"browse"|"idle"|"orientation"|"export"|"seats"|"queue"} Part
 */

/**
 * The controller's events and what each passes to its listeners.
 * @typedef {{
 *   change: [CtrlState, Set<Part>],
 *   reply: [string, Record<string, unknown>, Answer],
 *   acting: [string, Record<string, unknown>],
 *   move: [MoveRow],
 *   perf: [PerfRecord],
 *   "engine-ready": [{timings: Record<string, number>, python?: string}],
 *   ready: [CtrlState],
 * }} CtrlEvents
 */

/**
 * @typedef {Object} Nav  the URL hash, injected so that the controller stays DOM-free
 * @property {() => string} get
 * @property {(hash: string, push: boolean) => void} set
 */

/** A move made before the referee has replayed a game whose position the board does not show yet. */
const REPLAYING = { code: "loading", message: "The referee is still replaying the game: moves can be played in a moment." };
const DEEPER_AFTER_MS = 200; // pause before each deeper dead-position search
const REPLACING = new Set(/** @type {readonly string[]} */ (REPLACES_GAME));
const CHANGING = new Set(["new", "play", "undo", "load_pgn", "claim", "agree", "resign", "flag", "restore", "state"]);

/**
 * @typedef {{ctrl: Controller, s: CtrlState, op: string, args: Record<string, unknown>, r: Answer, parts: Set<Part>,
 *   played: boolean}} ApplyCtx
 */

/**
 * What each field of a successful reply does to the state, in the order
 * applied (a field absent or null does nothing), and the parts it changes.
 * @type {Array<[keyof Reply, (c: ApplyCtx) => void]>}
 */
const APPLY_FIELD = [
  ["ask", ({ s, r, parts }) => {
    s.ask = r.ask ?? null;
    parts.add("dialogs");
  }],
  ["games", ({ s, r, args, parts }) => {
    s.pgnGames = { pgn: String(args.pgn || ""), games: r.games ?? [] };
    parts.add("dialogs");
  }],
  ["pgn", ({ s, r, parts }) => {
    s.exported = r.pgn ?? "";
    parts.add("export");
  }],
  ["moves", (c) => {
    const { s, parts } = c;
    const { keep, add } = /** @type {import("./contract.js").MovesDelta} */ (c.r.moves);
    if (keep === s.rows.length) s.rows.push(...add);
    else s.rows = s.rows.slice(0, keep).concat(add);
    s.rowsChange = { keep, added: add.length };
    c.played = c.op === "play" || c.op === "claim" ? add.length > 0 : false;
    parts.add("moves");
  }],
  ["game", ({ s, r, parts }) => {
    s.game = r.game ?? null;
    parts.add("game");
  }],
  ["facts", ({ ctrl, s, r, parts }) => {
    const facts = /** @type {Facts} */ (r.facts);
    s.live = facts;
    s.browse = null;
    s.browseFacts = null;
    parts.add("board").add("panel").add("browse");
    // a question about the position before this answer is stale now
    if (s.ask && !r.ask) {
      s.ask = null;
      parts.add("dialogs");
    }
    if (facts.outcome) ctrl.closeForEnd(parts);
  }],
];

export class Controller {
  /**
   * @param {{referee: Referee, storage: Storage, nav: Nav}} deps
   */
  constructor({ referee, storage, nav }) {
    this.referee = referee;
    this.storage = storage;
    this.nav = nav;
    /** @type {CtrlState} */
    this.state = {
      engine: "loading",
      engineText: "Loading the Python referee…",
      progress: { step: 0, steps: 4 },
      game: null,
      rows: [],
      rowsChange: { keep: 0, added: 0 },
      live: null,
      browse: null,
      browseFacts: null,
      ending: null,
      offer: null,
      ask: null,
      confirm: null,
      error: null,
      claim: null,
      promotion: null,
      pgnGames: null,
      exported: "",
      announce: "",
      notice: "",
      orientation: loadPrefs(storage).orientation,
      seats: { white: true, black: true },
      clocksDecide: false,
      early: positionBeforeReferee(nav.get(), storage),
      queued: [],
      seq: 0,
      idle: true,
    };
    /** @type {{[K in keyof CtrlEvents]?: Array<(...a: CtrlEvents[K]) => void>}} */
    this.handlers = {};
    /** @type {Promise<unknown>} */
    this.queue = Promise.resolve();
    this.userPending = 0;
    this.analysing = 0;
    this.gen = 0;
    this.pushNext = false;
    this.lastAnnounced = "";
    /** Features' additions to export_pgn's arguments. @type {Array<() => Record<string, unknown> | null>} */
    this.exportArgs = [];
    // The features' controllers, declared here (set by features/clocks.js and
    // features/engine.js when installed), as lila's RoundController declares clock?.
    /** The clocks (features/clocks.js). @type {import("./clock/keeper.js").ClockKeeper | undefined} */
    this.clocks = undefined;
    /** The computer opponent (features/engine.js). @type {import("./engine/feature.js").ComputerOpponent | undefined} */
    this.computer = undefined;
    referee.on("progress", (e) => {
      this.state.engineText = e.stage;
      this.state.progress = { step: e.step, steps: e.steps };
      this.emit("change", this.state, new Set(["engine"]));
    });
    referee.on("failed", (e) => {
      this.state.engine = "failed";
      this.state.engineText = `The Python referee could not start: ${e.message}. The board cannot take moves; reload the page to try again.`;
      this.emit("change", this.state, new Set(["engine", "board", "panel"]));
    });
    referee.on("ready", (e) => {
      this.emit("engine-ready", e);
      void this.onReady();
    });
  }

  // ---------------------------------------------------------------- events
  /**
   * Subscribe: "change" (state, parts), "reply" (op, args, reply), "move" (row),
   * "perf" (record), "engine-ready" ({timings}), "ready" (state).
   * @template {keyof CtrlEvents} K
   * @param {K} type @param {(...a: CtrlEvents[K]) => void} fn
   * @returns {() => void} unsubscribe
   */
  on(type, fn) {
    /** @type {Array<(...a: CtrlEvents[K]) => void>} */
    const list = this.handlers[type] ?? [];
    list.push(fn);
    this.handlers[type] = /** @type {typeof this.handlers[K]} */ (list);
    return () => {
      const now = /** @type {Array<(...a: CtrlEvents[K]) => void>} */ (this.handlers[type] ?? []);
      this.handlers[type] = /** @type {typeof this.handlers[K]} */ (now.filter((f) => f !== fn));
    };
  }

  /** @template {keyof CtrlEvents} K @param {K} type @param {CtrlEvents[K]} args */
  emit(type, ...args) {
    /** @type {Array<(...a: CtrlEvents[K]) => void>} */
    const list = this.handlers[type] ?? [];
    for (const fn of list) fn(...args);
  }

  /** @param {Part[]} parts */
  changed(...parts) {
    this.emit("change", this.state, new Set(parts));
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
        ? { code: "not_running", message: "The referee is not running (see the message at the top)." }
        : { code: "loading", message: "The referee is still starting: try again in a moment." });
      return Promise.resolve(null);
    }
    this.emit("acting", op, args); // before it is sent: the clocks stop for a claim (FIDE 9.5.1)
    this.userPending++;
    this.gen++;
    this.state.idle = false;
    this.changed("idle"); // at once: a test or a feature waiting for idle must not see the previous "1"
    /** @returns {Promise<Answer|null>} */
    const run = async () => {
      /** @type {Answer} */
      let r;
      try {
        r = await this.referee.request(op, args);
      } catch (e) {
        this.userPending--;
        const error = { code: "internal", message: String(/** @type {Error} */ (e).message || e) };
        this.showError(error);
        this.emit("reply", op, args, { ok: false, error }); // features waiting for the answer: none comes
        return null;
      }
      this.userPending--;
      this.apply(op, args, r, t0, opts.push ?? (op === "new" || op === "load_pgn"));
      return r;
    };
    const p = this.queue.then(run, run);
    this.queue = p;
    return p;
  }

  /** Whether no request (action or analysis) is outstanding: the one place it is worked out. */
  isIdle() {
    return this.userPending === 0 && this.analysing === 0;
  }

  /**
   * Apply the referee's answer to an action: a refusal, or each field of
   * the reply through APPLY_FIELD, then what the operation itself closes.
   * @param {string} op @param {Record<string, unknown>} args @param {Answer} r @param {number} t0 @param {boolean} push
   */
  apply(op, args, r, t0, push) {
    const s = this.state;
    /** @type {Set<Part>} */
    const parts = new Set(["idle"]);
    if (!r.ok) return this.applyRefusal(op, args, r, parts);
    if (s.error) {
      s.error = null;
      parts.add("error");
    }
    /** @type {ApplyCtx} */
    const ctx = { ctrl: this, s, op, args, r, parts, played: false };
    for (const [field, applyField] of APPLY_FIELD) if (r[field] != null) applyField(ctx);
    if (r.ending !== undefined) s.ending = r.ending;
    this.closeForOp(op, r, parts);
    s.seq++;
    // the analysis request goes out first, so that data-idle never says "idle" in between
    if (r.facts && CHANGING.has(op)) this.analyse(0);
    s.idle = this.isIdle();
    this.emit("reply", op, args, r);
    this.emit("change", s, parts);
    if (ctx.played) this.emit("move", s.rows[s.rows.length - 1]);
    if (r.facts) {
      const rec = { op, ply: r.facts.ply, ms: performance.now() - t0, worker_ms: r.worker_ms,
        recv_ms: (r.recv_at ?? 0) - t0, to_worker_ms: (r.t_worker_recv ?? 0) - (r.t_main_sent ?? 0),
        from_worker_ms: (r.t_main_recv ?? 0) - (r.t_worker_sent ?? 0) };
      this.emit("perf", rec);
      const pushHash = push && !!r.game;
      setTimeout(() => {
        this.save(pushHash);
        this.announceReply(op, r);
      }, 0);
    }
  }

  /**
   * A refused action: the promotion chooser when the move needs a piece,
   * else the error.
   * @param {string} op @param {Record<string, unknown>} args @param {Answer} r @param {Set<Part>} parts
   */
  applyRefusal(op, args, r, parts) {
    const s = this.state;
    s.idle = this.isIdle();
    const err = r.error || { code: "internal", message: "no answer" };
    if (err.code === "promotion_needed" && err.choices && err.choices.length) {
      s.promotion = err.choices;
      s.error = null;
      parts.add("dialogs");
    } else {
      s.error = err;
      parts.add("error");
    }
    if (op === "restore" || op === "load_pgn" || op === "new") parts.add("dialogs");
    s.seq++;
    this.emit("reply", op, args, r);
    this.emit("change", s, parts);
    this.announce(`Error: ${err.message}`);
  }

  /**
   * What an operation closes once answered: a claim's verdict stays until
   * the next change of the game; a change drops the offer and the export;
   * a replaced game drops the PGN game picker.
   * @param {string} op @param {Answer} r @param {Set<Part>} parts
   */
  closeForOp(op, r, parts) {
    const s = this.state;
    if (op === "claim") {
      s.claim = r.claim || null;
      parts.add("panel");
    } else if (CHANGING.has(op) && s.claim) {
      s.claim = null;
      parts.add("panel");
    }
    if (CHANGING.has(op) && r.facts) {
      s.offer = null;
      s.exported = "";
      parts.add("dialogs").add("export");
    }
    if (REPLACING.has(op) && r.game) {
      s.pgnGames = null;
      parts.add("dialogs");
    }
  }

  /**
   * The game has ended: every question about it closes (the claim prompt,
   * a draw offer, the promotion chooser, a resignation being confirmed), so
   * that none can act on a finished game.
   * @param {Set<Part>} parts
   */
  closeForEnd(parts) {
    const s = this.state;
    if (s.ask || s.offer || s.promotion || (s.confirm && s.confirm.kind === "game")) parts.add("dialogs").add("board");
    s.ask = null;
    s.offer = null;
    s.promotion = null;
    if (s.confirm && s.confirm.kind === "game") s.confirm = null;
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
   * @param {"white"|"black"} color @param {string} what  e.g. "resign"
   */
  refuseFor(color, what) {
    const name = color === "white" ? "White" : "Black";
    this.showError({ code: "not_your_side", message: `${name} is played by the computer: you ${what} only for your own side.` });
  }

  // ---------------------------------------------------------------- analysis
  /**
   * The dead-position search off the move path: level 0 after each change,
   * then deeper while a side is undecided, dropped when a newer action comes.
   * @param {number} level
   */
  analyse(level) {
    const s = this.state;
    if (!s.live || s.live.outcome || this.userPending > 0) return;
    const w = s.live.winnable;
    if (level > 0 && !Object.values(w).some((v) => v.answer === "unknown")) return;
    const gen = this.gen;
    const t0 = performance.now();
    this.analysing++;
    s.idle = false;
    this.referee.request("analyse", { level }).then(
      (r) => {
        this.analysing--;
        const fresh = gen === this.gen && this.userPending === 0;
        /** @type {Set<Part>} */
        const parts = new Set(["idle"]);
        let next = false;
        if (fresh && r.ok && r.facts) {
          const ended = !s.live?.outcome && !!r.facts.outcome;
          s.live = r.facts;
          if (r.ending !== undefined) s.ending = r.ending;
          parts.add("panel").add("board");
          if (ended) this.closeForEnd(parts);
          if (s.browse != null && r.facts.outcome) s.browse = null;
          this.emit("perf", { op: "analyse", ply: r.facts.ply, ms: performance.now() - t0, worker_ms: r.worker_ms, level });
          setTimeout(() => {
            this.save(false);
            if (ended) this.announceReply("analyse", r);
          }, 0);
          next = !!r.analysed && !r.analysed.final && !r.facts.outcome;
        }
        if (next) {
          // deeper searches wait a moment: a player who moves at once is not held up by them
          this.analysing++;
          setTimeout(() => {
            this.analysing--;
            if (gen === this.gen && this.userPending === 0) this.analyse(level + 1);
            s.idle = this.isIdle();
            this.changed("idle");
          }, DEEPER_AFTER_MS);
        }
        s.idle = this.isIdle();
        this.emit("change", s, parts);
      },
      () => {
        this.analysing--;
        s.idle = this.isIdle();
        this.changed("idle");
      },
    );
  }

  // ---------------------------------------------------------------- start-up
  async onReady() {
    const s = this.state;
    const fromHash = decodeHash(this.nav.get());
    const stored = fromHash ? null : loadRecord(this.storage);
    const pick = fromHash || stored;
    let notice = "";
    if (pick && !pick.ok) {
      notice = `The saved game could not be restored (${pick.problem}); a new game was started.`;
      if (stored) clearRecord(this.storage);
    }
    /** @type {Answer|null} */
    let r = null;
    if (pick && pick.ok && !isEmpty(pick.record)) {
      r = await this.act("restore", restoreArgs(pick.record));
      if (r && !r.ok) {
        notice = `The saved game could not be restored (${r.error ? r.error.message : "unknown error"}); a new game was started.`;
        clearRecord(this.storage);
        r = null;
      }
    }
    if (!r) await this.act("state");
    s.engine = "ready";
    s.engineText = "Referee ready";
    s.notice = notice;
    if (notice) s.error = { code: "restore_failed", message: notice };
    this.changed("engine", "board", "panel", "error", "dialogs");
    this.emit("ready", s);
    if (s.queued.length) await this.playQueued();
  }

  // ---------------------------------------------------------------- saving
  /** @param {boolean} push  a new history entry (the game was replaced): Back returns to the old one */
  save(push) {
    const rec = this.record();
    if (!rec) return;
    saveRecord(this.storage, rec, this.state.live ? this.state.live.fen : null);
    this.nav.set(encodeHash(rec), push);
  }

  /** Back/forward or an edited link: show the game the URL names. */
  fromUrl() {
    if (this.state.engine !== "ready") return;
    const rec = decodeHash(this.nav.get());
    const current = this.record();
    if (rec && !rec.ok) return this.showError({ code: "bad_link", message: `This link holds no game the page can show (${rec.problem}).` });
    const target = rec ? rec.record : null;
    if (current && target && encodeHash(current) === encodeHash(target)) return;
    // a new game already (the address changed its view only): nothing to start
    if (!target && current && isEmpty(current)) return;
    if (!target) void this.act("new", {}, { push: false });
    else void this.act("restore", restoreArgs(target), { push: false });
  }

  // ---------------------------------------------------------------- messages
  /** @param {ErrorInfo} err */
  showError(err) {
    this.state.error = err;
    this.state.seq++;
    this.changed("error");
    this.announce(`Error: ${err.message}`);
  }

  dismissError() {
    if (!this.state.error) return;
    this.state.error = null;
    this.changed("error");
  }

  /** Escape: close the topmost dialog or message. Returns whether something closed. */
  dismiss() {
    const s = this.state;
    if (s.promotion) this.cancelPromotion();
    else if (s.ask) this.answerClaimPrompt(null);
    else if (s.confirm) this.answerConfirm(false);
    else if (s.pgnGames) {
      s.pgnGames = null;
      this.changed("dialogs");
    } else if (s.offer) this.declineDraw();
    else if (s.error) this.dismissError();
    else return false;
    return true;
  }

  /** @param {string} text */
  announce(text) {
    if (!text || text === this.lastAnnounced) return;
    this.lastAnnounced = text;
    this.state.announce = text;
    this.changed("announce");
  }

  /** @param {string} op @param {Answer} r */
  announceReply(op, r) {
    const f = this.state.live;
    if (!f) return;
    const parts = [];
    const last = this.state.rows[this.state.rows.length - 1];
    if ((op === "play" || op === "claim") && last && r.moves && r.moves.add.length) parts.push(`${last.label}.`);
    if (op === "claim" && r.claim) parts.push(`${r.claim.headline}.`);
    if (f.outcome) parts.push(`Game over: ${f.outcome.headline}, ${f.outcome.reason}.`);
    else {
      if (f.check) parts.push("Check.");
      for (const g of f.claims) parts.push(`${g.text}.`);
      if (f.halfmove.level === "near") parts.push(`${f.halfmove.value} plies toward the fifty-move rule.`);
    }
    this.announce(parts.join(" "));
  }

  // ---------------------------------------------------------------- moves made while the referee starts
  /**
   * Keep a move made before the referee is ready; it is judged, in order,
   * once the referee has restored the game (playQueued). Only where the
   * board shows the game's position (state.early.known): else refused, with
   * the reason.
   * @param {string} move  SAN or UCI, as typed or moved on the board
   * @returns {Promise<null>}
   */
  queueMove(move) {
    if (!this.state.early.known) {
      // the board shows the game's start, not its position: a move made there would be judged in another
      this.showError(REPLAYING);
      return Promise.resolve(null);
    }
    this.state.queued = [...this.state.queued, move];
    this.announce(`${move} will be played when the referee is ready`);
    this.changed("queue");
    return Promise.resolve(null);
  }

  /** Play the moves kept while the referee started; stop at the first it refuses or that asks a question. */
  async playQueued() {
    const s = this.state;
    while (s.queued.length) {
      const [move, ...rest] = s.queued;
      s.queued = rest;
      this.changed("queue");
      const r = await this.play(move);
      if (!r || !r.ok || s.ask || s.promotion) {
        s.queued = [];
        this.changed("queue");
        return;
      }
    }
  }

  // ---------------------------------------------------------------- actions: moves
  /**
   * Play a move (SAN or UCI). A move that would make a draw claim correct
   * first asks "claim with this move?" (unless offerClaim is false).
   * @param {string} move @param {{t0?: number, offerClaim?: boolean}} [opts]
   */
  play(move, opts = {}) {
    const s = this.state;
    if (s.engine === "loading") return this.queueMove(move);
    if (s.browse != null) this.goto(Infinity);
    s.promotion = null;
    return this.act("play", { move, offer_claim: opts.offerClaim !== false }, { t0: opts.t0 });
  }

  /**
   * A piece moved on the board from orig to dest: the bridge's legal moves
   * say which move that is (or which promotions to choose from).
   * @param {string} orig @param {string} dest @param {number} [t0]
   * @returns {"played"|"promotion"|"rejected"}
   */
  boardMove(orig, dest, t0) {
    if (this.state.engine === "loading") {
      void this.queueMove(orig + dest);
      return "played";
    }
    const f = this.state.live;
    if (!f || !this.canMove()) {
      this.changed("board");
      return "rejected";
    }
    const cands = f.legal_moves.filter((m) => m.from === orig && m.to === dest);
    if (!cands.length) {
      this.changed("board");
      return "rejected";
    }
    if (cands.length === 1 && !cands[0].promotion) {
      void this.play(cands[0].uci, { t0 });
      return "played";
    }
    this.state.promotion = cands;
    this.changed("dialogs");
    return "promotion";
  }

  /** @param {string} uci */
  promote(uci) {
    this.state.promotion = null;
    this.changed("dialogs");
    return this.play(uci);
  }

  cancelPromotion() {
    this.state.promotion = null;
    this.changed("dialogs", "board");
  }

  /** @param {boolean|null} claim  true: claim with the move; false: just play it; null: neither */
  answerClaimPrompt(claim) {
    const ask = this.state.ask;
    this.state.ask = null;
    this.changed("dialogs", "board");
    if (!ask || claim == null) return Promise.resolve(null);
    return claim ? this.act("claim", { move: ask.uci }) : this.act("play", { move: ask.uci, offer_claim: false });
  }

  /**
   * Claim a draw for the side to move. The visitor claims only for a side
   * they play; a computer opponent claims for itself with `{forComputer: true}`.
   * @param {string|null} move  the intended move, or null to claim now
   * @param {{forComputer?: boolean}} [opts]
   */
  claim(move, opts = {}) {
    const f = this.state.live;
    if (f && !opts.forComputer && !this.mayAct(f.turn)) {
      this.refuseFor(f.turn, "claim");
      return Promise.resolve(null);
    }
    if (this.state.browse != null) this.goto(Infinity);
    return this.act("claim", { move: move || null });
  }

  undo() {
    return this.act("undo");
  }

  // ---------------------------------------------------------------- actions: endings
  offerDraw() {
    const f = this.state.live;
    if (!f || !f.offer) return;
    this.state.offer = f.offer;
    this.changed("dialogs");
    this.announce(f.offer.text);
  }

  acceptDraw() {
    this.state.offer = null;
    this.changed("dialogs");
    return this.act("agree");
  }

  declineDraw() {
    this.state.offer = null;
    this.changed("dialogs");
    this.announce("Draw offer declined.");
  }

  /**
   * Resign for `color`, once confirmed (state.confirm; answerConfirm runs it).
   * Only for a side the visitor plays.
   * @param {"white"|"black"} color
   */
  resign(color) {
    if (!this.mayAct(color)) return this.refuseFor(color, "resign");
    const name = color === "white" ? "White" : "Black";
    this.state.confirm = {
      text: `Resign for ${name}? The game ends: ${name === "White" ? "Black" : "White"} wins.`,
      yes: `${name} resigns`, no: "Keep playing", kind: "game",
      run: () => void this.act("resign", { color }),
    };
    this.changed("dialogs");
  }

  /**
   * A flag fell (reported by a button in untimed games, by the clocks feature
   * when its clock runs out).
   * @param {"white"|"black"} color
   */
  flag(color) {
    return this.act("flag", { color });
  }

  // ---------------------------------------------------------------- actions: replacing the game
  /**
   * Ask before replacing a game that holds something.
   * @param {string} text @param {string} yes @param {() => void} run
   */
  confirmLoss(text, yes, run) {
    if (!this.hasGame()) {
      run();
      return;
    }
    const n = this.state.rows.length;
    this.state.confirm = {
      text: `${text} The current game (${n} ${n === 1 ? "ply" : "plies"}${this.state.live?.outcome ? ", finished" : ""}) will be replaced; Back returns to it.`,
      yes, no: "Keep the current game", run,
    };
    this.changed("dialogs");
  }

  /** @param {boolean} yes */
  answerConfirm(yes) {
    const c = this.state.confirm;
    this.state.confirm = null;
    this.changed("dialogs");
    if (c && yes) c.run();
  }

  newGame() {
    this.confirmLoss("Start a new game?", "Start a new game", () => void this.act("new", { fen: null, chess960: false }));
  }

  /** @param {string} fen @param {boolean} chess960 */
  async setUp(fen, chess960) {
    if (!fen.trim()) return this.showError({ code: "empty", message: "Paste a FEN in the position box first." });
    // a bad FEN is said at once, before asking whether to replace the game
    let checked;
    try {
      checked = await this.request("check_fen", { fen: fen.trim(), chess960 });
    } catch (e) {
      return this.showError({ code: "internal", message: String(/** @type {Error} */ (e).message || e) });
    }
    if (!checked.ok) return this.showError(checked.error ?? { code: "bad_fen", message: "This FEN cannot be set up." });
    this.confirmLoss("Set up this position?", "Set up the position", () => void this.act("new", { fen: fen.trim(), chess960 }));
  }

  /**
   * Import a PGN: asks first when a game would be replaced; a text with
   * several games lists them (state.pgnGames) for the player to pick one.
   * @param {string} pgn
   */
  importPgn(pgn) {
    if (!pgn.trim()) return this.showError({ code: "empty", message: "Paste a PGN in the import box first." });
    this.confirmLoss("Import this PGN?", "Import", () => void this.act("load_pgn", { pgn }));
  }

  /** @param {number} index  one game of a text with several (already confirmed) */
  pickPgnGame(index) {
    const p = this.state.pgnGames;
    if (!p) return;
    void this.act("load_pgn", { pgn: p.pgn, index });
  }

  exportPgn() {
    // features add to what is exported (the clocks: TimeControl and [%clk])
    const args = Object.assign({}, ...this.exportArgs.map((f) => f() || {}));
    return this.act("export_pgn", args);
  }

  // ---------------------------------------------------------------- browsing
  /** @param {number} ply  Infinity for the current position */
  goto(ply) {
    const s = this.state;
    if (!s.live) return;
    const last = s.live.ply;
    const target = Math.max(0, Math.min(last, ply));
    if (target === last) {
      if (s.browse == null) return;
      s.browse = null;
      s.browseFacts = null;
      this.changed("board", "panel", "browse");
      this.announce(`Back to the current position: ${s.live.where}.`);
      return;
    }
    s.browse = target;
    s.browseFacts = null;
    this.changed("board", "panel", "browse");
    const row = s.rows[target - 1];
    this.announce(target === 0 ? "The start position." : `${row.label}, move ${target} of ${last}.`);
    if (this.referee.state !== "ready") return;
    this.referee.request("status_at", { ply: target }).then((r) => {
      if (s.browse !== target) return;
      if (r.ok && r.facts) {
        s.browseFacts = r.facts;
        s.seq++;
        this.changed("panel");
      } else if (r.error) this.showError(r.error);
    }, () => {});
  }

  /** @param {number} delta */
  step(delta) {
    this.goto(this.shownPly() + delta);
  }

  flip() {
    this.state.orientation = this.state.orientation === "white" ? "black" : "white";
    savePrefs(this.storage, { orientation: this.state.orientation });
    this.changed("orientation", "board");
  }

  /** The board was touched while no move can be made: say why. */
  explainNoMove() {
    const s = this.state;
    if (s.engine === "loading" && s.early.known) return; // a move made now is kept (queueMove)
    if (s.engine === "loading") this.showError(REPLAYING);
    else if (s.engine === "failed") this.showError({ code: "not_running", message: "The referee could not start: moves cannot be played (see the message at the top)." });
  }
}
