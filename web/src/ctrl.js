// SPDX-License-Identifier: GPL-3.0-or-later
// The page's controller: every action of the player (moves, claims, the
// endings, replacing the game, browsing), no DOM. It is built on
// control/base.js (the state, the requests and their answers, the analysis,
// the announcer, the address) and keeps the moves made early
// (control/early.js), as lila's round controller composes small ones. An
// action changes the state and marks the parts it changed (changed()); the
// views are drawn from the state once, in one redraw (control/redraw.js:
// ctrl.redraw.add(name, {parts, render})), and call its actions. Features'
// controllers plug in through ctrl.on(...) ("change" follows each redraw)
// and ctrl.request(...) (see web/README.md).

import { t, tn } from "./i18n.js";
import { restoreArgs, savePrefs } from "./persist.js";
import { ControllerBase } from "./control/base.js";
import { EarlyMoves, replaying } from "./control/early.js";
import { Premoves } from "./control/premove.js";
import { messageOf } from "./errors.js";

/** @typedef {import("./contract.js").Answer_} Answer */
/** @typedef {import("./referee/client.js").Referee} Referee */
/** @typedef {import("./control/state.js").CtrlState} CtrlState */
/** @typedef {import("./control/state.js").Nav} Nav */

export class Controller extends ControllerBase {
  /** @param {{referee: Referee, storage: Storage, nav: Nav}} deps */
  constructor(deps) {
    super(deps);
    this.early = new EarlyMoves(this);
    this.premoves = new Premoves(this);
    /** Features' additions to export_pgn's arguments. @type {Array<() => Record<string, unknown> | null>} */
    this.exportArgs = [];
    // The features' controllers, declared here (set by features/clocks.js and
    // features/computer.js when installed), as lila's RoundController declares clock?.
    /** The clocks (features/clocks.js). @type {import("./clock/keeper.js").ClockKeeper | undefined} */
    this.clocks = undefined;
    /** The computer opponent (features/computer.js). @type {import("./engine/opponent.js").ComputerOpponent | undefined} */
    this.computer = undefined;
    /** The language the referee is asked to speak (ui/language.js sets it before the referee starts). */
    this.language = "en";
    deps.referee.on("ready", (e) => {
      this.emit("engine-ready", e);
      void this.onReady();
    });
  }

  // ---------------------------------------------------------------- start-up
  async onReady() {
    const s = this.state;
    let { record, notice } = this.address.saved();
    /** @type {Answer|null} */
    let r = null;
    // the referee's sentences in the page's language before the first facts
    const spoken = this.language !== "en" ? await this.act("set_language", { language: this.language }) : null;
    if (record) {
      r = await this.act("restore", restoreArgs(record));
      if (r && !r.ok) {
        const reason = r.error ? r.error.message : t("unknown error");
        notice = t("The saved game could not be restored ({reason}); a new game was started.", { reason });
        this.address.forget();
        r = null;
      }
    }
    if (!r && !spoken?.ok) await this.act("state");
    s.engine = "ready";
    s.engineText = t("Referee ready");
    s.notice = notice;
    if (notice) s.error = { code: "restore_failed", message: notice };
    this.changed("engine", "board", "panel", "error", "dialogs");
    this.emit("ready", s);
    if (s.queued.length) await this.early.play();
  }

  /**
   * Speak `code` from now on: the referee answers with the game in it (the
   * game, its clocks and the place browsed stay), and every view is drawn again.
   * @param {string} code a shipped language
   */
  async setLanguage(code) {
    this.language = code;
    if (this.referee.state === "ready") await this.act("set_language", { language: code });
    this.changed("engine", "game", "moves", "board", "panel", "dialogs", "error", "browse", "export", "seats", "queue");
  }

  /** Back/forward or an edited link: show the game the URL names. */
  fromUrl() {
    this.address.follow();
  }

  /** Escape: close the topmost dialog or message. Returns whether something closed. */
  dismiss() {
    const s = this.state;
    if (s.promotion) this.cancelPromotion();
    else if (s.premove) this.premoves.cancel();
    else if (s.ask) void this.answerClaimPrompt(null);
    else if (s.confirm) this.answerConfirm(false);
    else if (s.pgnGames) {
      s.pgnGames = null;
      this.changed("dialogs");
    } else if (s.offer) this.declineDraw();
    else if (s.error) this.dismissError();
    else return false;
    return true;
  }

  // ---------------------------------------------------------------- actions: moves
  /**
   * Play a move (SAN or UCI). A move that would make a draw claim correct
   * first asks "claim with this move?" (unless offerClaim is false).
   * @param {string} move @param {{t0?: number, offerClaim?: boolean}} [opts]
   */
  play(move, opts = {}) {
    const s = this.state;
    if (s.engine === "loading") return this.early.keep(move);
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
      void this.early.keep(orig + dest);
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

  /**
   * @param {boolean|null} claim  true: claim with the move; false: just play it; null: neither
   * @param {{auto?: boolean}} [opts]  auto: answered by the auto-claim setting (recorded so)
   */
  answerClaimPrompt(claim, opts = {}) {
    const ask = this.state.ask;
    this.state.ask = null;
    this.changed("dialogs", "board");
    if (!ask || claim == null) return Promise.resolve(null);
    return claim ? this.act("claim", { move: ask.uci, ...(opts.auto ? { auto: true } : {}) })
      : this.act("play", { move: ask.uci, offer_claim: false });
  }

  /**
   * Claim a draw for the side to move. The visitor claims only for a side
   * they play; a computer opponent claims for itself with `{forComputer: true}`.
   * @param {string|null} move  the intended move, or null to claim now
   * @param {{forComputer?: boolean, auto?: boolean}} [opts]  auto: made by the auto-claim setting (recorded so)
   */
  claim(move, opts = {}) {
    const f = this.state.live;
    if (f && !opts.forComputer && !this.mayAct(f.turn)) {
      this.refuseFor(f.turn, "claim");
      return Promise.resolve(null);
    }
    if (this.state.browse != null) this.goto(Infinity);
    return this.act("claim", { move: move || null, ...(opts.auto ? { auto: true } : {}) });
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
    this.announce(t("Draw offer declined."));
  }

  /**
   * Resign for `color`, once confirmed (state.confirm; answerConfirm runs it).
   * Only for a side the visitor plays.
   * @param {"white"|"black"} color
   */
  resign(color) {
    if (!this.mayAct(color)) return this.refuseFor(color, "resign");
    this.state.confirm = {
      text: color === "white" ? t("Resign for White? The game ends: Black wins.") : t("Resign for Black? The game ends: White wins."),
      yes: color === "white" ? t("White resigns") : t("Black resigns"), no: t("Keep playing"), kind: "game",
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
    const replaced = this.state.live?.outcome
      ? tn("The current game ({n} ply, finished) will be replaced; Back returns to it.", "The current game ({n} plies, finished) will be replaced; Back returns to it.", n)
      : tn("The current game ({n} ply) will be replaced; Back returns to it.", "The current game ({n} plies) will be replaced; Back returns to it.", n);
    this.state.confirm = {
      text: `${text} ${replaced}`,
      yes, no: t("Keep the current game"), run,
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
    this.confirmLoss(t("Start a new game?"), t("Start a new game"), () => void this.act("new", { fen: null, chess960: false }));
  }

  /** @param {string} fen @param {boolean} chess960 */
  async setUp(fen, chess960) {
    if (!fen.trim()) return this.showError({ code: "empty", message: t("Paste a FEN in the position box first.") });
    // a bad FEN is said at once, before asking whether to replace the game
    let checked;
    try {
      checked = await this.request("check_fen", { fen: fen.trim(), chess960 });
    } catch (e) {
      return this.showError({ code: "internal", message: messageOf(e) });
    }
    if (!checked.ok) return this.showError(checked.error ?? { code: "bad_fen", message: t("This FEN cannot be set up.") });
    this.confirmLoss(t("Set up this position?"), t("Set up the position"), () => void this.act("new", { fen: fen.trim(), chess960 }));
  }

  /**
   * Import a PGN: asks first when a game would be replaced; a text with
   * several games lists them (state.pgnGames) for the player to pick one.
   * @param {string} pgn
   */
  importPgn(pgn) {
    if (!pgn.trim()) return this.showError({ code: "empty", message: t("Paste a PGN in the import box first.") });
    this.confirmLoss(t("Import this PGN?"), t("Import"), () => void this.act("load_pgn", { pgn }));
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
      this.announce(t("Back to the current position: {where}.", { where: s.live.where }));
      return;
    }
    s.browse = target;
    s.browseFacts = null;
    this.changed("board", "panel", "browse");
    const row = s.rows[target - 1];
    this.announce(target === 0 ? t("The start position.") : t("{move}, move {n} of {last}.", { move: row.label, n: target, last }));
    if (this.referee.state !== "ready") return;
    this.referee.request("status_at", { ply: target }).then((r) => {
      if (s.browse !== target) return;
      if (r.ok && r.facts) {
        s.browseFacts = r.facts;
        s.seq++;
        this.changed("panel");
        // what the referee knew of it came at once; the search follows, off the browsing path
        this.analysis.analyseAt(target, 0);
      } else if (r.error) this.showError(r.error);
    }, () => {});
  }

  /** @param {number} delta */
  step(delta) {
    if (this.state.proof && this.proofStep) return this.proofStep(delta);
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
    if (s.engine === "loading" && s.early.known) return; // a move made now is kept (control/early.js)
    if (s.engine === "loading") this.showError(replaying());
    else if (s.engine === "failed") this.showError({ code: "not_running", message: t("The referee could not start: moves cannot be played (see the message at the top).") });
  }
}
