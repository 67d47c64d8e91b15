// SPDX-License-Identifier: GPL-3.0-or-later
// The computer player (web/src/engine/player.js) with a scripted engine and referee.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ComputerPlayer, LEVELS, levelById, DEFAULT_LEVEL } from "../src/engine/player.js";

/** @param {string} uci @param {number} rank @param {number} cp */
const line = (uci, rank, cp) => ({ uci, rank, score: { cp, mate: null }, depth: 10, pv: [uci] });
/** @param {string} uci @param {string} san @param {import("../src/engine/policy.js").ClaimRule[]} [claims] */
const probe = (uci, san, claims = []) => ({ uci, san, repetition_count: 1, halfmove_clock: 99, draw: false,
  automatic: null, opponent_claims_now: [], opponent_claims_with_move: claims });

/** @param {any[]} results */
function scriptedEngine(results) {
  /** @type {any[]} */
  const asked = [];
  return {
    asked,
    aborted: 0,
    /** @param {any} req */
    async search(req) { asked.push(req); return results.shift(); },
    abort() { this.aborted += 1; },
  };
}

const TURN = {
  side: /** @type {const} */ ("white"), fen: "8/8/8/4k3/8/8/3R2P1/4K3 w - - 98 80", moves: [], chess960: false,
  legal: ["d2d3", "d2d1", "e1f2", "g2g3", "g2g4"], level: levelById("5"), clock: null,
  offer_pending: false, last_offer_ply: null,
};
/** @type {Omit<import("../src/engine/player.js").EngineFacts, "probes">} */
const FACTS = { turn: "white", ply: 0, claims: [], repetition_count: 1, halfmove_clock: 98, practical_draw: null };

test("winning and every line lets the opponent claim fifty: a second search among the safe moves", async () => {
  const engine = scriptedEngine([
    { aborted: false, bestmove: "d2d3", depth: 12, candidates: [line("d2d3", 1, 900), line("d2d1", 2, 890)] },
    { aborted: false, bestmove: "g2g4", depth: 12, candidates: [line("g2g4", 1, 850)] },
  ]);
  /** @type {string[][]} */
  const refereeAsked = [];
  const referee = async (/** @type {string[]} */ moves) => {
    refereeAsked.push(moves);
    const all = { d2d3: probe("d2d3", "Rd3", ["fifty_moves"]), d2d1: probe("d2d1", "Rd1", ["fifty_moves"]),
      e1f2: probe("e1f2", "Kf2", ["fifty_moves"]), g2g3: probe("g2g3", "g3"), g2g4: probe("g2g4", "g4") };
    return { ...FACTS, probes: moves.map((m) => /** @type {any} */ (all)[m]) };
  };
  const d = await new ComputerPlayer(engine, referee).think(TURN);
  assert.ok(d);
  assert.equal(d.move, "g2g4");
  assert.equal(d.avoided, "Rd3");
  assert.deepEqual(refereeAsked, [["d2d3", "d2d1"], TURN.legal]);
  assert.deepEqual(engine.asked[1].searchmoves, ["g2g3", "g2g4"]);
  assert.equal(engine.asked[0].multipv, 4);
  assert.equal(engine.asked[0].skill, 20);
  assert.equal(engine.asked[0].movetime, 2000);
});

test("not winning: one search, the engine's choice", async () => {
  const engine = scriptedEngine([
    { aborted: false, bestmove: "d2d1", depth: 12, candidates: [line("d2d3", 1, 40), line("d2d1", 2, 35)] },
  ]);
  const referee = async (/** @type {string[]} */ moves) => ({ ...FACTS, probes: moves.map((m) => probe(m, m)) });
  const d = await new ComputerPlayer(engine, referee).think(TURN);
  assert.equal(d?.move, "d2d1");
  assert.equal(engine.asked.length, 1);
});

test("aborted while thinking: no decision", async () => {
  /** @type {(v: any) => void} */
  let release = () => {};
  const engine = {
    aborted: 0,
    search: () => new Promise((r) => { release = r; }),
    abort() { this.aborted += 1; },
  };
  const player = new ComputerPlayer(engine, async () => ({ ...FACTS, probes: [] }));
  const pending = player.think(TURN);
  player.abort();
  release({ aborted: false, bestmove: "d2d3", depth: 3, candidates: [line("d2d3", 1, 0)] });
  assert.equal(await pending, null);
  assert.equal(engine.aborted, 1);
});

test("levels go from beginner to strong", () => {
  assert.ok(LEVELS.length >= 4 && LEVELS.length <= 6);
  for (let i = 1; i < LEVELS.length; i++) {
    assert.ok(LEVELS[i].skill > LEVELS[i - 1].skill && LEVELS[i].movetime >= LEVELS[i - 1].movetime);
  }
  assert.equal(levelById("nonsense").id, DEFAULT_LEVEL);
});
