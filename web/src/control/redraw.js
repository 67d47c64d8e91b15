// SPDX-License-Identifier: GPL-3.0-or-later
// The page's one redraw. The controllers only say which parts of the state
// changed (ControllerBase.changed marks them); the redraw runs once, at the
// end of the task that changed them (a microtask: before the browser paints,
// so a move reaches the panel as soon as when every view drew at once), and
// calls each view's render(state, dirty) in the order below. A view never
// listens to the controller itself. No DOM: the views are ui/*.js.

/** @typedef {import("./state.js").CtrlState} CtrlState */
/** @typedef {import("./state.js").Part} Part */

/**
 * A view: what it shows (`parts`: it is drawn when one of them changed;
 * omitted: every time), and how it draws the state.
 * @typedef {{parts?: Part[], render: (state: CtrlState, dirty: Set<Part>) => void}} View
 */

/**
 * The order the views draw in: the board first (what a move changes first),
 * the test hooks last (data-seq and data-idle say the page is drawn).
 */
export const VIEW_ORDER = /** @type {const} */ ([
  "board", "moves", "strip", "panel", "proof", "result", "dialogs", "controls", "players", "hooks",
]);
/** @typedef {typeof VIEW_ORDER[number]} ViewName */

export class Redraw {
  /**
   * @param {CtrlState} state  the page's one state, which the views draw
   * @param {(dirty: Set<Part>) => void} [afterViews]  what runs after the views (the controller's "change" event)
   * @param {(e: unknown) => void} [report]  a view's failure (default: thrown again, on its own, as uncaught)
   */
  constructor(state, afterViews = () => {}, report = (e) => queueMicrotask(() => { throw e; })) {
    this.state = state;
    this.afterViews = afterViews;
    this.report = report;
    /** @type {Map<ViewName, View>} */
    this.views = new Map();
    /** The parts changed since the last redraw. @type {Set<Part>} */
    this.dirty = new Set();
    this.scheduled = false;
    /** Run once the next redraw is done (timings of what the player sees). @type {Array<() => void>} */
    this.waiting = [];
    /** Redraws run (a test's count). */
    this.count = 0;
  }

  /** @param {ViewName} name  its place in VIEW_ORDER (a name not there is a type error) @param {View} view */
  add(name, view) {
    this.views.set(name, view);
  }

  /** Mark `parts` changed and draw them once, at the end of this task. @param {Iterable<Part>} parts */
  mark(parts) {
    for (const p of parts) this.dirty.add(p);
    this.schedule();
  }

  /** Run `fn` once the next redraw is done (one is scheduled if none is). @param {() => void} fn */
  after(fn) {
    this.waiting.push(fn);
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.now());
  }

  /** Draw what changed now (a scheduled redraw finds nothing left to do). */
  now() {
    this.scheduled = false;
    const dirty = this.dirty;
    this.dirty = new Set();
    if (dirty.size) {
      this.count++;
      for (const name of VIEW_ORDER) {
        const view = this.views.get(name);
        if (view && (!view.parts || view.parts.some((p) => dirty.has(p)))) this.draw(view, dirty);
      }
      this.afterViews(dirty);
    }
    for (const fn of this.waiting.splice(0)) fn();
  }

  /** One view; a view that fails is reported and the others still draw. @param {View} view @param {Set<Part>} dirty */
  draw(view, dirty) {
    try {
      view.render(this.state, dirty);
    } catch (e) {
      this.report(e);
    }
  }
}
