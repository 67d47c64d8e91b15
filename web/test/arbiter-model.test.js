// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's model (web/src/arbiter/model.js): boards counted from
// the latest view of each, the log kept in order and marked with its source,
// one follower at most (the phases), boards in the round's order whatever
// their state, the urgent strip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ArbiterModel, PHASES } from "../src/arbiter/model.js";

/** @param {number} game @param {string} state */
const board = (game, state, boardNo = game, urgency = 4) => /** @type {any} */ ({ game, state, board: boardNo, urgency });
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
  assert.ok(m.isVoid(1));
  assert.ok(!m.isVoid(2));
  assert.equal(m.applied, 2);
  assert.deepEqual(m.jsonLines().trim().split("\n").map((l) => JSON.parse(l).id), [1, 2]);
});

test("a new Follow starts with no board; the log keeps the last source's events, marked with their source", () => {
  const m = new ArbiterModel();
  m.begin("http://a/round.pgn");
  m.go("following");
  m.apply({ events: [event(1, "automatic")], voided: [1], boards: [board(1, "ended")], count: 1 });
  const before = m.generation;
  m.end();
  assert.equal(m.phase, "idle");
  assert.notEqual(m.generation, before, "a late answer of the stopped follower is stale");
  assert.equal(m.begin("http://b/round.pgn"), m.generation);
  assert.equal(m.boards.size, 0);
  assert.equal(m.summary(), "0 boards: ");
  assert.deepEqual(m.log.map((e) => e.source), ["http://a/round.pgn"]);
  assert.ok(!m.isVoid(1), "a void of the old source does not void the new source's event 1");
  assert.ok(m.isVoid(1, before));
  assert.deepEqual(m.jsonLines().trim().split("\n").map((l) => JSON.parse(l).source), ["http://a/round.pgn"]);
});

test("one follower at most: Follow is refused while starting, following or stopping", () => {
  const m = new ArbiterModel();
  const first = m.begin("a");
  assert.equal(m.phase, "starting");
  assert.equal(m.begin("a"), null, "a second click while starting");
  assert.equal(m.begin("b"), null, "a third click, another source");
  assert.equal(m.generation, first);
  assert.ok(m.go("following"));
  assert.equal(m.begin("a"), null);
  assert.ok(!m.go("starting"));
  assert.ok(m.go("stopping"));
  assert.equal(m.begin("a"), null);
  assert.ok(!m.go("following"), "a stopping follower does not come back");
  assert.ok(m.go("idle"));
  assert.notEqual(m.begin("a"), null);
  for (const [from, tos] of Object.entries(PHASES)) assert.ok(!tos.includes(/** @type {any} */ (from)), `${from} to itself`);
});

test("boards keep the round's order (board number, then place) whatever their state; the strip sorts by urgency", () => {
  const m = new ArbiterModel();
  m.apply({ events: [], voided: [], boards: [board(1, "playing", 12), board(2, "playing", 3), board(3, "playing", 7)], count: 3 });
  const order = () => m.ordered().map((b) => b.board);
  assert.deepEqual(order(), [3, 7, 12]);
  assert.deepEqual(m.urgent(), []);
  m.apply({ events: [], voided: [], boards: [board(1, "must_stop", 12, 0), board(3, "claimable", 7, 2)], count: 3 });
  assert.deepEqual(order(), [3, 7, 12], "states changed, the order did not");
  assert.deepEqual(m.urgent().map((b) => b.board), [12, 7]);
  m.apply({ events: [], voided: [], boards: [board(1, "ended", 12, 5)], count: 3 });
  assert.deepEqual(order(), [3, 7, 12]);
  assert.deepEqual(m.urgent().map((b) => b.board), [7]);
});

test("several sources: boards of the same numbers do not collide; the grid is source by source; dropping one keeps the other", () => {
  const m = new ArbiterModel();
  m.apply({ events: [event(1, "automatic")], voided: [], boards: [board(1, "must_stop", 2, 0), board(2, "playing", 1)], count: 2 }, 1, "open");
  assert.equal(m.collides, false);
  m.apply({ events: [event(1, "claimable")], voided: [1], boards: [board(1, "playing", 1), board(2, "claimable", 2, 2)], count: 2 }, 2, "women");
  assert.equal(m.collides, true, "board 1 in both sources");
  assert.equal(m.boards.size, 4);
  assert.deepEqual(m.ordered().map((b) => [b.src, b.board]), [[1, 1], [1, 2], [2, 1], [2, 2]]);
  assert.deepEqual(m.urgent().map((b) => [b.src, b.board]), [[1, 2], [2, 2]]);
  assert.deepEqual(m.log.map((e) => [e.src, e.source, e.id]), [[1, "open", 1], [2, "women", 1]]);
  assert.ok(m.isVoid(1, m.generation, 2) && !m.isVoid(1, m.generation, 1), "a void of one source is not another's");
  m.drop(1);
  assert.deepEqual(m.ordered().map((b) => [b.src, b.board]), [[2, 1], [2, 2]]);
  assert.equal(m.log.length, 2, "its events stay in the log");
  assert.equal(m.collides, false, "one source left: no board number is in two");
});

test("reword: the same events and boards in other words, in place; the latest event of an id; nothing added", () => {
  const m = new ArbiterModel();
  m.apply({ events: [event(1, "claimable"), event(2, "ended")], voided: [], boards: [board(1, "claimable")], count: 1 }, 0, "a.pgn");
  m.apply({ events: [event(1, "claimable")], voided: [], boards: [board(7, "playing")], count: 1 }, 1, "b.pgn");
  m.apply({ events: [event(1, "automatic")], voided: [], boards: [], count: 1 }, 0, "a.pgn"); // source 0 followed anew: ids from 1
  const said = { ...event(1, "automatic"), text: "game 1 said again", line: "Board 1 said again", more: "" };
  m.reword({ events: [said], boards: [{ ...board(1, "must_stop"), state_text: "must stop" }, board(9, "playing")] }, 0);
  assert.deepEqual(m.log.map((e) => [e.src, e.id, e.text]), [[0, 1, "event 1"], [0, 2, "event 2"], [1, 1, "event 1"], [0, 1, "game 1 said again"]]);
  assert.equal(m.log[3].source, "a.pgn");
  assert.equal(m.boards.get("0:1")?.state_text, "must stop");
  assert.equal(m.boards.get("0:1")?.src, 0);
  assert.equal(m.boards.size, 2, "a board not shown is not added");
  assert.equal(m.boards.get("1:7")?.state, "playing");
});
