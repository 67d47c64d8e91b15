// SPDX-License-Identifier: GPL-3.0-or-later
// node --test: the clock model, driven by a fake time source.
import { test } from "node:test";
import assert from "node:assert/strict";

import { PRESETS, TimeControlError, UNTIMED, parseTimeControl, timeControlSeconds } from "../src/clock/timecontrol.js";
import { ChessClock, formatClock, lowTimeMs } from "../src/clock/clock.js";
import { clocksAt } from "../src/clock/clk.js";

/** A clock on a fake time source; `advance(ms)` moves time on. */
function fake(text, at = {}) {
  let t = 1000;
  const clock = new ChessClock(parseTimeControl(text), { now: () => t, ...at });
  return { clock, advance: (/** @type {number} */ ms) => { t += ms; } };
}

test("presets and custom time controls parse to milliseconds", () => {
  assert.deepEqual(PRESETS, ["1+0", "3+2", "5+0", "10+5", "15+10", "90+30"]);
  for (const p of PRESETS) assert.equal(parseTimeControl(p).text, p);
  assert.deepEqual(parseTimeControl("3+2"), { kind: "increment", text: "3+2", baseMs: 180_000, incrementMs: 2_000 });
  assert.deepEqual(parseTimeControl(" 0.05 + 0 "), { kind: "increment", text: "0.05+0", baseMs: 3_000, incrementMs: 0 });
  assert.deepEqual(parseTimeControl("90+30"), { kind: "increment", text: "90+30", baseMs: 5_400_000, incrementMs: 30_000 });
  assert.deepEqual(parseTimeControl("5 d 3"), { kind: "delay", text: "5 d 3", baseMs: 300_000, delayMs: 3_000 });
  assert.deepEqual(parseTimeControl("5d3"), parseTimeControl("5 D 3"));
  assert.equal(parseTimeControl("10").text, "10+0");
  assert.equal(/** @type {any} */ (parseTimeControl(".5+1.5")).incrementMs, 1_500);
  for (const u of ["", "untimed", "-", "None"]) assert.equal(parseTimeControl(u), UNTIMED);
  assert.deepEqual(timeControlSeconds(parseTimeControl("3+2")), { base_s: 180, increment_s: 2, delay_s: 0 });
  assert.deepEqual(timeControlSeconds(parseTimeControl("5 d 3")), { base_s: 300, increment_s: 0, delay_s: 3 });
  assert.equal(timeControlSeconds(UNTIMED), null);
});

test("bad time controls are refused with a message", () => {
  for (const bad of ["3+", "+2", "abc", "0+5", "3-2", "1e3+0", "3+2+1", "2000+0", "5+4000", "5 x 3"]) {
    assert.throws(() => parseTimeControl(bad), TimeControlError, bad);
  }
  assert.throws(() => parseTimeControl("0+0"), /more than 0 minutes/);
  assert.throws(() => parseTimeControl("x"), /3\+2/);
});

test("untimed clocks never run, flag or count", () => {
  const { clock, advance } = fake("untimed");
  assert.equal(clock.timed, false);
  clock.moveMade();
  advance(10_000_000);
  assert.equal(clock.running, null);
  assert.equal(clock.tick(), null);
  assert.equal(clock.msUntilFlag(), Infinity);
  assert.deepEqual(clock.moveClocks(), []);
  clock.addTime("white", 120_000);
  assert.equal(clock.remaining("white"), 0);
});

test("the first move starts the opponent's clock, uncharged and without increment", () => {
  const { clock, advance } = fake("3+2");
  advance(5_000); // White thinks before the first move: not charged
  assert.equal(clock.running, null);
  assert.ok(clock.moveMade());
  assert.equal(clock.remaining("white"), 180_000);
  assert.equal(clock.running, "black");
  advance(4_000);
  assert.equal(clock.remaining("black"), 176_000);
  assert.equal(clock.remaining("white"), 180_000);
  clock.moveMade(); // Black: charged 4 s, +2 s
  assert.equal(clock.remaining("black"), 178_000);
  assert.equal(clock.running, "white");
  advance(10_500);
  clock.moveMade();
  assert.equal(clock.remaining("white"), 171_500);
  assert.deepEqual(clock.moveClocks(), [{ ply: 1, ms: 180_000 }, { ply: 2, ms: 178_000 }, { ply: 3, ms: 171_500 }]);
});

test("US Chess delay: the clock waits D seconds each move, and nothing is added", () => {
  const { clock, advance } = fake("5 d 3");
  clock.moveMade();
  advance(2_000); // inside the delay
  assert.equal(clock.remaining("black"), 300_000);
  clock.moveMade();
  assert.equal(clock.remaining("black"), 300_000, "a move within the delay costs nothing, and gains nothing");
  advance(7_000);
  assert.equal(clock.remaining("white"), 296_000);
  clock.moveMade();
  assert.equal(clock.remaining("white"), 296_000);
  // the flag falls base + delay after the turn began
  advance(1_000);
  assert.equal(clock.msUntilFlag(), 302_000);
});

test("the flag falls at zero, once, and stops the clocks", () => {
  const { clock, advance } = fake("0.05+0");
  clock.moveMade();
  advance(2_999);
  assert.equal(clock.tick(), null);
  assert.equal(clock.msUntilFlag(), 1);
  advance(1);
  assert.equal(clock.tick(), "black");
  assert.equal(clock.tick(), null, "reported once");
  assert.equal(clock.flagged, "black");
  assert.equal(clock.over, true);
  assert.equal(clock.running, null);
  assert.equal(clock.remaining("black"), 0);
  assert.equal(clock.remaining("white"), 3_000);
});

test("a move made after the time ran out is refused: the flag fell first", () => {
  const { clock, advance } = fake("0.05+2");
  clock.moveMade();
  advance(3_200);
  assert.equal(clock.moveMade(), false);
  assert.equal(clock.flagged, "black");
  assert.equal(clock.remaining("black"), 0);
  assert.equal(clock.ply, 1);
});

test("pause and resume: paused time is not charged; a move resumes", () => {
  const { clock, advance } = fake("1+0");
  clock.moveMade();
  advance(1_000);
  clock.pause();
  assert.equal(clock.paused, true);
  assert.equal(clock.running, null);
  advance(30_000);
  assert.equal(clock.remaining("black"), 59_000);
  assert.equal(clock.tick(), null);
  clock.resume();
  assert.equal(clock.running, "black");
  advance(2_000);
  assert.equal(clock.remaining("black"), 57_000);
  clock.pause();
  advance(5_000);
  clock.moveMade();
  assert.equal(clock.paused, false);
  assert.equal(clock.running, "white");
  assert.equal(clock.remaining("black"), 57_000);
});

test("pause with delay keeps the part of the delay already used", () => {
  const { clock, advance } = fake("1 d 5");
  clock.moveMade();
  advance(4_000);
  clock.pause();
  advance(60_000);
  clock.resume();
  advance(3_000); // 7 s into the turn: 2 s charged
  assert.equal(clock.remaining("black"), 58_000);
});

test("a takeback restores both clocks to the earlier position's", () => {
  const { clock, advance } = fake("3+2");
  clock.moveMade();
  advance(10_000);
  clock.moveMade();
  advance(20_000);
  clock.moveMade();
  assert.equal(clock.ply, 3);
  advance(1_000);
  clock.undo();
  assert.equal(clock.ply, 2);
  assert.equal(clock.turn, "white");
  assert.equal(clock.remaining("white"), 180_000);
  assert.equal(clock.remaining("black"), 172_000);
  assert.equal(clock.running, "white");
  clock.undo();
  clock.undo();
  assert.equal(clock.ply, 0);
  assert.equal(clock.started, false);
  assert.equal(clock.running, null);
  clock.undo(); // at the start: nothing
  assert.equal(clock.ply, 0);
});

test("stop freezes; reopen after a flag lifts it, paused at the start of that turn", () => {
  const { clock, advance } = fake("0.05+0");
  clock.moveMade();
  advance(1_000);
  clock.stop();
  advance(10_000);
  assert.equal(clock.remaining("black"), 2_000);
  assert.equal(clock.tick(), null);
  const flagged = fake("0.05+0");
  flagged.clock.moveMade();
  flagged.advance(5_000);
  assert.equal(flagged.clock.tick(), "black");
  flagged.clock.reopen();
  assert.equal(flagged.clock.over, false);
  assert.equal(flagged.clock.flagged, null);
  assert.equal(flagged.clock.paused, true);
  assert.equal(flagged.clock.remaining("black"), 3_000);
  flagged.advance(1_000);
  assert.equal(flagged.clock.running, null, "paused means no clock runs");
  assert.equal(flagged.clock.remaining("black"), 3_000);
  flagged.clock.resume();
  flagged.advance(1_000);
  assert.equal(flagged.clock.remaining("black"), 2_000);
});

test("FIDE 9.5.3: two minutes added to a clock, also while it runs", () => {
  const { clock, advance } = fake("3+0");
  clock.moveMade();
  advance(5_000);
  clock.addTime("white", 120_000);
  clock.addTime("black", 120_000);
  assert.equal(clock.remaining("white"), 300_000);
  assert.equal(clock.remaining("black"), 295_000);
  clock.moveMade();
  clock.undo();
  assert.equal(clock.remaining("black"), 300_000, "the bonus belongs to the position it was given in");
});

test("a game from a position with Black to move at ply 7: clocks and %clk plies follow it", () => {
  const { clock, advance } = fake("1+0", { turn: "black", ply: 7 });
  clock.moveMade();
  assert.equal(clock.running, "white");
  advance(3_000);
  clock.moveMade();
  assert.deepEqual(clock.moveClocks(), [{ ply: 8, ms: 60_000 }, { ply: 9, ms: 57_000 }]);
  assert.deepEqual(clock.at(9), { white: 57_000, black: 60_000 });
  assert.equal(clock.at(3), null);
});

test("serialisation: a reload restores the clocks paused, with the turn's time spent", () => {
  const { clock, advance } = fake("5 d 2");
  clock.moveMade();
  advance(7_000);
  clock.moveMade();
  advance(3_500);
  const saved = JSON.parse(JSON.stringify(clock));
  let t = 99;
  const back = ChessClock.fromJSON(saved, { now: () => t });
  assert.equal(back.paused, true);
  assert.equal(back.running, null);
  assert.equal(back.tc.text, "5 d 2");
  assert.equal(back.remaining("black"), 295_000);
  assert.equal(back.remaining("white"), 298_500);
  t += 100_000; // time while the page was closed and before resuming is not charged
  back.resume();
  t += 500;
  assert.equal(back.remaining("white"), 298_000);
  assert.deepEqual(back.moveClocks(), clock.moveClocks());
  for (const bad of [null, {}, { ...saved, v: 2 }, { ...saved, turn: "red" }, { ...saved, snapshots: [] },
    { ...saved, base: { white: "x", black: 1 } }, { ...saved, tc: "nonsense" }]) {
    assert.throws(() => ChessClock.fromJSON(bad), Error);
  }
  const over = fake("0.05+0");
  over.clock.moveMade();
  over.advance(4_000);
  over.clock.tick();
  const restored = ChessClock.fromJSON(JSON.parse(JSON.stringify(over.clock)));
  assert.equal(restored.flagged, "black");
  assert.equal(restored.paused, false);
  assert.equal(restored.over, true);
});

test("display: tenths under 10 s, cut down not rounded up, hours from 60 minutes", () => {
  assert.equal(formatClock(0), "0:00.0");
  assert.equal(formatClock(-5), "0:00.0");
  assert.equal(formatClock(99), "0:00.0");
  assert.equal(formatClock(100), "0:00.1");
  assert.equal(formatClock(9_999), "0:09.9");
  assert.equal(formatClock(10_000), "0:10");
  assert.equal(formatClock(59_999), "0:59");
  assert.equal(formatClock(180_000), "3:00");
  assert.equal(formatClock(3_599_999), "59:59");
  assert.equal(formatClock(5_400_000), "1:30:00");
  assert.equal(formatClock(3_600_000 + 65_000), "1:01:05");
});

test("low time: a tenth of the base, between 2 s and 20 s", () => {
  assert.equal(lowTimeMs(parseTimeControl("1+0")), 6_000);
  assert.equal(lowTimeMs(parseTimeControl("0.05+0")), 2_000);
  assert.equal(lowTimeMs(parseTimeControl("90+30")), 20_000);
  assert.equal(lowTimeMs(UNTIMED), 0);
  const { clock, advance } = fake("1+0");
  clock.moveMade();
  advance(53_999);
  assert.equal(clock.isLow("black"), false);
  advance(2);
  assert.equal(clock.isLow("black"), true);
  assert.equal(clock.isLow("white"), false);
  const v = clock.view();
  assert.deepEqual(v.black, { ms: 5_999, running: true, low: true });
  assert.deepEqual(v.white, { ms: 60_000, running: false, low: false });
});

test("recorded clocks while browsing: each side's last time at or before a ply", () => {
  const entries = [
    { ply: 1, color: /** @type {const} */ ("white"), ms: 60_000 },
    { ply: 2, color: /** @type {const} */ ("black"), ms: 59_000 },
    { ply: 3, color: /** @type {const} */ ("white"), ms: null },
    { ply: 4, color: /** @type {const} */ ("black"), ms: 50_000 },
  ];
  assert.deepEqual(clocksAt(entries, 0), { white: null, black: null });
  assert.deepEqual(clocksAt(entries, 1), { white: 60_000, black: null });
  assert.deepEqual(clocksAt(entries, 3), { white: 60_000, black: 59_000 });
  assert.deepEqual(clocksAt(entries, 9), { white: 60_000, black: 50_000 });
});
