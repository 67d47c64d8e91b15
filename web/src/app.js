// SPDX-License-Identifier: GPL-3.0-or-later
// The page's entry: draws the board first, then loads the rest (page.js:
// the views around it, the features, the test hooks) once the board is on
// screen, so that a first visit sees the board before the bulk of the page's
// code is fetched and run. No chess here: see ctrl.js (state and actions),
// referee/client.js (the worker), ui/*.js (views).
import { Controller } from "./ctrl.js";
import { Referee } from "./referee/client.js";
import { mountArbiter } from "./arbiter/mount.js";
import { mountBoard } from "./ui/board.js";
import { chooseLanguage, mountLanguagePicker, showLanguage } from "./ui/language.js";
import { applyTheme, followSystemTheme } from "./ui/theme.js";
import { applyNotation } from "./ui/notation.js";
import { applyBoardSize } from "./ui/boardsize.js";
import { fromLocation, mountViews, showView, writeLocation } from "./ui/views.js";
import { t } from "./i18n.js";

const w = window;
w.__perf = []; // {op, ply, ms: action -> panel updated, paint_ms, worker_ms}
// board_ms: chessground has drawn the game's position (DOM); board_painted_ms: the
// frame holding it has been painted; board_known: it was drawn before the referee
// answered; page_ms: the rest mounted; ready_ms: the referee's "ready"
w.__boot = { board_ms: null, board_painted_ms: null, board_known: null, page_ms: null, ready_ms: null, worker: null };

const boot = w.__pcdBoot || (w.__pcdBoot = { events: [] });
const referee = new Referee(boot);
// the controller sees the game's part of the address; the view's part
// (ui/views.js: "#review&m=...") stays as it is
const nav = {
  get: () => fromLocation().game,
  /** @param {string} hash @param {boolean} push */
  set: (hash, push) => writeLocation(fromLocation().view, hash, push),
};
// the colours first: a dark page never flashes light (ui/theme.js)
applyTheme();
followSystemTheme();
applyBoardSize();
applyNotation();
showView(fromLocation().view);
// The tabs work from the first paint, before the referee has started.
mountViews();
// Enter in the move box before the page's controls are mounted (page.js,
// after the first paint) must not submit the form natively (the CSP forbids
// it), and is not lost: the controls submit the box once they are mounted.
let enteredEarly = false;
document.getElementById("move-form")?.addEventListener("submit", (ev) => {
  ev.preventDefault();
  enteredEarly = true;
});
const ctrl = new Controller({ referee, storage: localStorage, nav });

// The page's language: its catalog is fetched now (a few KB, while the
// referee starts) and the words on screen follow; the referee is asked to
// speak it before its first facts (ctrl.onReady).
ctrl.language = chooseLanguage(localStorage, navigator.languages || []);
mountLanguagePicker(ctrl, localStorage);
if (ctrl.language !== "en") {
  showLanguage(ctrl.language).then(
    () => ctrl.changed("engine", "game", "moves", "board", "panel", "dialogs", "error", "browse", "export", "seats", "queue"),
    () => { ctrl.language = "en"; }, // no catalog (offline before it was cached): English, as the referee
  );
}

// Room for the clock faces at once when the saved time control runs clocks,
// so that the board does not shrink when the clocks feature mounts (the key
// and shape are clock/keeper.js's STORE_KEY, not imported: it stays out of
// this first chunk).
try {
  const saved = JSON.parse(localStorage.getItem("pychessdraw.clock.v1") || "null");
  document.documentElement.dataset.clocks = saved && saved.tc && saved.tc !== "untimed" ? "on" : "off";
} catch {
  // no storage, or not ours: the clocks feature decides when it mounts
}

// The board shows the game's position at once (a new game's, or the one saved
// here), with no move allowed until the referee is ready. When only the game's
// start is known (a link to a game saved elsewhere), the board counts as drawn
// once the referee has replayed the moves.
mountBoard(ctrl);
mountArbiter();
w.__boot.board_known = ctrl.state.early.known;
if (ctrl.state.early.known) boardDrawn();
else ctrl.on("ready", () => ctrl.redraw.after(() => { if (w.__boot.board_ms == null) boardDrawn(); }));

function boardDrawn() {
  w.__boot.board_ms = performance.now();
  performance.mark("board-drawn");
  afterPaint((painted) => {
    if (painted) w.__boot.board_painted_ms = performance.now();
  });
}

/**
 * Run fn(painted) after the next frame has been painted (a task queued from
 * requestAnimationFrame runs after that frame), or fn(false) after 100 ms
 * when no frame comes (a tab opened in the background).
 * @param {(painted: boolean) => void} fn
 */
function afterPaint(fn) {
  let done = false;
  /** @param {boolean} painted */
  const once = (painted) => {
    if (!done) {
      done = true;
      fn(painted);
    }
  };
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => once(true);
    ch.port2.postMessage(null);
  });
  setTimeout(() => once(false), 100);
}

afterPaint(() => {
  import("./page.js").then(({ mountPage }) => mountPage({ ctrl, referee, enteredEarly: () => enteredEarly }), (e) => {
    // a part of the page could not be fetched (the network went away mid-load)
    document.body.dataset.engine = "failed";
    const text = document.getElementById("engine-text");
    if (text) text.textContent = t("Part of the page could not be loaded ({reason}): reload the page.", { reason: e.message });
  });
});
