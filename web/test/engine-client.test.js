// SPDX-License-Identifier: GPL-3.0-or-later
// The engine client (web/src/engine/client.js) against a scripted UCI worker:
// start-up, search parsing, queue, abort, failures. node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";

import { distinctLines, EngineClient, goCommand, parseInfo } from "../src/engine/client.js";

/** A fake UCI engine: answers like Stockfish, records what it was sent. */
class FakeEngine {
  /** @param {{silent?: boolean, lines?: (go: string) => string[]}} [opts] */
  constructor(opts = {}) {
    /** @type {string[]} */
    this.sent = [];
    this.silent = opts.silent ?? false;
    this.lines = opts.lines ?? (() => [
      "info depth 5 seldepth 7 multipv 1 score cp 20 nodes 900 nps 90000 pv e2e4 e7e5",
      "info depth 5 seldepth 7 multipv 2 score cp 10 nodes 900 nps 90000 pv d2d4 d7d5",
      "info depth 6 seldepth 8 multipv 1 score cp 31 lowerbound nodes 1200 pv g1f3",
      "info depth 6 seldepth 8 multipv 1 score cp 25 nodes 1500 nps 90000 pv g1f3 g8f6",
      "info depth 6 seldepth 8 multipv 2 score mate -3 nodes 1500 nps 90000 pv f2f3 e7e5",
      "bestmove g1f3 ponder g8f6",
    ]);
    this.searching = false;
    /** @type {((e: {data: string}) => void)|null} */
    this.onmessage = null;
    /** @type {((e: any) => void)|null} */
    this.onerror = null;
    this.onmessageerror = null;
    this.terminated = false;
    /** @type {string[]} */
    this.pending = [];
  }

  /** @param {string} line */
  emit(line) {
    setTimeout(() => this.onmessage?.({ data: line }), 1);
  }

  /** @param {string} cmd */
  postMessage(cmd) {
    this.sent.push(cmd);
    if (this.silent) return;
    if (cmd === "uci") { this.emit("id name Fake"); this.emit("uciok"); }
    if (cmd === "isready") this.emit("readyok");
    if (cmd.startsWith("go")) {
      this.searching = true;
      this.pending = this.lines(cmd);
      // the last line (bestmove) waits for a "stop" when the go says "infinite"
      for (const l of this.pending) if (!l.startsWith("bestmove") || !cmd.includes("movetime 99999")) this.emit(l);
    }
    if (cmd === "stop" && this.searching) {
      const best = this.pending.find((l) => l.startsWith("bestmove"));
      if (best && this.pending.length) this.emit(best);
    }
  }

  terminate() { this.terminated = true; }
}

const REQ = { fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", moves: [], turn: /** @type {const} */ ("white"),
  skill: 20, multipv: 2, movetime: 50 };

test("start-up, a search, the candidates by rank, and the states on the way", async () => {
  const fake = new FakeEngine();
  /** @type {string[]} */
  const states = [];
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake), onState: (s) => states.push(s) });
  assert.equal(client.state, "off");
  const result = await client.search({ ...REQ, moves: ["e2e4", "e7e5"], skill: 3 });
  assert.equal(result.aborted, false);
  assert.equal(result.bestmove, "g1f3");
  assert.deepEqual(result.candidates.map((c) => [c.rank, c.uci, c.score.cp, c.score.mate]),
    [[1, "g1f3", 25, null], [2, "f2f3", null, -3]]);
  assert.equal(result.depth, 6);
  assert.deepEqual(states, ["loading", "idle", "thinking", "idle"]);
  assert.ok(fake.sent.includes("setoption name Skill Level value 3"));
  assert.ok(fake.sent.includes("setoption name MultiPV value 2"));
  assert.ok(fake.sent.includes(`position fen ${REQ.fen} moves e2e4 e7e5`));
  assert.ok(fake.sent.includes("go movetime 50"));
  // options are sent again only when they change
  await client.search({ ...REQ, moves: ["e2e4", "e7e5", "g1f3"], skill: 3 });
  assert.equal(fake.sent.filter((c) => c.startsWith("setoption name Skill Level")).length, 1);
  // the same game one move on keeps the hash; moves taken back or another game clear it
  assert.equal(fake.sent.filter((c) => c === "ucinewgame").length, 1);
  await client.search({ ...REQ, moves: ["e2e4"], skill: 3 });
  assert.equal(fake.sent.filter((c) => c === "ucinewgame").length, 2);
  await client.search({ ...REQ, fen: "8/8/8/4k3/8/8/3R4/4K3 w - - 0 1", moves: ["e2e4"], skill: 3 });
  assert.equal(fake.sent.filter((c) => c === "ucinewgame").length, 3);
  assert.ok(fake.sent.indexOf("ucinewgame") < fake.sent.indexOf(`position fen ${REQ.fen} moves e2e4 e7e5`));
});

test("a reduced skill level's reprinted pick does not count with its meaningless 0", async () => {
  // real output of Stockfish 19 lite at Skill Level 0 (nodes... cut): the
  // picked move g8g7 left the top four at depth 5 and is reprinted first with 0
  const fake = new FakeEngine({ lines: () => [
    "info depth 4 seldepth 7 multipv 4 score cp -1079 nodes 1 pv g8g7",
    "info depth 5 seldepth 6 multipv 1 score cp -820 nodes 1 pv h7h5 e1e8 g8h7",
    "info depth 5 seldepth 6 multipv 2 score cp -987 nodes 1 pv h7h6 e1e8 g8h7 e8b8 f7f5",
    "info depth 5 seldepth 6 multipv 3 score cp -1083 nodes 1 pv b8d7 d2d7 g8g7",
    "info depth 5 seldepth 8 multipv 4 score cp -1146 nodes 1 pv f7f5",
    "info depth 5 seldepth 7 multipv 1 score cp 0 nodes 1 pv g8g7",
    "info depth 6 seldepth 9 multipv 2 score cp -862 nodes 1 pv h7h6 e1e8 g8h7 e8b8 h6h5 b8b1",
    "info depth 5 seldepth 6 multipv 3 score cp -1083 nodes 1 pv b8d7 d2d7 g8g7",
    "info depth 5 seldepth 8 multipv 4 score cp -1146 nodes 1 pv f7f5",
    "bestmove g8g7 ponder d2c3",
  ] });
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake) });
  const r = await client.search({ ...REQ, skill: 0, multipv: 4 });
  assert.equal(r.bestmove, "g8g7");
  assert.deepEqual(r.candidates.map((c) => [c.uci, c.score.cp]),
    [["h7h5", -820], ["h7h6", -862], ["b8d7", -1083], ["f7f5", -1146]]);
  assert.ok(!r.candidates.some((c) => c.score.cp === 0));
});

test("searches queue up and run one at a time", async () => {
  const fake = new FakeEngine();
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake) });
  const [a, b] = await Promise.all([client.search({ ...REQ, movetime: 10 }), client.search({ ...REQ, movetime: 20 })]);
  assert.equal(a.bestmove, "g1f3");
  assert.equal(b.bestmove, "g1f3");
  const gos = fake.sent.filter((c) => c.startsWith("go"));
  assert.deepEqual(gos, ["go movetime 10", "go movetime 20"]);
});

test("abort stops the running search and drops the queue", async () => {
  const fake = new FakeEngine();
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake) });
  await client.start();
  const running = client.search({ ...REQ, movetime: 99999 });
  const queued = client.search({ ...REQ, movetime: 30 });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(client.state, "thinking");
  client.abort();
  const [r1, r2] = await Promise.all([running, queued]);
  assert.equal(r1.aborted, true);
  assert.equal(r2.aborted, true);
  assert.ok(fake.sent.includes("stop"));
  assert.equal(fake.sent.filter((c) => c.startsWith("go")).length, 1);
  assert.equal(client.state, "idle");
  // and the engine goes on serving
  assert.equal((await client.search(REQ)).aborted, false);
});

test("a worker error (missing file, wasm failure) fails the client and every search", async () => {
  const fake = new FakeEngine({ silent: true });
  /** @type {string[]} */
  const states = [];
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake), onState: (s) => states.push(s) });
  const pending = client.search(REQ);
  setTimeout(() => fake.onerror?.({ message: "NetworkError: failed to fetch engine/stockfish.js", preventDefault() {} }), 5);
  await assert.rejects(pending, /failed to fetch/);
  assert.equal(client.state, "failed");
  assert.deepEqual(states, ["loading", "failed"]);
  assert.equal(fake.terminated, true);
  await assert.rejects(client.search(REQ), /failed to fetch/);
});

test("a start that never finishes fails after the load timeout", async () => {
  const fake = new FakeEngine({ silent: true });
  const client = new EngineClient({ createWorker: () => /** @type {any} */ (fake), loadTimeoutMs: 30 });
  await assert.rejects(client.start(), /did not start within/);
  assert.equal(client.state, "failed");
});

test("a worker that cannot even be created fails", async () => {
  const client = new EngineClient({ createWorker: () => { throw new Error("blocked"); } });
  await assert.rejects(client.start(), /blocked/);
  assert.equal(client.state, "failed");
});

test("a move left twice by a stopped iteration is one candidate, at its deepest", () => {
  const l = (/** @type {string} */ uci, /** @type {number} */ rank, /** @type {number} */ depth, /** @type {number} */ cp) =>
    ({ uci, rank, depth, score: { cp, mate: null }, pv: [uci] });
  assert.deepEqual(distinctLines([l("a", 1, 10, 5), l("g", 2, 10, -7), l("h", 3, 10, -8), l("g", 4, 9, -9)])
    .map((x) => [x.uci, x.score.cp]), [["a", 5], ["g", -7], ["h", -8]]);
});

test("UCI lines and go commands", () => {
  assert.equal(parseInfo("info depth 3 currmove e2e4 currmovenumber 1"), null);
  assert.equal(parseInfo("info string NNUE evaluation using nn-61e7af4bb97d.nnue"), null);
  assert.equal(parseInfo("info depth 9 multipv 1 score cp 40 upperbound nodes 5 pv e2e4"), null);
  assert.deepEqual(parseInfo("info depth 9 seldepth 12 multipv 3 score mate 2 nodes 5 nps 1 time 3 pv h5f7 e8e7 f7e7"),
    { uci: "h5f7", rank: 3, score: { cp: null, mate: 2 }, depth: 9, pv: ["h5f7", "e8e7", "f7e7"] });
  assert.equal(goCommand({ ...REQ, movetime: 300 }, "white"), "go movetime 300");
  assert.equal(goCommand({ ...REQ, movetime: 3000, clock: { wtime: 60000, btime: 2000, winc: 1000, binc: 1000 } }, "black"),
    "go wtime 60000 btime 2000 winc 1000 binc 1000 movetime 1000");
  assert.equal(goCommand({ ...REQ, movetime: 500, searchmoves: ["a2a3", "h2h4"] }, "white"),
    "go movetime 500 searchmoves a2a3 h2h4");
});
