// SPDX-License-Identifier: GPL-3.0-or-later
// Premoves and the automatic threefold claim, in the controller without a
// browser: a fake referee answers as the bridge does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Controller } from "../src/ctrl.js";
import { premoveUci } from "../src/control/premove.js";
import { AutoClaim, AUTO_CLAIM_KEY } from "../src/control/autoclaim.js";

const LEGAL = [{ uci: "e2e4", san: "e4", from: "e2", to: "e4", promotion: null },
  { uci: "e7e8n", san: "e8=N", from: "e7", to: "e8", promotion: "n" }, { uci: "e7e8q", san: "e8=Q", from: "e7", to: "e8", promotion: "q" }];

/** A position's facts (only what the controllers read): odd plies Black to move. */
function facts(ply, extra = {}) {
  return /** @type {any} */ ({
    ply, turn: ply % 2 ? "black" : "white", fen: `fen${ply}`, check: false, where: `after ${ply}`, turn_text: "",
    description: "", outcome: null, claims: [], claims_text: "", hints: [], legal_moves: LEGAL, live: true,
    repetition: { earlier: [] }, offer: { by: "white", to: "black", text: "" }, halfmove: { value: ply, level: "none" },
    winnable: { white: { answer: "yes" }, black: { answer: "yes" } }, dead_text: "", flag_fall: null, flag_rules: "fide", ...extra,
  });
}
const row = (ply) => ({ ply, san: `m${ply}`, uci: "e2e4", fen: `fen${ply}`, label: `${ply}.m`, number: ply, white: ply % 2 === 1 });
const GAME = { start_fen: "start", chess960: false, headers: {}, recorded: null };
const tick = () => new Promise((r) => setTimeout(r, 5));

/**
 * A controller over a fake referee: each play or claim adds a ply.
 * @param {number} [start] @param {(ply: number) => Record<string, unknown>} [extra]  more facts at a ply
 */
function make(start = 1, extra = (_ply) => ({})) {
  let ply = start;
  /** @type {[string, any][]} */
  const sent = [];
  const referee = {
    state: "ready", on() { return this; },
    request(/** @type {string} */ op, /** @type {any} */ args) {
      sent.push([op, args]);
      if (op === "play" && args.move === "bad") return Promise.resolve({ ok: false, error: { code: "illegal_move", message: "no" } });
      if (op === "play" || op === "claim") ply++;
      if (op === "undo") ply--;
      const add = op === "play" || op === "claim" ? [row(ply)] : [];
      return Promise.resolve({ ok: true, facts: facts(ply, extra(ply)), moves: { keep: ply - add.length, add }, game: GAME, ending: null });
    },
  };
  const storage = /** @type {any} */ ({ getItem: () => null, setItem() {}, removeItem() {} });
  const ctrl = new Controller({ referee: /** @type {any} */ (referee), storage, nav: { get: () => "", set() {} } });
  ctrl.setSeats({ white: true, black: false }); // the computer plays Black
  return { ctrl, sent };
}

const played = (sent) => sent.filter(([op]) => op === "play").map(([, a]) => a.move);

test("a board premove's move is the referee's legal one; of promotions, the queen", () => {
  assert.equal(premoveUci(LEGAL, "e2", "e4"), "e2e4");
  assert.equal(premoveUci(LEGAL, "e7", "e8"), "e7e8q");
  assert.equal(premoveUci(LEGAL, "e2", "e5"), null);
});

test("a premove set while the computer is to move is played right after its reply", async () => {
  const { ctrl, sent } = make(1);
  await ctrl.onReady();
  assert.equal(ctrl.premoves.side(), "white", "Black (the computer) to move: White premoves");
  ctrl.premoves.setFromBoard("e2", "e4");
  assert.deepEqual(ctrl.state.premove, { color: "white", ply: 1, orig: "e2", dest: "e4", text: "e2-e4" });
  await tick();
  assert.deepEqual(played(sent), [], "kept while the computer thinks");
  await ctrl.play("e7e5"); // the computer's reply
  await tick();
  assert.deepEqual(played(sent), ["e7e5", "e2e4"]);
  assert.equal(ctrl.state.premove, null);
  assert.equal(ctrl.premoves.side(), "white", "the computer to move again");
});

test("a premove no longer legal after the reply is dropped with a word", async () => {
  const { ctrl, sent } = make(1);
  /** @type {string[]} */
  const said = [];
  const say = ctrl.announce.bind(ctrl);
  ctrl.announce = (text) => { said.push(text); say(text); };
  await ctrl.onReady();
  ctrl.premoves.setFromBoard("a2", "a5");
  await ctrl.play("e7e5");
  await tick();
  assert.deepEqual(played(sent), ["e7e5"]);
  assert.equal(ctrl.state.premove, null);
  assert.ok(said.some((x) => /a2-a5 is not legal after the reply/.test(x)), said.join(" | "));
});

test("a typed move is kept the same way; on the visitor's own turn it is not a premove", async () => {
  const { ctrl, sent } = make(1);
  await ctrl.onReady();
  assert.equal(ctrl.premoves.keepTyped("Nf3"), true);
  assert.equal(ctrl.state.premove?.text, "Nf3");
  await ctrl.play("e7e5");
  await tick();
  assert.deepEqual(played(sent), ["e7e5", "Nf3"]);
  const own = make(2);
  await own.ctrl.onReady();
  assert.equal(own.ctrl.premoves.keepTyped("Nf3"), false, "White to move: a move now");
  assert.equal(own.ctrl.premoves.side(), null);
});

test("Escape, a takeback or two players cancel it; a cancelled premove is never played", async () => {
  const { ctrl, sent } = make(1);
  await ctrl.onReady();
  ctrl.premoves.setFromBoard("e2", "e4");
  assert.equal(ctrl.dismiss(), true);
  assert.equal(ctrl.state.premove, null);
  assert.match(ctrl.state.announce, /cancelled/);
  ctrl.premoves.setFromBoard("e2", "e4");
  await ctrl.undo();
  assert.equal(ctrl.state.premove, null, "a takeback cancels it");
  await ctrl.play("e2e4");
  ctrl.premoves.setFromBoard("e2", "e4");
  ctrl.setSeats({ white: true, black: true });
  await ctrl.play("e7e5");
  await tick();
  assert.deepEqual(played(sent), ["e2e4", "e7e5"], "nothing played for the premove");
});

test("auto-claim: off by default; 'always' claims threefold now for the visitor, marked auto, once", async () => {
  const threefold = (ply) => (ply % 2 ? {} : { claims: [{ rule: "threefold_repetition", now: true, moves: [] }] });
  const { ctrl, sent } = make(1, threefold);
  const saved = new Map();
  const storage = /** @type {any} */ ({ getItem: (k) => saved.get(k) ?? null, setItem: (k, v) => void saved.set(k, v) });
  const auto = new AutoClaim(ctrl, { storage });
  await ctrl.onReady();
  assert.equal(auto.mode, "never");
  await ctrl.play("e7e5"); // White to move, threefold claimable now
  await tick();
  assert.ok(!sent.some(([op]) => op === "claim"), "never: the player claims");
  auto.setMode("always");
  assert.equal(saved.get(AUTO_CLAIM_KEY), "always", "remembered");
  await tick();
  assert.deepEqual(sent.filter(([op]) => op === "claim").map(([, a]) => a), [{ move: null, auto: true }]);
});

test("auto-claim 'under30' claims only when the claimer's clock is under 30 s", async () => {
  let ms = 45_000;
  const { ctrl, sent } = make(2, () => ({ claims: [{ rule: "threefold_repetition", now: true, moves: [] }] }));
  const storage = /** @type {any} */ ({ getItem: () => "under30", setItem() {} });
  const auto = new AutoClaim(ctrl, { storage, clockMs: () => ms });
  await ctrl.onReady();
  await tick();
  assert.ok(!sent.some(([op]) => op === "claim"), "45 s left: no claim");
  ms = 29_000;
  auto.check();
  await tick();
  assert.equal(sent.filter(([op]) => op === "claim").length, 1);
});
