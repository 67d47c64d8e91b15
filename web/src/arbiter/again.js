// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view in another language: the worker says again the
// sentences it made (every board's, every event's of the sources followed:
// follow_again), and they are put in place: the cards, the log's rows
// (their times and order kept), the strip and the count. Nothing is
// followed anew; the view's and the sources' messages are made again. Limit: the events of sources no longer followed (an earlier
// Follow, a source replaced) keep the words they were said in.
import { boardKey } from "./model.js";
import { rewordRow } from "./cards.js";

/**
 * What of the view is said again (view.js's ArbiterView).
 * @typedef {{client: import("./client.js").ArbiterClient, model: import("./model.js").ArbiterModel,
 *   ui: {log: HTMLElement, status: HTMLElement}, said: () => string, slots: import("./slots.js").SourceSlot[], draw: (b: import("./model.js").Board) => void, redrawAll: () => void, showPhase: () => void}} Said
 */

/** @param {Said} v */
export async function sayAgain(v) {
  v.showPhase(); // the Follow button's word
  v.ui.status.textContent = v.said(); // the messages, made again
  for (const slot of v.slots) slot.status.textContent = slot.said();
  v.redrawAll(); // the count, the strip
  if (!(await v.client.speak())) return;
  const generation = v.model.generation;
  const sources = new Set([...v.model.boards.values()].map((b) => b.src));
  for (const src of sources) {
    const r = await v.client.again(src);
    if (generation !== v.model.generation || !r.ok) continue; // followed anew meanwhile, or a source dropped
    const u = { events: r.events ?? [], boards: r.boards ?? [] };
    v.model.reword(u, src);
    for (const e of u.events) {
      const row = v.ui.log.querySelector(`[data-generation="${v.model.shown}"][data-src="${src}"][data-id="${Number(e.id)}"]`);
      if (row instanceof HTMLElement) rewordRow(row, e);
    }
    for (const b of u.boards) {
      const shown = v.model.boards.get(boardKey(src, b.game));
      if (shown) v.draw(shown);
    }
  }
  v.redrawAll();
}
