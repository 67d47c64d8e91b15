// SPDX-License-Identifier: GPL-3.0-or-later
// The computer-opponent feature: a section with the opponent and level
// choices, the engine's state and a line saying what the computer did and
// why. The logic lives in engine/opponent.js (no DOM); this file only draws
// and forwards the choices.
//
// Hooks: opponent (select: human, computer-white, computer-black),
// engine-level (select), engine-status (data-state: off, loading, idle,
// thinking, failed; data-time: movetime or clock, how the last search was
// timed), engine-note.
import { t } from "../i18n.js";
import { tText } from "../ui/language.js";

import { ComputerOpponent } from "../engine/opponent.js";
import { LEVELS } from "../engine/player.js";
import { el, setText } from "../ui/dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

const STATUS_TEXT = {
  off: () => "",
  loading: () => t("Loading the engine…"),
  idle: () => t("Engine ready."),
  thinking: () => t("The computer is thinking…"),
  failed: () => t("The engine could not run (see below)."),
};
/** The levels' names (engine/player.js's labels are their English message ids). @type {Record<string, () => string>} */
const LEVEL_NAME = { Beginner: () => t("Beginner"), Casual: () => t("Casual"), Club: () => t("Club"), Expert: () => t("Expert"), Strong: () => t("Strong") };
/** A level's name, asked again in each language. @param {string} label */
const levelName = (label) => () => (label in LEVEL_NAME ? LEVEL_NAME[/** @type {keyof typeof LEVEL_NAME} */ (label)]() : label);

/**
 * Milliseconds left on each clock and the increment, when clocks run live
 * (the clocks feature, if installed, hangs its keeper on the controller).
 * @param {{shown: () => import("../clock/keeper.js").ClocksShown,
 *   clock: {tc: import("../clock/timecontrol.js").TimeControl}} | undefined | null} keeper
 * @returns {import("../engine/client.js").Clock|null}
 */
export function clockOf(keeper) {
  if (!keeper || typeof keeper.shown !== "function") return null;
  const v = keeper.shown();
  if (!v || !v.timed || v.source !== "live" || v.over || v.white.ms == null || v.black.ms == null) return null;
  const tc = keeper.clock && keeper.clock.tc;
  const inc = tc && tc.kind === "increment" ? tc.incrementMs : tc && tc.kind === "delay" ? tc.delayMs : 0;
  return { wtime: v.white.ms, btime: v.black.ms, winc: inc, binc: inc };
}

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function computerFeature({ ctrl, addSection }) {
  const computer = new ComputerOpponent(ctrl, {
    storage: localStorage,
    clock: () => clockOf(ctrl.clocks),
    paused: () => !!ctrl.clocks && ctrl.clocks.holdsPlay(),
  });
  // Resume (or a move) starts the clocks again: the computer's turn goes on
  ctrl.clocks?.onChange(() => computer.maybeThink());
  ctrl.computer = computer; // tests and the console reach it here
  // in the settings dialog (index.html), else beside the moves
  const body = addSection({ id: "computer", title: tText("Play the computer"), column: "info", before: "setup" });

  const opponent = el("select", { attrs: { id: "opponent" }, dataset: { testid: "opponent" } },
    el("option", { attrs: { value: "human" } }, tText("Two players here")),
    el("option", { attrs: { value: "computer-black" } }, tText("Computer as Black")),
    el("option", { attrs: { value: "computer-white" } }, tText("Computer as White")));
  const level = el("select", { attrs: { id: "engine-level" }, dataset: { testid: "engine-level" } },
    ...LEVELS.map((l) => el("option", { attrs: { value: l.id } },
      l.movetime >= 1000
        ? tText("{level} ({seconds} s a move)", { level: levelName(l.label), seconds: l.movetime / 1000 })
        : tText("{level} ({ms} ms a move)", { level: levelName(l.label), ms: l.movetime }))));
  const status = el("p", { class: "computer-status", attrs: { role: "status" },
    dataset: { testid: "engine-status", state: "off" } });
  const note = el("p", { class: "computer-note", attrs: { "aria-live": "polite" }, dataset: { testid: "engine-note" } });
  body.append(
    el("div", { class: "row" },
      el("label", { attrs: { for: "opponent" } }, tText("Opponent")), opponent,
      el("label", { attrs: { for: "engine-level" } }, tText("Level")), level));
  // what the computer does, where the game is played (the choices sit in the
  // settings dialog); in the section when the page has no such line
  const line = document.getElementById("computer-line") || body;
  line.append(status, note);

  opponent.addEventListener("change", () => {
    computer.setOpponent(opponent.value);
    // the visitor's side at the bottom of the board
    const mine = opponent.value === "computer-white" ? "black" : opponent.value === "computer-black" ? "white" : null;
    if (mine && ctrl.state.orientation !== mine) ctrl.flip();
  });
  level.addEventListener("change", () => computer.setLevel(level.value));

  function render() {
    const s = computer.state;
    if (opponent.value !== s.opponent) opponent.value = s.opponent;
    if (level.value !== s.level) level.value = s.level;
    status.dataset.state = s.status;
    status.dataset.time = s.timing;
    setText(status, STATUS_TEXT[s.status]());
    status.hidden = s.status === "off";
    status.classList.toggle("error", s.status === "failed");
    setText(note, s.note);
    note.hidden = !s.note;
  }
  computer.onChange(render);
  render();
}
