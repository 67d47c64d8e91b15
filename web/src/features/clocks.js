// SPDX-License-Identifier: GPL-3.0-or-later
// The clocks feature: two clock faces at the board, one touching its top
// edge (the side at the top; Flip swaps them) and one its bottom edge, as on
// the chess sites; the time control (presets or typed, Enter applies),
// pause/resume and the flag-fall rules with the game's other settings. A
// face shows the time ("1:23:45", tenths under 10 s), and its state as a
// class and an icon (running, paused, low, flagged), never as words that
// could overflow it. State and timing live in clock/keeper.js; this file
// only draws and forwards clicks. An untimed game shows no faces (the board
// keeps its size).
//
// Low time can also beep (a setting, off by default, remembered on the
// device): one short WebAudio tone when the player's own clock turns low,
// no sound file fetched.
//
// Hooks: time-control, clock-white / clock-black (data-ms, data-running,
// data-low, data-state: idle, running, paused, flagged), clock-pause,
// flag-rules, clock-note, clocks (the strip below the board), clock-top,
// low-time-sound (checkbox; data-beeps counts the beeps played).
import { t } from "../i18n.js";
import { audioContext, audioMade, resumeAudio } from "../ui/audio.js";
import { tAttr, tText } from "../ui/language.js";

import { ClockKeeper } from "../clock/keeper.js";
import { formatClock } from "../clock/clock.js";
import { PRESETS } from "../clock/timecontrol.js";
import { closestTo, el, setText } from "../ui/dom.js";
import { GAIN, loadVolume } from "./sounds.js";
import { DEFAULT_VIEW, VIEW_EVENT } from "../ui/views.js";
import { LAWS } from "../contract.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../clock/keeper.js").SideShown} SideShown */
/** @typedef {import("../clock/keeper.js").ClocksShown} ClocksShown */
/** @typedef {{box: HTMLElement, time: HTMLElement, color: "white" | "black"}} Face */

/** @param {"white" | "black"} color */
const clockName = (color) => (color === "white" ? t("White's clock") : t("Black's clock"));

/** @param {"white" | "black"} color @returns {Face} */
function makeFace(color) {
  const time = el("span", { class: "clock-time" }, "–");
  const box = el("div", { class: `clock clock-${color}`,
    dataset: { testid: `clock-${color}`, ms: "", running: "false", state: "idle" },
    attrs: { role: "timer", "aria-label": clockName(color) } },
  el("span", { class: "clock-state", attrs: { "aria-hidden": "true" } }),
  el("span", { class: "clock-who" }, color === "white" ? tText("White") : tText("Black")), time);
  return { box, time, color };
}

/**
 * The strip on one edge of the board: index.html's, else a new one.
 * @param {string} cls @param {string} testid @param {InsertPosition} where  beside the board
 * @returns {HTMLElement}
 */
function slot(cls, testid, where) {
  const found = document.querySelector(`.${cls}`);
  if (found instanceof HTMLElement) return found;
  const made = el("div", { class: `clock-slot ${cls}`, dataset: { testid } });
  if (testid === "clocks") made.id = "clocks";
  /** @type {HTMLElement} */ (document.querySelector(".board-wrap")).insertAdjacentElement(where, made);
  return made;
}

/**
 * The state a face shows: the flag fell, its clock runs, the clocks are
 * paused (on the side to move), or nothing.
 * @param {SideShown} side @param {boolean} flagged @param {ClocksShown} v @param {boolean} toMove
 */
function faceState(side, flagged, v, toMove) {
  if (flagged) return "flagged";
  if (side.running) return "running";
  return v.paused && toMove && !v.over ? "paused" : "idle";
}

/** @param {Face} f @param {SideShown} side @param {string} state */
function paint(f, side, state) {
  const ms = side.ms;
  setText(f.time, ms == null ? "–" : formatClock(ms));
  f.box.dataset.ms = ms == null ? "" : String(Math.max(0, Math.round(ms)));
  f.box.dataset.running = String(side.running);
  f.box.dataset.low = String(side.low);
  f.box.dataset.state = state;
  f.box.classList.toggle("running", side.running);
  f.box.classList.toggle("low", side.low && ms != null);
  f.box.classList.toggle("flagged", state === "flagged");
  f.box.classList.toggle("paused", state === "paused");
  // the state is read out with the name, not shown as words on the face
  const words = { flagged: () => t("flag fell"), running: () => t("running"), paused: () => t("paused"), idle: () => "" }[state];
  const low = side.low && ms != null && state !== "flagged" ? t("low on time") : "";
  const label = [clockName(f.color), words ? words() : "", low].filter(Boolean).join(t(", "));
  if (f.box.getAttribute("aria-label") !== label) f.box.setAttribute("aria-label", label);
}

/**
 * The note under the time control: an error, the keeper's note, or what the
 * clocks are waiting for; empty (hidden) while they simply run.
 * @param {ClocksShown} v
 */
function noteText(v) {
  if (v.error != null) return v.error;
  if (v.note) return v.note;
  if (v.source === "recorded") return t("Times recorded in the imported game ([%clk]).");
  if (v.flagged) {
    return v.flagged === "white" ? t("White's flag fell: the referee's decision is in the result.")
      : t("Black's flag fell: the referee's decision is in the result.");
  }
  if (v.over && v.timed) return t("The game is over: the clocks are stopped.");
  if (v.paused) return t("Paused: Resume, or a move, starts the clock again.");
  if (!v.timed) return t("Untimed: no clocks run.");
  return v.started ? "" : t("The first move starts the opponent's clock.");
}

export const SOUND_KEY = "pychessdraw.sound.v1";

/** @returns {boolean} whether the player turned the low-time sound on here */
function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

/** The low-time beep: made, not fetched, in the page's one audio context (ui/audio.js), resumed on the player's click. */
class Beeper {
  /** Ready the audio (browsers allow it from a click only). */
  prime() {
    resumeAudio();
  }

  /** @param {number} volume  the gain of the page's sound control (features/sounds.js) */
  beep(volume) {
    const ctx = audioMade() ? audioContext() : null;
    if (!ctx) return;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(volume, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  }
}

/**
 * The sound setting: a checkbox that remembers itself; play() beeps when on.
 * @returns {{box: HTMLElement, play: () => void}}
 */
function lowTimeSound() {
  const beeper = new Beeper();
  const input = /** @type {HTMLInputElement} */ (el("input", { attrs: { id: "low-time-sound", type: "checkbox" },
    dataset: { testid: "low-time-sound", beeps: "0" } }));
  input.checked = soundOn();
  input.addEventListener("change", () => {
    try {
      localStorage.setItem(SOUND_KEY, input.checked ? "on" : "off");
    } catch {
      /* not remembered */
    }
    if (input.checked) beeper.prime();
  });
  // a page reloaded with the sound on: the audio is readied on the first click
  document.addEventListener("pointerdown", () => { if (input.checked) beeper.prime(); }, { once: true });
  const box = el("label", { class: "inline sound-setting", attrs: { for: "low-time-sound" } }, input, " ", tText("Beep when my clock runs low"));
  // the page's one sound control silences it too
  const play = () => {
    const volume = GAIN[loadVolume()];
    if (!input.checked || !volume) return;
    input.dataset.beeps = String(Number(input.dataset.beeps) + 1);
    beeper.beep(volume);
  };
  return { box, play };
}

/** The time control's settings: the form, its presets, the flag rules, the note. */
function settingsControls() {
  const input = el("input", { attrs: { id: "time-control", type: "text", spellcheck: "false", autocomplete: "off",
    "aria-describedby": "clock-note", list: "tc-presets" },
  dataset: { testid: "time-control" } });
  const presets = el("datalist", { attrs: { id: "tc-presets" } }, ...["untimed", ...PRESETS].map((p) => el("option", { attrs: { value: p } })));
  tAttr(input, "placeholder", "untimed, 3+2, 0.05+0, 5 d 3");
  const form = el("form", { class: "tc-form", attrs: { autocomplete: "off" } },
    el("label", { attrs: { for: "time-control" } }, tText("Time control (minutes+increment s, or M d D for US Chess delay): Enter applies")),
    el("div", { class: "row" }, input, presets, el("button", { attrs: { type: "submit" } }, tText("Apply"))));
  const presetRow = tAttr(el("div", { class: "tc-presets", attrs: { role: "group" } },
    ...["untimed", ...PRESETS].map((p) => el("button", { attrs: { type: "button" }, dataset: { tc: p } }, p))), "aria-label", "Time control presets");
  const rules = el("select", { attrs: { id: "flag-rules" }, dataset: { testid: "flag-rules" } },
    tAttr(el("option", { attrs: { value: "fide" } }, LAWS.flag_rules.fide), "title", "A draw only if the opponent cannot checkmate by any series of legal moves"),
    tAttr(el("option", { attrs: { value: "uscf" } }, LAWS.flag_rules.uscf), "title", "Also a draw against a lone bishop, a lone knight or two knights, no pawns"));
  const note = el("p", { class: "clock-note", attrs: { id: "clock-note", role: "status" }, dataset: { testid: "clock-note" } });
  return { input, presets, form, presetRow, rules, note };
}

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function clocksFeature({ ctrl, addSection }) {
  const keeper = new ClockKeeper({ ctrl, storage: localStorage });
  ctrl.clocks = keeper; // the computer, the review and the console reach it here
  ctrl.exportArgs.push(() => keeper.exportArgs());

  const faces = { white: makeFace("white"), black: makeFace("black") };
  const pause = tAttr(el("button", { class: "clock-pause", attrs: { type: "button" },
    dataset: { testid: "clock-pause" } }, t("Pause")), "title", "Pause or resume both clocks");
  // one strip on each edge of the board (index.html holds them, so that the
  // board does not move when they fill): the top face alone, the bottom face with Pause
  const top = slot("clock-slot-top", "clock-top", "beforebegin");
  const bottom = slot("clock-slot-bottom", "clocks", "afterend");
  top.replaceChildren(faces.black.box);
  bottom.replaceChildren(faces.white.box, pause);

  const { input, form, presetRow, rules, note } = settingsControls();
  const settings = addSection({ id: "clock-settings", title: tText("Time control"), column: "info", before: "setup" });
  const sound = lowTimeSound();
  settings.append(form, note, presetRow, el("div", { class: "clock-actions" },
    el("label", { attrs: { for: "flag-rules" } }, tText("Flag falls: ")), rules), sound.box);
  /** the sides whose clock was low at the last drawing (a beep when one turns low) */
  const wasLow = { white: false, black: false };

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (keeper.setTimeControl(input.value)) input.value = keeper.clock.tc.text;
  });
  presetRow.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-tc]");
    if (b instanceof HTMLElement && keeper.setTimeControl(b.dataset.tc || "")) input.value = keeper.clock.tc.text;
  });
  pause.addEventListener("click", () => keeper.togglePause());
  document.addEventListener(VIEW_EVENT, (ev) => {
    if (/** @type {CustomEvent<string>} */ (ev).detail !== DEFAULT_VIEW) keeper.pauseAway();
  });
  rules.addEventListener("change", () => void keeper.setFlagRules(rules.value));
  // nobody's time runs while the page is closed: save the time spent so far
  window.addEventListener("pagehide", () => keeper.save());

  function render() {
    const v = keeper.shown();
    // shown when there is a time to show: a time control, or [%clk] times;
    // on <html>, where the board's size (--board) can make room for the faces
    document.documentElement.dataset.clocks = v.source !== "none" ? "on" : "off";
    ctrl.setClocksDecide(keeper.clock.timed);
    const turn = ctrl.state.live ? ctrl.state.live.turn : "white";
    for (const c of /** @type {const} */ (["white", "black"])) {
      paint(faces[c], v[c], faceState(v[c], v.flagged === c, v, turn === c));
      // once as the player's own running clock turns low (the computer's time is its own business)
      if (v[c].low && v[c].running && !wasLow[c] && ctrl.mayAct(c)) sound.play();
      wasLow[c] = v[c].low;
    }
    // the player at the bottom of the board has the lower clock
    const [up, down] = ctrl.state.orientation === "black" ? [faces.white, faces.black] : [faces.black, faces.white];
    if (top.firstChild !== up.box) {
      top.replaceChildren(up.box);
      bottom.replaceChildren(down.box, pause);
    }
    pause.disabled = !v.timed || v.over || v.source === "none";
    setText(pause, v.paused ? t("Resume") : t("Pause"));
    pause.setAttribute("aria-pressed", String(v.paused));
    if (document.activeElement !== input && !input.value) input.value = v.tc;
    if (rules.value !== v.flagRules) rules.value = v.flagRules;
    const words = noteText(v);
    setText(note, words);
    note.hidden = !words;
    note.classList.toggle("error", v.error != null);
  }
  keeper.onChange(render);
  render();
}
