// SPDX-License-Identifier: GPL-3.0-or-later
// persist.js: what is saved and shared, and what a corrupted record becomes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeHash, emptyRecord, encodeHash, isEmpty, loadRecord, positionBeforeReferee, restoreArgs, saveRecord, STD_FEN, STORE_KEY, validateRecord } from "../src/persist.js";

/** @param {Record<string, string>} items */
function storage(items = {}) {
  const m = new Map(Object.entries(items));
  return {
    getItem: (/** @type {string} */ k) => (m.has(k) ? /** @type {string} */ (m.get(k)) : null),
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v),
    removeItem: (/** @type {string} */ k) => void m.delete(k),
  };
}

test("a corrupted saved game is refused with a reason, never passed on", () => {
  for (const bad of ['{"fen":5}', '{"start_fen":5}', '{"moves":"e2e4"}', '{"moves":["e2e4",7]}', '{"moves":["Qxf7"]}',
    '{"ending":{"op":"explode"}}', '{"ending":{"op":"resign"}}', '{"chess960":"yes"}', "[1,2]", "5", '{"headers":{"White":3}}']) {
    const r = loadRecord(storage({ [STORE_KEY]: bad }));
    assert.ok(r && !r.ok, `accepted ${bad}`);
    if (r && !r.ok) assert.match(r.problem, /\w/);
  }
  const broken = loadRecord(storage({ [STORE_KEY]: "{not json" }));
  assert.deepEqual(broken, { ok: false, problem: "it is not valid JSON" });
  assert.equal(loadRecord(storage()), null);
});

test("a record round-trips through the URL hash", () => {
  const rec = { start_fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", chess960: false, moves: ["a1a2", "e8d8"],
    ending: /** @type {const} */ ({ op: "resign", color: "black" }), headers: {} };
  const hash = encodeHash(rec);
  const back = decodeHash(`#${hash}`);
  assert.ok(back && back.ok);
  if (back && back.ok) assert.deepEqual(back.record, rec);
  assert.equal(encodeHash(emptyRecord()), "");
  assert.equal(decodeHash(""), null);
  assert.equal(decodeHash("#something=else"), null);
});

test("an imported game's recorded result travels in the hash as recorded", () => {
  /** @type {import("../src/persist.js").GameRecord} */
  const rec = { start_fen: STD_FEN, chess960: false, moves: ["e2e4", "e7e5"], ending: { op: "recorded" },
    headers: { Result: "1-0", Termination: "Normal" } };
  const back = decodeHash(encodeHash(rec));
  assert.ok(back && back.ok);
  if (back && back.ok) assert.deepEqual(back.record, rec);
});

test("older records ({op, args: {color}}) are still read", () => {
  const r = validateRecord({ start_fen: STD_FEN, chess960: false, moves: ["e2e4"], ending: { op: "flag", args: { color: "white" } }, fen: "x" });
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(r.record.ending, { op: "flag", color: "white" });
});

test("restore is one request with the whole record", () => {
  const rec = { start_fen: STD_FEN, chess960: false, moves: ["e2e4"], ending: null, headers: {} };
  assert.deepEqual(restoreArgs(rec), { start_fen: null, chess960: false, moves: ["e2e4"], ending: null, headers: {} });
  assert.ok(isEmpty(emptyRecord()) && !isEmpty(rec));
});

// ---------------------------------------------------------------- the board before the referee
const AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const ROOK_END = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";

test("the saved game keeps its last position beside it, not in the link", () => {
  const st = storage();
  const rec = { start_fen: STD_FEN, chess960: false, moves: ["e2e4", "e7e5"], ending: null, headers: {} };
  assert.ok(saveRecord(st, rec, AFTER_E4_E5));
  const back = loadRecord(st);
  assert.ok(back && back.ok);
  if (back && back.ok) {
    assert.deepEqual(back.record, rec);
    assert.equal(back.fen, AFTER_E4_E5);
  }
  assert.doesNotMatch(encodeHash(rec), /fen/);
});

test("before the referee starts the board shows the position it will restore", () => {
  /** @param {object} rec @param {string} [fen] */
  const saved = (rec, fen) =>
    storage({ [STORE_KEY]: JSON.stringify({ chess960: false, ending: null, headers: {}, ...rec, ...(fen ? { fen } : {}) }) });
  const e4e5 = { start_fen: STD_FEN, moves: ["e2e4", "e7e5"] };
  // nothing saved, an empty or a broken record: a new game (what onReady starts)
  assert.deepEqual(positionBeforeReferee("", storage()), { fen: STD_FEN, known: true });
  assert.deepEqual(positionBeforeReferee("", saved({ start_fen: STD_FEN, moves: [] })), { fen: STD_FEN, known: true });
  assert.deepEqual(positionBeforeReferee("", storage({ [STORE_KEY]: "{broken" })), { fen: STD_FEN, known: true });
  assert.deepEqual(positionBeforeReferee("#m=e2e4,Qxf7", saved(e4e5, AFTER_E4_E5)), { fen: STD_FEN, known: true });
  // the game saved here, with its last position; the link to that same game
  assert.deepEqual(positionBeforeReferee("", saved(e4e5, AFTER_E4_E5)), { fen: AFTER_E4_E5, known: true });
  assert.deepEqual(positionBeforeReferee("#m=e2e4,e7e5", saved(e4e5, AFTER_E4_E5)), { fen: AFTER_E4_E5, known: true });
  // a set-up position without moves is its own start
  assert.deepEqual(positionBeforeReferee(`#fen=${encodeURIComponent(ROOK_END)}`, storage()), { fen: ROOK_END, known: true });
  // moves whose position is not kept here: the game's start, marked as not the real position
  assert.deepEqual(positionBeforeReferee("#m=e2e4,e7e5", storage()), { fen: STD_FEN, known: false });
  assert.deepEqual(positionBeforeReferee("#m=d2d4", saved(e4e5, AFTER_E4_E5)), { fen: STD_FEN, known: false });
  assert.deepEqual(positionBeforeReferee("", saved(e4e5)), { fen: STD_FEN, known: false }); // an older record
  assert.deepEqual(positionBeforeReferee("", saved(e4e5, "not a fen")), { fen: STD_FEN, known: false });
  assert.deepEqual(positionBeforeReferee("", saved({ start_fen: "garbage", moves: [] })), { fen: STD_FEN, known: false });
});

test("the rules in force are saved and restored with the record", () => {
  const back = validateRecord({ moves: ["e2e4"], ending: { op: "recorded" }, headers: { Result: "1-0" }, flag_rules: "uscf" });
  assert.ok(back.ok);
  if (back.ok) {
    assert.equal(back.record.flag_rules, "uscf");
    assert.equal(restoreArgs(back.record).flag_rules, "uscf");
  }
  const odd = validateRecord({ moves: [], flag_rules: "lichess" });
  assert.ok(odd.ok && odd.record.flag_rules === undefined); // unknown rules: the referee's default
});
