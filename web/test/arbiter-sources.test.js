// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's polling (web/src/arbiter/sources.js): Stop ends the
// read under way and asks nothing more, and says nothing about it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { UrlSource, poll } from "../src/arbiter/sources.js";

test("stop() aborts a URL read under way; no note, no text, no next read", async () => {
  /** @type {AbortSignal[]} */
  const signals = [];
  /** @type {typeof fetch} */
  const hanging = (_url, init) => new Promise((_resolve, reject) => {
    const signal = /** @type {AbortSignal} */ (init?.signal);
    signals.push(signal);
    signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
  });
  const source = new UrlSource("http://127.0.0.1:1/round.pgn", { fetch: hanging });
  /** @type {string[]} */
  const said = [];
  let texts = 0;
  let timers = 0;
  const follower = poll(source, { interval: 1, onText: () => void texts++, onNote: (m) => void said.push(m),
    setTimer: () => void timers++, clearTimer: () => {} });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(signals.length, 1);
  assert.equal(signals[0].aborted, false);
  follower.stop();
  assert.equal(signals[0].aborted, true, "the request is ended at once");
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(said, []);
  assert.equal(texts, 0);
  assert.equal(timers, 0, "no next read is planned");
});
