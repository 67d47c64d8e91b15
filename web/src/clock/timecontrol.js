// SPDX-License-Identifier: GPL-3.0-or-later
// Time controls as players type them: "untimed", presets such as "3+2"
// (minutes + increment in seconds, fractional minutes allowed: "0.05+0" is
// 3 s) and US Chess delay "M d D" (minutes, then a delay of D seconds at the
// start of every move before the clock counts down). Pure: no DOM, no time.
import { t } from "../i18n.js";


/**
 * @typedef {{kind: "untimed", text: string}} UntimedControl
 * @typedef {{kind: "increment", text: string, baseMs: number, incrementMs: number}} IncrementControl
 * @typedef {{kind: "delay", text: string, baseMs: number, delayMs: number}} DelayControl
 * @typedef {UntimedControl | IncrementControl | DelayControl} TimeControl
 */

/** The presets the page offers, fastest first. */
export const PRESETS = Object.freeze(["1+0", "3+2", "5+0", "10+5", "15+10", "90+30"]);

/** The default: no clocks. */
export const UNTIMED = Object.freeze(/** @type {UntimedControl} */ ({ kind: "untimed", text: "untimed" }));

/** Longest base time accepted (a day), so typos do not make absurd clocks. */
const MAX_BASE_MS = 24 * 3600 * 1000;
/** Longest increment or delay accepted (an hour). */
const MAX_STEP_MS = 3600 * 1000;

export class TimeControlError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "TimeControlError";
    this.code = "bad_time_control";
  }
}

const NUMBER = String.raw`(\d+(?:\.\d*)?|\.\d+)`;
const INCREMENT = new RegExp(String.raw`^${NUMBER}\s*\+\s*${NUMBER}$`);
const DELAY = new RegExp(String.raw`^${NUMBER}\s*d\s*${NUMBER}$`, "i");
const MINUTES_ONLY = new RegExp(String.raw`^${NUMBER}$`);

/**
 * Parse a time control. Accepts "untimed" (also "", "-", "none"), "M+I",
 * "M" (no increment) and "M d D"; spaces around the signs are allowed.
 * Times are rounded to whole milliseconds. Throws TimeControlError with a
 * message for people on anything else, on a zero base time, and on base
 * times over a day or steps over an hour.
 * @param {string} text
 * @returns {TimeControl}
 */
export function parseTimeControl(text) {
  const spec = String(text ?? "").trim();
  if (spec === "" || spec === "-" || /^(untimed|none|no clock|off)$/i.test(spec)) return UNTIMED;
  let m = INCREMENT.exec(spec);
  if (m) {
    const baseMs = minutesToMs(m[1]);
    const incrementMs = secondsToMs(m[2]);
    return { kind: "increment", text: `${trimNumber(m[1])}+${trimNumber(m[2])}`, baseMs, incrementMs };
  }
  m = DELAY.exec(spec);
  if (m) {
    const baseMs = minutesToMs(m[1]);
    const delayMs = secondsToMs(m[2]);
    return { kind: "delay", text: `${trimNumber(m[1])} d ${trimNumber(m[2])}`, baseMs, delayMs };
  }
  m = MINUTES_ONLY.exec(spec);
  if (m) {
    return { kind: "increment", text: `${trimNumber(m[1])}+0`, baseMs: minutesToMs(m[1]), incrementMs: 0 };
  }
  throw new TimeControlError(
    t('time control {text} not understood: use minutes+increment (e.g. 3+2, 0.05+0), minutes d delay (e.g. 5 d 3, US Chess delay) or "untimed"',
      { text: JSON.stringify(spec) }),
  );
}

/** @param {string} s */
function minutesToMs(s) {
  const ms = Math.round(Number(s) * 60_000);
  if (!(ms > 0)) throw new TimeControlError(t("the base time must be more than 0 minutes"));
  if (ms > MAX_BASE_MS) throw new TimeControlError(t("the base time must be at most 1440 minutes (a day)"));
  return ms;
}

/** @param {string} s */
function secondsToMs(s) {
  const ms = Math.round(Number(s) * 1000);
  if (ms > MAX_STEP_MS) throw new TimeControlError(t("an increment or delay must be at most 3600 seconds"));
  return ms;
}

/** "05" -> "5", "0.50" -> "0.5", ".5" -> "0.5". @param {string} s */
function trimNumber(s) {
  return String(Number(s));
}

/** @param {TimeControl} tc */
export function isTimed(tc) {
  return tc.kind !== "untimed";
}

/**
 * The time control as seconds for the bridge and the PGN TimeControl tag:
 * `{base_s, increment_s, delay_s}`, or null when untimed.
 * @param {TimeControl} tc
 * @returns {{base_s: number, increment_s: number, delay_s: number} | null}
 */
export function timeControlSeconds(tc) {
  if (tc.kind === "untimed") return null;
  return {
    base_s: tc.baseMs / 1000,
    increment_s: tc.kind === "increment" ? tc.incrementMs / 1000 : 0,
    delay_s: tc.kind === "delay" ? tc.delayMs / 1000 : 0,
  };
}
