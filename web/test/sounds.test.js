// SPDX-License-Identifier: GPL-3.0-or-later
// The game's sounds (web/src/features/sounds.js): which sound a move makes,
// and the volume read back (anything unknown is "normal").
import { test } from "node:test";
import assert from "node:assert/strict";
import { GAIN, NOTES, asVolume, soundOf } from "../src/features/sounds.js";

test("a check sounds as a check, a capture as a capture, any other move as a move", () => {
  assert.equal(soundOf({ san: "e4", check: false }), "move");
  assert.equal(soundOf({ san: "exd5", check: false }), "capture");
  assert.equal(soundOf({ san: "exd6", check: false }), "capture"); // en passant: SAN has the x too
  assert.equal(soundOf({ san: "Bb5+", check: true }), "check");
  assert.equal(soundOf({ san: "Qxf7#", check: true }), "check");
  assert.equal(soundOf({ san: "O-O", check: false }), "move");
});

test("the volumes: off is silent, each louder than the one before; anything else is normal", () => {
  assert.equal(GAIN.off, 0);
  assert.ok(GAIN.quiet < GAIN.normal && GAIN.normal < GAIN.loud);
  for (const v of ["off", "quiet", "normal", "loud"]) assert.equal(asVolume(v), v);
  assert.equal(asVolume("blaring"), "normal");
  assert.equal(asVolume(null), "normal");
});

test("each sound starts with a note of its own (the browser test tells them apart by it)", () => {
  const first = Object.values(NOTES).map((notes) => notes[0][0]);
  assert.equal(new Set(first).size, first.length);
});
