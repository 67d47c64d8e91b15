// SPDX-License-Identifier: GPL-3.0-or-later
// The controller without a browser: a fake referee answers as the bridge does.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Controller } from "../src/ctrl.js";
import { STORE_KEY } from "../src/persist.js";

/** A position's facts, as the bridge sends them (only what the tests read). */
function facts(ply, extra = {}) {
  return /** @type {any} */ ({
    ply, turn: ply % 2 ? "black" : "white", fen: `fen${ply}`, check: false, where: ply ? `after ${ply}` : "the start position",
    turn_text: "", description: "", halfmove: { value: ply, level: "none" }, repetition: { earlier: [] }, outcome: null,
    claims: [], claims_text: "", winnable: { white: { answer: "yes" }, black: { answer: "yes" } }, dead_text: "",
    flag_fall: null, flag_rules: "fide", hints: [], offer: { by: ply % 2 ? "white" : "black", to: ply % 2 ? "black" : "white", text: "" },
    legal_moves: [{ uci: "e2e4", san: "e4", from: "e2", to: "e4", promotion: null },
      { uci: "e7e8q", san: "e8=Q", from: "e7", to: "e8", promotion: "q" }, { uci: "e7e8n", san: "e8=N", from: "e7", to: "e8", promotion: "n" }],
    live: true, ...extra,
  });
}
/** @param {number} ply */
const row = (ply) => ({ ply, san: `m${ply}`, uci: "e2e4", fen: `fen${ply}`, label: `${ply}.m`, number: ply, white: true, repetition_count: 1, after_end: false });
const GAME = { start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", chess960: false, headers: {}, recorded: null };

class FakeReferee {
  constructor(/** @type {(op: string, args: any) => any} */ answer) {
    this.state = "ready";
    this.answer = answer;
    /** @type {[string, any][]} */
    this.sent = [];
    /** @type {Record<string, Function>} */
    this.handlers = {};
  }
  on(/** @type {string} */ type, /** @type {Function} */ fn) {
    this.handlers[type] = fn;
    return this;
  }
  request(/** @type {string} */ op, /** @type {any} */ args) {
    this.sent.push([op, args]);
    return Promise.resolve(this.answer(op, args));
  }
}

function storage(items = {}) {
  const m = new Map(Object.entries(items));
  return /** @type {any} */ ({
    getItem: (/** @type {string} */ k) => (m.has(k) ? m.get(k) : null),
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v),
    removeItem: (/** @type {string} */ k) => void m.delete(k),
    m,
  });
}

function make(answer, items = {}) {
  const ref = new FakeReferee(answer);
  /** @type {string[]} */
  const hashes = [];
  const st = storage(items);
  const ctrl = new Controller({ referee: /** @type {any} */ (ref), storage: st, nav: { get: () => "", set: (h, push) => void hashes.push(`${push ? "push" : "replace"}:${h}`) } });
  return { ctrl, ref, hashes, st };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

test("a move applies only what changed: one row, the new facts", async () => {
  let ply = 0;
  const { ctrl, ref } = make((op) => {
    if (op === "state") return { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null };
    if (op === "play") { ply++; return { ok: true, facts: facts(ply), moves: { keep: ply - 1, add: [row(ply)] }, ending: null }; }
    return { ok: true, facts: facts(ply), analysed: { level: 0, final: true } };
  });
  await ctrl.onReady();
  assert.equal(ctrl.state.engine, "ready");
  await ctrl.play("e4");
  await ctrl.play("e5");
  assert.deepEqual(ctrl.state.rows.map((r) => r.ply), [1, 2]);
  assert.equal(ctrl.state.live?.ply, 2);
  assert.deepEqual(ref.sent.filter(([op]) => op === "play").map(([, a]) => a), [{ move: "e4", offer_claim: true }, { move: "e5", offer_claim: true }]);
  assert.ok(ref.sent.some(([op]) => op === "analyse"), "the analysis follows a move");
});

test("where the first search leaves a side open, the next follows at once, the later ones after a pause", async () => {
  let ply = 0;
  const undecided = { white: { answer: "unknown" }, black: { answer: "unknown" } };
  const { ctrl, ref } = make((op, args) => {
    if (op === "state") return { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null };
    if (op === "play") { ply++; return { ok: true, facts: facts(ply, { winnable: undecided }), moves: { keep: ply - 1, add: [row(ply)] }, ending: null }; }
    return { ok: true, facts: facts(ply, { winnable: undecided }), analysed: { level: args.level, final: args.level >= 3 } };
  });
  await ctrl.onReady();
  ref.sent.length = 0;
  await ctrl.play("e4");
  await tick();
  const levels = () => ref.sent.filter(([op]) => op === "analyse").map(([, a]) => a.level);
  assert.deepEqual(levels(), [0, 1], "level 1 without the pause");
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(levels(), [0, 1], "level 2 waits for its pause");
  await new Promise((r) => setTimeout(r, 250));
  assert.deepEqual(levels().slice(0, 3), [0, 1, 2]);
});

test("a move that allows a claim asks first; 'just play' plays it without asking again", async () => {
  const ask = { rule: "threefold_repetition", uci: "f6g8", san: "Ng8", question: "Ng8 repeats the position a third time: claim a draw with this move?" };
  const { ctrl, ref } = make((op, args) => {
    if (op === "play" && args.offer_claim) return { ok: true, ask };
    if (op === "play") return { ok: true, facts: facts(1), moves: { keep: 0, add: [row(1)] }, ending: null };
    if (op === "claim") return { ok: true, facts: facts(1, { outcome: { termination: "threefold_repetition" } }), moves: { keep: 0, add: [row(1)] }, claim: { accepted: true }, ending: { op: "claim" } };
    return { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null };
  });
  await ctrl.onReady();
  await ctrl.play("Ng8");
  assert.deepEqual(ctrl.state.ask, ask);
  assert.equal(ctrl.state.rows.length, 0, "nothing played while asking");
  await ctrl.answerClaimPrompt(false);
  assert.equal(ctrl.state.ask, null);
  assert.deepEqual(ref.sent.filter(([op]) => op === "play").at(-1), ["play", { move: "f6g8", offer_claim: false }]);
  await ctrl.play("Ng8");
  await ctrl.answerClaimPrompt(true);
  assert.deepEqual(ref.sent.filter(([op]) => op === "claim").at(-1), ["claim", { move: "f6g8" }]);
  assert.deepEqual(ctrl.state.ending, { op: "claim" });
});

test("the draw offer comes from the player who has just moved", async () => {
  const { ctrl } = make(() => ({ ok: true, facts: facts(1), moves: { keep: 0, add: [row(1)] }, game: GAME, ending: null }));
  await ctrl.onReady();
  ctrl.offerDraw();
  assert.equal(ctrl.state.offer?.by, "white");
  assert.equal(ctrl.dismiss(), true, "Escape declines it");
  assert.equal(ctrl.state.offer, null);
});

test("new game asks before replacing a game; 'keep' changes nothing", async () => {
  const { ctrl, ref } = make((op) => op === "new"
    ? { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null }
    : { ok: true, facts: facts(1), moves: { keep: 0, add: [row(1)] }, game: GAME, ending: null });
  await ctrl.onReady();
  ctrl.newGame();
  assert.ok(ctrl.state.confirm, "asked");
  ctrl.answerConfirm(false);
  await tick();
  assert.ok(!ref.sent.some(([op]) => op === "new"));
  ctrl.newGame();
  ctrl.answerConfirm(true);
  await ctrl.queue;
  assert.ok(ref.sent.some(([op]) => op === "new"));
});

test("a corrupted saved game starts a clean game with a message, and is removed", async () => {
  const { ctrl, ref, st } = make(() => ({ ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null }),
    { [STORE_KEY]: '{"fen":5}' });
  await ctrl.onReady();
  assert.equal(ctrl.state.engine, "ready");
  assert.match(ctrl.state.error?.message || "", /could not be restored/);
  assert.ok(!ref.sent.some(([op]) => op === "restore"));
  await tick();
  assert.equal(st.m.has(STORE_KEY), true, "saved again as the new game"); // save() after the state reply
  assert.doesNotMatch(st.m.get(STORE_KEY), /"fen":5/);
});

test("a saved game is restored in one request", async () => {
  const saved = JSON.stringify({ start_fen: GAME.start_fen, chess960: false, moves: ["e2e4", "e7e5", "g1f3"], ending: null, headers: {} });
  const { ctrl, ref } = make(() => ({ ok: true, facts: facts(3), moves: { keep: 0, add: [row(1), row(2), row(3)] }, game: GAME, ending: null }),
    { [STORE_KEY]: saved });
  await ctrl.onReady();
  const restores = ref.sent.filter(([op]) => op === "restore");
  assert.equal(restores.length, 1);
  assert.deepEqual(restores[0][1].moves, ["e2e4", "e7e5", "g1f3"]);
  assert.equal(ref.sent.filter(([op]) => op === "play").length, 0);
  assert.equal(ctrl.state.rows.length, 3);
});

test("a board move picks the bridge's move; a promotion asks for the piece; Escape closes it", async () => {
  const { ctrl, ref } = make(() => ({ ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null }));
  await ctrl.onReady();
  assert.equal(ctrl.boardMove("e2", "e4"), "played");
  await ctrl.queue;
  assert.deepEqual(ref.sent.filter(([op]) => op === "play").at(-1), ["play", { move: "e2e4", offer_claim: true }]);
  assert.equal(ctrl.boardMove("e7", "e8"), "promotion");
  assert.deepEqual(ctrl.state.promotion?.map((m) => m.uci), ["e7e8q", "e7e8n"]);
  assert.equal(ctrl.dismiss(), true);
  assert.equal(ctrl.state.promotion, null);
  assert.equal(ctrl.boardMove("a1", "a8"), "rejected");
});

test("a promotion typed without a piece opens the chooser", async () => {
  const choices = [{ uci: "e7e8q", san: "e8=Q", from: "e7", to: "e8", promotion: "q" }];
  const { ctrl } = make((op) => op === "play"
    ? { ok: false, error: { code: "promotion_needed", message: "1.e8: choose the piece to promote to", choices } }
    : { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null });
  await ctrl.onReady();
  await ctrl.play("e8");
  assert.deepEqual(ctrl.state.promotion, choices);
  assert.equal(ctrl.state.error, null);
});

test("an error is shown and Escape dismisses it", async () => {
  const { ctrl } = make((op) => op === "play"
    ? { ok: false, error: { code: "illegal_move", message: "3...Qxz9 is not legal here" } }
    : { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null });
  await ctrl.onReady();
  await ctrl.play("Qxz9");
  assert.equal(ctrl.state.error?.message, "3...Qxz9 is not legal here");
  assert.equal(ctrl.dismiss(), true);
  assert.equal(ctrl.state.error, null);
});

test("the analysis goes one level deeper while a side is undecided, and stops when a newer action comes", async () => {
  const undecided = { white: { answer: "unknown" }, black: { answer: "yes" } };
  /** @type {number[]} */
  const levels = [];
  const { ctrl } = make((op, args) => {
    if (op === "analyse") {
      levels.push(args.level);
      const final = args.level === 3;
      return { ok: true, facts: facts(0, { winnable: final ? { white: { answer: "no" }, black: { answer: "yes" } } : undecided }), analysed: { level: args.level, final } };
    }
    return { ok: true, facts: facts(0, { winnable: undecided }), moves: { keep: 0, add: [] }, game: GAME, ending: null };
  });
  await ctrl.onReady();
  for (let i = 0; i < 400 && !ctrl.isIdle(); i++) await tick();
  await tick();
  assert.deepEqual(levels, [0, 1, 2, 3]);
  assert.equal(ctrl.state.live?.winnable.white.answer, "no");
  assert.ok(ctrl.isIdle());
});

test("features get events: a move, each reply", async () => {
  let ply = 0;
  const { ctrl } = make((op) => {
    if (op === "play") { ply++; return { ok: true, facts: facts(ply), moves: { keep: ply - 1, add: [row(ply)] }, ending: null }; }
    return { ok: true, facts: facts(ply), moves: { keep: 0, add: [] }, game: GAME, ending: null };
  });
  /** @type {any[]} */
  const moves = [];
  /** @type {string[]} */
  const replies = [];
  ctrl.on("move", (r) => moves.push(r));
  ctrl.on("reply", (op) => replies.push(op));
  await ctrl.onReady();
  await ctrl.play("e4");
  assert.deepEqual(moves.map((m) => m.ply), [1]);
  assert.ok(replies.includes("state") && replies.includes("play"));
});

test("a request that changes the page says 'not idle' at once, before its reply", async () => {
  let ply = 0;
  const { ctrl } = make((op) => {
    if (op === "play") { ply++; return { ok: true, facts: facts(ply), moves: { keep: ply - 1, add: [row(ply)] }, ending: null }; }
    return { ok: true, facts: facts(ply), moves: { keep: 0, add: [] }, game: GAME, ending: null };
  });
  await ctrl.onReady();
  for (let i = 0; i < 400 && !ctrl.isIdle(); i++) await tick();
  /** @type {boolean[]} */
  const seen = [];
  ctrl.redraw.add("hooks", { render: () => seen.push(ctrl.isIdle()) });
  const p = ctrl.play("e4");
  assert.deepEqual(seen, [], "drawn at the end of the task, not at each change");
  await Promise.resolve();
  assert.deepEqual(seen, [false], "the hook flips before the worker answers");
  await p;
});

test("before the referee is ready the board shows the saved position, and no move is allowed", async () => {
  const AFTER = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
  const saved = JSON.stringify({ start_fen: GAME.start_fen, chess960: false, moves: ["e2e4", "e7e5", "g1f3"], ending: null, headers: {}, fen: AFTER });
  const { ctrl, st } = make(() => ({ ok: true, facts: facts(3), moves: { keep: 0, add: [row(1), row(2), row(3)] }, game: GAME, ending: null }),
    { [STORE_KEY]: saved });
  assert.deepEqual(ctrl.state.early, { fen: AFTER, known: true });
  assert.equal(ctrl.shownFen(), AFTER);
  assert.equal(ctrl.state.engine, "loading");
  assert.equal(ctrl.canMove(), false);
  await ctrl.onReady();
  assert.equal(ctrl.shownFen(), "fen3", "then the referee's position");
  await tick();
  assert.equal(JSON.parse(st.m.get(STORE_KEY)).fen, "fen3", "the live position is saved with the game");
});

/** A referee that answers a game of `ply` plies; flag, resign and claim end it when `ends`. */
function endingReferee(ply, ends = true) {
  const over = (/** @type {string} */ termination) => facts(ply, { outcome: { headline: "over", reason: termination, termination } });
  return make((op) => {
    if (op === "state") return { ok: true, facts: facts(ply), moves: { keep: 0, add: [] }, game: GAME, ending: null };
    if (op === "play") return { ok: true, ask: { uci: "f6g8", question: "Claim a draw with this move?" } };
    if (op === "flag") return { ok: true, facts: over("time_forfeit"), ending: { op: "flag" } };
    if (op === "resign") return { ok: true, facts: over("resignation"), ending: { op: "resign" } };
    if (op === "claim") return ends ? { ok: true, facts: over("threefold_repetition"), claim: { accepted: true, headline: "ok", text: "" } }
      : { ok: true, facts: facts(ply), claim: { accepted: false, headline: "no", text: "" } };
    return { ok: true, facts: facts(ply), analysed: { level: 0, final: true } };
  });
}

test("resigning asks once, then resigns; Keep playing leaves the game as it is", async () => {
  const { ctrl, ref } = endingReferee(3);
  await ctrl.onReady();
  ctrl.resign("white");
  assert.equal(ref.sent.filter(([op]) => op === "resign").length, 0, "nothing is sent before the answer");
  assert.equal(ctrl.state.confirm?.kind, "game");
  assert.match(ctrl.state.confirm?.text ?? "", /Resign for White\? .*Black wins/);
  ctrl.answerConfirm(false);
  assert.equal(ctrl.state.confirm, null);
  assert.equal(ref.sent.filter(([op]) => op === "resign").length, 0);
  ctrl.resign("white");
  ctrl.answerConfirm(true);
  await ctrl.queue;
  assert.deepEqual(ref.sent.filter(([op]) => op === "resign"), [["resign", { color: "white" }]]);
  assert.equal(ctrl.state.confirm, null, "asked once: no second question");
});

test("against the computer the visitor resigns and claims only for their own side", async () => {
  const { ctrl, ref } = endingReferee(3, false); // Black to move
  await ctrl.onReady();
  ctrl.setSeats({ white: true, black: false });
  assert.equal(ctrl.mayAct("black"), false);
  ctrl.resign("black");
  assert.equal(ctrl.state.confirm, null);
  assert.equal(ctrl.state.error?.code, "not_your_side");
  assert.match(ctrl.state.error?.message ?? "", /Black is played by the computer/);
  assert.equal(await ctrl.claim(null), null, "no claim for the computer's side");
  assert.equal(ref.sent.filter(([op]) => op === "claim").length, 0);
  await ctrl.claim(null, { forComputer: true }); // the computer claims for itself
  assert.deepEqual(ref.sent.filter(([op]) => op === "claim"), [["claim", { move: null }]]);
  ctrl.resign("white");
  assert.equal(/** @type {any} */ (ctrl.state).confirm?.kind, "game");
});

test("the game ending closes every question about it: the claim prompt, an offer, a resignation", async () => {
  const { ctrl } = endingReferee(7);
  await ctrl.onReady();
  await ctrl.play("f6g8");
  assert.ok(ctrl.state.ask, "the claim prompt is open");
  ctrl.offerDraw();
  assert.ok(ctrl.state.offer);
  await ctrl.flag("black"); // the clocks: Black's flag fell while the prompt was open
  assert.equal(ctrl.state.live?.outcome?.termination, "time_forfeit");
  assert.equal(ctrl.state.ask, null);
  assert.equal(ctrl.state.offer, null);
  assert.equal(await ctrl.answerClaimPrompt(true), null, "the prompt's claim does nothing now");

  const other = endingReferee(7);
  await other.ctrl.onReady();
  other.ctrl.resign("black");
  await other.ctrl.flag("white");
  assert.equal(other.ctrl.state.confirm, null, "the resignation question closed with the game");
});

test("a claim is announced to the features before it is sent (the clocks stop for it)", async () => {
  const { ctrl, ref } = endingReferee(3, false);
  await ctrl.onReady();
  /** @type {string[]} */
  const seen = [];
  ctrl.on("acting", (/** @type {string} */ op) => seen.push(`${op}:${ref.sent.filter(([o]) => o === op).length}`));
  await ctrl.claim(null);
  assert.deepEqual(seen, ["claim:0"]);
});

test("moves made while the referee starts are kept and judged in order once it is ready; a refusal drops the rest", async () => {
  let ply = 0;
  const { ctrl, ref } = make((op, args) => {
    if (op === "state") return { ok: true, facts: facts(0), moves: { keep: 0, add: [] }, game: GAME, ending: null };
    if (op === "play" && args.move === "Ke9") return { ok: false, error: { code: "illegal_move", message: "Ke9 is not a move" } };
    if (op === "play") { ply++; return { ok: true, facts: facts(ply), moves: { keep: ply - 1, add: [row(ply)] }, ending: null }; }
    return { ok: true, facts: facts(ply), analysed: { level: 0, final: true } };
  });
  ref.state = "loading"; // the controller starts "loading" until onReady
  assert.equal(ctrl.boardMove("e2", "e4"), "played");
  await ctrl.play("e5");
  await ctrl.play("Ke9");
  await ctrl.play("Nf3");
  assert.deepEqual(ctrl.state.queued, ["e2e4", "e5", "Ke9", "Nf3"]);
  assert.equal(ref.sent.length, 0, "nothing is sent before the referee is ready");
  ref.state = "ready";
  await ctrl.onReady();
  await tick();
  const played = ref.sent.filter(([op]) => op === "play").map(([, a]) => a.move);
  assert.deepEqual(played, ["e2e4", "e5", "Ke9"], "in order, up to the refused one");
  assert.deepEqual(ctrl.state.queued, []);
  assert.equal(ctrl.state.live?.ply, 2);
  assert.equal(ctrl.state.error?.code, "illegal_move");
});

test("no move is kept while the board shows only the start of a game to replay", async () => {
  const ref = new FakeReferee(() => ({ ok: true }));
  ref.state = "loading";
  const ctrl = new Controller({ referee: /** @type {any} */ (ref), storage: storage(), nav: { get: () => "m=e2e4,e7e5", set: () => {} } });
  assert.equal(ctrl.state.early.known, false);
  await ctrl.play("Nf3");
  assert.deepEqual(ctrl.state.queued, []);
  assert.match(ctrl.state.error?.message || "", /still replaying/);
});
