// SPDX-License-Identifier: GPL-3.0-or-later
// The review's referees: workers of their own (the board's referee never
// waits for a review), one per core up to 3, each judging every n-th game
// of the file. Started on the first review, or earlier when one looks likely.
import { Referee } from "../referee/client.js";
import { t } from "../i18n.js";


export class ReviewPool {
  /** @param {number} size  how many workers */
  constructor(size) {
    this.size = size;
    /** @type {Referee[]} */
    this.referees = [];
  }

  /**
   * The workers, ready; a failed start empties the pool (the next review tries again).
   * @param {(stage: string) => void} [onProgress]  the first worker's start-up stages
   * @returns {Promise<Referee[]>}
   */
  ready(onProgress) {
    if (!this.referees.length) this.referees = Array.from({ length: this.size }, () => new Referee({}, {}));
    return Promise.all(this.referees.map((r, k) => {
      if (r.state === "ready") return Promise.resolve(r);
      return new Promise((resolve, reject) => {
        r.on("ready", () => resolve(r));
        r.on("failed", (e) => {
          this.referees = [];
          reject(new Error(t("the review's referee could not start: {reason}", { reason: e.message })));
        });
        if (k === 0 && onProgress) r.on("progress", (e) => onProgress(e.stage));
        if (!r.worker) r.start();
      });
    }));
  }
}

/**
 * How many review workers: ?review-workers=N (1-8, for the benchmark), else
 * one per core up to 3.
 * @param {string} search  location.search
 */
export function poolSizeFor(search) {
  const asked = Number(new URLSearchParams(search).get("review-workers"));
  return asked >= 1 && asked <= 8 ? Math.floor(asked) : Math.max(1, Math.min(3, navigator.hardwareConcurrency || 2));
}
