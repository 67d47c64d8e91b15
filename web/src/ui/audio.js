// SPDX-License-Identifier: GPL-3.0-or-later
// The page's one AudioContext, shared by the move sounds (features/sounds.js),
// the clock's low-time beep (features/clocks.js) and the arbiter's alarm
// (arbiter/view.js). The browser's first AudioContext costs 50-200 ms of the
// main thread (its audio starts up), so it is made while the page is idle
// (warmAudio), never on the click or move that first needs it; a click or a
// key then only resumes it, as browsers ask.

/** @type {AudioContext|null} */
let shared = null;

/** The page's AudioContext, made on first use; null where the browser has none. */
export function audioContext() {
  if (!shared) {
    const AC = window.AudioContext || window.webkitAudioContext;
    try {
      shared = AC ? new AC() : null;
    } catch {
      shared = null; // no audio here: the page says everything in words too
    }
  }
  return shared;
}

/** Resume the context from a click or a key (it may start suspended outside one). */
export function resumeAudio() {
  const ctx = audioContext();
  if (ctx && ctx.state === "suspended") void ctx.resume();
}

/** Make the context when the page is next idle, unless `wanted()` says no by then. @param {() => boolean} wanted */
export function warmAudio(wanted) {
  const make = () => void (wanted() && audioContext());
  if (typeof requestIdleCallback === "function") requestIdleCallback(make, { timeout: 3000 });
  else setTimeout(make, 1000);
}

/** Whether a context has been made (nothing to resume before). */
export const audioMade = () => shared !== null;
