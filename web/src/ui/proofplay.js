// SPDX-License-Identifier: GPL-3.0-or-later
// The proof control (features/proof.js) in Play's draw panel: it asks the
// referee for the proof of the position shown and draws it on Play's board
// through the controller's state (ui/board.js shows state.proof while set);
// the board's step buttons and arrow keys step through the line meanwhile.
import { mountProof } from "../features/proof.js";
import { $ } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

/** @param {Controller} ctrl */
export function mountPlayProof(ctrl) {
  const proof = mountProof($("proof-slot"), {
    ask: (ply, color) => ctrl.request("proof", { ply, color }),
    show: (shown) => {
      ctrl.state.proof = shown;
      ctrl.changed("board");
    },
  });
  let language = ctrl.language;
  ctrl.redraw.add("proof", { parts: ["panel", "browse", "game", "moves"], render: () => {
    const shown = ctrl.shown();
    if (ctrl.language === language || !shown) return proof.update(shown);
    language = ctrl.language; // the same position in other words: its buttons, and an open line, said again
    proof.again(shown);
  } });
  ctrl.proofStep = proof.step; // ‹ › and the arrow keys step through the line while it is shown
  proof.update(ctrl.shown());
  return proof;
}
