// SPDX-License-Identifier: GPL-3.0-or-later
// The computer opponent glue (web/src/engine/opponent.js) with a stand-in
// controller and engine: when it thinks, what it does, failures, undo.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ComputerOpponent, PREFS_KEY } from "../src/engine/opponent.js";

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const tick = () => new Promise((r) => setTimeout(r, 5));

/** A controller stand-in: a game as a list of moves, turn by parity. */
class FakeHost {
  constructor() {
    /** @type {string[]} */
    this.calls = [];
    /** @type {Map<string, Array<(...a: any[]) => void>>} */
    this.handlers = new Map();
    /** @type {any} */
    this.state = { engine: "ready", game: { start_fen: START, chess960: false, headers: {}, recorded: null },
      rows: [], offer: null, live: null };
    /** @type {any} */
    this.facts = { claims: [], repetition_count: 1, halfmove_clock: 0, practical_draw: null };
    this.setLive();
  }
  /** @param {any} [outcome] */
  setLive(outcome = null) {
    const ply = this.state.rows.length;
    this.state.live = { ply, turn: ply % 2 ? "black" : "white", fen: `fen-${ply}`, outcome,
      legal_moves: [{ uci: "a7a6" }, { uci: "e7e5" }] };
  }
  /** @param {string} type @param {(...a: any[]) => void} fn */
  on(type, fn) { this.handlers.set(type, [...(this.handlers.get(type) || []), fn]); }
  /** @param {string} type @param {...any} a */
  emit(type, ...a) { for (const fn of this.handlers.get(type) || []) fn(...a); }
  /** @param {string} op */
  changed(op) { this.emit("reply", op, {}, { ok: true }); this.emit("change", this.state, new Set()); }
  /** @param {string} op @param {any} args */
  async request(op, args) {
    this.calls.push(`request ${op} ${args.moves.join(",")}`);
    return { ok: true, engine_facts: { ...this.facts, turn: this.state.live.turn, ply: this.state.live.ply,
      probes: args.moves.map((/** @type {string} */ m) => ({ uci: m, san: m.toUpperCase(), repetition_count: 1,
        draw: false, automatic: null, opponent_claims_now: [], opponent_claims_with_move: [] })) } };
  }
  /** @param {string} move @param {any} opts */
  async play(move, opts) {
    this.calls.push(`play ${move} ${opts && opts.offerClaim === false ? "no-prompt" : ""}`.trim());
    this.state.rows.push({ uci: move });
    this.setLive();
    this.changed("play");
  }
  /** @param {string|null} move */
  async claim(move) { this.calls.push(`claim ${move}`); this.setLive({ termination: "threefold_repetition" }); this.changed("claim"); }
  async acceptDraw() { this.calls.push("accept"); this.state.offer = null; this.setLive({ termination: "agreement" }); this.changed("agree"); }
  declineDraw() { this.calls.push("decline"); this.state.offer = null; }
  offerDraw() { this.calls.push("offer"); }
  async undo() { this.calls.push("undo"); this.state.rows.pop(); this.setLive(); this.changed("undo"); }
}

/** @param {number} cp @param {{fail?: boolean}} [opts] */
function fakeEngine(cp, opts = {}) {
  /** @type {any} */
  const e = {
    state: "off", searches: 0, /** @type {any} */ feature: null,
    async start() {
      if (opts.fail) { e.state = "failed"; e.feature.onEngineState("failed", "the engine failed: 404"); throw new Error("404"); }
      e.state = "idle"; e.feature.onEngineState("idle", "");
    },
    /** @param {any} req */
    async search(req) {
      e.searches++;
      e.lastReq = req;
      return { aborted: false, bestmove: "e7e5", depth: 8,
        candidates: [{ uci: "e7e5", rank: 1, score: { cp, mate: null }, depth: 8, pv: ["e7e5"] }] };
    },
    abort() {},
    terminate() {},
  };
  return e;
}

/** @param {FakeHost} host @param {any} engine @param {Storage|null} [storage] */
function make(host, engine, storage = null) {
  const f = new ComputerOpponent(/** @type {any} */ (host), { storage, createEngine: () => engine });
  engine.feature = f;
  return f;
}

test("plays Black: answers the human's move through the controller, says what it did", async () => {
  const host = new FakeHost();
  const engine = fakeEngine(20);
  const f = make(host, engine);
  f.setOpponent("computer-black");
  await tick();
  assert.equal(engine.searches, 0, "White (the human) is to move: no search");
  await host.play("e2e4", {});
  await tick();
  assert.deepEqual(host.calls, ["play e2e4", "request engine_facts e7e5", "play e7e5 no-prompt"]);
  assert.equal(f.state.note, "Black plays E7E5 (\u22120.2)."); // Black better: White's point of view
  assert.deepEqual(engine.lastReq.moves, ["e2e4"]);
  assert.equal(engine.lastReq.fen, START);
  assert.equal(f.state.status, "idle");
});

test("plays White from the start when chosen at move 0", async () => {
  const host = new FakeHost();
  const engine = fakeEngine(20);
  const f = make(host, engine);
  f.setOpponent("computer-white");
  await tick();
  assert.deepEqual(host.calls.at(-1), "play e7e5 no-prompt");
  assert.equal(engine.searches, 1);
});

test("accepts a pending offer when worse, declines and moves when better", async () => {
  for (const [cp, expected] of [[-300, ["accept"]], [300, ["decline", "play e7e5 no-prompt"]]]) {
    const host = new FakeHost();
    host.state.rows.push({ uci: "e2e4" });
    host.setLive();
    host.state.offer = { by: "white", to: "black", text: "White offers a draw" };
    const engine = fakeEngine(/** @type {number} */ (cp));
    const f = make(host, engine);
    f.setOpponent("computer-black");
    await tick();
    assert.deepEqual(host.calls.filter((c) => !c.startsWith("request")), expected);
    // answering clears the offer: that is no reason to think about the same position again
    assert.equal(engine.searches, 1);
  }
});

test("claims through the controller with the referee's intended move", async () => {
  const host = new FakeHost();
  host.state.rows.push({ uci: "g1f3" });
  host.setLive();
  host.facts.claims = [{ rule: "threefold_repetition", move: "f6g8", san: "Ng8", article: "9.2.1.1" }];
  const f = make(host, fakeEngine(-400));
  f.setOpponent("computer-black");
  await tick();
  assert.equal(host.calls.at(-1), "claim f6g8");
  assert.match(f.state.note, /^Black claims a draw by threefold repetition with Ng8 \(9\.2\.1\.1\)/);
});

test("an engine that fails leaves two human players and says so", async () => {
  const host = new FakeHost();
  /** @type {Record<string, string>} */
  const store = {};
  const storage = /** @type {any} */ ({ getItem: (/** @type {string} */ k) => store[k] ?? null,
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => { store[k] = v; } });
  const f = make(host, fakeEngine(0, { fail: true }), storage);
  f.setOpponent("computer-white");
  await tick();
  assert.equal(f.state.status, "failed");
  assert.equal(f.state.opponent, "human");
  assert.match(f.state.note, /cannot play \(the engine failed: 404\); the game goes on between two players/);
  assert.equal(JSON.parse(store[PREFS_KEY]).opponent, "human");
  assert.deepEqual(host.calls, []);
});

test("undoing the computer's reply takes back the visitor's move too", async () => {
  const host = new FakeHost();
  const f = make(host, fakeEngine(20));
  f.setOpponent("computer-black");
  await tick();
  await host.play("e2e4", {});
  await tick();
  assert.equal(host.state.rows.length, 2);
  await host.undo();
  await tick();
  assert.equal(host.state.rows.length, 0);
  assert.deepEqual(host.calls.filter((c) => c === "undo"), ["undo", "undo"]);
  assert.equal(f.state.opponent, "computer-black");
});

test("the choice of opponent and level is remembered", () => {
  /** @type {Record<string, string>} */
  const store = { [PREFS_KEY]: JSON.stringify({ opponent: "computer-white", level: "5" }) };
  const storage = /** @type {any} */ ({ getItem: (/** @type {string} */ k) => store[k] ?? null,
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => { store[k] = v; } });
  const f = make(new FakeHost(), fakeEngine(0), storage);
  assert.equal(f.state.opponent, "computer-white");
  assert.equal(f.state.level, "5");
  f.setLevel("nonsense");
  assert.equal(JSON.parse(store[PREFS_KEY]).level, "3");
});

test("the engine gets the clocks when they run live, with the increment", async () => {
  const { clockOf } = await import("../src/features/computer.js");
  /** @param {any} shown @param {any} tc */
  const keeper = (shown, tc) => ({ shown: () => shown, clock: { tc } });
  const live = { timed: true, source: "live", over: false, white: { ms: 60000 }, black: { ms: 45000 } };
  assert.deepEqual(clockOf(keeper(live, { kind: "increment", incrementMs: 2000 })),
    { wtime: 60000, btime: 45000, winc: 2000, binc: 2000 });
  assert.deepEqual(clockOf(keeper(live, { kind: "delay", delayMs: 3000 })),
    { wtime: 60000, btime: 45000, winc: 3000, binc: 3000 });
  assert.equal(clockOf(keeper({ ...live, timed: false }, { kind: "untimed" })), null);
  assert.equal(clockOf(keeper({ ...live, source: "recorded" }, { kind: "increment", incrementMs: 0 })), null);
  assert.equal(clockOf(undefined), null);
});

test("a refused question to the referee is said, and does not fail the engine", async () => {
  const host = new FakeHost();
  host.request = async () => /** @type {any} */ ({ ok: false, error: { code: "bad_request", message: "no" } });
  const f = make(host, fakeEngine(0));
  f.setOpponent("computer-white");
  await tick();
  assert.equal(f.state.opponent, "computer-white");
  assert.notEqual(f.state.status, "failed");
  assert.equal(f.state.note, "The computer could not ask the referee (no).");
  assert.deepEqual(host.calls, []);
});

test("the note follows Undo: it never names a move taken back", async () => {
  const host = new FakeHost();
  const engine = fakeEngine(0);
  // a score that grows with the game, so that each turn's note differs
  engine.search = async (/** @type {any} */ req) => ({ aborted: false, bestmove: "e7e5", depth: 8,
    candidates: [{ uci: "e7e5", rank: 1, score: { cp: req.moves.length * 100, mate: null }, depth: 8, pv: ["e7e5"] }] });
  const f = make(host, engine);
  f.setOpponent("computer-black");
  await tick();
  await host.play("e2e4", {});
  await tick();
  assert.equal(f.state.note, "Black plays E7E5 (\u22121.0).");
  await host.play("d2d4", {});
  await tick();
  assert.equal(f.state.note, "Black plays E7E5 (\u22123.0).");
  await host.undo(); // the computer's reply, then (by the feature) the visitor's move
  await tick();
  assert.equal(host.state.rows.length, 2);
  assert.equal(f.state.note, "Black plays E7E5 (\u22121.0).", "the note of the move still on the board");
  await host.undo();
  await tick();
  assert.equal(host.state.rows.length, 0);
  assert.equal(f.state.note, "", "no computer move left: no note");
});
