// SPDX-License-Identifier: GPL-3.0-or-later
// The review of a PGN file as data: one row per game (as the referee's
// review session reports it), filters by verdict, the summary counts, the
// timeline of a game's events, and the CSV and JSON-lines downloads. Pure:
// no DOM, no worker.
//
// Memory: a row is a few hundred bytes; the JSON lines (the CLI's scan
// format, about 1 KB a game) are kept for the download, joined in blocks.

import { VERDICTS as SENT_VERDICTS, VERDICT_WORDS as SENT_VERDICT_WORDS } from "../contract.js";

/**
 * @typedef {import("../contract.js").VerdictName} Verdict
 * @typedef {import("../contract.js").ReviewEvent} ReviewEvent
 * @typedef {import("../contract.js").ReviewRow} ReviewRow
 * @typedef {import("../contract.js").ReviewResult} ReviewResult
 * @typedef {{total: number, plies: number, ok: number, wrong_result: number, ended_earlier: number,
 *   undecided: number, error: number}} ReviewSummary
 * @typedef {ReviewEvent} TimelineMark
 */

/** The referee's verdicts, in the order the page lists them (pychessdraw.records.judge). @type {readonly Verdict[]} */
export const VERDICTS = SENT_VERDICTS;

/** What each verdict means, for people (the referee's words). @type {Readonly<Record<Verdict, string>>} */
export const VERDICT_WORDS = SENT_VERDICT_WORDS;

const BLOCK = 512; // JSON lines joined per stored block

export class ReviewTable {
  constructor() {
    /** @type {ReviewRow[]} */
    this.rows = [];
    /** @type {string[]} */
    this.blocks = [];
    /** @type {string[]} */
    this.pending = [];
    this.plies = 0;
    /** @type {Record<Verdict, number>} */
    this.counts = { ok: 0, wrong_result: 0, ended_earlier: 0, undecided: 0, error: 0 };
  }

  /** Add the results of a review step, in game order. @param {ReviewResult[]} results */
  add(results) {
    for (const { line, row } of results) {
      if (!VERDICTS.includes(row.verdict)) throw new Error(`unknown verdict ${JSON.stringify(row.verdict)}`);
      this.rows.push(row);
      this.counts[row.verdict] += 1;
      this.plies += row.plies;
      this.pending.push(line + "\n");
      if (this.pending.length >= BLOCK) this.#seal();
    }
  }

  #seal() {
    if (this.pending.length) this.blocks.push(this.pending.join(""));
    this.pending = [];
  }

  get size() {
    return this.rows.length;
  }

  /** @returns {ReviewSummary} */
  summary() {
    return { total: this.rows.length, plies: this.plies, ...this.counts };
  }

  /**
   * The rows whose verdict is among `verdicts` (all rows for null or empty).
   * @param {Iterable<Verdict> | null} verdicts
   */
  filtered(verdicts) {
    const keep = new Set(verdicts ?? []);
    if (keep.size === 0 || keep.size === VERDICTS.length) return this.rows;
    return this.rows.filter((r) => keep.has(r.verdict));
  }

  /** The row of game `n` (1-based as numbered in the review). @param {number} n */
  row(n) {
    const first = this.rows.length ? this.rows[0].game : 1;
    const r = this.rows[n - first];
    return r && r.game === n ? r : this.rows.find((x) => x.game === n);
  }

  /** Every game's report (its JSON line), in the rows' order. */
  *lines() {
    this.#seal();
    for (const block of this.blocks) yield* block.slice(0, -1).split("\n");
  }

  /**
   * The rows' sentences said again (review_words, after a switch of
   * language): each row keeps its place and its facts, its words change.
   * @param {import("../contract.js").ReviewWords[]} words
   */
  reword(words) {
    for (const w of words) {
      const r = this.row(w.game);
      if (!r) continue;
      r.detail = w.detail;
      r.error = w.error;
      r.events = w.events;
    }
  }

  /** The review as JSON lines, the CLI's `scan` format, in blocks to join or wrap in a Blob. */
  jsonLines() {
    this.#seal();
    return [...this.blocks];
  }

  /** The review as CSV (RFC 4180, CRLF), one row per game. */
  toCSV() {
    const head = ["game", "white", "black", "result", "verdict", "expected_result", "ended_at", "plies", "events", "error"];
    const out = [head.join(",")];
    for (const r of this.rows) {
      const events = r.events.map((e) => `${e.ply}:${e.rule}:${e.kind}`).join(" ");
      out.push([r.game, r.white, r.black, r.result, r.verdict, r.expected_result ?? "", r.ended_at ?? "",
        r.plies, events, r.error ?? ""].map(csvCell).join(","));
    }
    return out.join("\r\n") + "\r\n";
  }
}

/**
 * One CSV cell: quoted when needed; text that a spreadsheet would run as a
 * formula (starting with = + - @ or a control character) gets a leading '.
 * @param {string | number} value
 */
export function csvCell(value) {
  if (typeof value === "number") return String(value);
  let s = value;
  if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * A game's events in ply order, with the referee's words (each event's
 * label: where threefold and fifty first became claimable, claimable with a
 * move, and where the game ended, by move number).
 * @param {ReviewRow} row
 * @returns {TimelineMark[]}
 */
export function timeline(row) {
  return [...row.events].sort((a, b) => a.ply - b.ply);
}

/**
 * The ply to show when a row is opened: its first event; else where the
 * record breaks (the position before the bad move); else the last position.
 * @param {ReviewRow} row
 */
export function firstEventPly(row) {
  if (row.events.length) return Math.min(...row.events.map((e) => e.ply));
  if (row.error_ply !== null && row.error_ply > 0) return row.error_ply - 1;
  return row.plies;
}
