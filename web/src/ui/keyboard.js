// SPDX-License-Identifier: GPL-3.0-or-later
// Keys: arrows/Home/End browse the Play game's moves (outside text boxes;
// the Review's board has its own, features/reviewboard.js); Escape closes
// the topmost dialog or message anywhere.

/** @typedef {import("../ctrl.js").Controller} Controller */

/** @param {Controller} ctrl */
export function mountKeyboard(ctrl) {
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      if (ctrl.dismiss()) ev.preventDefault();
      return;
    }
    const t = /** @type {HTMLElement|null} */ (ev.target);
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (document.documentElement.dataset.view === "review") return; // the Review's own board browses itself
    /** @type {Record<string, () => void>} */
    const keys = { ArrowLeft: () => ctrl.step(-1), ArrowRight: () => ctrl.step(1), Home: () => ctrl.goto(0), End: () => ctrl.goto(Infinity) };
    const k = keys[ev.key];
    if (k && ctrl.state.live) {
      ev.preventDefault();
      k();
    }
  });
}
