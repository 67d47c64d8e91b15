// SPDX-License-Identifier: GPL-3.0-or-later
// The computer's draw policy (web/src/engine/policy.js): node --test web/test/
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  centipawns, decide, judge, letsDraw, scoreText, standing, CLEARLY_WORSE_CP, MATE_CP, NOT_BETTER_CP,
  OFFER_INTERVAL_PLIES, WINNING_CP, WORSE_CP,
} from "../src/engine/policy.js";

/** @param {string} uci @param {string} san @param {Partial<import("../src/engine/policy.js").MoveProbe>} [extra] */
const probe = (uci, san, extra = {}) => ({
  uci, san, repetition_count: 1, draw: false, automatic: null,
  opponent_claims_now: [], opponent_claims_with_move: [], ...extra,
});
/** @param {string} uci @param {number} rank @param {number|null} cp @param {number|null} [mate] */
const cand = (uci, rank, cp, mate = null) => ({ uci, rank, score: { cp, mate } });
/** @typedef {import("../src/engine/policy.js").PositionFacts} PositionFacts */
/** @typedef {import("../src/engine/policy.js").ClaimOption} ClaimOption */
/** @type {PositionFacts} */
const NO_FACTS = { claims: [], repetition_count: 1, halfmove_clock: 10, practical_draw: null, ply: 30 };

// Black to move can repeat with Ng8 (a third occurrence: claim with the move, 9.2.1.1).
/** @type {PositionFacts} */
const THREEFOLD_WITH_NG8 = {
  claims: [{ rule: "threefold_repetition", move: "f6g8", san: "Ng8", article: "9.2.1.1" }],
  repetition_count: 2, halfmove_clock: 7, practical_draw: null, ply: 7,
};
const REPEATING = probe("f6g8", "Ng8", { repetition_count: 3, opponent_claims_now: ["threefold_repetition"] });

/**
 * @param {number} others the score of the moves that do not repeat
 * @returns {import("../src/engine/policy.js").Situation}
 */
function repetitionSituation(others) {
  return {
    side: /** @type {const} */ ("black"),
    facts: THREEFOLD_WITH_NG8,
    // the engine scores the repetition 0.00, which ranks it first when worse
    candidates: others < 0
      ? [cand("f6g8", 1, 0), cand("h7h6", 2, others), cand("e7e6", 3, others - 20)]
      : [cand("h7h6", 1, others), cand("e7e6", 2, others - 20), cand("f6g8", 3, 0)],
    bestmove: others < 0 ? "f6g8" : "h7h6",
    probes: [REPEATING, probe("h7h6", "h6"), probe("e7e6", "e6")],
    offer_pending: false,
    last_offer_ply: null,
  };
}

test("clearly worse: claims with the intended move, and says why", () => {
  const d = decide(repetitionSituation(-300));
  assert.equal(d.action, "claim");
  assert.deepEqual(d.claim, THREEFOLD_WITH_NG8.claims[0]);
  assert.equal(d.move, "f6g8");
  assert.equal(d.judgement, "clearly worse");
  assert.equal(d.text,
    "Black claims a draw by threefold repetition with Ng8 (9.2.1.1): it judged its position clearly worse (+3.0).");
});

test("worse by the threshold: claims and calls it worse", () => {
  const d = decide(repetitionSituation(WORSE_CP));
  assert.equal(d.action, "claim");
  assert.match(d.text, /: it judged its position worse \(\+1\.0\)\.$/); // White's point of view
});

test("clearly better: no claim, and the repeating move is not played", () => {
  const s = repetitionSituation(300);
  const d = decide(s);
  assert.equal(d.action, "move");
  assert.equal(d.move, "h7h6");
  assert.equal(d.claim, null);
  // even when the engine itself picks the repetition
  const d2 = decide({ ...s, bestmove: "f6g8" });
  assert.equal(d2.move, "h7h6");
  assert.equal(d2.avoided, "Ng8");
  assert.equal(d2.text,
    "Black plays h6, not Ng8, which would let White claim a draw by threefold repetition at once: " +
    "it judged its position winning (\u22123.0).");
});

test("better but not winning: no claim, the engine's move stands", () => {
  const s = { ...repetitionSituation(100), bestmove: "f6g8" };
  const d = decide(s);
  assert.equal(d.action, "move");
  assert.equal(d.move, "f6g8");
  assert.equal(d.avoided, null);
});

test("level: claims now rather than with a move (fifty moves, 9.3.2)", () => {
  /** @type {PositionFacts} */
  const facts = { ...NO_FACTS, halfmove_clock: 100,
    claims: [{ rule: "fifty_moves", move: null, san: null, article: "9.3.2" }] };
  const d = decide({ side: "white", facts, candidates: [cand("e1e2", 1, 10)], bestmove: "e1e2",
    probes: [probe("e1e2", "Ke2")], offer_pending: false, last_offer_ply: null });
  assert.equal(d.action, "claim");
  assert.equal(d.move, null);
  assert.equal(d.text, "White claims a draw by the fifty-move rule (9.3.2): it judged its position level (+0.1).");
});

test("of several intended moves, the claim takes the best scored one", () => {
  /** @type {PositionFacts} */
  const facts = { ...NO_FACTS, halfmove_clock: 99, claims: [
    { rule: "fifty_moves", move: "a1a2", san: "Ra2", article: "9.3.1" },
    { rule: "fifty_moves", move: "e1f1", san: "Kf1", article: "9.3.1" },
  ] };
  const d = decide({ side: "white", facts,
    candidates: [cand("e1f1", 1, -150), cand("a1a2", 2, -400)], bestmove: "e1f1",
    probes: [probe("e1f1", "Kf1", { opponent_claims_now: ["fifty_moves"] }),
      probe("a1a2", "Ra2", { opponent_claims_now: ["fifty_moves"] })],
    offer_pending: false, last_offer_ply: null });
  assert.equal(d.action, "claim");
  assert.equal(d.san, "Kf1");
});

/**
 * @param {number} cp @param {string|null} practical
 * @returns {import("../src/engine/policy.js").Situation}
 */
function offerSituation(cp, practical = null) {
  return {
    side: /** @type {const} */ ("white"),
    facts: { ...NO_FACTS, practical_draw: practical },
    candidates: [cand("g1f3", 1, cp), cand("b1c3", 2, cp - 30)],
    bestmove: "g1f3",
    probes: [probe("g1f3", "Nf3"), probe("b1c3", "Nc3")],
    offer_pending: true,
    last_offer_ply: null,
  };
}

test("an offer is accepted when worse", () => {
  const d = decide(offerSituation(-250));
  assert.equal(d.action, "accept");
  assert.equal(d.text, "White accepts the draw offer: it judged its position clearly worse (\u22122.5).");
});

test("an offer is declined by moving when better", () => {
  const d = decide(offerSituation(250));
  assert.equal(d.action, "move");
  assert.equal(d.declined, true);
  assert.equal(d.move, "g1f3");
  assert.equal(d.text, "White declines the draw offer and plays Nf3: it judged its position winning (+2.5).");
});

test("level: accepts only in an ending drawn in practice", () => {
  assert.equal(decide(offerSituation(0)).action, "move");
  const d = decide(offerSituation(0, "one minor piece each"));
  assert.equal(d.action, "accept");
  assert.match(d.text, /in an ending drawn in practice \(one minor piece each\)\.$/);
  assert.equal(decide(offerSituation(120, "one minor piece each")).action, "move");
});

test("clearly worse in an ending drawn in practice: offers a draw, not again at once", () => {
  const s = { ...offerSituation(-500, "two knights cannot force mate against a bare king"), offer_pending: false };
  const d = decide(s);
  assert.equal(d.action, "move");
  assert.equal(d.offer, true);
  assert.match(d.text, /^White plays Nf3 and offers a draw: it judged its position clearly worse/);
  assert.equal(decide({ ...s, last_offer_ply: s.facts.ply - 2 }).offer, false);
  assert.equal(decide({ ...s, last_offer_ply: s.facts.ply - OFFER_INTERVAL_PLIES }).offer, true);
  // not when only worse, nor without the hint
  assert.equal(decide({ ...s, candidates: [cand("g1f3", 1, CLEARLY_WORSE_CP + 1)] }).offer, false);
  assert.equal(decide({ ...s, facts: NO_FACTS }).offer, false);
});

test("winning: a move that lets the opponent claim fifty with its reply is replaced", () => {
  const facts = { ...NO_FACTS, halfmove_clock: 98 };
  const s = {
    side: /** @type {const} */ ("white"), facts,
    candidates: [cand("d2d3", 1, 800), cand("g2g4", 2, 700), cand("d2d1", 3, 790)],
    bestmove: "d2d3",
    probes: [
      probe("d2d3", "Rd3", { opponent_claims_with_move: ["fifty_moves"] }),
      probe("g2g4", "g4"),
      probe("d2d1", "Rd1", { opponent_claims_with_move: ["fifty_moves"] }),
    ],
    offer_pending: false, last_offer_ply: null,
  };
  const d = decide(s);
  assert.equal(d.move, "g2g4");
  assert.equal(d.text, "White plays g4, not Rd3, which would let Black claim a draw by the fifty-move rule " +
    "with its next move: it judged its position winning (+7.0).");
});

test("winning: a stalemating move is replaced", () => {
  const s = {
    side: /** @type {const} */ ("white"), facts: NO_FACTS,
    candidates: [cand("c6g6", 1, null, 3), cand("c6h6", 2, null, 1)], bestmove: "c6g6",
    probes: [probe("c6g6", "Qg6", { draw: true, automatic: { termination: "stalemate", winner: null } }),
      probe("c6h6", "Qh6#", { automatic: { termination: "checkmate", winner: "white" } })],
    offer_pending: false, last_offer_ply: null,
  };
  const d = decide(s);
  assert.equal(d.move, "c6h6");
  assert.equal(d.text, "White plays Qh6#, not Qg6, which would end the game in a draw (stalemate): " +
    "it judged its position winning (mate in 1).");
});

test("winning, but no safe move keeps the advantage: the engine's move stands", () => {
  const s = repetitionSituation(300);
  s.candidates = [cand("f6g8", 1, 0), cand("h7h6", 2, WINNING_CP - 1)];
  s.bestmove = "f6g8";
  // the standing is the best non-drawing line: better, not winning, so no substitution
  const d = decide(s);
  assert.equal(d.action, "move");
  assert.equal(d.move, "f6g8");
  assert.equal(d.avoided, null);
});

test("the engine's pick without a score of its own is played", () => {
  const s = { ...offerSituation(-900), offer_pending: false, bestmove: "g8g7" };
  s.probes = [...s.probes, probe("g8g7", "Kg7")];
  const d = decide(s);
  assert.equal(d.move, "g8g7");
  assert.equal(d.text, "White plays Kg7 (\u22129.0).");
});

test("scores and judgements", () => {
  assert.equal(centipawns({ cp: 37, mate: null }), 37);
  assert.equal(centipawns({ cp: null, mate: 3 }), MATE_CP - 3);
  assert.equal(centipawns({ cp: null, mate: -2 }), -(MATE_CP - 2));
  assert.equal(judge(WINNING_CP), "winning");
  assert.equal(judge(WINNING_CP - 1), "better");
  assert.equal(judge(NOT_BETTER_CP), "level");
  assert.equal(judge(WORSE_CP), "worse");
  assert.equal(judge(CLEARLY_WORSE_CP), "clearly worse");
  assert.equal(judge(-MATE_CP + 5), "losing");
  assert.equal(letsDraw(undefined), false);
  assert.equal(letsDraw(probe("a", "a", { opponent_claims_with_move: ["threefold_repetition"] })), true);
  const probes = new Map([["f6g8", REPEATING]]);
  assert.equal(standing([cand("f6g8", 1, 0), cand("h7h6", 2, -250)], probes), -250);
  assert.equal(standing([cand("f6g8", 1, 0)], probes), 0);
});

test("every score is given from White's point of view, as lichess and chess.com give it", () => {
  // Black better by 5.8: minus for Black, plus for White, whoever speaks
  assert.equal(scoreText(580, "black"), "\u22125.8");
  assert.equal(scoreText(-580, "white"), "\u22125.8");
  assert.equal(scoreText(580, "white"), "+5.8");
  assert.equal(scoreText(-3, "black"), "0.0");
  assert.equal(scoreText(MATE_CP - 2, "black"), "mate in 2");
  assert.equal(scoreText(-(MATE_CP - 2), "black"), "mated in 2");
  const d = decide(repetitionSituation(580)); // Black (the computer) winning by 5.8
  assert.equal(d.action, "move");
  assert.match(d.text, /^Black plays h6 \(\u22125\.8\)\.$/);
});
