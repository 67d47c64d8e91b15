// SPDX-License-Identifier: GPL-3.0-or-later
// The auto-claim setting, in the settings dialog: claim threefold
// repetition automatically never (the default: FIDE asks the player to
// claim), always, or when the claimer's clock shows under 30 s. Remembered on
// this device. The logic is control/autoclaim.js; this file draws the choice.
//
// Hook: auto-claim (select: never, always, under30).

import { AutoClaim } from "../control/autoclaim.js";
import { el } from "../ui/dom.js";
import { tText } from "../ui/language.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

/** @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env */
export function autoClaimFeature({ ctrl, addSection }) {
  const auto = new AutoClaim(ctrl, {
    storage: localStorage,
    clockMs: (color) => {
      const v = ctrl.clocks?.shown();
      return v && v.timed && v.source === "live" && !v.over ? v[color].ms : null;
    },
  });
  // under 30 s: the clock may cross the line while a claim is open
  ctrl.clocks?.onChange(() => { if (auto.mode === "under30") auto.check(); });
  const body = addSection({ id: "claiming", title: tText("Claims"), column: "info", before: "setup" });
  const select = el("select", { attrs: { id: "auto-claim" }, dataset: { testid: "auto-claim" } },
    el("option", { attrs: { value: "never" } }, tText("Never: I claim myself")),
    el("option", { attrs: { value: "always" } }, tText("Always")),
    el("option", { attrs: { value: "under30" } }, tText("When my clock is under 30 s")));
  select.value = auto.mode;
  select.addEventListener("change", () => auto.setMode(select.value));
  body.append(
    el("label", { class: "inline", attrs: { for: "auto-claim" } }, tText("Claim threefold repetition automatically: ")), select,
    el("p", { class: "muted" }, tText("Off by default: under the FIDE Laws the player claims. When on, the claim goes to the referee as any claim and the record says it was automatic.")));
}
