// SPDX-License-Identifier: GPL-3.0-or-later
// Opens the Arbiter view: the `arbiter-mode` tab and the address `#arbiter`
// show <section data-view="arbiter"> and hide the play layout; the view's
// code (view.js: sources, worker, boards, log) is fetched the first time.
// Until the page routes its views by `#NAME` itself, this small switch does
// it for this one view (delete it when that lands: only the lazy mount stays).

/** @type {Promise<void> | null} */
let mounted = null;

/** @param {HTMLElement} section */
function mountOnce(section) {
  if (!mounted) {
    mounted = import("./view.js").then(({ mountArbiterView }) => mountArbiterView(section), (e) => {
      section.textContent = `The arbiter's view could not be loaded (${e.message}): reload the page.`;
    });
  }
  return mounted;
}

/** Wire the tab and the address; shows the view at once when the address asks. */
export function mountArbiter() {
  const section = /** @type {HTMLElement | null} */ (document.querySelector('section[data-view="arbiter"]'));
  const tab = /** @type {HTMLElement | null} */ (document.querySelector('[data-view-tab="arbiter"]'));
  const main = /** @type {HTMLElement | null} */ (document.querySelector("main.layout"));
  if (!section || !tab) return;
  /** @param {boolean} on */
  const show = (on) => {
    section.hidden = !on;
    if (main) main.hidden = on;
    tab.setAttribute("aria-pressed", String(on));
    document.body.dataset.view = on ? "arbiter" : "";
    if (on) void mountOnce(section);
  };
  let before = ""; // the play view's address (its game), restored on leaving
  /** @param {Event} ev */
  const fromAddress = (ev) => {
    const on = location.hash === "#arbiter";
    // Not a game link: the play view must not read it as "no game" and start a new one.
    if (on) ev.stopImmediatePropagation();
    show(on);
  };
  tab.addEventListener("click", () => {
    const on = section.hidden !== false;
    if (on) before = location.hash;
    history.pushState(null, "", location.pathname + location.search + (on ? "#arbiter" : before));
    show(on);
  });
  // registered before the play view's own listeners (page.js), so that they can be stopped
  window.addEventListener("hashchange", fromAddress);
  window.addEventListener("popstate", fromAddress);
  if (location.hash === "#arbiter") show(true);
}
