// SPDX-License-Identifier: GPL-3.0-or-later
// The settings dialog beside the board: the time control, the opponent and
// its level, the flag-fall rules, the low-time sound (the features put their
// sections in it: index.html's [data-sections]). Opened by the Settings
// control (data-testid settings) by the board's navigation; Close, Escape or
// a click on the backdrop close it and the focus returns to that control.
import { $ } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

/** @param {Controller} _ctrl */
export function mountSettings(_ctrl) {
  const dialog = /** @type {HTMLDialogElement} */ ($("settings-dialog"));
  const open = $("settings-open");
  open.addEventListener("click", () => {
    if (dialog.open) return;
    dialog.showModal();
    open.setAttribute("aria-expanded", "true");
  });
  $("settings-close").addEventListener("click", () => dialog.close());
  // a click on the backdrop (the dialog itself, outside its box) closes it
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close();
  });
  dialog.addEventListener("close", () => {
    open.setAttribute("aria-expanded", "false");
    open.focus();
  });
  open.setAttribute("aria-expanded", "false");
}
