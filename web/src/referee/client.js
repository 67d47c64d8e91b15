// SPDX-License-Identifier: GPL-3.0-or-later
// The referee client: the one way the page talks to the Python worker.
// It takes over the worker boot.js started (window.__pcdBoot, with the events
// that arrived meanwhile), keeps an id -> promise map, sends every request in
// one queue (the worker answers in order), and reports start-up events:
// "progress" {stage, step, steps}, "ready" {timings}, "failed" {message}.

import { messageOf } from "../errors.js";
import { t, tMarked } from "../i18n.js";

/** @typedef {import("../contract.js").Reply} Reply */
/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("../contract.js").Timing} Timing */

/** @typedef {PcdBoot} BootHandoff  see globals.d.ts */

/**
 * A map op -> {args, reply}: the page's referee speaks contract.js's
 * Operations, the arbiter's worker FollowOperations.
 * @typedef {Record<string, {args: object, reply: object}>} OpsMap
 */

/**
 * What the worker posts: start-up events, or an answer to request `id`.
 * @typedef {{type: "progress", stage: string, step: number, steps: number}
 *   | {type: "ready", timings: Record<string, number>, python?: string}
 *   | {type: "failed", message: string}
 *   | ({type?: undefined, id: number} & Timing & Record<string, unknown>)} WorkerMessage
 */

/**
 * @typedef {Object} RefereeEvents
 * @property {(e: {stage: string, step: number, steps: number}) => void} [progress]
 * @property {(e: {timings: Record<string, number>, python?: string}) => void} [ready]
 * @property {(e: {message: string}) => void} [failed]
 */

export const BOOT_TIMEOUT_MS = 120000;

/** @template {OpsMap} [Ops=import("../contract.js").Operations] */
export class Referee {
  /**
   * @param {BootHandoff} boot  window.__pcdBoot (boot.js) or {} to start the worker here
   * @param {{workerUrl?: URL, timeoutMs?: number}} [opts]
   */
  constructor(boot, opts = {}) {
    /** @type {"loading"|"ready"|"failed"} */
    this.state = "loading";
    /** @type {string} */
    this.failure = "";
    /** @type {Map<number, {resolve: (a: Timing & Record<string, unknown>) => void, reject: (e: Error) => void, sent: number}>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {{[K in keyof RefereeEvents]-?: Array<NonNullable<RefereeEvents[K]>>}} */
    this.listeners = { progress: [], ready: [], failed: [] };
    /** @type {Worker|null} */
    this.worker = null;
    this.boot = boot;
    this.opts = opts;
    this.timer = 0;
  }

  /**
   * @template {keyof RefereeEvents} K
   * @param {K} type
   * @param {NonNullable<RefereeEvents[K]>} fn
   */
  on(type, fn) {
    /** @type {Array<typeof fn>} */ (this.listeners[type]).push(fn);
    return this;
  }

  /**
   * @template {keyof RefereeEvents} K
   * @param {K} type @param {Parameters<NonNullable<RefereeEvents[K]>>[0]} data
   */
  emit(type, data) {
    const list = /** @type {Array<(d: typeof data) => void>} */ (this.listeners[type]);
    for (const fn of list) fn(data);
  }

  /** Take over the worker (or start one) and replay the buffered events. */
  start() {
    const boot = this.boot;
    if (boot.error) return this.fail(tMarked(boot.error));
    if (boot.worker) this.worker = boot.worker;
    else if (typeof WebAssembly !== "object") return this.fail(t("this browser has no WebAssembly support"));
    else {
      try {
        // worker.js sits beside the page, not beside this module (the bundle puts it in chunks/)
        this.worker = new Worker(this.opts.workerUrl || new URL("worker.js", document.baseURI), { type: "module" });
      } catch (e) {
        return this.fail(t("could not start the worker ({reason})", { reason: messageOf(e) }));
      }
    }
    this.timer = Number(setTimeout(() => this.fail(t("timed out after {seconds} s", { seconds: Math.round((this.opts.timeoutMs || BOOT_TIMEOUT_MS) / 1000) })),
      this.opts.timeoutMs || BOOT_TIMEOUT_MS));
    const w = this.worker;
    w.onerror = (ev) => {
      ev.preventDefault();
      const missing = t("worker.js or pyodide.mjs could not be loaded");
      this.fail(t("worker error: {reason}", { reason: ev.message || missing }));
    };
    w.onmessage = (ev) => this.onMessage(ev.data);
    for (const ev of boot.events || []) {
      if (ev instanceof MessageEvent) this.onMessage(ev.data);
      else /** @type {(ev: ErrorEvent) => void} */ (w.onerror)(ev);
    }
    if (boot.events) boot.events.length = 0;
  }

  /** @param {string} message */
  fail(message) {
    if (this.state === "failed") return;
    clearTimeout(this.timer);
    this.state = "failed";
    this.failure = message;
    for (const [, p] of this.pending) p.reject(new Error(message));
    this.pending.clear();
    this.emit("failed", { message });
  }

  /** @param {WorkerMessage | null | undefined} m */
  onMessage(m) {
    if (!m) return;
    if (m.type === "progress") this.emit("progress", { stage: m.stage, step: m.step, steps: m.steps });
    else if (m.type === "ready") {
      clearTimeout(this.timer);
      this.state = "ready";
      this.emit("ready", { timings: m.timings, python: m.python });
    } else if (m.type === "failed") this.fail(tMarked(m.message));
    else if (m.type === undefined && m.id != null && this.pending.has(m.id)) {
      const p = /** @type {NonNullable<ReturnType<typeof this.pending.get>>} */ (this.pending.get(m.id));
      this.pending.delete(m.id);
      m.recv_at = performance.now();
      m.t_main_sent = p.sent;
      m.t_main_recv = performance.timeOrigin + m.recv_at;
      p.resolve(m);
    }
  }

  /**
   * Send one bridge request; answers come back in the order sent. Requests
   * made while the worker starts wait in the worker's queue.
   * @template {keyof Ops & string} K
   * @param {K} op
   * @param {Ops[K]["args"]} [args]
   * @returns {Promise<Ops[K]["reply"] & Timing>}
   */
  request(op, args = {}) {
    if (this.state === "failed" || !this.worker) return Promise.reject(new Error(this.failure || t("the referee is not running")));
    const id = this.nextId++;
    const w = this.worker;
    return new Promise((resolve, reject) => {
      // the worker answers op with Ops[op]["reply"] (pychessdraw's Bridge, typed by the same contract)
      const answered = /** @type {(a: Timing & Record<string, unknown>) => void} */ (resolve);
      this.pending.set(id, { resolve: answered, reject, sent: performance.timeOrigin + performance.now() });
      w.postMessage({ id, op, args });
    });
  }

  /** Close the worker (page hidden for good). */
  shutdown() {
    if (this.worker && this.state === "ready") this.worker.postMessage({ id: 0, op: "__shutdown", args: {} });
  }
}
