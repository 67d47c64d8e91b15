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

export const DEFAULT_VIEW = "play";

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

/** @returns {{view: string, game: string}} the address's view and game */
export function fromLocation() {
  return splitHash(location.hash, viewNames());
}

/**
 * Write the address: the view and the game's part, as a new history entry
 * (push) or in place.
 * @param {string} view @param {string} game @param {boolean} push
 */
export function writeLocation(view, game, push) {
  const hash = joinHash(view, game);
  if (location.hash.slice(1) === hash) return;
  const url = location.pathname + location.search + (hash ? `#${hash}` : "");
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
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
  document.documentElement.dataset.view = view; // (on <html>: outside the body, where the views are)
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
    const tab = /** @type {HTMLElement} */ (ev.target).closest("[data-view-tab]");
    if (!(tab instanceof HTMLElement)) return;
    const name = tab.dataset.viewTab || DEFAULT_VIEW;
    writeLocation(name, fromLocation().game, true);
    showView(name);
    onShown();
  });
  const follow = () => {
    showView(fromLocation().view);
    onShown();
  };
  window.addEventListener("popstate", follow);
  window.addEventListener("hashchange", follow);
}
