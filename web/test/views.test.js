// SPDX-License-Identifier: GPL-3.0-or-later
// ui/views.js: the view's part of the address beside the game's; ui/panel.js:
// when the details open by themselves, and the player's choice read back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeHash } from "../src/persist.js";
import { detailsMatter, detailsOpen, DETAILS_KEY, loadDetailsChoice } from "../src/ui/panel.js";
import { joinHash, splitHash } from "../src/ui/views.js";

const NAMES = ["play", "review", "arbiter"];

test("the view is the address's first bare name; the rest is the game", () => {
  assert.deepEqual(splitHash("#review", NAMES), { view: "review", game: "" });
  assert.deepEqual(splitHash("#review&m=e2e4,e7e5", NAMES), { view: "review", game: "m=e2e4,e7e5" });
  assert.deepEqual(splitHash("#arbiter", NAMES), { view: "arbiter", game: "" });
  assert.deepEqual(splitHash("#play", NAMES), { view: "play", game: "" });
  // links made before the views open as they did: Play, the game intact
  assert.deepEqual(splitHash("#m=e2e4", NAMES), { view: "play", game: "m=e2e4" });
  assert.deepEqual(splitHash("", NAMES), { view: "play", game: "" });
  // an unknown name is no view
  assert.deepEqual(splitHash("#nowhere", NAMES), { view: "play", game: "nowhere" });
});

test("the default view is left out of the address, and the game reads back", () => {
  assert.equal(joinHash("play", "m=e2e4"), "m=e2e4");
  assert.equal(joinHash("play", ""), "");
  assert.equal(joinHash("review", ""), "review");
  const hash = joinHash("review", "m=e2e4,e7e5");
  assert.equal(hash, "review&m=e2e4,e7e5");
  const { game } = splitHash(hash, NAMES);
  const rec = decodeHash(game);
  assert.ok(rec && rec.ok);
  assert.deepEqual(rec.ok && rec.record.moves, ["e2e4", "e7e5"]);
});

/** @param {Partial<Record<string, any>>} over */
function facts(over = {}) {
  const side = { answer: "yes", text: "", proof: "", searching: false, word: "Yes" };
  return /** @type {any} */ ({
    outcome: null,
    flag_fall: { white: { result: "0-1", text: "" }, black: { result: "1-0", text: "" } },
    winnable: { white: side, black: side },
    ...over,
  });
}

test("the details open by themselves only when they matter, never once the game is over", () => {
  assert.equal(detailsMatter(facts()), false);
  assert.equal(detailsMatter(facts({ outcome: { result: "1/2-1/2" } })), false);
  const over = { white: { answer: "no", text: "", proof: "", searching: false, word: "No" }, black: facts().winnable.black };
  assert.equal(detailsMatter(facts({ outcome: { result: "1/2-1/2" }, winnable: over })), false);
  assert.equal(detailsMatter(facts({ flag_fall: { white: { result: "1/2-1/2", text: "" }, black: { result: "1-0", text: "" } } })), true);
  const no = { answer: "no", text: "", proof: "", searching: false, word: "No" };
  assert.equal(detailsMatter(facts({ winnable: { white: no, black: facts().winnable.black } })), true);
  const unknown = { answer: "unknown", text: "", proof: "", searching: true, word: "Not decided yet" };
  assert.equal(detailsMatter(facts({ winnable: { white: unknown, black: unknown } })), false);
});

test("the player's choices for the details are read back, one for where they matter and one for elsewhere", () => {
  const store = (/** @type {string|null} */ v) => ({ getItem: (/** @type {string} */ k) => (k === DETAILS_KEY ? v : null) });
  assert.deepEqual(loadDetailsChoice(store('{"calm":"open","matters":"closed"}')), { calm: "open", matters: "closed" });
  assert.deepEqual(loadDetailsChoice(store('{"calm":"maybe"}')), {});
  assert.deepEqual(loadDetailsChoice(store("not json")), {});
  assert.deepEqual(loadDetailsChoice(store(null)), {});
  assert.deepEqual(loadDetailsChoice({ getItem: () => { throw new Error("disabled"); } }), {});
  // no choice: open only where they matter
  assert.equal(detailsOpen({}, false), false);
  assert.equal(detailsOpen({}, true), true);
  // a choice made where they matter leaves the other kind of position as it was
  assert.equal(detailsOpen({ matters: "closed" }, true), false);
  assert.equal(detailsOpen({ matters: "closed" }, false), false);
  assert.equal(detailsOpen({ calm: "open" }, false), true);
  assert.equal(detailsOpen({ calm: "open" }, true), true);
});
