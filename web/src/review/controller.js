// SPDX-License-Identifier: GPL-3.0-or-later
// The review's controller: owns a review's state (the table of games, where
// each game's text is, the file, the review running, the game opened from
// it) and its worker pool, and drives a review; no DOM. Its view
// (features/review.js) renders what it is told through ReviewView.
import { openStream, readGame } from "./reader.js";
import { ReviewCancelled, runReview } from "./runner.js";
import { ReviewTable, firstEventPly } from "./table.js";
import { ReviewPool } from "./pool.js";
import { messageOf } from "../errors.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("./table.js").ReviewRow} ReviewRow */
/** @typedef {import("./reader.js").GameSource} GameSource */

/**
 * What the view renders, called by the controller.
 * @typedef {Object} ReviewView
 * @property {(state: string, text: string) => void} state  the run's state (data-state) and its sentence
 * @property {(value: number, games: number | null, text: string | null) => void} progress
 * @property {(all: boolean) => void} rows  the table's rows: all again, or only the new ones
 * @property {() => void} summary
 * @property {(running: boolean) => void} running  a review runs (Cancel enabled)
 * @property {(row: ReviewRow | null, problem: string | null) => void} opened  the opened game, or none
 * @property {() => void} marks  the opened game's events on the move list
 */

export class ReviewController {
  /**
   * @param {Controller} ctrl
   * @param {{poolSize: number, search: import("../contract.js").SearchName}} opts
   */
  constructor(ctrl, { poolSize, search }) {
    this.ctrl = ctrl;
    this.pool = new ReviewPool(poolSize);
    this.search = search;
    this.table = new ReviewTable();
    /** @type {Map<number, GameSource>} */
    this.sources = new Map();
    /** @type {(Blob & {name?: string}) | null} */
    this.file = null;
    /** @type {AbortController | null} */
    this.running = null;
    /** The game being opened: its row and its text. @type {{row: ReviewRow, text: string} | null} */
    this.opening = null;
    /** The game opened on the board, as the controller's game. @type {{row: ReviewRow, game: unknown} | null} */
    this.openGame = null;
    /** @type {ReviewView | null} */
    this.view = null;
    ctrl.on("reply", (op, args, r) => this.onReply(op, args, r));
    ctrl.on("change", (s, parts) => {
      if (!parts.has("moves") && !parts.has("game")) return;
      if (this.openGame && s.game !== this.openGame.game) {
        this.openGame = null;
        this.view?.opened(null, null);
      }
      this.view?.marks();
    });
  }

  /** Start the workers (a review looks likely); a failure is said at the review. */
  warm() {
    void this.referees().catch(() => {});
  }

  referees() {
    return this.pool.ready((stage) => {
      if (this.running) this.view?.state("starting", `Starting the review's referees (${this.pool.size}): ${stage}`);
    });
  }

  cancel() {
    this.running?.abort();
  }

  /**
   * Review a file (a newer review replaces this one).
   * @param {File} f
   */
  async start(f) {
    const view = /** @type {ReviewView} */ (this.view);
    this.running?.abort();
    const job = new AbortController();
    this.running = job;
    this.table = new ReviewTable();
    this.sources = new Map();
    this.file = f;
    this.openGame = null;
    view.opened(null, null);
    view.rows(true);
    view.summary();
    view.running(true);
    view.progress(0, null, null);
    view.state("starting", `Opening ${f.name}…`);
    const current = () => this.running === job;
    try {
      await this.run(f, job, current);
    } catch (e) {
      if (!current()) return;
      view.rows(true);
      view.summary();
      if (e instanceof ReviewCancelled) view.state("cancelled", `Cancelled after ${this.table.size} game${this.table.size === 1 ? "" : "s"}; the games reviewed so far are listed.`);
      else view.state("failed", `The review stopped: ${messageOf(e)}`);
    } finally {
      if (this.running === job) {
        this.running = null;
        view.running(false);
      }
    }
  }

  /**
   * The review itself, once started: the workers, the file read and judged.
   * @param {File} f @param {AbortController} job @param {() => boolean} current
   */
  async run(f, job, current) {
    const view = /** @type {ReviewView} */ (this.view);
    const t0 = performance.now();
    let rawBytes = 0;
    const referees = await this.referees();
    const t1 = performance.now();
    if (job.signal.aborted) throw new ReviewCancelled();
    const stream = openStream(f, (n) => { rawBytes += n; });
    view.state("running", "Reviewing…");
    const done = await runReview({
      stream, total: f.size, sends: referees.map((r) => (op, args) => r.request(op, args)), table: this.table,
      sources: this.sources, signal: job.signal, chunkBytes: 64 * 1024, search: this.search,
      flagRules: this.ctrl.clocks?.flagRules ?? "fide",
      onProgress: (p) => {
        if (!current()) return;
        // a compressed file: how much of the file was read; else how much was judged
        const read = /\.gz$/i.test(f.name) ? rawBytes : p.bytes;
        const value = f.size ? Math.min(1, read / f.size) : 0;
        view.rows(false);
        view.summary();
        view.progress(value, p.games, p.cancelled ? null : `Reviewing… ${Math.round(100 * value)}%, ${p.games} games`);
      },
    });
    if (!current()) return;
    view.progress(1, null, null);
    view.rows(true);
    view.summary();
    const secs = (performance.now() - t1) / 1000;
    view.state("done", `Done: ${done.games} game${done.games === 1 ? "" : "s"} of ${f.name} in ${secs.toFixed(1)} s.`);
    window.__review = { games: done.games, plies: this.table.plies, seconds: secs,
      start_seconds: (t1 - t0) / 1000, bytes: f.size, workers: referees.length };
  }

  /**
   * Open a reviewed game on the board (after the usual "the game will be
   * replaced" question); a game with an error opens up to its first bad move.
   * @param {number} game
   */
  open(game) {
    const row = this.table.row(game);
    const src = row && this.sources.get(row.game);
    const f = this.file;
    if (!row || !src || !f) return;
    void readGame(src, /\.gz$/i.test(f.name ?? "") ? { open: () => openStream(f) } : { blob: f })
      .then((text) => {
        this.opening = { row, text };
        this.ctrl.confirmLoss(`Open game ${row.game} of the review?`, "Open the game",
          () => void this.ctrl.act("load_pgn", { pgn: text, partial: true }));
      });
  }

  /** @param {string} op @param {Record<string, unknown>} args @param {import("../contract.js").Reply} r */
  onReply(op, args, r) {
    if (op !== "load_pgn" || !this.opening || args.pgn !== this.opening.text) return;
    const row = this.opening.row;
    this.opening = null;
    if (!r.ok) {
      this.openGame = null;
      this.view?.opened(row, r.error ? r.error.message : "the game could not be loaded");
      return;
    }
    this.openGame = { row, game: this.ctrl.state.game };
    setTimeout(() => this.ctrl.goto(firstEventPly(row)), 0);
    this.view?.opened(row, null);
  }

  /** The file's name without .pgn/.gz, for the downloads. */
  baseName() {
    return (this.file?.name ?? "review").replace(/\.pgn(\.gz)?$/i, "").replace(/\.gz$/i, "");
  }
}
