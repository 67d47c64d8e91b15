// SPDX-License-Identifier: GPL-3.0-or-later
// Saving and sharing a game: the record kept in localStorage and the URL
// hash, as pure functions (the controller calls them; no DOM here). What is
// read back is validated: a corrupted record never reaches the referee.
import { t } from "./i18n.js";


/** @typedef {import("./contract.js").Ending} Ending */

export const STORE_KEY = "pychessdraw.game.v1";
export const PREFS_KEY = "pychessdraw.prefs.v1";
export const STD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const ENDINGS = ["agree", "resign", "flag", "claim", "recorded"];
const UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;
const MAX_MOVES = 20000;

/**
 * @typedef {Object} GameRecord
 * @property {string} start_fen
 * @property {boolean} chess960
 * @property {string[]} moves  UCI
 * @property {Ending|null} ending
 * @property {Record<string, string>} headers
 * @property {"fide"|"uscf"|null} [flag_rules]  the flag-fall rules in force (a reload keeps them)
 */

/** @returns {GameRecord} */
export function emptyRecord() {
  return { start_fen: STD_FEN, chess960: false, moves: [], ending: null, headers: {} };
}

/** @param {GameRecord} rec */
export function isEmpty(rec) {
  return rec.start_fen === STD_FEN && !rec.chess960 && !rec.moves.length && !rec.ending;
}

/**
 * Check a record read back from storage or a link.
 * @param {unknown} raw
 * @returns {Checked}
 */
export function validateRecord(raw) {
  if (raw == null || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, problem: t("it is not a saved game") };
  const r = /** @type {Record<string, unknown>} */ (raw);
  if (r.fen != null && typeof r.fen !== "string") return { ok: false, problem: t("its position is not a FEN") };
  const start = r.start_fen == null ? STD_FEN : r.start_fen;
  if (typeof start !== "string" || start.length > 200 || !start.trim()) return { ok: false, problem: t("its start position is not a FEN") };
  if (r.chess960 != null && typeof r.chess960 !== "boolean") return { ok: false, problem: t("its Chess960 flag is not true or false") };
  const moves = r.moves == null ? [] : r.moves;
  if (!Array.isArray(moves) || moves.length > MAX_MOVES) return { ok: false, problem: t("its moves are not a list") };
  for (let i = 0; i < moves.length; i++) {
    if (typeof moves[i] !== "string" || !UCI.test(moves[i])) {
      return { ok: false, problem: t("its move {n} is not a move", { n: i + 1 }) };
    }
  }
  /** @type {Ending|null} */
  let ending = null;
  if (r.ending != null) {
    const e = /** @type {any} */ (r.ending); // any: read back from storage, each field is checked below
    if (typeof e !== "object" || !ENDINGS.includes(e.op)) return { ok: false, problem: t("its ending is not one the page knows") };
    const color = e.color ?? e.args?.color; // older records kept {op, args: {color}}
    if ((e.op === "resign" || e.op === "flag") && color !== "white" && color !== "black") return { ok: false, problem: t("its ending names no side") };
    ending = color ? { op: e.op, color } : { op: e.op };
    if (e.op === "claim" && e.auto === true && color) ending.auto = true; // made by the auto-claim setting
  }
  /** @type {Record<string, string>} */
  const headers = {};
  if (r.headers != null) {
    if (typeof r.headers !== "object" || Array.isArray(r.headers)) return { ok: false, problem: t("its PGN tags are broken") };
    for (const [k, v] of Object.entries(/** @type {object} */ (r.headers))) {
      if (typeof v !== "string") return { ok: false, problem: t("its PGN tags are broken") };
      headers[k] = v;
    }
  }
  const fen = typeof r.fen === "string" && looksLikeFen(r.fen) ? r.fen : null;
  /** @type {{flag_rules?: "fide"|"uscf"}} */
  const rules = r.flag_rules === "fide" || r.flag_rules === "uscf" ? { flag_rules: r.flag_rules } : {}; // older records: the referee's default
  return { ok: true, record: { start_fen: start.trim(), chess960: !!r.chess960, moves: /** @type {string[]} */ (moves), ending, headers, ...rules }, fen };
}

// The shape of a FEN's placement and side to move, enough to draw it; whether
// it is a legal position is the referee's to say.
const FEN_SHAPE = /^(?:[1-8pnbrqkPNBRQK]{1,8}\/){7}[1-8pnbrqkPNBRQK]{1,8} [wb](?: |$)/;

/** @param {string} fen */
export function looksLikeFen(fen) {
  return fen.length <= 200 && FEN_SHAPE.test(fen);
}

/**
 * The position to draw before the referee has started: the one it will
 * start from (the game of the URL hash, else the one saved here, else a new
 * game), chosen as Controller.onReady chooses. known: false when the game has
 * moves and the position they lead to is not kept here (a link made on another
 * device): its start position is drawn until the referee has replayed them.
 * Only the FEN's shape is checked; the referee judges the game when it
 * restores it (and starts a new game, with a message, if it refuses it).
 * @param {string} hash
 * @param {Pick<Storage, "getItem">} storage
 * @returns {{fen: string, known: boolean}}
 */
export function positionBeforeReferee(hash, storage) {
  const fromHash = decodeHash(hash);
  const stored = loadRecord(storage);
  const pick = fromHash || stored;
  if (!pick || !pick.ok || isEmpty(pick.record)) return { fen: STD_FEN, known: true };
  const rec = pick.record;
  if (!looksLikeFen(rec.start_fen)) return { fen: STD_FEN, known: false };
  if (!rec.moves.length) return { fen: rec.start_fen, known: true };
  // the hash and the saved record hold the same game after any change made here
  const same = stored && stored.ok && stored.record.start_fen === rec.start_fen && stored.record.moves.join() === rec.moves.join();
  if (same && stored.fen) return { fen: stored.fen, known: true };
  return { fen: rec.start_fen, known: false };
}

/**
 * The URL hash of a record ("" for a new standard game).
 * @param {GameRecord} rec
 */
export function encodeHash(rec) {
  const p = new URLSearchParams();
  if (rec.start_fen !== STD_FEN) p.set("fen", rec.start_fen);
  if (rec.chess960) p.set("c960", "1");
  if (rec.moves.length) p.set("m", rec.moves.join(","));
  if (rec.ending) p.set("end", rec.ending.op + (rec.ending.color ? `:${rec.ending.color}` : ""));
  if (rec.ending && rec.ending.op === "recorded") {
    if (rec.headers.Result) p.set("res", rec.headers.Result);
    if (rec.headers.Termination) p.set("term", rec.headers.Termination);
  }
  return p.toString();
}

/**
 * fen: the FEN of the game's last position, kept beside a record saved on
 * this device (null in a URL hash, in older records, or when malformed).
 * @typedef {{ok: true, record: GameRecord, fen?: string|null} | {ok: false, problem: string}} Checked
 */

/**
 * Read a hash back; null when it holds no game, {ok: false} when broken.
 * @param {string} hash  with or without the leading "#"
 * @returns {Checked|null}
 */
export function decodeHash(hash) {
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!text) return null;
  const p = new URLSearchParams(text);
  if (!p.has("m") && !p.has("fen") && !p.has("end") && !p.has("c960")) return null;
  /** @type {Record<string, unknown>} */
  const raw = {
    start_fen: p.get("fen") || STD_FEN,
    chess960: p.get("c960") === "1",
    moves: (p.get("m") || "").split(",").filter(Boolean),
    ending: null,
    headers: {},
  };
  const end = p.get("end");
  if (end) {
    const [op, color] = end.split(":");
    raw.ending = color ? { op, color } : { op };
    /** @type {Record<string, string>} */
    const headers = {};
    const res = p.get("res");
    const term = p.get("term");
    if (res) headers.Result = res;
    if (term) headers.Termination = term;
    raw.headers = headers;
  }
  return validateRecord(raw);
}

/**
 * Read the saved game: null when none, {ok: false, problem} when it is broken.
 * @param {Pick<Storage, "getItem">} storage
 * @returns {Checked|null}
 */
export function loadRecord(storage) {
  let text;
  try {
    text = storage.getItem(STORE_KEY);
  } catch {
    return null; // storage disabled
  }
  if (text == null) return null;
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: t("it is not valid JSON") };
  }
  return validateRecord(raw);
}

/**
 * @param {Pick<Storage, "setItem">} storage
 * @param {GameRecord} rec
 * @param {string|null} [fen]  the game's last position, drawn at the next load before the referee has started
 */
export function saveRecord(storage, rec, fen = null) {
  try {
    storage.setItem(STORE_KEY, JSON.stringify(fen ? { ...rec, fen } : rec));
    return true;
  } catch {
    return false; // private mode or quota: the URL hash still holds the game
  }
}

/** @param {Pick<Storage, "removeItem">} storage */
export function clearRecord(storage) {
  try {
    storage.removeItem(STORE_KEY);
  } catch {
    /* nothing to clear */
  }
}

/**
 * The requests that rebuild a record in the referee: one "restore".
 * @param {GameRecord} rec
 * @returns {Record<string, unknown>}
 */
export function restoreArgs(rec) {
  return {
    start_fen: rec.start_fen === STD_FEN ? null : rec.start_fen,
    chess960: rec.chess960,
    moves: rec.moves,
    ending: rec.ending,
    headers: rec.headers,
    ...(rec.flag_rules ? { flag_rules: rec.flag_rules } : {}),
  };
}

/** @param {Pick<Storage, "getItem">} storage @returns {{orientation: "white"|"black"}} */
export function loadPrefs(storage) {
  try {
    const p = JSON.parse(storage.getItem(PREFS_KEY) || "null");
    return { orientation: p && p.orientation === "black" ? "black" : "white" };
  } catch {
    return { orientation: "white" };
  }
}

/** @param {Pick<Storage, "setItem">} storage @param {{orientation: "white"|"black"}} prefs */
export function savePrefs(storage, prefs) {
  try {
    storage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    /* not saved */
  }
}
