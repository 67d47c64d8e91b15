// SPDX-License-Identifier: GPL-3.0-or-later
// The dead-position search off the move path: level 0 after each change,
// then deeper while a side is undecided, each deeper level after a pause;
// an answer that comes after a newer action is dropped. A browsed position
// is searched the same way (analyseAt), its answer kept while it is shown;
// the referee keeps what it found per position, so a position browsed again
// is answered at once.
import { closeForEnd } from "./replies.js";

/** @typedef {import("./base.js").ControllerBase} Controller */
/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("./state.js").Part} Part */

const DEEPER_AFTER_MS = 200; // a player who moves at once is not held up by the deeper searches
// except the first: where the page's quick search left a side open (a loaded machine, a slow
// device), the next one (80 ms a side at most) follows at once, so that the answer is there
// when the player looks
const FIRST_DEEPER_AFTER_MS = 0;
// browsing: a key held down never starts the deeper searches; a position looked at does at once
const BROWSE_DEEPER_AFTER_MS = 100;
const PREFETCH_LEVEL = 1; // the position before the one browsed to, searched while it is looked at

export class AnalysisScheduler {
  /** @param {Controller} ctrl */
  constructor(ctrl) {
    this.ctrl = ctrl;
    /** Searches sent or waiting for their pause. */
    this.running = 0;
  }

  /** @param {number} level */
  analyse(level) {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    if (!s.live || s.live.outcome || ctrl.requests.pending > 0) return;
    if (level > 0 && !Object.values(s.live.winnable).some((v) => v.answer === "unknown")) return;
    const gen = ctrl.requests.gen;
    const t0 = performance.now();
    this.running++;
    ctrl.referee.request("analyse", { level }).then(
      (r) => this.answered(r, level, gen, t0),
      () => {
        this.running--;
        ctrl.changed("idle");
      },
    );
  }

  /** @param {Answer} r @param {number} level @param {number} gen @param {number} t0 */
  answered(r, level, gen, t0) {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    this.running--;
    /** @type {Set<Part>} */
    const parts = new Set(["idle"]);
    if (ctrl.requests.isCurrent(gen) && r.ok && r.facts) {
      const ended = !s.live?.outcome && !!r.facts.outcome;
      s.live = r.facts;
      if (r.ending !== undefined) s.ending = r.ending;
      parts.add("panel").add("board");
      if (ended) closeForEnd(s, parts);
      if (s.browse != null && r.facts.outcome) s.browse = null;
      ctrl.emit("perf", { op: "analyse", ply: r.facts.ply, ms: performance.now() - t0, worker_ms: r.worker_ms, level });
      setTimeout(() => {
        ctrl.address.save(false);
        if (ended) ctrl.announcer.reply("analyse", r);
      }, 0);
      if (r.analysed && !r.analysed.final && !r.facts.outcome) this.deeper(level + 1, gen, level === 0 ? FIRST_DEEPER_AFTER_MS : DEEPER_AFTER_MS);
    }
    ctrl.changed(...parts);
  }

  /**
   * Search the browsed position ``ply`` at ``level``, deeper while a side is
   * undecided and the position is still shown.
   * @param {number} ply @param {number} level
   */
  analyseAt(ply, level) {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    if (s.browse !== ply || ctrl.referee.state !== "ready") return;
    const shown = s.browseFacts;
    if (shown && !Object.values(shown.winnable).some((v) => v.answer === "unknown" && v.searching)) return;
    const gen = ctrl.requests.gen;
    const t0 = performance.now();
    this.running++;
    ctrl.referee.request("analyse", { level, ply }).then((r) => {
      this.running--;
      if (s.browse === ply && ctrl.requests.isCurrent(gen) && r.ok && r.facts) {
        s.browseFacts = r.facts;
        s.seq++;
        ctrl.emit("perf", { op: "analyse", ply, ms: performance.now() - t0, worker_ms: r.worker_ms, level });
        if (r.analysed && !r.analysed.final) {
          this.running++;
          setTimeout(() => {
            this.running--;
            this.analyseAt(ply, level + 1);
            ctrl.changed("idle");
          }, BROWSE_DEEPER_AFTER_MS);
        } else this.prefetch(ply);
        ctrl.changed("panel");
      } else ctrl.changed("idle");
    }, () => {
      this.running--;
      ctrl.changed("idle");
    });
  }

  /**
   * Browsing goes back more often than forward: while ``ply`` is shown,
   * the referee searches the position before it (the answer is kept by the
   * referee, per position, for status_at; nothing is shown from it here).
   * @param {number} ply
   */
  prefetch(ply) {
    const ctrl = this.ctrl;
    if (ply <= 0 || ctrl.state.browse !== ply) return;
    this.running++;
    const done = () => {
      this.running--;
      ctrl.changed("idle");
    };
    ctrl.referee.request("analyse", { level: PREFETCH_LEVEL, ply: ply - 1 }).then(done, done);
  }

  /** @param {number} level @param {number} gen @param {number} pause */
  deeper(level, gen, pause) {
    this.running++;
    setTimeout(() => {
      this.running--;
      if (this.ctrl.requests.isCurrent(gen)) this.analyse(level);
      this.ctrl.changed("idle");
    }, pause);
  }
}
