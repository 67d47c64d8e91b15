// SPDX-License-Identifier: GPL-3.0-or-later
// The board of a proof (web/src/features/proof.js): each step of a mating
// line as the referee sent it, the side in check after a checking move,
// the marks of a cannot-mate proof as circles and shaded squares.
import { test } from "node:test";
import assert from "node:assert/strict";
import { proofShown } from "../src/features/proof.js";

/** @returns {any} */
const view = () => ({
  ply: 0, color: "white", answer: "yes", title: "", text: "", legend: "", start_fen: "start-fen",
  steps: [
    { san: "Ba6", label: "1.Ba6", fen: "fen-1", last_move: ["d3", "a6"], check: false, mate: false },
    { san: "Kb8", label: "1...Kb8", fen: "fen-2", last_move: ["a8", "b8"], check: false, mate: false },
    { san: "Bb7#", label: "2.Bb7#", fen: "fen-3", last_move: ["a6", "b7"], check: true, mate: true },
  ],
  marks: [],
});

test("before the line: the position the proof is of, no move", () => {
  const shown = proofShown(view(), -1);
  assert.equal(shown.fen, "start-fen");
  assert.equal(shown.lastMove, undefined);
  assert.equal(shown.label, "");
});

test("a step: its position, its squares, the side in check after a checking move", () => {
  const v = view();
  assert.deepEqual(proofShown(v, 0).lastMove, ["d3", "a6"]);
  assert.equal(proofShown(v, 0).check, false);
  const mate = proofShown(v, 2);
  assert.equal(mate.fen, "fen-3");
  assert.equal(mate.check, "black"); // White's move: Black is in check
  assert.equal(mate.label, "2.Bb7# (3 of 3)");
});

test("a cannot-mate proof: circles for pieces and walls, shaded squares for the king's region", () => {
  const v = view();
  v.steps = [];
  v.marks = [{ square: "c1", kind: "piece" }, { square: "a3", kind: "wall" }, { square: "d7", kind: "region" }];
  const shown = proofShown(v, -1);
  assert.deepEqual(shown.shapes, [{ orig: "c1", brush: "blue" }, { orig: "a3", brush: "red" }]);
  assert.deepEqual([...shown.squares], [["d7", "proof-region"]]);
});
