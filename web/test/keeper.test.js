// SPDX-License-Identifier: GPL-3.0-or-later
// node --test: the clock keeper against a stand-in controller and fake time.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BONUS_MS, ClockKeeper, STORE_KEY } from "../src/clock/keeper.js";

class MemoryStorage {
  constructor() { /** @type {Map<string, string>} */ this.m = new Map(); }
  getItem(/** @type {string} */ k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(/** @type {string} */ k, /** @type {string} */ v) { this.m.set(k, String(v)); }
  removeItem(/** @type {string} */ k) { this.m.delete(k); }
}

/** A controller stand-in: a game of plies, replies as the bridge sends them. */
function world(storage = new MemoryStorage()) {
  let t = 0;
  /** @type {{at: number, fn: () => void, id: number}[]} */
  let timers = [];
  let nextId = 1;
  const handlers = new Map();
  const flags = [];
  const requests = [];
  /** @type {any} */
  const ctrl = {
    state: { live: { ply: 0, turn: "white", outcome: null }, rows: [], browse: null, engine: "ready", game: { start_fen: "S" } },
    userPending: 0,
    on(type, fn) { handlers.set(type, [...(handlers.get(type) || []), fn]); },
    emit(type, ...a) { for (const fn of handlers.get(type) || []) fn(...a); },
    flag(color) { flags.push(color); },
    request(op, args) { requests.push([op, args]); return Promise.resolve({ ok: true }); },
    act(op, args) { requests.push([op, args]); return Promise.resolve({ ok: true }); },
  };
  const keeper = new ClockKeeper({
    ctrl, storage: /** @type {any} */ (storage), now: () => t,
    timers: { setTimeout: (fn, ms) => { const id = nextId++; timers.push({ at: t + ms, fn, id }); return id; },
      clearTimeout: (id) => { timers = timers.filter((x) => x.id !== id); } },
  });
  /** Let time pass, running the timers that come due. */
  const advance = (/** @type {number} */ ms) => {
    const end = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > end) break;
      timers.shift();
      t = next.at;
      next.fn();
    }
    t = end;
  };
  const reply = (/** @type {string} */ op, /** @type {any} */ r) => {
    const s = ctrl.state;
    if (r.facts) s.live = r.facts;
    if (r.game) s.game = r.game;
    ctrl.emit("reply", op, {}, { ok: true, ...r });
    ctrl.emit("change", s, new Set(["panel"]));
  };
  const turnAt = (/** @type {number} */ ply) => (ply % 2 ? "black" : "white");
  const move = () => {
    const ply = ctrl.state.live.ply + 1;
    ctrl.state.rows.push({ ply, white: ply % 2 === 1 });
    reply("play", { facts: { ply, turn: turnAt(ply), outcome: null }, moves: { keep: ply - 1, add: [{}] } });
  };
  return { ctrl, keeper, advance, reply, move, flags, requests, storage, turnAt };
}

test("untimed by default: nothing runs, nothing flags", () => {
  const w = world();
  w.move();
  w.advance(1e9);
  assert.equal(w.keeper.shown().timed, false);
  assert.equal(w.keeper.shown().source, "none");
  assert.deepEqual(w.keeper.shown().white, { ms: null, running: false, low: false });
  assert.deepEqual(w.flags, []);
});

test("a flag fall asks the referee at once, without a click", () => {
  const w = world();
  assert.ok(w.keeper.setTimeControl("0.05+0"));
  w.move(); // 1. e4: Black's clock runs
  w.advance(2_000);
  assert.deepEqual(w.keeper.shown().black, { ms: 1_000, running: true, low: true });
  assert.deepEqual(w.flags, []);
  w.advance(1_001);
  assert.deepEqual(w.flags, ["black"]);
  assert.equal(w.keeper.shown().flagged, "black");
  // the referee's answer ends the game; nothing more happens
  w.reply("flag", { facts: { ply: 1, turn: "black", outcome: { termination: "time_forfeit" } } });
  w.advance(10_000);
  assert.deepEqual(w.flags, ["black"]);
});

test("a flag waits for a move already on its way to the referee", () => {
  const w = world();
  w.keeper.setTimeControl("0.05+0");
  w.move();
  w.advance(2_990);
  w.ctrl.userPending = 1; // Black's move was sent at 2.99 s
  w.advance(50);
  assert.deepEqual(w.flags, []);
  assert.equal(w.keeper.shown().black.ms, 0);
  w.ctrl.userPending = 0;
  w.move(); // the answer: the move was made in time, with nothing left
  w.advance(20);
  assert.deepEqual(w.flags, []);
  assert.equal(w.keeper.shown().white.running, true);
  assert.equal(w.keeper.shown().white.ms, 2_980);
  assert.equal(w.keeper.shown().paused, false);
  // an answer that is no move (an illegal one) lets the flag fall
  w.advance(2_980);
  assert.deepEqual(w.flags, ["white"]);
});

test("held at zero for a move that turns out illegal: the flag falls on its answer", () => {
  const w = world();
  w.keeper.setTimeControl("0.05+0");
  w.move();
  w.ctrl.userPending = 1;
  w.advance(3_100);
  assert.deepEqual(w.flags, []);
  w.ctrl.userPending = 0;
  w.ctrl.emit("reply", "play", {}, { ok: false, error: { code: "illegal_move" } });
  w.advance(5);
  assert.deepEqual(w.flags, ["black"]);
});

test("a game that ends stops the clocks; a new game resets them", () => {
  const w = world();
  w.keeper.setTimeControl("1+0");
  w.move();
  w.advance(5_000);
  w.reply("claim", { facts: { ply: 1, turn: "black", outcome: { termination: "agreement" } }, claim: { accepted: true, text: "ok" } });
  w.advance(100_000);
  assert.equal(w.keeper.shown().black.ms, 55_000);
  assert.equal(w.keeper.shown().black.running, false);
  w.ctrl.state.rows = [];
  w.reply("new", { facts: { ply: 0, turn: "white", outcome: null }, game: { start_fen: "S" } });
  assert.equal(w.keeper.shown().black.ms, 60_000);
  assert.equal(w.keeper.shown().over, false);
});

test("the dead position found by the search after a move stops the clocks too", () => {
  const w = world();
  w.keeper.setTimeControl("1+0");
  w.move();
  w.ctrl.state.live = { ...w.ctrl.state.live, outcome: { termination: "dead_position" } };
  w.ctrl.emit("change", w.ctrl.state, new Set(["panel"]));
  w.advance(100_000);
  assert.deepEqual(w.flags, []);
  assert.equal(w.keeper.clock.over, true);
});

// A refused claim as the referee answers it (pychessdraw.present.claim_verdict,
// tests/test_bridge_clocks.py): the side and the words are the referee's.
/** @param {"white"|"black"} to @param {string} who */
const wrongClaim = (to, who) => ({ to, bonus_ms: 120_000,
  text: ` Two minutes were added to ${who}'s clock (FIDE 9.5.3).`, note: `FIDE 9.5.3: ${who} got two more minutes for the wrong claim.` });

test("FIDE 9.5.3: a wrong claim gives the opponent two minutes, and the message says so", () => {
  const w = world();
  w.keeper.setTimeControl("3+0");
  w.move();
  w.move();
  // White claims with an intended move: refused, the move stands
  const claim = { accepted: false, text: "Draw claim refused.", wrong_claim: wrongClaim("black", "Black") };
  w.ctrl.state.rows.push({ ply: 3, white: true });
  w.reply("claim", { facts: { ply: 3, turn: "black", outcome: null }, moves: { keep: 2, add: [{}] }, claim });
  assert.equal(w.keeper.shown().black.ms, 180_000 + BONUS_MS);
  assert.match(claim.text, /Two minutes were added to Black's clock \(FIDE 9\.5\.3\)\./);
  // Black claims now (no move): refused, White gets two minutes
  const now = { accepted: false, text: "Draw claim refused.", wrong_claim: wrongClaim("white", "White") };
  w.reply("claim", { facts: { ply: 3, turn: "black", outcome: null }, moves: { keep: 3, add: [] }, claim: now });
  assert.equal(w.keeper.shown().white.ms, 180_000 + BONUS_MS);
  assert.match(now.text, /White's clock/);
});

test("takebacks follow the move list; undoing a flag fall reopens the clocks paused", () => {
  const w = world();
  w.keeper.setTimeControl("0.05+0");
  w.move();
  w.advance(1_000);
  w.move();
  w.advance(500);
  w.reply("undo", { facts: { ply: 1, turn: "black", outcome: null }, moves: { keep: 1, add: [] } });
  assert.equal(w.keeper.shown().black.ms, 3_000);
  assert.equal(w.keeper.shown().black.running, true);
  w.advance(3_000);
  assert.deepEqual(w.flags, ["black"]);
  w.reply("flag", { facts: { ply: 1, turn: "black", outcome: { termination: "time_forfeit" } } });
  w.reply("undo", { facts: { ply: 1, turn: "black", outcome: null }, moves: { keep: 1, add: [] } });
  const shown = w.keeper.shown();
  assert.equal(shown.paused, true);
  assert.equal(shown.black.ms, 3_000);
  assert.equal(shown.over, false);
});

test("a reload restores the clocks paused, and the time control is remembered", () => {
  const w = world();
  w.keeper.setTimeControl("5 d 2");
  w.move();
  w.advance(7_000);
  w.move();
  w.advance(4_000);
  w.keeper.save(); // pagehide
  const saved = JSON.parse(w.storage.getItem(STORE_KEY));
  assert.equal(saved.tc, "5 d 2");
  const again = world(w.storage);
  again.ctrl.state.live = { ply: 2, turn: "white", outcome: null };
  again.reply("restore", { facts: { ply: 2, turn: "white", outcome: null }, game: { start_fen: "S" } });
  again.ctrl.emit("ready", again.ctrl.state);
  const shown = again.keeper.shown();
  assert.equal(shown.paused, true);
  assert.equal(shown.white.ms, 298_000);
  assert.equal(shown.black.ms, 295_000);
  again.advance(60_000);
  assert.equal(again.keeper.shown().white.ms, 298_000);
  again.keeper.togglePause();
  again.advance(1_000);
  assert.equal(again.keeper.shown().white.ms, 297_000);
  // a different game on reload: fresh clocks with the same control
  const other = world(w.storage);
  other.ctrl.state.game = { start_fen: "T" };
  other.ctrl.emit("ready", other.ctrl.state);
  assert.equal(other.keeper.shown().white.ms, 300_000);
  assert.equal(other.keeper.shown().tc, "5 d 2");
});

test("a bad time control is refused with a message and changes nothing", () => {
  const w = world();
  w.keeper.setTimeControl("3+2");
  assert.equal(w.keeper.setTimeControl("3 plus 2"), false);
  assert.match(w.keeper.shown().error ?? "", /not understood/);
  assert.equal(w.keeper.shown().tc, "3+2");
  assert.ok(w.keeper.setTimeControl("untimed"));
  assert.equal(w.keeper.shown().error, null);
});

test("browsing shows the clocks at that ply; a game imported with %clk shows its times", () => {
  const w = world();
  w.keeper.setTimeControl("1+0");
  w.move();
  w.advance(2_000);
  w.move();
  w.ctrl.state.browse = 1;
  assert.deepEqual(w.keeper.shown().black, { ms: 60_000, running: false, low: false });
  w.ctrl.state.browse = null;
  assert.equal(w.keeper.shown().black.ms, 58_000);
  const imp = world();
  imp.ctrl.state.rows = [{ ply: 1, white: true, clock_ms: 179_000 }, { ply: 2, white: false, clock_ms: 178_000 },
    { ply: 3, white: true, clock_ms: 170_000 }];
  imp.reply("load_pgn", { facts: { ply: 3, turn: "black", outcome: null }, game: { start_fen: "S" } });
  imp.ctrl.state.browse = 2;
  const shown = imp.keeper.shown();
  assert.equal(shown.source, "recorded");
  assert.equal(shown.white.ms, 179_000);
  assert.equal(shown.black.ms, 178_000);
  imp.ctrl.state.browse = 0;
  assert.equal(imp.keeper.shown().white.ms, null);
});

test("US Chess rules are sent to the referee before the saved game is restored, and kept", async () => {
  const w = world();
  await w.keeper.setFlagRules("uscf");
  assert.deepEqual(w.requests.at(-1), ["rules", { flag_rules: "uscf" }]);
  const again = world(w.storage);
  again.ctrl.emit("engine-ready", {});
  assert.deepEqual(again.requests[0], ["rules", { flag_rules: "uscf" }]);
  await assert.rejects(w.keeper.setFlagRules("blitz"));
});

test("export arguments: the time control and each move's clock", () => {
  const w = world();
  assert.equal(w.keeper.exportArgs(), null);
  w.keeper.setTimeControl("3+2");
  w.move();
  w.advance(4_000);
  w.move();
  assert.deepEqual(w.keeper.exportArgs(), {
    time_control: { base_s: 180, increment_s: 2, delay_s: 0 }, clocks: { 1: 180_000, 2: 178_000 },
  });
});

test("a claim stops the clocks while it is judged, and its answer starts them again (FIDE 9.5.1)", () => {
  const w = world();
  assert.ok(w.keeper.setTimeControl("1+0"));
  w.move(); // Black's clock runs
  w.advance(1_000);
  w.ctrl.emit("acting", "claim", { move: null });
  assert.equal(w.keeper.clock.running, null);
  assert.match(w.keeper.shown().note, /judges the claim \(FIDE 9\.5\.1\)/);
  const before = w.keeper.shown().black.ms;
  w.advance(5_000); // the referee thinks: no time is charged, no flag falls
  assert.equal(w.keeper.shown().black.ms, before);
  // refused, no move made: Black's clock goes on from where it stopped
  w.reply("claim", { facts: { ply: 1, turn: "black", outcome: null },
    claim: { accepted: false, text: "refused.", wrong_claim: wrongClaim("white", "White") } });
  assert.equal(w.keeper.clock.running, "black");
  assert.equal(w.keeper.shown().judging, false);
  assert.doesNotMatch(w.keeper.shown().note, /judges/);
  w.advance(500);
  // the wrong claim gave White two minutes; Black lost only the time it thought
  assert.equal(w.keeper.shown().black.ms, 60_000 - 1_500);
});

test("leaving Play pauses a running clock and says so; Resume goes on", () => {
  const w = world();
  w.keeper.setTimeControl("0.05+0");
  w.move(); // Black's clock runs
  w.advance(1_000);
  w.keeper.pauseAway();
  assert.equal(w.keeper.shown().paused, true);
  assert.match(w.keeper.shown().note, /paused when you left Play/);
  w.advance(10_000); // in Review, nobody's flag falls
  assert.deepEqual(w.flags, []);
  assert.equal(w.keeper.shown().black.ms, 2_000);
  w.keeper.togglePause();
  assert.equal(w.keeper.shown().note, "");
  w.advance(2_001);
  assert.deepEqual(w.flags, ["black"]);
  const idle = world();
  idle.keeper.pauseAway(); // no clock runs: nothing to say
  assert.equal(idle.keeper.shown().note, "");
});

test("a language switch (set_language) keeps the clocks: the same game in other words", () => {
  const w = world();
  assert.ok(w.keeper.setTimeControl("3+2"));
  w.move();
  w.move();
  w.advance(5000);
  const before = w.keeper.shown();
  const ply = w.ctrl.state.live.ply;
  w.reply("set_language", { facts: { ply, turn: w.turnAt(ply), outcome: null }, game: { start_fen: "S" } });
  const after = w.keeper.shown();
  assert.equal(after.white.ms, before.white.ms);
  assert.equal(after.black.ms, before.black.ms);
  assert.equal(after.started, true);
  w.reply("state", { facts: { ply, turn: w.turnAt(ply), outcome: null }, game: { start_fen: "S" } });
  assert.equal(w.keeper.shown().started, false, "a game replaced (state) starts its clocks afresh, unlike a language switch");
});
