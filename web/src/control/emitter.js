// SPDX-License-Identifier: GPL-3.0-or-later
// Typed events: the controller's "change", "reply", "move"... with the
// arguments each passes (control/state.js's CtrlEvents).

/** @template {Record<string, unknown[]>} E */
export class Emitter {
  constructor() {
    /** @type {{[K in keyof E]?: Array<(...a: E[K]) => void>}} */
    this.handlers = {};
  }

  /**
   * @template {keyof E} K
   * @param {K} type @param {(...a: E[K]) => void} fn
   * @returns {() => void} unsubscribe
   */
  on(type, fn) {
    this.handlers[type] = [...(this.handlers[type] ?? []), fn];
    return () => {
      this.handlers[type] = (this.handlers[type] ?? []).filter((f) => f !== fn);
    };
  }

  /** @template {keyof E} K @param {K} type @param {E[K]} args */
  emit(type, ...args) {
    for (const fn of this.handlers[type] ?? []) fn(...args);
  }
}
