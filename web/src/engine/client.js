// SPDX-License-Identifier: GPL-3.0-or-later
// The chess engine (Stockfish.js, single-threaded WebAssembly) in its own
// Worker, spoken to in UCI over postMessage. No DOM here: the page learns the
// engine's state through `onState` and gets each search's scored candidates
// back as a promise.
//
// The Worker is created on the first `start()` (the page calls it only when
// the visitor chooses to play the computer), so nobody else downloads the
// 1.8 MB engine. Searches run one at a time in the order asked; `abort()`
// stops the running one and drops the queue (undo, new game). A worker
// error (missing file, WebAssembly failure), a start that never finishes or
// a search that never answers puts the client in state `failed` for good.
import { t } from "../i18n.js";


export const ENGINE_URL = "engine/stockfish.js";
/** Start-up (download, compile, `uciok`, `readyok`) must finish within this. */
export const LOAD_TIMEOUT_MS = 60_000;
/** A search must answer within its own time plus this. */
export const SEARCH_GRACE_MS = 30_000;

/** @typedef {"off"|"loading"|"idle"|"thinking"|"failed"} EngineState */

/**
 * @typedef {Object} Clock  milliseconds left and increments, UCI `go wtime ...`
 * @property {number} wtime
 * @property {number} btime
 * @property {number} winc
 * @property {number} binc
 */

/**
 * @typedef {Object} SearchRequest
 * @property {string} fen  the game's start position
 * @property {"white"|"black"} turn  the side to move after `moves` (the referee's facts.turn)
 * @property {string[]} moves  UCI moves from there (the engine needs the history to see repetitions)
 * @property {boolean} [chess960]
 * @property {number} skill  Stockfish "Skill Level", 0..20
 * @property {number} multipv  candidate lines wanted
 * @property {number} movetime  milliseconds: the whole budget without a clock, the cap with one
 * @property {Clock|null} [clock]
 * @property {string[]} [searchmoves]  only these root moves (UCI)
 */

/** @typedef {import("./policy.js").Candidate & {depth: number, pv: string[]}} Line */

/**
 * @typedef {Object} SearchResult
 * @property {boolean} aborted  stopped by `abort()`: ignore it
 * @property {string|null} bestmove  null when the side to move has no legal move
 * @property {Line[]} candidates  by rank, scores from the side to move
 * @property {number} depth
 */

/**
 * @typedef {Object} Job
 * @property {SearchRequest} req
 * @property {(r: SearchResult) => void} resolve
 * @property {(e: Error) => void} reject
 * @property {boolean} aborted
 * @property {Map<number, Line>} lines
 * @property {Set<string>} seen  "depth:rank" of the lines received
 * @property {ReturnType<typeof setTimeout>|null} watchdog
 */

/**
 * One UCI `info` line with a principal variation, or null (bounds, strings, currmove...).
 * @param {string} line
 * @returns {Line|null}
 */
export function parseInfo(line) {
  if (!line.startsWith("info ") || line.includes(" lowerbound") || line.includes(" upperbound")) return null;
  const t = line.split(/\s+/);
  const at = (/** @type {string} */ key) => t.indexOf(key);
  const pv = at("pv"), sc = at("score"), dp = at("depth");
  if (pv < 0 || sc < 0 || dp < 0 || pv + 1 >= t.length) return null;
  const kind = t[sc + 1], value = Number(t[sc + 2]);
  if ((kind !== "cp" && kind !== "mate") || !Number.isFinite(value)) return null;
  const mp = at("multipv");
  return {
    uci: t[pv + 1],
    rank: mp >= 0 ? Number(t[mp + 1]) : 1,
    score: kind === "cp" ? { cp: value, mate: null } : { cp: null, mate: value },
    depth: Number(t[dp + 1]),
    pv: t.slice(pv + 1),
  };
}

/**
 * The candidates by rank, one per move: a search stopped mid-iteration
 * leaves lower ranks from the previous depth, which may repeat a move.
 * @param {Line[]} lines
 */
export function distinctLines(lines) {
  /** @type {Map<string, Line>} */
  const best = new Map();
  for (const l of lines) {
    const seen = best.get(l.uci);
    if (!seen || l.depth > seen.depth || (l.depth === seen.depth && l.rank < seen.rank)) best.set(l.uci, l);
  }
  return [...best.values()].sort((a, b) => a.rank - b.rank);
}

/** @param {SearchRequest} req @param {"white"|"black"} turn */
export function goCommand(req, turn) {
  let cmd = "go";
  if (req.clock) {
    const c = req.clock;
    cmd += ` wtime ${Math.max(0, Math.round(c.wtime))} btime ${Math.max(0, Math.round(c.btime))}`;
    cmd += ` winc ${Math.round(c.winc)} binc ${Math.round(c.binc)}`;
    // the level's time per move still caps a move: a beginner does not think for a minute
    const own = turn === "white" ? c.wtime : c.btime;
    cmd += ` movetime ${Math.max(10, Math.round(Math.min(req.movetime, own / 2)))}`;
  } else {
    cmd += ` movetime ${Math.max(10, Math.round(req.movetime))}`;
  }
  if (req.searchmoves && req.searchmoves.length) cmd += ` searchmoves ${req.searchmoves.join(" ")}`;
  return cmd;
}

export class EngineClient {
  /**
   * @param {{url?: string, loadTimeoutMs?: number,
   *          onState?: (state: EngineState, detail: string) => void,
   *          createWorker?: (url: string) => Worker}} [opts]
   */
  constructor(opts = {}) {
    this.url = opts.url ?? ENGINE_URL;
    this.loadTimeoutMs = opts.loadTimeoutMs ?? LOAD_TIMEOUT_MS;
    this.onState = opts.onState ?? (() => {});
    this.createWorker = opts.createWorker ?? ((url) => new Worker(url));
    /** @type {EngineState} */
    this._state = "off";
    this.detail = "";
    /** @type {Worker|null} */
    this.worker = null;
    /** @type {Promise<void>|null} */
    this.ready = null;
    /** @type {Job[]} */
    this.queue = [];
    /** @type {Job|null} */
    this.running = null;
    /** @type {Record<string, string>} */
    this.options = {};
    /** @type {{fen: string, moves: string[]}|null} the last search's game */
    this.lastGame = null;
    /** @type {((line: string) => void)|null} */
    this.bootListener = null;
    /** @type {((e: Error) => void)|null} */
    this.bootReject = null;
  }

  /** @returns {EngineState} */
  get state() {
    return this._state;
  }

  /** @param {EngineState} state @param {string} [detail] */
  setState(state, detail = "") {
    if (this._state === "failed") return;
    this._state = state;
    this.detail = detail;
    this.onState(state, detail);
  }

  /** Create the worker and wait for the engine; resolves at once when already started. */
  start() {
    if (this.ready) return this.ready;
    this.setState("loading", t("loading the engine"));
    this.ready = new Promise((resolve, reject) => {
      this.bootReject = reject;
      const timer = setTimeout(() => this.fail(t("the engine did not start within {seconds} s", { seconds: this.loadTimeoutMs / 1000 })),
        this.loadTimeoutMs);
      let worker;
      try {
        worker = this.createWorker(this.url);
      } catch (err) {
        clearTimeout(timer);
        this.fail(t("the engine could not be started: {reason}", { reason: String(err) }));
        return;
      }
      this.worker = worker;
      worker.onerror = (e) => {
        e.preventDefault?.();
        const missing = t("its files are missing or broken");
      this.fail(t("the engine failed: {reason}", { reason: e.message || missing }));
      };
      worker.onmessageerror = () => this.fail(t("the engine sent an unreadable message"));
      worker.onmessage = (e) => this.receive(typeof e.data === "string" ? e.data : String(e.data));
      this.bootListener = (line) => {
        if (line === "uciok") {
          this.send("setoption name UCI_AnalyseMode value false");
          this.send("isready");
        } else if (line === "readyok") {
          clearTimeout(timer);
          this.bootListener = null;
          this.bootReject = null;
          this.setState("idle");
          resolve();
          this.next();
        }
      };
      this.send("uci");
    });
    return this.ready;
  }

  /** @param {string} line */
  send(line) {
    if (this.worker && this._state !== "failed") this.worker.postMessage(line);
  }

  /** @param {string} text */
  receive(text) {
    for (const line of text.split("\n")) {
      if (this.bootListener) {
        this.bootListener(line.trim());
        continue;
      }
      const job = this.running;
      if (!job) continue;
      if (line.startsWith("bestmove")) {
        this.finish(job, line.split(/\s+/)[1]);
      } else {
        const info = parseInfo(line);
        // Stockfish prints each (depth, rank) once per iteration; a second
        // one is a reprint (at the end, or after 3 s) where a line not
        // searched again shows its previous score, or a meaningless 0 when it
        // had none (-infinity printed as 0): at a reduced skill level the
        // move it picks is reprinted first that way. Keep the first.
        if (info && !job.seen.has(`${info.depth}:${info.rank}`)) {
          job.seen.add(`${info.depth}:${info.rank}`);
          job.lines.set(info.rank, info);
        }
      }
    }
  }

  /**
   * Queue a search; resolves with its candidates, or `aborted: true` after `abort()`.
   * @param {SearchRequest} req
   * @returns {Promise<SearchResult>}
   */
  search(req) {
    if (this._state === "failed") return Promise.reject(new Error(this.detail));
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject, aborted: false, lines: new Map(), seen: new Set(), watchdog: null });
      this.start().catch(() => {});
      this.next();
    });
  }

  /** Stop the running search and drop the queued ones (undo, new game, the visitor moved). */
  abort() {
    for (const job of this.queue.splice(0)) job.resolve({ aborted: true, bestmove: null, candidates: [], depth: 0 });
    if (this.running && !this.running.aborted) {
      this.running.aborted = true;
      this.send("stop");
    }
  }

  /** @param {string} name @param {string} value */
  option(name, value) {
    if (this.options[name] !== value) {
      this.options[name] = value;
      this.send(`setoption name ${name} value ${value}`);
    }
  }

  next() {
    if (this.running || this._state !== "idle" || !this.queue.length) return;
    const job = /** @type {Job} */ (this.queue.shift());
    this.running = job;
    const r = job.req;
    // Another game, or moves taken back: the hash table holds scores that
    // depend on the old history (repetitions), so it must be cleared.
    const last = this.lastGame;
    if (!last || last.fen !== r.fen || last.moves.length > r.moves.length
        || last.moves.some((m, i) => r.moves[i] !== m)) {
      this.send("ucinewgame");
    }
    this.lastGame = { fen: r.fen, moves: [...r.moves] };
    this.option("UCI_Chess960", r.chess960 ? "true" : "false");
    this.option("MultiPV", String(Math.max(1, Math.min(8, r.multipv))));
    this.option("Skill Level", String(Math.max(0, Math.min(20, Math.round(r.skill)))));
    this.send(`position fen ${r.fen}${r.moves.length ? " moves " + r.moves.join(" ") : ""}`);
    const turn = r.turn;
    this.send(goCommand(r, turn));
    const own = r.clock ? Math.min(r.movetime, turn === "white" ? r.clock.wtime : r.clock.btime) : r.movetime;
    job.watchdog = setTimeout(() => this.fail(t("the engine stopped answering")), own + SEARCH_GRACE_MS);
    this.setState("thinking");
  }

  /** @param {Job} job @param {string|undefined} best */
  finish(job, best) {
    if (job.watchdog) clearTimeout(job.watchdog);
    this.running = null;
    const candidates = distinctLines([...job.lines.values()]);
    const bestmove = best && best !== "(none)" ? best : null;
    const depth = candidates.length ? candidates[0].depth : 0;
    this.setState("idle");
    job.resolve({ aborted: job.aborted, bestmove, candidates, depth });
    this.next();
  }

  /** @param {string} detail */
  fail(detail) {
    if (this._state === "failed") return;
    this.setState("failed", detail);
    this._state = "failed";
    const err = new Error(detail);
    if (this.bootReject) this.bootReject(err);
    this.bootReject = null;
    this.bootListener = null;
    for (const job of [...(this.running ? [this.running] : []), ...this.queue.splice(0)]) {
      if (job.watchdog) clearTimeout(job.watchdog);
      job.reject(err);
    }
    this.running = null;
    try {
      this.worker?.terminate();
    } catch {
      // already gone
    }
    this.worker = null;
  }

  /** End the engine (the visitor went back to two players). */
  terminate() {
    this.abort();
    const job = this.running;
    if (job) {
      if (job.watchdog) clearTimeout(job.watchdog);
      job.resolve({ aborted: true, bestmove: null, candidates: [], depth: 0 });
    }
    try {
      this.worker?.terminate();
    } catch {
      // already gone
    }
    this.worker = null;
    this.ready = null;
    this.running = null;
    this.options = {};
    this.lastGame = null;
    if (this._state !== "failed") this.setState("off");
  }
}
