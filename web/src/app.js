// SPDX-License-Identifier: GPL-3.0-or-later
// The page's entry: wires the referee client, the controller, the views and
// the features together, and publishes the test hooks (body data-engine,
// data-seq, data-idle; window.__perf, window.__boot). No chess here: see
// ctrl.js (state and actions), referee/client.js (the worker), ui/*.js (views).
import { Controller } from "./ctrl.js";
import { FEATURES } from "./features/index.js";
import { Referee } from "./referee/client.js";
import { mountBoard } from "./ui/board.js";
import { mountControls } from "./ui/controls.js";
import { mountDialogs } from "./ui/dialogs.js";
import { $ } from "./ui/dom.js";
import { mountKeyboard } from "./ui/keyboard.js";
import { mountMoves } from "./ui/moves.js";
import { mountPanel } from "./ui/panel.js";
import { mountResult } from "./ui/result.js";
import { addSection } from "./ui/sections.js";

/** @type {any} */
const w = window;
w.__perf = []; // {op, ply, ms: action -> panel updated, paint_ms, worker_ms}
w.__boot = { board_ms: null, ready_ms: null, worker: null };

const boot = w.__pcdBoot || (w.__pcdBoot = { events: [] });
const referee = new Referee(boot);
const nav = {
  get: () => location.hash,
  /** @param {string} hash @param {boolean} push */
  set(hash, push) {
    const url = location.pathname + location.search + (hash ? `#${hash}` : "");
    if (location.hash.slice(1) === hash) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  },
};
const ctrl = new Controller({ referee, storage: localStorage, nav });

mountBoard(ctrl);
w.__boot.board_ms = performance.now();
performance.mark("board-drawn");
mountMoves(ctrl);
mountPanel(ctrl);
mountResult(ctrl);
mountDialogs(ctrl);
mountControls(ctrl);
mountKeyboard(ctrl);
for (const feature of FEATURES) feature({ ctrl, addSection });

// the live region and the test hooks, after every view has rendered
ctrl.on("change", (/** @type {import("./ctrl.js").CtrlState} */ s, /** @type {Set<string>} */ parts) => {
  if (parts.has("announce")) $("live").textContent = s.announce;
  document.body.dataset.seq = String(s.seq);
  document.body.dataset.idle = s.idle ? "1" : "0";
});
document.body.dataset.idle = "1";
ctrl.on("perf", (/** @type {any} */ rec) => {
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
referee.start();
