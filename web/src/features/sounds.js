// SPDX-License-Identifier: GPL-3.0-or-later
// The game's sounds: a move, a capture, a check, the game's end. Made with
// WebAudio oscillators, not fetched: no file to ship, no licence to carry.
// One control (data-testid sound: off, quiet, normal, loud) in the settings,
// remembered on this device. Browsers let audio start only after a click or
// a key: the page's one context (ui/audio.js) is made while the Play view is
// idle and resumed by a click or a key there. The low-time beep is the clocks' own
// (features/clocks.js, turned on by its checkbox), at this control's volume
// and silent when it is off. A capture is told by the move's SAN ("x"),
// which every capture, en passant too, carries.
import { tText } from "../ui/language.js";
import { audioContext, audioMade, resumeAudio, warmAudio } from "../ui/audio.js";
import { DEFAULT_VIEW, VIEW_EVENT } from "../ui/views.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").MoveRow} MoveRow */
import { el } from "../ui/dom.js";

export const VOLUME_KEY = "pychessdraw.volume.v1";

/** @typedef {"off"|"quiet"|"normal"|"loud"} Volume */
/** @type {Record<Volume, number>} */
export const GAIN = { off: 0, quiet: 0.08, normal: 0.18, loud: 0.35 };
const LABELS = { off: () => tText("Off"), quiet: () => tText("Quiet"), normal: () => tText("Normal"), loud: () => tText("Loud") };

/** @typedef {"move"|"capture"|"check"|"end"} SoundName */
/** Each sound's notes: [frequency Hz, start s, length s, wave]. @type {Record<SoundName, [number, number, number, OscillatorType][]>} */
export const NOTES = {
  move: [[440, 0, 0.07, "triangle"]],
  capture: [[330, 0, 0.06, "square"], [220, 0.05, 0.09, "triangle"]],
  check: [[660, 0, 0.08, "triangle"], [880, 0.09, 0.1, "triangle"]],
  end: [[523, 0, 0.18, "sine"], [659, 0.12, 0.18, "sine"], [784, 0.24, 0.3, "sine"]],
};

/** A volume's name as given, or "normal" for anything else. @param {string|null} v @returns {Volume} */
export function asVolume(v) {
  return v === "off" || v === "quiet" || v === "loud" ? v : "normal";
}

/** The saved volume; "normal" when none was saved, or storage is refused. @returns {Volume} */
export function loadVolume() {
  try {
    return asVolume(localStorage.getItem(VOLUME_KEY));
  } catch {
    return "normal";
  }
}

/**
 * Which sound a move makes: the check over the capture, the capture over the move.
 * @param {Pick<MoveRow, "san"|"check">} row
 * @returns {SoundName}
 */
export function soundOf(row) {
  if (row.check) return "check";
  return row.san.includes("x") ? "capture" : "move";
}

/** Whether the Play view is shown (the only one whose moves sound). */
const inPlay = () => (document.documentElement.dataset.view ?? DEFAULT_VIEW) === DEFAULT_VIEW;

class Player {
  constructor() {
    /** @type {Volume} */
    this.volume = loadVolume();
  }

  /** Ready the audio (browsers allow it from a click or a key only); not for the other views' clicks. */
  prime() {
    if (this.volume !== "off" && inPlay()) resumeAudio();
  }

  /** @param {SoundName} name */
  play(name) {
    const ctx = audioMade() ? audioContext() : null;
    if (!ctx || this.volume === "off") return;
    const t0 = ctx.currentTime;
    for (const [freq, at, len, wave] of NOTES[name]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(GAIN[this.volume], t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len);
    }
  }
}

/** @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env */
export function soundsFeature({ ctrl, addSection }) {
  const player = new Player();
  const wanted = () => player.volume !== "off" && inPlay();
  warmAudio(wanted);
  document.addEventListener(VIEW_EVENT, () => warmAudio(wanted)); // a page opened on another view, then Play
  const body = addSection({ id: "sounds", title: tText("Sound") });
  const select = el("select", { attrs: { id: "sound-volume" }, dataset: { testid: "sound" } },
    ...Object.entries(LABELS).map(([v, label]) => el("option", { attrs: { value: v } }, label())));
  select.value = player.volume;
  select.addEventListener("change", () => {
    player.volume = asVolume(select.value);
    try {
      localStorage.setItem(VOLUME_KEY, player.volume);
    } catch {
      /* not remembered */
    }
    player.prime();
  });
  body.append(el("label", { class: "inline", attrs: { for: "sound-volume" } }, tText("Moves, checks and the game's end: ")), select);
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, () => player.prime(), { capture: true, passive: true });

  let over = !!(ctrl.state.live && ctrl.state.live.outcome);
  ctrl.on("move", (row) => {
    if (row) player.play(soundOf(row));
  });
  ctrl.on("change", (s) => {
    const now = !!(s.live && s.live.outcome);
    if (now && !over) player.play("end");
    over = now;
  });
}
