// SPDX-License-Identifier: GPL-3.0-or-later
// The review's controller: owns a review's state (the table of games, where
// each game's text is, the file, the review running, the game opened from
// it) and its worker pool, and drives a review; no DOM. Its view
// (features/review.js) renders what it is told through ReviewView.
import { openStream, readGame } from "./reader.js";
import { ReviewCancelled, runReview } from "./runner.js";
import { ReviewTable } from "./table.js";
import { ReviewPool } from "./pool.js";
import { messageOf } from "../errors.js";
import { currentLocale, t, tMarked, tn } from "../i18n.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("./table.js").ReviewRow} ReviewRow */
/** @typedef {import("./reader.js").GameSource} GameSource */
/** @typedef {import("../contract.js").ReviewGame} ReviewGame */

/** A compressed file's name (.gz, .zst). @param {string} name */
export const isCompressed = (name) => /\.(gz|zst)$/i.test(name);

/**
 * What the view renders, called by the controller.
 * @typedef {Object} ReviewView
 * @property {(state: string, text: () => string) => void} state  the run's state (data-state) and its sentence
 *   (said again in another language)
 * @property {(value: number, games: number | null, text: (() => string) | null) => void} progress
 * @property {(all: boolean) => void} rows  the table's rows: all again, or only the new ones
 * @property {() => void} summary
 * @property {(running: boolean) => void} running  a review runs (Cancel enabled)
 * @property {(row: ReviewRow | null, problem: string | null) => void} opened  the opened game (openGame), or none
 * @property {() => void} reworded  the rows' and the opened game's sentences said again: redrawn in place (the rows shown, the ply)
 */

/** Reports sent in one review_words request (a few hundred KB). */
const WORDS_BATCH = 500;

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
    /** The game being opened (a later click wins). @type {{row: ReviewRow, text: string} | null} */
    this.opening = null;
    /** The game on the Review's own board. @type {{row: ReviewRow, game: ReviewGame, text: string} | null} */
    this.openGame = null;
    /** @type {ReviewView | null} */
    this.view = null;
    /** Another language came while a review ran (its rows are said again once it ends). */
    this.switched = false;
  }

  /** Start the workers (a review looks likely); a failure is said at the review. */
  warm() {
    void this.referees().catch(() => {});
  }

  referees() {
    return this.pool.ready((stage) => {
      if (this.running) this.view?.state("starting", () => t("Starting the review's referees ({n}): {stage}", { n: this.pool.size, stage: tMarked(stage) }));
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
    this.switched = false;
    this.openGame = null;
    view.opened(null, null);
    view.rows(true);
    view.summary();
    view.running(true);
    view.progress(0, null, null);
    view.state("starting", () => t("Opening {file}…", { file: f.name }));
    const current = () => this.running === job;
    try {
      await this.run(f, job, current);
    } catch (e) {
      if (!current()) return;
      view.rows(true);
      view.summary();
      const games = this.table.size;
      if (e instanceof ReviewCancelled) view.state("cancelled", () => tn("Cancelled after {n} game; the games reviewed so far are listed.", "Cancelled after {n} games; the games reviewed so far are listed.", games));
      else view.state("failed", () => t("The review stopped: {reason}", { reason: messageOf(e) }));
    } finally {
      if (this.running === job) {
        this.running = null;
        view.running(false);
        // another language came during the run: the rows judged on the way in the one before said again
        if (this.switched) void this.reword().catch(() => {});
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
    // the table's reasons in the page's language (each worker starts in English)
    await Promise.all(referees.map((r) => r.request("set_language", { language: currentLocale() })));
    const t1 = performance.now();
    if (job.signal.aborted) throw new ReviewCancelled();
    const stream = openStream(f, (n) => { rawBytes += n; });
    view.state("running", () => t("Reviewing…"));
    const done = await runReview({
      stream, total: f.size, sends: referees.map((r) => (op, args) => r.request(op, args)), table: this.table,
      sources: this.sources, signal: job.signal, chunkBytes: 64 * 1024, search: this.search,
      flagRules: this.ctrl.clocks?.flagRules ?? "fide",
      onProgress: (p) => {
        if (!current()) return;
        // a compressed file: how much of the file was read; else how much was judged
        const read = isCompressed(f.name) ? rawBytes : p.bytes;
        const value = f.size ? Math.min(1, read / f.size) : 0;
        view.rows(false);
        view.summary();
        view.progress(value, p.games, p.cancelled ? null : () => tn("Reviewing… {percent}%, {n} game", "Reviewing… {percent}%, {n} games", p.games, { percent: Math.round(100 * value) }));
      },
    });
    if (!current()) return;
    view.progress(1, null, null);
    view.rows(true);
    view.summary();
    const secs = (performance.now() - t1) / 1000;
    view.state("done", () => tn("Done: {n} game of {file} in {seconds} s.", "Done: {n} games of {file} in {seconds} s.", done.games,
      { file: f.name, seconds: secs.toLocaleString(currentLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }));
    window.__review = { games: done.games, plies: this.table.plies, seconds: secs,
      start_seconds: (t1 - t0) / 1000, bytes: f.size, workers: referees.length };
  }

  /**
   * Open a reviewed game on the Review's own board: its text re-read from
   * the file, judged again by a review worker (review_game: positions,
   * clocks, verdict, marks). The Play game is never touched.
   * @param {number} game
   */
  async open(game) {
    const row = this.table.row(game);
    const src = row && this.sources.get(row.game);
    const f = this.file;
    if (!row || !src || !f) return;
    const ticket = (this.opening = { row, text: "" });
    const language = currentLocale();
    try {
      const text = await readGame(src, isCompressed(f.name ?? "") ? { open: () => openStream(f) } : { blob: f });
      ticket.text = text;
      const [referee] = await this.referees();
      // the verdict's sentence in the page's language (the review workers start in English)
      await referee.request("set_language", { language: currentLocale() });
      const r = /** @type {import("../contract.js").Reply} */ (await referee.request("review_game", {
        pgn: text, game: row.game, flag_rules: this.ctrl.clocks?.flagRules ?? "fide", search: this.search }));
      if (this.opening !== ticket) return;
      if (!r.ok || !r.review_game) throw new Error(r.error ? r.error.message : t("the game could not be read"));
      this.openGame = { row, game: r.review_game, text };
      this.view?.opened(row, null);
      if (currentLocale() !== language) void this.reword().catch(() => {}); // another language came meanwhile
    } catch (e) {
      if (this.opening !== ticket) return;
      this.openGame = null;
      this.view?.opened(row, messageOf(e));
    }
  }

  /**
   * A side's proof in a reviewed game's position (the "proof" op with the
   * game's start and moves up to `ply`, asked of a review worker: the Play
   * game is neither asked nor touched).
   * @param {ReviewGame} g @param {number} ply @param {"white"|"black"} color
   */
  async proof(g, ply, color) {
    const [referee] = await this.referees();
    const moves = g.plies.slice(1, ply + 1).map((p) => p.uci);
    return referee.request("proof", { ply, color, game: { start_fen: g.start_fen, chess960: g.chess960, moves } });
  }

  /**
   * Another language: the sentences the workers made (each row's reason,
   * events and error; the opened game's verdict, marks and claims) said
   * again in it, from the facts already here (the rows' reports, the game's
   * text): nothing is reviewed again, the table, the opened game and its ply stay.
   */
  async reword() {
    const table = this.table;
    const open = this.openGame;
    if (this.running) this.switched = true;
    if (!table.size && !open) return;
    const language = currentLocale();
    const referees = await this.referees();
    await Promise.all(referees.map((r) => r.request("set_language", { language })));
    const stale = () => currentLocale() !== language;
    const lines = [...table.lines()];
    const asked = [];
    for (let at = 0, k = 0; at < lines.length; at += WORDS_BATCH, k++) {
      asked.push(referees[k % referees.length].request("review_words", { lines: lines.slice(at, at + WORDS_BATCH) }).then((r) => {
        if (!stale() && r.ok && r.review_words) table.reword(r.review_words);
      }));
    }
    if (open) {
      asked.push(referees[0].request("review_game", { pgn: open.text, game: open.row.game,
        flag_rules: this.ctrl.clocks?.flagRules ?? "fide", search: this.search }).then((r) => {
        if (!stale() && this.openGame === open && r.ok && r.review_game) open.game = r.review_game;
      }));
    }
    await Promise.all(asked);
    if (!stale()) this.view?.reworded();
  }

  /** The file's name without .pgn/.gz, for the downloads. */
  baseName() {
    return (this.file?.name ?? "review").replace(/\.pgn(\.gz|\.zst)?$/i, "").replace(/\.(gz|zst)$/i, "");
  }
}
