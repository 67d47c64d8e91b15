// SPDX-License-Identifier: GPL-3.0-or-later
// The result banner: the outcome as the bridge words it (a rule's ending, a
// declared one, or an imported game's recorded result), with data-result and
// data-termination ("unknown" when the record names no reason). Brought
// into view when it appears (a claim's verdict or the focus may have
// scrolled the page away from it).
import { $, el } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

/** @param {Controller} ctrl */
export function mountResult(ctrl) {
  const box = $("result");
  function render() {
    const out = ctrl.state.live ? ctrl.state.live.outcome : null;
    if (!out) {
      box.hidden = true;
      box.replaceChildren();
      delete box.dataset.termination;
      delete box.dataset.result;
      return;
    }
    const appeared = box.hidden;
    box.hidden = false;
    // the game has just ended: its result on the screen, wherever the page was
    // scrolled; after the frame, in which Chromium moves the focus off the
    // controls the end disabled (ui/dialogs.js hands it on, scrolling to it)
    if (appeared) requestAnimationFrame(() => setTimeout(() => box.scrollIntoView({ block: "nearest" }), 0));
    box.dataset.termination = out.termination;
    box.dataset.result = out.result;
    box.className = `result ${out.winner ? "win" : "draw"} ${out.how}`;
    box.replaceChildren(el("strong", { class: "r-head" }, out.headline), el("span", { class: "r-meta" }, out.detail));
  }
  ctrl.redraw.add("result", { parts: ["panel"], render });
}
