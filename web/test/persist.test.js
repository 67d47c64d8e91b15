// SPDX-License-Identifier: GPL-3.0-or-later
// persist.js: what is saved and shared, and what a corrupted record becomes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeHash, emptyRecord, encodeHash, isEmpty, loadRecord, restoreArgs, STD_FEN, STORE_KEY, validateRecord } from "../src/persist.js";

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
