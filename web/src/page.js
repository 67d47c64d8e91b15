// SPDX-License-Identifier: GPL-3.0-or-later
// The rest of the page, loaded by app.js once the board is on screen: the
// views around the board, the features, the test hooks (body data-seq,
// data-idle; window.__perf; window.__boot's referee marks), then the referee
// takes over the worker (its events were buffered until now, so no answer
// reaches a view that is not mounted yet).
import { FEATURES } from "./features/index.js";
import { mountControls } from "./ui/controls.js";
import { mountDialogs } from "./ui/dialogs.js";
import { $ } from "./ui/dom.js";
import { mountKeyboard } from "./ui/keyboard.js";
import { mountMoves } from "./ui/moves.js";
import { mountStrip } from "./ui/strip.js";
import { mountBoardSize } from "./ui/boardsize.js";
import { mountPanel } from "./ui/panel.js";
import { mountPlayProof } from "./ui/proofplay.js";
import { mountResult } from "./ui/result.js";
import { addSection } from "./ui/sections.js";
import { mountSettings } from "./ui/settings.js";
import { mountThemeSwitch } from "./ui/theme.js";
import { mountNotation } from "./ui/notation.js";

/**
 * @param {{ctrl: import("./ctrl.js").Controller, referee: import("./referee/client.js").Referee,
 *   enteredEarly?: () => boolean}} env  enteredEarly: Enter was pressed in the move box before now
 */
export function mountPage({ ctrl, referee, enteredEarly = () => false }) {
  const w = window;
  mountMoves(ctrl);
  mountStrip(ctrl);
  mountPanel(ctrl);
  mountPlayProof(ctrl);
  mountResult(ctrl);
  mountDialogs(ctrl);
  mountControls(ctrl);
  if (enteredEarly()) /** @type {HTMLFormElement} */ ($("move-form")).requestSubmit(); // the move typed meanwhile is queued now
  mountKeyboard(ctrl);
  for (const feature of FEATURES) feature({ ctrl, addSection });
  const display = mountThemeSwitch(addSection);
  mountBoardSize(display);
  mountNotation(display);
  mountSettings(ctrl);

  // the live region and the test hooks, after every view has rendered (control/redraw.js's order)
  ctrl.redraw.add("hooks", { render: (s, dirty) => {
    if (dirty.has("announce")) {
      $("live").textContent = s.announce;
      ctrl.announcer.written();
    }
    document.body.dataset.seq = String(s.seq);
    document.body.dataset.idle = ctrl.isIdle() ? "1" : "0";
  } });
  document.body.dataset.idle = "1";
  ctrl.on("perf", (rec) => {
    w.__perf.push(rec);
    const t0 = performance.now() - rec.ms;
    requestAnimationFrame(() => {
      rec.paint_ms = performance.now() - t0;
    });
  });
  referee.on("ready", (e) => {
    w.__boot.worker = e.timings;
    w.__boot.engine_ms = performance.now();
    w.__boot.ready_ms = performance.now();
    performance.mark("engine-ready");
  });
  ctrl.on("ready", () => {
    w.__boot.restored_ms = performance.now();
  });

  // The worker is closed on pagehide; a page restored from the back/forward
  // cache would have none, so load it afresh.
  window.addEventListener("pageshow", (ev) => {
    if (ev.persisted) location.reload();
  });
  window.addEventListener("pagehide", () => referee.shutdown());
  window.addEventListener("popstate", () => ctrl.fromUrl());
  window.addEventListener("hashchange", () => ctrl.fromUrl());

  w.pychessdraw = { ctrl }; // for features and the console
  w.__boot.page_ms = performance.now();
  referee.start();
}
