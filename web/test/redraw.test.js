// SPDX-License-Identifier: GPL-3.0-or-later
// control/redraw.js: the parts an action changes are drawn once, at the end
// of its task, by each view that shows them, in the fixed order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Announcer } from "../src/control/announcer.js";
import { Redraw } from "../src/control/redraw.js";
import { Controller } from "../src/ctrl.js";

const state = /** @type {any} */ ({ seq: 0 });

test("changes in one task draw once, each view in the fixed order, only views showing them", async () => {
  /** @type {string[]} */
  const drawn = [];
  /** @type {string[][]} */
  const changes = [];
  const redraw = new Redraw(state, (dirty) => changes.push([...dirty].sort()));
  // added out of order: drawn in VIEW_ORDER's
  redraw.add("hooks", { render: () => drawn.push("hooks") });
  redraw.add("panel", { parts: ["panel", "browse"], render: (_s, dirty) => drawn.push(`panel:${[...dirty].sort()}`) });
  redraw.add("board", { parts: ["board"], render: () => drawn.push("board") });
  redraw.mark(["panel"]);
  redraw.mark(["idle"]);
  redraw.mark(["panel", "browse"]);
  assert.deepEqual(drawn, [], "nothing drawn while the task runs");
  await Promise.resolve();
  assert.deepEqual(drawn, ["panel:browse,idle,panel", "hooks"], "one redraw; the board shows none of these parts");
  assert.deepEqual(changes, [["browse", "idle", "panel"]], "one change for the controllers, after the views");
  assert.equal(redraw.count, 1);
  redraw.mark(["board"]);
  await Promise.resolve();
  assert.deepEqual(drawn.slice(2), ["board", "hooks"]);
  assert.equal(redraw.count, 2);
});

test("after(fn) runs once the views have drawn; with nothing changed, no view draws", async () => {
  /** @type {string[]} */
  const seen = [];
  const redraw = new Redraw(state);
  redraw.add("panel", { render: () => seen.push("panel") });
  redraw.mark(["panel"]);
  redraw.after(() => seen.push("after"));
  await Promise.resolve();
  assert.deepEqual(seen, ["panel", "after"]);
  redraw.after(() => seen.push("after again"));
  await Promise.resolve();
  assert.deepEqual(seen, ["panel", "after", "after again"], "no redraw without a change");
});

test("a move answered: the controller's changes are drawn in one redraw", async () => {
  const GAME = { start_fen: "8/8/8/8/8/8/8/K6k w - - 0 1", chess960: false, headers: {}, recorded: null };
  const facts = (/** @type {number} */ ply) => ({ ply, turn: ply % 2 ? "black" : "white", fen: `fen${ply}`, outcome: null, claims: [],
    winnable: { white: { answer: "yes" }, black: { answer: "yes" } }, legal_moves: [], offer: null, live: true, halfmove: { value: 0, level: "none" } });
  const row = { ply: 1, san: "Kb2", uci: "a1b2", fen: "fen1", label: "1.Kb2", number: 1, white: true, repetition_count: 1, after_end: false };
  /** @type {(v: any) => void} */
  let answer = () => {};
  const referee = /** @type {any} */ ({
    state: "ready", on: () => referee,
    request: (/** @type {string} */ op) => op === "play" ? new Promise((r) => { answer = r; })
      : Promise.resolve(op === "state" ? { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null }
        : { ok: true, facts: facts(1), analysed: { level: 0, final: true } }),
  });
  const store = /** @type {any} */ ({ getItem: () => null, setItem: () => {}, removeItem: () => {} });
  const ctrl = new Controller({ referee, storage: store, nav: { get: () => "", set: () => {} } });
  await ctrl.onReady();
  await Promise.resolve();
  /** @type {string[][]} */
  const drawn = [];
  ctrl.redraw.add("panel", { render: (_s, dirty) => drawn.push([...dirty].sort()) });
  const played = ctrl.play("Kb2");
  await Promise.resolve();
  assert.deepEqual(drawn, [["idle"]], "sent: the page is busy");
  answer({ ok: true, facts: facts(1), moves: { keep: 0, add: [row] }, ending: null });
  await played;
  await Promise.resolve();
  assert.equal(drawn.length, 2, "the answer drawn once");
  assert.ok(["board", "moves", "panel", "idle"].every((p) => drawn[1].includes(p)), `the answer's parts together: ${drawn[1]}`);
  assert.equal(ctrl.state.rows.length, 1);
});

test("a view that fails does not keep the others from drawing", async () => {
  /** @type {string[]} */
  const seen = [];
  /** @type {unknown[]} */
  const reported = [];
  const redraw = new Redraw(state, () => {}, (e) => reported.push(e));
  redraw.add("board", { render: () => { throw new Error("broken"); } });
  redraw.add("panel", { render: () => seen.push("panel") });
  redraw.mark(["board"]);
  await Promise.resolve();
  assert.deepEqual(seen, ["panel"]);
  assert.equal(reported.length, 1, "the failure is reported, not swallowed");
});

test("sentences said before one redraw are all in the live region, then it starts afresh", async () => {
  const s = /** @type {any} */ ({ seq: 0, announce: "" });
  /** @type {string[]} */
  const region = [];
  const redraw = new Redraw(s);
  const announcer = new Announcer(s, (...parts) => redraw.mark(parts));
  redraw.add("hooks", { render: (st, dirty) => {
    if (dirty.has("announce")) {
      region.push(st.announce);
      announcer.written();
    }
  } });
  announcer.say("Nf6.");
  announcer.say("Premove Nf3 cancelled");
  await Promise.resolve();
  assert.deepEqual(region, ["Nf6. Premove Nf3 cancelled"], "neither sentence lost to the other");
  announcer.say("Check.");
  await Promise.resolve();
  assert.deepEqual(region, ["Nf6. Premove Nf3 cancelled", "Check."]);
});
