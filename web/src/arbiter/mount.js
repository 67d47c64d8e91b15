// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view's code (view.js: sources, worker, boards, log) is fetched
// the first time the view is shown. The view itself is routed like every
// other (ui/views.js: the `arbiter-mode` tab, the address `#arbiter`): this
// only watches its section come out of hiding.
import { t } from "../i18n.js";

/** @type {Promise<void> | null} */
let mounted = null;

/** @param {HTMLElement} section */
function mountOnce(section) {
  if (!mounted) {
    mounted = import("./view.js").then(({ mountArbiterView }) => mountArbiterView(section), (e) => {
      section.textContent = t("The arbiter's view could not be loaded ({error}): reload the page.", { error: e.message });
    });
  }
  return mounted;
}

/** Mount the view's code when its section is first shown (at once if it is). */
export function mountArbiter() {
  const section = /** @type {HTMLElement | null} */ (document.querySelector('section[data-view="arbiter"]'));
  if (!section) return;
  if (!section.hidden) {
    void mountOnce(section);
    return;
  }
  const seen = new MutationObserver(() => {
    if (section.hidden) return;
    seen.disconnect();
    void mountOnce(section);
  });
  seen.observe(section, { attributes: true, attributeFilter: ["hidden"] });
}
