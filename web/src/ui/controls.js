// SPDX-License-Identifier: GPL-3.0-or-later
// Buttons and forms: each sends one controller action; their enabled state
// follows the controller's (visibly disabled, with the reason, while the
// referee starts). Also the engine status line and the export box.
import { t } from "../i18n.js";
import { markedAttr } from "./language.js";
import { $, $as, focusFirst, setText } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

const GAME_BUTTONS = ["claim-any", "claim-typed", "offer", "resign-white", "resign-black"];
// the PGN tags' names stay as the standard writes them in the PGN; the page shows them in words
/** @type {Record<string, () => string>} */
const TAG_WORDS = { White: () => t("White"), Black: () => t("Black"), Event: () => t("Event"), Site: () => t("Site"), Date: () => t("Date"), Round: () => t("Round") };
const ENGINE_BUTTONS = ["undo", "new-game", "load-fen", "load-pgn", "export-pgn", "copy-pgn", "pgn-games-load"];

/**
 * The move box's move: played, or kept (while the referee starts; as the
 * premove while the computer is to move).
 * @param {Controller} ctrl @param {HTMLInputElement} input
 */
function submitMove(ctrl, input) {
  const mv = input.value.trim();
  if (!mv) return;
  // kept, judged once the referee is ready; or the premove, played after the computer's reply
  if (ctrl.state.engine === "loading" || ctrl.premoves.keepTyped(mv)) {
    if (ctrl.state.engine === "loading") void ctrl.play(mv);
    input.value = "";
    return;
  }
  void ctrl.play(mv).then((r) => {
    if (r && r.ok && input.value.trim() === mv) input.value = ""; // keep a move typed ahead
  });
}

/**
 * Each button and form sends its one controller action.
 * @param {Controller} ctrl @param {HTMLInputElement} input  the move box
 */
function listen(ctrl, input) {
  /** @param {string} id @param {() => void} fn */
  const click = (id, fn) => $(id).addEventListener("click", fn);
  $("move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    submitMove(ctrl, input);
  });
  click("claim-any", () => void ctrl.claim(null));
  click("claim-typed", () => {
    const mv = input.value.trim();
    if (!mv) {
      ctrl.showError({ code: "empty", message: t("Type the move you intend to play in the move box, then press “Claim with typed move”.") });
      input.focus(); // where the move is to be typed (the message sits right below it)
      input.scrollIntoView({ block: "nearest" });
      return;
    }
    void ctrl.claim(mv).then((r) => {
      if (r && r.ok && input.value.trim() === mv) input.value = "";
    });
  });
  click("offer", () => ctrl.offerDraw());
  click("agree", () => void ctrl.acceptDraw());
  click("decline", () => ctrl.declineDraw());
  click("resign-white", () => void ctrl.resign("white"));
  click("resign-black", () => void ctrl.resign("black"));
  click("undo", () => void ctrl.undo());
  click("flip", () => ctrl.flip());
  click("new-game", () => ctrl.newGame());
  click("load-fen", () => ctrl.setUp($as("fen-input", HTMLInputElement).value, $as("fen-960", HTMLInputElement).checked));
  click("load-pgn", () => ctrl.importPgn($as("pgn-input", HTMLTextAreaElement).value));
  click("export-pgn", () => void ctrl.exportPgn());
  click("copy-pgn", async () => {
    const r = await ctrl.exportPgn();
    if (r && r.ok && r.pgn != null) void copyText(ctrl, r.pgn, t("PGN copied"), t("The PGN is in the box; copy it from there"));
  });
  click("copy-fen", () => {
    const f = ctrl.shown();
    if (!f) return;
    $as("fen-input", HTMLInputElement).value = f.fen;
    void copyText(ctrl, f.fen, t("FEN copied"), t("The FEN is in the box; copy it from there"));
  });
  click("copy-link", () => void copyText(ctrl, location.href, t("Link to this game copied"), t("Copying the link failed: copy it from the address bar")));
  click("nav-first", () => ctrl.goto(0));
  click("nav-prev", () => ctrl.step(-1));
  click("nav-next", () => ctrl.step(1));
  click("nav-last", () => ctrl.goto(Infinity));
}

/**
 * A control that had the focus and is now disabled or hidden (the game
 * ended, a seat changed) hands it on to Undo, or New game, so that the
 * keyboard is not dropped onto the page body.
 * @param {Element|null} before
 */
function keepFocus(before) {
  if (!(before instanceof HTMLElement) || before === document.body) return;
  if (before.closest('[role="dialog"]')) return; // a closing dialog gives the focus back itself
  const now = document.activeElement;
  if (now !== before && now !== document.body) return; // the focus went elsewhere on purpose
  // a browser may move the focus off a control just disabled or hidden only at its next update
  if (now === before && !before.matches(":disabled") && !before.closest("[hidden]")) return;
  focusFirst("undo", "new-game");
}

/**
 * Every control's state from the controller's.
 * @param {Controller} ctrl @param {HTMLInputElement} input  the move box
 */
function draw(ctrl, input) {
  const s = ctrl.state;
  const ready = s.engine === "ready";
  const live = s.live;
  const over = !live || !!live.outcome;
  const why = ready ? "" : s.engine === "failed" ? t("The referee could not start") : t("Waiting for the referee to start");
  for (const id of GAME_BUTTONS) setDisabled(id, !ready || over, why || (over ? t("The game is over") : ""));
  renderSeats(ctrl, over);
  for (const id of ENGINE_BUTTONS) setDisabled(id, !ready, why);
  // a finished game takes no move: the box says so instead of refusing each one
  // while the referee starts a move is kept and judged once it is ready
  setDisabled("move-play", s.engine === "failed" || (ready && over), why || t("The game is over: Undo takes the ending back"));
  setText($("queued"), s.queued.length ? t("Waiting for the referee: {moves}", { moves: s.queued.join(" ") })
    : s.premove ? t("Premove {move}, after the computer's reply", { move: s.premove.text }) : "");
  const closed = ready && over;
  if (input.disabled !== closed) input.disabled = closed;
  const hint = closed ? t("The game is over") : markedAttr(input, "placeholder");
  if (input.placeholder !== hint) input.placeholder = hint;
  setDisabled("undo", !ready || !live || !live.can_undo, why || t("Nothing to take back"));
  const ply = ctrl.shownPly();
  setDisabled("nav-first", ply === 0, "");
  // while a proof's line is on the board, ‹ › step through it (features/proof.js)
  setDisabled("nav-prev", ply === 0 && !s.proof, "");
  setDisabled("nav-next", ctrl.isLive() && !s.proof, "");
  setDisabled("nav-last", ctrl.isLive(), "");
  $("offer-box").hidden = !s.offer || over;
  $("offer").hidden = !!s.offer && !over;
  if (s.offer) setText($("offer-text"), s.offer.text);
  // an offer to the computer is answered by the computer, not by the visitor
  const answers = !s.offer || ctrl.mayAct(s.offer.to);
  $("agree").hidden = !answers;
  $("decline").hidden = !answers;
  renderEngineStatus(s);
  const f = ctrl.shown();
  if (f) {
    setText($("turn"), f.turn_text);
    setText($("viewing"), ctrl.isLive() ? "" : t("Viewing {where} (End returns)", { where: f.where }));
    $as("fen-input", HTMLInputElement).placeholder = f.fen;
  }
  const out = $as("pgn-output", HTMLTextAreaElement);
  if (out.value !== s.exported) out.value = s.exported;
  renderTags(s.game);
}

/**
 * Controls that fit the game: resign only for a side the visitor plays;
 * claim only on their own turn. (No flag buttons: an untimed game has no
 * flag to fall, and in a timed one the clocks decide.)
 * @param {Controller} ctrl @param {boolean} over
 */
function renderSeats(ctrl, over) {
  const s = ctrl.state;
  for (const c of /** @type {const} */ (["white", "black"])) {
    $(`resign-${c}`).hidden = !s.seats[c];
  }
  const turn = s.live ? s.live.turn : "white";
  if (!over && !ctrl.mayAct(turn)) {
    for (const id of ["claim-any", "claim-typed"]) setDisabled(id, true, t("The computer claims for itself on its turn"));
  }
}

/** @param {import("../ctrl.js").CtrlState["game"]} game */
function renderTags(game) {
  // PGN tags are untrusted text: textContent only.
  const h = game ? game.headers : {};
  const parts = [];
  for (const k of ["White", "Black", "Event", "Site", "Date", "Round"]) {
    const v = h[k];
    if (v && v !== "?" && v !== "????.??.??") parts.push(`${TAG_WORDS[k]()}: ${v}`);
  }
  const p = $("game-tags");
  setText(p, parts.join(" · "));
  p.hidden = !parts.length;
}

/**
 * The referee's start: its state on <body>, the status line, the progress.
 * @param {import("../ctrl.js").CtrlState} s
 */
function renderEngineStatus(s) {
  const ready = s.engine === "ready";
  const wait = $("engine-wait");
  wait.hidden = ready;
  setText(wait, s.engine === "failed" ? t("The buttons cannot work: the referee could not start.") : t("The buttons work once the referee has started."));
  document.body.dataset.engine = s.engine;
  setText($("engine-text"), s.engine === "ready" ? t("Referee ready") : s.engineText);
  const prog = /** @type {HTMLProgressElement} */ ($("engine-progress"));
  prog.hidden = s.engine !== "loading";
  prog.max = s.progress.steps;
  prog.value = s.progress.step;
  $("engine-status").classList.toggle("failed", s.engine === "failed");
  if (s.engine !== "loading") setText($("engine-elapsed"), "");
}

/** @param {Controller} ctrl */
export function mountControls(ctrl) {
  const input = $as("move-input", HTMLInputElement);

  listen(ctrl, input);

  let elapsed = 0;
  const timer = setInterval(() => {
    if (ctrl.state.engine !== "loading") return clearInterval(timer);
    elapsed = Math.round(performance.now() / 1000);
    setText($("engine-elapsed"), t("{seconds} s", { seconds: elapsed }));
  }, 1000);

  function render() {
    const focused = document.activeElement;
    draw(ctrl, input);
    keepFocus(focused);
  }

  ctrl.redraw.add("controls", { render: (_s, dirty) => {
    // a game replaced (set up, new, imported): the box shows its FEN as a placeholder again, not a stale one
    if (dirty.has("game")) $as("fen-input", HTMLInputElement).value = "";
    render();
  } });
  render();
}

/** @param {string} id @param {boolean} disabled @param {string} why */
function setDisabled(id, disabled, why) {
  const b = /** @type {HTMLButtonElement} */ ($(id));
  if (b.disabled !== disabled) b.disabled = disabled;
  const own = markedAttr(b, "title"); // the button's own tooltip, in the page's language
  const title = disabled && why ? `${why}${own ? ` (${own})` : ""}` : own;
  if (b.title !== title) b.title = title;
}

/** @param {Controller} ctrl @param {string} text @param {string} done @param {string} failed */
async function copyText(ctrl, text, done, failed) {
  try {
    await navigator.clipboard.writeText(text);
    ctrl.announce(done);
  } catch {
    ctrl.announce(failed);
  }
}

