// SPDX-License-Identifier: GPL-3.0-or-later
// The clocks feature: two clocks beside the board (the running one marked,
// tenths under 10 s, a low-time warning), the time control (presets or
// typed, Enter applies), pause/resume and the flag-fall rules. State and
// timing live in clock/keeper.js; this file only draws and forwards clicks.
//
// Hooks: time-control, clock-white / clock-black (data-ms, data-running,
// data-low), clock-pause, flag-rules, clock-note.

import { ClockKeeper } from "../clock/keeper.js";
import { formatClock } from "../clock/clock.js";
import { PRESETS } from "../clock/timecontrol.js";
import { el, setText } from "../ui/dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../clock/keeper.js").SideShown} SideShown */

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function clocksFeature({ ctrl, addSection }) {
  const keeper = new ClockKeeper({ ctrl: /** @type {any} */ (ctrl), storage: localStorage });
  /** @type {any} */ (ctrl).clocks = keeper; // the review and the console reach it here
  ctrl.exportArgs.push(() => keeper.exportArgs());
  const body = addSection({ id: "clocks", title: "Clocks", column: "side", before: "draw-panel" });

  /** @param {"white" | "black"} color */
  const face = (color) => {
    const time = el("span", { class: "clock-time" }, "–");
    const state = el("span", { class: "clock-state" });
    const box = el("div", { class: `clock clock-${color}`, dataset: { testid: `clock-${color}`, ms: "", running: "false" },
      attrs: { role: "timer", "aria-label": `${color === "white" ? "White" : "Black"}'s clock` } },
    el("span", { class: "clock-who" }, color === "white" ? "White" : "Black"), time, state);
    return { box, time, state };
  };
  const faces = { white: face("white"), black: face("black") };
  const pair = el("div", { class: "clock-pair" }, faces.black.box, faces.white.box);

  const input = el("input", { attrs: { id: "time-control", type: "text", spellcheck: "false", autocomplete: "off",
    "aria-describedby": "clock-note", placeholder: "untimed, 3+2, 0.05+0, 5 d 3", list: "tc-presets" },
  dataset: { testid: "time-control" } });
  const presets = el("datalist", { attrs: { id: "tc-presets" } }, ...["untimed", ...PRESETS].map((p) => el("option", { attrs: { value: p } })));
  const form = el("form", { class: "tc-form", attrs: { autocomplete: "off" } },
    el("label", { attrs: { for: "time-control" } }, "Time control (minutes+increment s, or M d D for US Chess delay): Enter applies"),
    el("div", { class: "row" }, input, presets, el("button", { attrs: { type: "submit" } }, "Apply")));
  const presetRow = el("div", { class: "tc-presets", attrs: { role: "group", "aria-label": "Time control presets" } },
    ...["untimed", ...PRESETS].map((p) => el("button", { attrs: { type: "button" }, dataset: { tc: p } }, p)));
  const pause = el("button", { attrs: { type: "button" }, dataset: { testid: "clock-pause" } }, "Pause");
  const rules = el("select", { attrs: { id: "flag-rules" }, dataset: { testid: "flag-rules" } },
    el("option", { attrs: { value: "fide", title: "A draw only if the opponent cannot checkmate by any series of legal moves" } },
      "FIDE 6.9"),
    el("option", { attrs: { value: "uscf", title: "Also a draw against a lone bishop, a lone knight or two knights, no pawns" } },
      "US Chess 14E"));
  const note = el("p", { class: "clock-note", attrs: { id: "clock-note", role: "status" }, dataset: { testid: "clock-note" } });
  // The faces stay beside the draw panel (first screen); the settings go with
  // the game's other settings, so that the claim buttons are never pushed down.
  body.append(el("div", { class: "clock-row" }, pair, pause), note);
  const settings = addSection({ id: "clock-settings", title: "Time control", column: "info", before: "setup" });
  settings.append(form, presetRow, el("div", { class: "clock-actions" },
    el("label", { attrs: { for: "flag-rules" } }, "Flag falls: "), rules));

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (keeper.setTimeControl(input.value)) input.value = keeper.clock.tc.text;
  });
  presetRow.addEventListener("click", (ev) => {
    const b = /** @type {HTMLElement} */ (ev.target).closest("button[data-tc]");
    if (b instanceof HTMLElement && keeper.setTimeControl(b.dataset.tc || "")) input.value = keeper.clock.tc.text;
  });
  pause.addEventListener("click", () => keeper.togglePause());
  rules.addEventListener("change", () => void keeper.setFlagRules(rules.value));
  // nobody's time runs while the page is closed: save the time spent so far
  window.addEventListener("pagehide", () => keeper.save());

  /** @param {{box: HTMLElement, time: HTMLElement, state: HTMLElement}} f @param {SideShown} side @param {boolean} flagged */
  function paint(f, side, flagged) {
    const ms = side.ms;
    const text = ms == null ? "–" : formatClock(ms);
    setText(f.time, text);
    setText(f.state, flagged ? "flag fell" : side.running ? "running" : "");
    f.box.dataset.ms = ms == null ? "" : String(Math.max(0, Math.round(ms)));
    f.box.dataset.running = String(side.running);
    f.box.dataset.low = String(side.low);
    f.box.classList.toggle("running", side.running);
    f.box.classList.toggle("low", side.low);
    f.box.classList.toggle("flagged", flagged);
  }

  function render() {
    const v = keeper.shown();
    // shown when there is a time to show: a time control, or [%clk] times
    body.parentElement?.setAttribute("data-timed", String(v.source !== "none"));
    paint(faces.white, v.white, v.flagged === "white");
    paint(faces.black, v.black, v.flagged === "black");
    // the player at the bottom of the board has the lower clock
    const top = ctrl.state.orientation === "black" ? faces.white.box : faces.black.box;
    if (pair.firstChild !== top) pair.replaceChildren(top, top === faces.white.box ? faces.black.box : faces.white.box);
    pause.disabled = !v.timed || v.over || v.source === "none";
    setText(pause, v.paused ? "Resume" : "Pause");
    pause.setAttribute("aria-pressed", String(v.paused));
    if (document.activeElement !== input && !input.value) input.value = v.tc;
    if (rules.value !== v.flagRules) rules.value = v.flagRules;
    const words = v.error ?? (v.note || (v.source === "recorded" ? "Times recorded in the imported game ([%clk])."
      : v.flagged ? `${v.flagged === "white" ? "White" : "Black"}'s flag fell: the referee's decision is in the result.`
        : v.over && v.timed ? "The game is over: the clocks are stopped."
          : v.paused ? "Paused: Resume, or a move, starts the clock again." : !v.timed ? "Untimed: no clocks run."
        : "The first move starts the opponent's clock."));
    setText(note, words);
    note.classList.toggle("error", v.error != null);
  }
  keeper.onChange(render);
  render();
}
