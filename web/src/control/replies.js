// SPDX-License-Identifier: GPL-3.0-or-later
// What the referee's answer to an action does to the state: each field of a
// reply in turn, then what the operation closes, or a refusal. The parts
// changed are collected for the one redraw that follows (control/redraw.js).
import { REPLACES_GAME } from "../contract.js";
import { t } from "../i18n.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").Answer_} Answer */
/** @typedef {import("../contract.js").Reply} Reply */
/** @typedef {import("./state.js").CtrlState} CtrlState */
/** @typedef {import("./state.js").Part} Part */

const REPLACING = new Set(/** @type {readonly string[]} */ (REPLACES_GAME));
/** The operations that change the game (a claim's verdict and an offer do not outlive them). */
export const CHANGING = new Set(["new", "play", "undo", "load_pgn", "claim", "agree", "resign", "flag", "restore", "state"]);

/**
 * @typedef {{s: CtrlState, op: string, args: Record<string, unknown>, r: Answer, parts: Set<Part>,
 *   played: boolean}} ApplyCtx
 */

/**
 * What each field of a successful reply does to the state, in the order
 * applied (a field absent or null does nothing), and the parts it changes.
 * @type {Array<[keyof Reply, (c: ApplyCtx) => void]>}
 */
const APPLY_FIELD = [
  ["ask", ({ s, r, parts }) => {
    s.ask = r.ask ?? null;
    parts.add("dialogs");
  }],
  ["games", ({ s, r, args, parts }) => {
    s.pgnGames = { pgn: String(args.pgn || ""), games: r.games ?? [] };
    parts.add("dialogs");
  }],
  ["pgn", ({ s, r, parts }) => {
    s.exported = r.pgn ?? "";
    parts.add("export");
  }],
  ["moves", (c) => {
    const { s, parts } = c;
    const { keep, add } = /** @type {import("../contract.js").MovesDelta} */ (c.r.moves);
    if (keep === s.rows.length) s.rows.push(...add);
    else s.rows = s.rows.slice(0, keep).concat(add);
    s.rowsChange = { keep, added: add.length };
    c.played = c.op === "play" || c.op === "claim" ? add.length > 0 : false;
    parts.add("moves");
  }],
  ["game", ({ s, r, parts }) => {
    s.game = r.game ?? null;
    parts.add("game");
  }],
  ["facts", ({ s, r, parts }) => {
    const facts = /** @type {import("../contract.js").Facts} */ (r.facts);
    s.live = facts;
    s.browse = null;
    s.browseFacts = null;
    parts.add("board").add("panel").add("browse");
    // a question about the position before this answer is stale now
    if (s.ask && !r.ask) {
      s.ask = null;
      parts.add("dialogs");
    }
    if (facts.outcome) closeForEnd(s, parts);
  }],
];

/**
 * Apply a successful answer: each field through APPLY_FIELD, then what the
 * operation closes. Returns whether a move was added (the "move" event).
 * @param {CtrlState} s @param {string} op @param {Record<string, unknown>} args @param {Answer} r @param {Set<Part>} parts
 */
export function applyReply(s, op, args, r, parts) {
  if (s.error) {
    s.error = null;
    parts.add("error");
  }
  /** @type {ApplyCtx} */
  const ctx = { s, op, args, r, parts, played: false };
  for (const [field, applyField] of APPLY_FIELD) if (r[field] != null) applyField(ctx);
  if (r.ending !== undefined) s.ending = r.ending;
  closeForOp(s, op, r, parts);
  s.seq++;
  return ctx.played;
}

/**
 * A refused action: the promotion chooser when the move needs a piece,
 * else the error. Returns the error.
 * @param {CtrlState} s @param {string} op @param {Answer} r @param {Set<Part>} parts
 */
export function applyRefusal(s, op, r, parts) {
  const err = r.error || { code: "internal", message: t("no answer") };
  if (err.code === "promotion_needed" && err.choices && err.choices.length) {
    s.promotion = err.choices;
    s.error = null;
    parts.add("dialogs");
  } else {
    s.error = err;
    parts.add("error");
  }
  if (op === "restore" || op === "load_pgn" || op === "new") parts.add("dialogs");
  s.seq++;
  return err;
}

/**
 * What an operation closes once answered: a claim's verdict stays until
 * the next change of the game; a change drops the offer and the export;
 * a replaced game drops the PGN game picker.
 * @param {CtrlState} s @param {string} op @param {Answer} r @param {Set<Part>} parts
 */
function closeForOp(s, op, r, parts) {
  if (op === "claim") {
    s.claim = r.claim || null;
    parts.add("panel");
  } else if (CHANGING.has(op) && s.claim) {
    s.claim = null;
    parts.add("panel");
  }
  if (CHANGING.has(op) && r.facts) {
    s.offer = null;
    s.exported = "";
    parts.add("dialogs").add("export");
  }
  if (REPLACING.has(op) && r.game && op !== "set_language") {
    s.pgnGames = null;
    parts.add("dialogs");
  }
}

/**
 * The game has ended: every question about it closes (the claim prompt,
 * a draw offer, the promotion chooser, a resignation being confirmed), so
 * that none can act on a finished game.
 * @param {CtrlState} s @param {Set<Part>} parts
 */
export function closeForEnd(s, parts) {
  if (s.ask || s.offer || s.promotion || (s.confirm && s.confirm.kind === "game")) parts.add("dialogs").add("board");
  s.ask = null;
  s.offer = null;
  s.promotion = null;
  if (s.confirm && s.confirm.kind === "game") s.confirm = null;
}
