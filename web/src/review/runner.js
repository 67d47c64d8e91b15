// SPDX-License-Identifier: GPL-3.0-or-later
// Drives one review: reads the file in whole-line chunks, sends each to the
// referee's review session (`review_start`, `review_feed`, `review_finish`
// ops of the bridge, in a worker of its own; the final positions searched as
// `pychessdraw scan` searches them by default, "auto", so that the verdicts
// are the CLI's), adds the reported games to the
// table with where each game lives in the file, and reports progress. No
// DOM: the caller passes `send` (a request to the review worker) and
// renders progress and the table.

import { OffsetMap, decodeChunk, lineChunks } from "./reader.js";
import { t } from "../i18n.js";

/**
 * @typedef {import("./table.js").ReviewTable} ReviewTable
 * @typedef {import("./table.js").ReviewResult} ReviewResult
 * @typedef {import("./reader.js").GameSource} GameSource
 * @typedef {{ok: boolean, results?: ReviewResult[], error?: {code: string, message: string}}} ReviewAnswer
 * @typedef {"review_start"|"review_feed"|"review_finish"} ReviewOp
 * @typedef {<K extends ReviewOp>(op: K, args: import("../contract.js").ArgsOf<K>) => Promise<ReviewAnswer>} Send
 * @typedef {{bytes: number, total: number | null, games: number, done: boolean, cancelled: boolean}} ReviewProgress
 */

export class ReviewCancelled extends Error {
  constructor() {
    super("review cancelled");
    this.name = "ReviewCancelled";
  }
}

/**
 * Review a byte stream with one or more referees (each a worker with the
 * bridge): every referee is fed every chunk and judges its share of the
 * games (every n-th), so n workers share the work; the answers are merged in
 * game order. Up to `inFlight` chunks are on their way at once, so that no
 * worker waits for the page. Resolves with the final progress; rejects with
 * ReviewCancelled when `signal` aborts (the games reviewed so far stay in the
 * table), or with an Error carrying the referee's message.
 * @param {{stream: ReadableStream<Uint8Array>, total: number | null, sends: Send[], table: ReviewTable,
 *   sources: Map<number, GameSource>, onProgress?: (p: ReviewProgress) => void, signal?: AbortSignal,
 *   flagRules?: import("../contract.js").FlagRulesName, search?: import("../contract.js").SearchName, chunkBytes?: number, inFlight?: number}} job
 *   `sources` receives, per game number, where its text is (see reader.readGame);
 *   `total` is the file size when known; `search` the final positions' search
 *   (default "auto", the CLI's scan default: the same verdicts).
 * @returns {Promise<ReviewProgress>}
 */
export async function runReview(job) {
  const { stream, total, sends, table, sources, onProgress, signal } = job;
  const inFlight = Math.max(1, job.inFlight ?? 3);
  const map = new OffsetMap();
  /** @type {ReviewProgress} */
  const progress = { bytes: 0, total, games: table.size, done: false, cancelled: false };
  const check = () => {
    if (signal?.aborted) {
      progress.cancelled = true;
      onProgress?.({ ...progress });
      throw new ReviewCancelled();
    }
  };
  /** @template {ReviewOp} K @param {K} op @param {(k: number) => import("../contract.js").ArgsOf<K>} args */
  const all = (op, args) => Promise.all(sends.map((send, k) => send(op, args(k))));
  /** @param {ReviewAnswer[]} answers */
  const take = (answers) => {
    /** @type {ReviewResult[]} */
    const results = [];
    for (const answer of answers) {
      if (!answer.ok) throw new Error(answer.error ? `${answer.error.code}: ${answer.error.message}` : t("review failed"));
      results.push(...(answer.results ?? []));
    }
    results.sort((a, b) => a.row.game - b.row.game);
    for (const { row } of results) sources.set(row.game, map.locate(row.start, row.end));
    table.add(results);
    progress.games = table.size;
  };
  check();
  const first = table.size + 1;
  const flagRules = job.flagRules ?? "fide";
  const search = job.search ?? "auto";
  take(await all("review_start", (k) => ({ flag_rules: flagRules, search, start: first, part: k, parts: sends.length })));
  /** @type {{answers: Promise<ReviewAnswer[]>, end: number}[]} */
  const queue = [];
  const drain = async () => {
    const next = /** @type {{answers: Promise<ReviewAnswer[]>, end: number}} */ (queue.shift());
    const answers = await next.answers;
    check();
    take(answers);
    progress.bytes = next.end;
    onProgress?.({ ...progress });
  };
  try {
    for await (const chunk of lineChunks(stream, job.chunkBytes)) {
      check();
      const decoded = decodeChunk(chunk.bytes, chunk.byteStart);
      map.add(decoded, chunk.byteStart);
      queue.push({ answers: all("review_feed", () => ({ text: decoded.text })), end: chunk.byteStart + chunk.bytes.length });
      while (queue.length >= inFlight) await drain();
    }
    while (queue.length) await drain();
  } finally {
    for (const q of queue) q.answers.catch(() => {}); // answers no longer wanted
  }
  take(await all("review_finish", () => ({})));
  progress.done = true;
  onProgress?.({ ...progress });
  return progress;
}
