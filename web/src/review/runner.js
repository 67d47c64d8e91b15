// SPDX-License-Identifier: GPL-3.0-or-later
// Drives one review: reads the file in whole-line chunks, sends each to the
// referee's review session (`review_start`, `review_feed`, `review_finish`
// ops of the bridge, in a worker of its own), adds the reported games to the
// table with where each game lives in the file, and reports progress. No
// DOM: the caller passes `send` (a request to the review worker) and
// renders progress and the table.

import { OffsetMap, decodeChunk, lineChunks } from "./reader.js";

/**
 * @typedef {import("./table.js").ReviewTable} ReviewTable
 * @typedef {import("./table.js").ReviewResult} ReviewResult
 * @typedef {import("./reader.js").GameSource} GameSource
 * @typedef {{ok: boolean, results?: ReviewResult[], error?: {code: string, message: string}}} ReviewAnswer
 * @typedef {(op: string, args: Record<string, unknown>) => Promise<ReviewAnswer>} Send
 * @typedef {{bytes: number, total: number | null, games: number, done: boolean, cancelled: boolean}} ReviewProgress
 */

export class ReviewCancelled extends Error {
  constructor() {
    super("review cancelled");
    this.name = "ReviewCancelled";
  }
}

/**
 * Review a byte stream. Resolves with the final progress; rejects with
 * ReviewCancelled when `signal` aborts (the games reviewed so far stay in the
 * table), or with an Error carrying the referee's message.
 * @param {{stream: ReadableStream<Uint8Array>, total: number | null, send: Send, table: ReviewTable,
 *   sources: Map<number, GameSource>, onProgress?: (p: ReviewProgress) => void, signal?: AbortSignal,
 *   flagRules?: string, chunkBytes?: number}} job
 *   `sources` receives, per game number, where its text is (see reader.readGame);
 *   `total` is the file size when known (a compressed file's is not).
 * @returns {Promise<ReviewProgress>}
 */
export async function runReview(job) {
  const { stream, total, send, table, sources, onProgress, signal } = job;
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
  /** @param {ReviewAnswer} answer */
  const take = (answer) => {
    if (!answer.ok) throw new Error(answer.error ? `${answer.error.code}: ${answer.error.message}` : "review failed");
    const results = answer.results ?? [];
    for (const { row } of results) sources.set(row.game, map.locate(row.start, row.end));
    table.add(results);
    progress.games = table.size;
  };
  check();
  take(await send("review_start", { flag_rules: job.flagRules ?? "fide", start: table.size + 1 }));
  for await (const chunk of lineChunks(stream, job.chunkBytes)) {
    check();
    const decoded = decodeChunk(chunk.bytes, chunk.byteStart);
    map.add(decoded, chunk.byteStart);
    take(await send("review_feed", { text: decoded.text }));
    progress.bytes = chunk.byteStart + chunk.bytes.length;
    check();
    onProgress?.({ ...progress });
  }
  take(await send("review_finish", {}));
  progress.done = true;
  onProgress?.({ ...progress });
  return progress;
}
