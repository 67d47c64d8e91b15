// SPDX-License-Identifier: GPL-3.0-or-later
// Dialogs and messages: the promotion chooser, the claim prompt ("claim a
// draw with this move?"), the confirmation before a game is replaced, the
// choice of a game in a PGN file with several, and the error message, shown
// next to the control that caused it. Escape closes each (keyboard.js).
import { t, tn } from "../i18n.js";
import { $, $as, closestTo, el, focusFirst, setText } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */

const PIECES = { q: () => t("Queen"), r: () => t("Rook"), b: () => t("Bishop"), n: () => t("Knight") };
/** chessground's piece classes (its piece images are styled by them) */
const ROLES = { q: "queen", r: "rook", b: "bishop", n: "knight" };

/**
 * The promotion chooser: one button per piece, with its image and name, or hidden.
 * @param {HTMLElement} promo @param {HTMLElement} promoButtons @param {import("../ctrl.js").CtrlState["promotion"]} promotion
 * @param {string} color  the side promoting
 */
function renderPromotion(promo, promoButtons, promotion, color) {
  promoButtons.replaceChildren();
  if (promotion) {
    for (const m of promotion) {
      const p = /** @type {keyof typeof PIECES} */ (m.promotion || "q");
      const image = document.createElement("piece"); // chessground's element for a piece's image
      image.className = `${ROLES[p]} ${color}`;
      image.setAttribute("aria-hidden", "true");
      promoButtons.append(el("button", { class: `promo promo-${p}`, dataset: { promotion: p, uci: m.uci }, attrs: { type: "button" } },
        image, el("span", {}, PIECES[p] ? PIECES[p]() : m.san)));
    }
    promo.hidden = false;
    /** @type {HTMLElement|null} */ (promoButtons.firstElementChild)?.focus();
  } else promo.hidden = true;
}

/**
 * The choice of a game in a PGN text with several.
 * @param {import("../ctrl.js").CtrlState["pgnGames"]} games
 */
function renderPgnPick(games) {
  const pick = $("pgn-pick");
  pick.hidden = !games;
  if (games) {
    const sel = $as("pgn-games", HTMLSelectElement);
    if (sel.dataset.count !== String(games.games.length) || !sel.options.length) {
      sel.replaceChildren(...games.games.map((g) => {
        const o = el("option", {}, g.label);
        o.value = String(g.index);
        return o;
      }));
      sel.dataset.count = String(games.games.length);
    }
    setText($("pgn-games-label"), tn("This text holds {n} game: choose one to import", "This text holds {n} games: choose one to import", games.games.length));
  }
}

/**
 * The error message, beside the control that caused it.
 * @param {import("../ctrl.js").CtrlState["error"]} e @param {string} lastFocusSource  the id of the control that acted last
 */
function renderError(e, lastFocusSource) {
  const wrap = $("error-wrap");
  const p = $("error");
  if (!e) {
    wrap.hidden = true;
    p.hidden = true;
    p.textContent = "";
    return;
  }
  // beside the control that caused it: the FEN box, the PGN box, else the move box
  const near = { "fen-input": "load-fen", "load-fen": "load-fen", "fen-960": "load-fen", "pgn-input": "load-pgn", "load-pgn": "load-pgn", "pgn-games-load": "load-pgn", "pgn-games": "load-pgn" }[lastFocusSource];
  const anchor = near ? /** @type {HTMLElement} */ ($(near).closest(".row")) : $("error-home");
  if (wrap.previousElementSibling !== anchor && wrap.parentElement !== anchor) {
    if (anchor.id === "error-home") anchor.append(wrap);
    else anchor.after(wrap);
  }
  p.textContent = e.message;
  p.dataset.code = e.code;
  p.hidden = false;
  wrap.hidden = false;
}

/**
 * The dialogs' buttons, forwarded to the controller.
 * @param {Controller} ctrl @param {HTMLElement} promo @param {HTMLElement} promoButtons
 */
function listen(ctrl, promo, promoButtons) {
  /** @type {HTMLElement} */ (promo.querySelector(".promo-cancel")).addEventListener("click", () => ctrl.cancelPromotion());
  promoButtons.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-uci]");
    if (b instanceof HTMLElement && b.dataset.uci) void ctrl.promote(b.dataset.uci);
  });
  $("claim-prompt-claim").addEventListener("click", () => void ctrl.answerClaimPrompt(true));
  $("claim-prompt-play").addEventListener("click", () => void ctrl.answerClaimPrompt(false));
  $("confirm-yes").addEventListener("click", () => ctrl.answerConfirm(true));
  $("confirm-no").addEventListener("click", () => ctrl.answerConfirm(false));
  $("error-close").addEventListener("click", () => ctrl.dismissError());
  $("pgn-games-load").addEventListener("click", () => ctrl.pickPgnGame(Number($as("pgn-games", HTMLSelectElement).value)));
}

/**
 * A focused control that the game's end disables or hides drops the focus to
 * the page body (Chromium blurs it): the keyboard goes to a neighbour.
 */
function keepFocusOnControls() {
  document.addEventListener("focusout", (ev) => {
    const t = ev.target;
    if (ev.relatedTarget !== null || !(t instanceof HTMLElement)) return;
    // A task later: a closing dialog gives the focus back first (focusReturner).
    setTimeout(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      if (!t.isConnected || ("disabled" in t && t.disabled) || t.offsetParent === null) {
        focusFirst("undo", "nav-prev", "flip");
      }
    }, 0);
  });
}

/**
 * A dialog opened (remember where the focus was) or closed (give it back,
 * or to Undo when that control is gone or disabled, e.g. the game ended).
 * @returns {(box: HTMLElement, open: boolean) => void}
 */
function focusReturner() {
  /** The control that had the focus when a dialog opened: it gets it back. @type {HTMLElement|null} */
  let returnTo = null;

  /** @param {HTMLElement} box @param {boolean} open */
  function focusAround(box, open) {
    const active = /** @type {HTMLElement|null} */ (document.activeElement);
    if (open) {
      if (active && !box.contains(active) && active !== document.body) returnTo = active;
      return;
    }
    if (active && active !== document.body && !box.contains(active)) return;
    const back = returnTo;
    returnTo = null;
    // After every view of this change has rendered: a control that the same
    // change disables loses the focus again (Chromium blurs disabled elements).
    queueMicrotask(() => {
      const now = document.activeElement;
      if (now && now !== document.body && !box.contains(now)) return;
      if (back && back.isConnected && !("disabled" in back && back.disabled) && back.offsetParent !== null) back.focus();
      else focusFirst("undo", "nav-prev", "move-input", "flip");
    });
  }
  return focusAround;
}

/** @param {Controller} ctrl */
export function mountDialogs(ctrl) {
  const promo = $("promotion");
  const promoButtons = /** @type {HTMLElement} */ (promo.querySelector(".promo-buttons"));
  /** @type {import("../ctrl.js").CtrlState["promotion"]} */
  let shownPromotion = null;
  /** @type {string} */
  let lastFocusSource = "";
  const focusAround = focusReturner();

  listen(ctrl, promo, promoButtons);
  keepFocusOnControls();
  // remember which control acted last, to show its error beside it
  document.addEventListener("focusin", (ev) => {
    const t = /** @type {HTMLElement} */ (ev.target);
    if (t && t.id) lastFocusSource = t.id;
  });

  function render() {
    const s = ctrl.state;
    // promotion
    if (s.promotion !== shownPromotion) {
      shownPromotion = s.promotion;
      renderPromotion(promo, promoButtons, s.promotion, s.live ? s.live.turn : "white");
    }
    // claim prompt
    const cp = $("claim-prompt");
    const wasHidden = cp.hidden;
    cp.hidden = !s.ask;
    if (s.ask) {
      setText($("claim-prompt-text"), s.ask.question);
      if (wasHidden) {
        focusAround(cp, true);
        $("claim-prompt-claim").focus();
      }
    } else if (!wasHidden) focusAround(cp, false);
    // confirm
    const cd = $("confirm-dialog");
    const confirmWasHidden = cd.hidden;
    cd.hidden = !s.confirm;
    if (s.confirm) {
      setText($("confirm-text"), s.confirm.text);
      setText($("confirm-yes"), s.confirm.yes);
      setText($("confirm-no"), s.confirm.no);
      if (confirmWasHidden) {
        focusAround(cd, true);
        $("confirm-no").focus();
      }
    } else if (!confirmWasHidden) focusAround(cd, false);
    renderPgnPick(s.pgnGames);
  }

  ctrl.redraw.add("dialogs", { parts: ["dialogs", "error"], render: (s, dirty) => {
    render();
    if (dirty.has("error")) renderError(s.error, lastFocusSource);
  } });
  render();
}
