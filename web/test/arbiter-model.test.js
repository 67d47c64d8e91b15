// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's model (web/src/arbiter/model.js): boards counted from
// the latest view of each, the log kept in order, reset by a new Follow.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ArbiterModel } from "../src/arbiter/model.js";

/** @param {number} game @param {string} state */
const board = (game, state) => /** @type {any} */ ({ game, state });
/** @param {number} id @param {string} kind */
const event = (id, kind) => /** @type {any} */ ({ id, kind, game: 1, ply: id, text: `event ${id}` });

test("a board that changes state is counted once, in its latest state", () => {
  const m = new ArbiterModel();
  m.apply({ events: [], voided: [], boards: [board(1, "playing"), board(2, "playing")], count: 2 });
  assert.equal(m.summary(), "2 boards: 2 playing");
  m.apply({ events: [], voided: [], boards: [board(2, "must_stop")], count: 2 });
  assert.deepEqual(m.counts(), { playing: 1, must_stop: 1 });
  assert.equal(m.summary(), "2 boards: 1 playing, 1 must stop");
});

test("the log keeps every event in order; an automatic one calls for the alarm; voided ids are kept", () => {
  const m = new ArbiterModel();
  const first = m.apply({ events: [event(1, "claimable")], voided: [], boards: [board(1, "claimable")], count: 1 });
  assert.deepEqual(first.mustStop, []);
  const second = m.apply({ events: [event(2, "automatic")], voided: [1], boards: [], count: 1 });
  assert.deepEqual(second.mustStop.map((e) => e.id), [2]);
  assert.deepEqual(m.log.map((e) => e.id), [1, 2]);
  assert.ok(m.voided.has(1));
  assert.equal(m.applied, 2);
  assert.deepEqual(m.jsonLines().trim().split("\n").map((l) => JSON.parse(l).id), [1, 2]);
});

test("a new Follow starts empty, and answers for the old one are known to be stale", () => {
  const m = new ArbiterModel();
  m.apply({ events: [event(1, "automatic")], voided: [], boards: [board(1, "ended")], count: 1 });
  const before = m.generation;
  m.reset();
  assert.notEqual(m.generation, before);
  assert.equal(m.boards.size, 0);
  assert.equal(m.log.length, 0);
  assert.equal(m.summary(), "0 boards: ");
  assert.equal(m.jsonLines(), "");
});
