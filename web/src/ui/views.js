// SPDX-License-Identifier: GPL-3.0-or-later
// The page's views (Play, Review, and any later one), as chess sites have
// them: tabs and the address (#play, #review) choose one; Back, Forward and
// a reload keep it. Driven by the markup only, so that a view joins without
// code: every element [data-view=NAME] is shown in view NAME and hidden in
// the others, an element [data-views="a b"] is shown in each view it names,
// a button [data-view-tab=NAME] opens view NAME, and #NAME routes to it.
// (The arbiter view joins this way: <section data-view="arbiter"> and a tab
// with data-view-tab="arbiter", data-testid arbiter-mode.)
//
// The URL hash also holds the game (persist.js: "m=e2e4,e7e5&..."): the view
// is its first part when that part is a bare name ("#review&m=e2e4"); the
// default view is left out ("#m=e2e4" is Play), so links made before views
// existed still open as they did.
//
// An address with no game's part is read two ways. One the page wrote (a
// history entry it pushed or replaced, marked in history.state, met again by
// Back or Forward) says what it said then: "" is a new game. One typed in the
// address bar or followed from a link ("#review") names a view only: the game
// in progress stays on the board and its part is written back into the
// address. A game's part given explicitly ("#review&m=d2d4") is always read.

import { closestTo } from "./dom.js";

export const DEFAULT_VIEW = "play";
/** The event on `document` when another view is shown (`detail`: its name). */
export const VIEW_EVENT = "pcd-view";

/** @returns {string[]} the views the page's markup defines */
export function viewNames() {
  const names = new Set([DEFAULT_VIEW]);
  for (const e of document.body.querySelectorAll("[data-view]")) {
    const n = /** @type {HTMLElement} */ (e).dataset.view;
    if (n) names.add(n);
  }
  return [...names];
}

/**
 * Split a URL hash into its view and the game's part.
 * @param {string} hash  with or without the leading "#"
 * @param {string[]} names  the known views: another bare name is no view
 * @returns {{view: string, game: string}}
 */
export function splitHash(hash, names) {
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  const amp = text.indexOf("&");
  const first = amp < 0 ? text : text.slice(0, amp);
  if (first && !first.includes("=") && names.includes(first)) {
    return { view: first, game: amp < 0 ? "" : text.slice(amp + 1) };
  }
  return { view: DEFAULT_VIEW, game: text };
}

/**
 * The hash for a view and a game's part ("" for Play with a new game).
 * @param {string} view @param {string} game
 */
export function joinHash(view, game) {
  if (view === DEFAULT_VIEW) return game;
  return game ? `${view}&${game}` : view;
}

// history.state of the entries the page writes (a typed address or a link makes one with null)
const OWN_ENTRY = Object.freeze({ pychessdraw: "address" });
/** The game's part the page last wrote: the game in progress (null before the first). @type {string|null} */
let written = null;

/** @param {unknown} state  history.state @returns {boolean} whether the page wrote this entry */
function isOwnEntry(state) {
  return !!state && typeof state === "object" && /** @type {{pychessdraw?: unknown}} */ (state).pychessdraw === OWN_ENTRY.pychessdraw;
}

/**
 * The game's part an address stands for: as written, unless it is empty in
 * an entry the page did not write (a typed address, a link), which names no
 * game and so leaves the one in progress.
 * @param {string} game  the address's game's part
 * @param {boolean} own  the page wrote this history entry
 * @param {string|null} inProgress  the part of the game in progress, null if none was written yet
 */
export function gamePart(game, own, inProgress) {
  return game || own || inProgress == null ? game : inProgress;
}

/** @returns {{view: string, game: string}} the address's view and the game it stands for */
export function fromLocation() {
  const at = splitHash(location.hash, viewNames());
  return { view: at.view, game: gamePart(at.game, isOwnEntry(history.state), written) };
}

/**
 * Write the address: the view and the game's part, as a new history entry
 * (push) or in place; the entry is marked as the page's own.
 * @param {string} view @param {string} game @param {boolean} push
 */
export function writeLocation(view, game, push) {
  const hash = joinHash(view, game);
  written = game;
  const same = location.hash.slice(1) === hash;
  if (same && isOwnEntry(history.state)) return;
  const url = location.pathname + location.search + (hash ? `#${hash}` : "");
  if (push && !same) history.pushState(OWN_ENTRY, "", url);
  else history.replaceState(OWN_ENTRY, "", url);
}

/**
 * Show one view: its elements, its tab marked current; <html data-view>
 * lets the layout follow (the board column in the views that have it).
 * @param {string} name
 */
export function showView(name) {
  const view = viewNames().includes(name) ? name : DEFAULT_VIEW;
  for (const e of document.body.querySelectorAll("[data-view], [data-views]")) {
    const h = /** @type {HTMLElement} */ (e);
    const list = h.dataset.view ? [h.dataset.view] : (h.dataset.views || "").split(/\s+/);
    const hide = !list.includes(view);
    if (h.hidden !== hide) h.hidden = hide;
  }
  for (const t of document.querySelectorAll("[data-view-tab]")) {
    const tab = /** @type {HTMLElement} */ (t);
    if (tab.dataset.viewTab === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  const board = document.querySelector(".board-col");
  const was = document.documentElement.dataset.view;
  document.documentElement.dataset.view = view; // (on <html>: outside the body, where the views are)
  // features follow the view without importing the router (the clocks pause outside Play)
  if (was && was !== view) document.dispatchEvent(new CustomEvent(VIEW_EVENT, { detail: view }));
  document.documentElement.dataset.board = board && !(/** @type {HTMLElement} */ (board)).hidden ? "on" : "off";
  return view;
}

/**
 * The tabs: a click opens the view (a new history entry, so that Back
 * returns); Back, Forward and an edited address show the address's view.
 * Called once the page is mounted; app.js shows the address's view at once.
 * @param {() => void} [onShown]  after a view has been shown
 */
export function mountViews(onShown = () => {}) {
  document.addEventListener("click", (ev) => {
    const tab = closestTo(ev, "[data-view-tab]");
    if (!(tab instanceof HTMLElement)) return;
    const name = tab.dataset.viewTab || DEFAULT_VIEW;
    writeLocation(name, fromLocation().game, true);
    showView(name);
    onShown();
  });
  const follow = () => {
    const at = fromLocation();
    // a typed address or a link that named a view only: the game's part back in the address
    if (at.game !== splitHash(location.hash, viewNames()).game) writeLocation(at.view, at.game, false);
    showView(at.view);
    onShown();
  };
  window.addEventListener("popstate", follow);
  window.addEventListener("hashchange", follow);
}
