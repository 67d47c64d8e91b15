// SPDX-License-Identifier: GPL-3.0-or-later
// node --test: the review table, the file reader and the review runner.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ReviewTable, VERDICTS, VERDICT_WORDS, csvCell, firstEventPly, timeline } from "../src/review/table.js";
import { OffsetMap, decodeChunk, lineChunks, openStream, readGame, utf8Length } from "../src/review/reader.js";
import { ReviewCancelled, runReview } from "../src/review/runner.js";

/** @returns {import("../src/review/table.js").ReviewRow} */
function row(game, verdict, extra = {}) {
  return {
    game, white: `W${game}`, black: `B${game}`, result: "1-0", verdict, expected_result: null, ended_at: null,
    plies: 10, events: [], detail: "", error: null, error_ply: null, first_move: 1, black_first: false, start: 0, end: 0, ...extra,
  };
}
const result = (/** @type {any} */ r) => ({ line: JSON.stringify({ game: r.game, verdict: r.verdict }), row: r });

test("table: rows, summary counts, filters by verdict", () => {
  const t = new ReviewTable();
  t.add([result(row(1, "ok")), result(row(2, "wrong_result")), result(row(3, "error")), result(row(4, "ok")),
    result(row(5, "ended_earlier"))]);
  assert.equal(t.size, 5);
  assert.deepEqual(t.summary(), { total: 5, plies: 50, ok: 2, wrong_result: 1, ended_earlier: 1, undecided: 0, error: 1 });
  assert.deepEqual(t.filtered(["ok"]).map((r) => r.game), [1, 4]);
  assert.deepEqual(t.filtered(new Set(["error", "wrong_result"])).map((r) => r.game), [2, 3]);
  assert.equal(t.filtered(null).length, 5);
  assert.equal(t.filtered([]).length, 5);
  assert.equal(t.filtered(VERDICTS).length, 5);
  assert.equal(t.row(3)?.verdict, "error");
  assert.equal(t.row(9), undefined);
  assert.throws(() => t.add([result(row(6, /** @type {any} */ ("maybe")))]), /unknown verdict/);
});

test("table: undecided is a verdict of its own: counted, filtered, downloaded, never ok", () => {
  const t = new ReviewTable();
  t.add([result(row(1, "ok")), result(row(2, "undecided")), result(row(3, "wrong_result", { expected_result: "1/2-1/2" })),
    result(row(4, "undecided", { result: "0-1" }))]);
  assert.deepEqual(VERDICTS, ["ok", "wrong_result", "ended_earlier", "undecided", "error"]);
  assert.equal(VERDICT_WORDS.undecided, "undecided");
  assert.deepEqual(t.summary(), { total: 4, plies: 40, ok: 1, wrong_result: 1, ended_earlier: 0, undecided: 2, error: 0 });
  assert.deepEqual(t.filtered(["undecided"]).map((r) => r.game), [2, 4]);
  assert.deepEqual(t.filtered(["ok"]).map((r) => r.game), [1]);
  const csv = t.toCSV().split("\r\n");
  assert.equal(csv[2], "2,W2,B2,1-0,undecided,,,10,,");
  assert.equal(csv[4], "4,W4,B4,0-1,undecided,,,10,,");
  const lines = t.jsonLines().join("").trimEnd().split("\n").map((l) => JSON.parse(l).verdict);
  assert.deepEqual(lines, ["ok", "undecided", "wrong_result", "undecided"]);
});

test("table: JSON lines keep the referee's lines, in order, across blocks", () => {
  const t = new ReviewTable();
  const many = Array.from({ length: 1200 }, (_, i) => result(row(i + 1, "ok")));
  t.add(many.slice(0, 700));
  t.add(many.slice(700));
  const text = t.jsonLines().join("");
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.length, 1200);
  assert.deepEqual(JSON.parse(lines[999]), { game: 1000, verdict: "ok" });
  assert.equal(t.jsonLines().join(""), text, "asking twice gives the same");
});

test("table: every game's report in order (across blocks), and the rows' words said again in place", () => {
  const t = new ReviewTable();
  const many = Array.from({ length: 1030 }, (_, i) => result(row(i + 1, i % 2 ? "ok" : "wrong_result", { detail: "die Regeln ergeben 1/2-1/2" })));
  t.add(many.slice(0, 600));
  t.add(many.slice(600));
  const lines = [...t.lines()];
  assert.equal(lines.length, 1030);
  assert.deepEqual(lines.map((l) => JSON.parse(l).game), many.map((r) => r.row.game));
  assert.equal(t.jsonLines().join(""), lines.map((l) => l + "\n").join(""), "the download is unchanged");
  const opened = t.row(1001);
  const event = { ply: 3, rule: "threefold_repetition", kind: "claimable", label: "White could claim threefold repetition after Black's move 2" };
  t.reword([{ game: 1001, detail: "the rules give 1/2-1/2", error: null, events: [/** @type {any} */ (event)] }, { game: 5000, detail: "x", error: null, events: [] }]);
  assert.equal(t.row(1001), opened, "the same row, so an opened game's row follows");
  assert.equal(opened?.detail, "the rules give 1/2-1/2");
  assert.deepEqual(opened?.events.map((e) => e.label), [event.label]);
  assert.equal(t.row(1000)?.detail, "die Regeln ergeben 1/2-1/2", "a game not said again keeps its words");
  assert.equal(t.size, 1030);
  assert.deepEqual(t.summary().ok + t.summary().wrong_result, 1030);
});

test("table: CSV quotes, doubles quotes, and defuses formulas", () => {
  const t = new ReviewTable();
  t.add([result(row(1, "error", { white: 'Smith, "J"', black: "=HYPERLINK(1)", result: "*",
    error: "2... Qxz9 (Black's move 2): invalid move", error_ply: 4 })),
  result(row(2, "ended_earlier", { expected_result: "1/2-1/2", ended_at: 16,
    events: [{ ply: 16, rule: "fivefold_repetition", kind: "automatic" }, { ply: 8, rule: "threefold_repetition", kind: "claimable" }] }))]);
  const lines = t.toCSV().split("\r\n");
  assert.equal(lines[0], "game,white,black,result,verdict,expected_result,ended_at,plies,events,error");
  assert.equal(lines[1], `1,"Smith, ""J""",'=HYPERLINK(1),*,error,,,10,,2... Qxz9 (Black's move 2): invalid move`);
  assert.equal(lines[2], "2,W2,B2,1-0,ended_earlier,1/2-1/2,16,10,16:fivefold_repetition:automatic 8:threefold_repetition:claimable,");
  assert.equal(lines[3], "");
  assert.equal(csvCell("-1"), "'-1");
  assert.equal(csvCell("a\nb"), '"a\nb"');
  assert.equal(csvCell(7), "7");
});

test("timeline and the ply a row opens at", () => {
  // the words and move numbers are the referee's (pychessdraw.review.event_row, tests/test_review.py)
  const r = row(1, "ended_earlier", { events: [
    { ply: 40, rule: "fifty_moves", kind: "claimable", label: "Fifty-move rule could be claimed after move 20 (Black)" },
    { ply: 33, rule: "threefold_repetition", kind: "claimable_with_move", label: "Threefold repetition could be claimed with a move after move 17 (White)" },
    { ply: 60, rule: "checkmate", kind: "automatic", label: "Checkmate ended the game after move 30 (Black)" }] });
  const marks = timeline(r);
  assert.deepEqual(marks.map((m) => m.ply), [33, 40, 60]);
  assert.equal(marks[0].label, "Threefold repetition could be claimed with a move after move 17 (White)");
  assert.equal(marks[1].label, "Fifty-move rule could be claimed after move 20 (Black)");
  assert.equal(marks[2].label, "Checkmate ended the game after move 30 (Black)");
  assert.equal(firstEventPly(r), 33);
  assert.equal(firstEventPly(row(2, "error", { error_ply: 5 })), 4);
  assert.equal(firstEventPly(row(3, "ok", { plies: 77 })), 77);
});

/** A byte stream delivering `bytes` in pieces of the given sizes (cycled). */
function streamOf(bytes, sizes = [7]) {
  let at = 0;
  let k = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = sizes[k++ % sizes.length];
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

const enc = new TextEncoder();
const SAMPLE = '[White "Đorđe Žarković"]\n[Black "李"]\n\n1. e4 😀 e5 *\n\n[White "Ana"]\n\n1. d4 *\n'.repeat(30);

test("reader: whole-line chunks that decode on their own", async () => {
  const bytes = enc.encode(SAMPLE);
  const chunks = [];
  for await (const c of lineChunks(streamOf(bytes, [1, 5, 40, 3]), 64)) chunks.push(c);
  assert.ok(chunks.length > 10);
  let at = 0;
  for (const c of chunks) {
    assert.equal(c.byteStart, at);
    at += c.bytes.length;
    assert.ok(c === chunks[chunks.length - 1] || c.bytes[c.bytes.length - 1] === 0x0a);
    assert.equal(decodeChunk(c.bytes, c.byteStart).exact, true);
  }
  assert.equal(at, bytes.length);
  assert.equal(chunks.map((c) => decodeChunk(c.bytes, c.byteStart).text).join(""), SAMPLE);
  // a stream that hands over everything at once still gives chunks of about the target size
  const big = [];
  for await (const c of lineChunks(streamOf(bytes, [bytes.length]), 64)) big.push(c);
  assert.ok(big.length > 10 && big.every((c) => c.bytes.length <= 64 || !c.bytes.subarray(0, 64).includes(0x0a)));
  assert.equal(big.map((c) => decodeChunk(c.bytes, c.byteStart).text).join(""), SAMPLE);
  assert.ok(big.every((c, i) => i === big.length - 1 || c.bytes[c.bytes.length - 1] === 0x0a));
  // no newline for a long stretch: cut anyway at 8 times the target
  const long = [];
  for await (const c of lineChunks(streamOf(new Uint8Array(1000).fill(0x61), [100]), 10)) long.push(c.bytes.length);
  assert.ok(Math.max(...long) <= 100 + 80 && long.reduce((a, b) => a + b) === 1000);
});

test("reader: BOM skipped, invalid UTF-8 replaced as the CLI does and flagged inexact", () => {
  const bom = decodeChunk(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a]), 0);
  assert.deepEqual(bom, { text: "a\n", exact: true, skip: 3 });
  const latin1 = decodeChunk(new Uint8Array([0x4d, 0xfc, 0x6c, 0x0a]), 10);
  assert.deepEqual(latin1, { text: "M\ufffdl\n", exact: false, skip: 0 });
  assert.equal(utf8Length("aé李😀"), 1 + 2 + 3 + 4);
});

test("reader: character offsets map back to the bytes of each game", async () => {
  const bytes = enc.encode("\ufeff" + SAMPLE);
  const file = new Blob([bytes]);
  const map = new OffsetMap();
  const games = [];
  let text = "";
  for await (const c of lineChunks(streamOf(bytes, [13]), 50)) {
    const d = decodeChunk(c.bytes, c.byteStart);
    map.add(d, c.byteStart);
    text += d.text;
    // games start at each '[White' line (as the referee would report them)
    let i;
    while ((i = text.indexOf('[White', (games.at(-1)?.start ?? -1) + 1)) >= 0) games.push({ start: i });
  }
  const ends = games.map((g, k) => (k + 1 < games.length ? games[k + 1].start : text.length));
  for (let k = 0; k < games.length; k++) {
    const src = map.locate(games[k].start, ends[k]);
    assert.ok("byteStart" in src);
    assert.equal(await readGame(src, { blob: file }), text.slice(games[k].start, ends[k]));
  }
  assert.ok(map.chunks.length <= 3, "chunks before the last game are forgotten");
});

test("reader: a game in a chunk with invalid bytes is kept as text", () => {
  const map = new OffsetMap();
  map.add(decodeChunk(enc.encode("abc\n"), 0), 0);
  map.add(decodeChunk(new Uint8Array([0x78, 0xff, 0x0a]), 4), 4);
  assert.deepEqual(map.locate(0, 4), { byteStart: 0, byteEnd: 4 });
  assert.deepEqual(map.locate(4, 7), { text: "x\ufffd\n" });
});

test("reader: .gz files are decompressed, and a game found again by streaming", async () => {
  const gz = await new Response(new Blob([enc.encode(SAMPLE)]).stream().pipeThrough(new CompressionStream("gzip"))).blob();
  const file = Object.assign(gz, { name: "games.PGN.GZ" });
  let raw = 0;
  const text = await new Response(openStream(file, (n) => { raw += n; })).text();
  assert.equal(text, SAMPLE);
  assert.equal(raw, gz.size);
  const start = SAMPLE.indexOf('[White "Ana"]', 2000);
  const src = { byteStart: utf8Length(SAMPLE, 0, start), byteEnd: utf8Length(SAMPLE, 0, start + 30) };
  assert.equal(await readGame(src, { open: () => openStream(file) }), SAMPLE.slice(start, start + 30));
  const plain = Object.assign(new Blob([enc.encode("x")]), { name: "a.pgn" });
  assert.equal(await new Response(openStream(plain)).text(), "x");
});

/**
 * A stand-in for the referee's review session: one "game" per line that
 * starts with "G", complete once the next one starts (as PGN games are).
 */
function fakeReferee() {
  let text = "";
  let open = 0; // offset of the open game
  let number = 1;
  let started = 0;
  /** @type {Record<string, unknown>[]} */
  const starts = [];
  let part = 0;
  let parts = 1;
  let first = 1;
  /** @param {boolean} final */
  const complete = (final) => {
    const out = [];
    for (;;) {
      const next = text.indexOf("\nG", open + 1);
      const end = next >= 0 ? next + 1 : final && open < text.length ? text.length : -1;
      if (end < 0) break;
      const body = text.slice(open, end);
      if ((number - first) % parts === part) {
        out.push({ line: JSON.stringify({ game: number }), row: row(number, body.includes("!") ? "error" : "ok", { start: open, end, white: body.trim() }) });
      }
      number++;
      open = end;
      if (end === text.length) break;
    }
    return out;
  };
  /** @type {import("../src/review/runner.js").Send} */
  const send = async (op, typed) => {
    const args = /** @type {Record<string, unknown>} */ (typed); // a stand-in worker reads every op's arguments
    if (op === "review_start") {
      started++;
      starts.push(args);
      first = number = Number(args.start);
      part = Number(args.part);
      parts = Number(args.parts);
      return { ok: true, results: [] };
    }
    if (op === "review_feed") { text += String(args.text); return { ok: true, results: complete(false) }; }
    if (op === "review_finish") return { ok: true, results: complete(true) };
    return { ok: false, error: { code: "bad_request", message: op } };
  };
  return { send, started: () => started, starts };
}

const LINES = Array.from({ length: 200 }, (_, i) => `G${i + 1} ${"é".repeat(i % 7)}${i === 99 ? "!" : ""}\n`).join("");

test("runner: reviews a stream, records where each game is, reports progress", async () => {
  const bytes = enc.encode(LINES);
  const table = new ReviewTable();
  const sources = new Map();
  const seen = [];
  const { send } = fakeReferee();
  const done = await runReview({ stream: streamOf(bytes, [100]), total: bytes.length, sends: [send], table, sources,
    chunkBytes: 256, onProgress: (p) => seen.push(p) });
  assert.equal(done.done, true);
  assert.equal(table.size, 200);
  assert.equal(table.summary().error, 1);
  assert.equal(table.row(100)?.verdict, "error");
  assert.ok(seen.length > 5 && seen.every((p, i) => i === 0 || p.bytes >= seen[i - 1].bytes));
  assert.equal(seen.at(-1)?.bytes, bytes.length);
  const blob = new Blob([bytes]);
  for (const n of [1, 57, 100, 200]) {
    assert.equal(await readGame(sources.get(n), { blob }), `G${n} ${"é".repeat((n - 1) % 7)}${n === 100 ? "!" : ""}\n`);
  }
});

test("runner: the referees search as the CLI's scan does by default (auto), unless told otherwise", async () => {
  const bytes = enc.encode(LINES);
  const refs = [fakeReferee(), fakeReferee()];
  await runReview({ stream: streamOf(bytes, [100]), total: bytes.length, sends: refs.map((r) => r.send),
    table: new ReviewTable(), sources: new Map(), chunkBytes: 4096 });
  assert.deepEqual(refs.map((r) => r.starts.map((a) => a.search)), [["auto"], ["auto"]]);
  assert.deepEqual(refs.map((r) => r.starts[0].part), [0, 1]);
  const other = fakeReferee();
  await runReview({ stream: streamOf(bytes, [100]), total: bytes.length, sends: [other.send],
    table: new ReviewTable(), sources: new Map(), search: "static" });
  assert.equal(other.starts[0].search, "static");
});

test("runner: three referees share the games; the table is in game order", async () => {
  const bytes = enc.encode(LINES);
  const table = new ReviewTable();
  const sources = new Map();
  const refs = [fakeReferee(), fakeReferee(), fakeReferee()];
  // the referees answer after different delays
  const sends = refs.map((r, k) => async (/** @type {import("../src/review/runner.js").ReviewOp} */ op, /** @type {any} */ args) => {
    await new Promise((ok) => setTimeout(ok, k));
    return r.send(op, args);
  });
  await runReview({ stream: streamOf(bytes, [100]), total: bytes.length, sends, table, sources, chunkBytes: 200, inFlight: 4 });
  assert.deepEqual(table.rows.map((r) => r.game), Array.from({ length: 200 }, (_, i) => i + 1));
  assert.equal(table.summary().error, 1);
  const blob = new Blob([bytes]);
  assert.equal(await readGame(sources.get(131), { blob }), `G131 ${"é".repeat(130 % 7)}\n`);
  assert.equal(refs.every((r) => r.started() === 1), true);
});

test("runner: cancel midway keeps the games reviewed so far", async () => {
  const bytes = enc.encode(LINES);
  const table = new ReviewTable();
  const controller = new AbortController();
  const { send } = fakeReferee();
  const seen = [];
  await assert.rejects(runReview({ stream: streamOf(bytes, [64]), total: bytes.length, sends: [send], table, sources: new Map(),
    chunkBytes: 128, signal: controller.signal,
    onProgress: (p) => { seen.push(p); if (p.bytes > 1000) controller.abort(); } }), ReviewCancelled);
  assert.ok(table.size > 10 && table.size < 200, `${table.size} games`);
  assert.equal(seen.at(-1)?.cancelled, true);
});

test("runner: a referee error is raised with its code and message", async () => {
  const table = new ReviewTable();
  const send = async (/** @type {string} */ op) => (op === "review_feed"
    ? { ok: false, error: { code: "bad_request", message: "boom" } } : { ok: true, results: [] });
  await assert.rejects(runReview({ stream: streamOf(enc.encode("G1\n"), [9]), total: 3, sends: [send], table, sources: new Map() }),
    /bad_request: boom/);
});
