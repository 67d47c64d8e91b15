// SPDX-License-Identifier: GPL-3.0-or-later
// The player bars at the board, as chess sites have them: each side's name
// (editable, "White" and "Black" until changed, the computer as "Stockfish
// level N" on its side) and its material difference ("+3" and the pieces it
// is up by), the side at the bottom of the board nearest to it. The names
// are remembered, go into the exported PGN (White, Black tags; Event and
// Date too), and an imported game's names replace them. The material is the
// bridge's fact of the position shown (Facts.material): nothing is counted here.
//
// Hooks: player-white, player-black (the bars), player-name-white,
// player-name-black (the name boxes), material-white, material-black.

import { t } from "../i18n.js";
import { el, setText } from "../ui/dom.js";
import { tAttr } from "../ui/language.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {"white"|"black"} Color */

const KEY = "pychessdraw.players";
const COLORS = /** @type {const} */ (["white", "black"]);
/** A tag an imported game leaves unknown. */
const UNKNOWN = new Set(["", "?", "-"]);

/** @param {Storage} storage @returns {Record<Color, string>} the names typed before ("" for the default) */
function loadNames(storage) {
  try {
    const v = JSON.parse(storage.getItem(KEY) || "{}");
    return { white: typeof v.white === "string" ? v.white : "", black: typeof v.black === "string" ? v.black : "" };
  } catch {
    return { white: "", black: "" };
  }
}

/** Today as a PGN Date, in the player's own time zone. @param {Date} d */
export function pgnDate(d) {
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

/**
 * The computer's side and its name, or null when two players play here.
 * @param {Controller} ctrl @returns {{side: Color, name: string}|null}
 */
function computerSeat(ctrl) {
  const st = ctrl.computer ? ctrl.computer.state : null;
  if (!st || st.opponent === "human") return null;
  return { side: st.opponent === "computer-white" ? "white" : "black", name: t("Stockfish level {n}", { n: st.level }) };
}

/** @param {Color} c */
function makeBar(c) {
  const name = el("input", { class: "player-name", attrs: { type: "text", maxlength: "100", spellcheck: "false",
    autocomplete: "off" }, dataset: { testid: `player-name-${c}` } });
  if (c === "white") tAttr(name, "aria-label", "White's name");
  else tAttr(name, "aria-label", "Black's name");
  const engine = el("span", { class: "player-engine" });
  const material = el("span", { class: "material", dataset: { testid: `material-${c}` } });
  const bar = el("div", { class: `player-bar player-${c}`, dataset: { testid: `player-${c}`, color: c } },
    el("span", { class: `player-dot ${c}`, attrs: { "aria-hidden": "true" } }), name, engine, material);
  return { bar, name: /** @type {HTMLInputElement} */ (name), engine, material };
}

/**
 * A side's material: the pieces it is up by, then "+3" (the bridge's words).
 * @param {HTMLElement} box @param {import("../contract.js").MaterialView|null} m
 */
function paintMaterial(box, m) {
  setText(box, m ? `${m.captured}${m.captured && m.advantage ? " " : ""}${m.advantage}` : "");
  box.dataset.value = m ? String(m.value) : "0";
  box.title = m && m.advantage ? t("Material: {n}", { n: m.advantage }) : "";
}

/** @param {{ctrl: Controller}} env */
export function playersFeature({ ctrl }) {
  const top = document.querySelector(".player-slot-top");
  const bottom = document.querySelector(".player-slot-bottom");
  if (!(top instanceof HTMLElement) || !(bottom instanceof HTMLElement)) return;
  const slots = { top, bottom }; // (narrowed, for the closures)
  const names = loadNames(localStorage); // typed on this page
  /** An imported game's players (its White and Black tags), over the typed names. */
  const recorded = { white: "", black: "" };
  const bars = { white: makeBar("white"), black: makeBar("black") };

  /** The name a side has now. @param {Color} c */
  function nameOf(c) {
    const comp = computerSeat(ctrl);
    if (comp && comp.side === c) return comp.name;
    return recorded[c] || names[c] || (c === "white" ? t("White") : t("Black"));
  }

  for (const c of COLORS) {
    const { name } = bars[c];
    name.addEventListener("change", () => {
      names[c] = name.value.replace(/\s+/g, " ").trim();
      recorded[c] = "";
      try {
        localStorage.setItem(KEY, JSON.stringify(names));
      } catch {
        /* storage disabled: the names last as long as the page */
      }
      render();
    });
    name.addEventListener("blur", render); // an emptied box shows the default name again
  }
  ctrl.exportArgs.push(() => ({ players: { white: nameOf("white"), black: nameOf("black") }, date: pgnDate(new Date()) }));

  function render() {
    /** @type {[Color, Color]} */
    const [up, down] = ctrl.state.orientation === "black" ? ["white", "black"] : ["black", "white"];
    if (slots.top.firstChild !== bars[up].bar) {
      slots.top.replaceChildren(bars[up].bar);
      slots.bottom.replaceChildren(bars[down].bar);
    }
    const comp = computerSeat(ctrl);
    const f = ctrl.shown();
    for (const c of COLORS) {
      const b = bars[c];
      const isComputer = !!comp && comp.side === c;
      b.name.hidden = isComputer;
      b.engine.hidden = !isComputer;
      setText(b.engine, isComputer && comp ? comp.name : "");
      if (document.activeElement !== b.name) b.name.value = nameOf(c);
      paintMaterial(b.material, f && f.material ? f.material[c] : null);
    }
  }

  /** An imported game's players name the sides. */
  function fromGame() {
    const h = ctrl.state.game ? ctrl.state.game.headers : {};
    for (const [c, tag] of /** @type {const} */ ([["white", "White"], ["black", "Black"]])) {
      const v = (h[tag] || "").trim();
      recorded[c] = UNKNOWN.has(v) ? "" : v;
    }
  }

  ctrl.redraw.add("players", { parts: ["game", "panel", "browse", "orientation", "board"], render: (_s, dirty) => {
    if (dirty.has("game")) fromGame();
    render();
  } });
  if (ctrl.computer) ctrl.computer.onChange(render);
  render();
}
