// SPDX-License-Identifier: GPL-3.0-or-later
// Small DOM helpers shared by the views. Text is only ever set as text.

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing from index.html`);
  return e;
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{class?: string, dataset?: Record<string, string>, attrs?: Record<string, string>, text?: string}} [props]
 * @param {...(Node|string|null)} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.dataset) Object.assign(e.dataset, props.dataset);
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) e.setAttribute(k, v);
  if (props.text != null) e.textContent = props.text;
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
}

/**
 * Set text only when it changed (keeps per-move DOM work small).
 * @param {HTMLElement} e @param {string} text
 */
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}

/**
 * Give the focus to the first of `ids` that can take it (connected, shown,
 * enabled): where the keyboard goes when the control it was on is gone.
 * @param {...string} ids
 */
export function focusFirst(...ids) {
  for (const id of ids) {
    const e = /** @type {HTMLButtonElement|null} */ (document.getElementById(id));
    if (e && !e.disabled && e.offsetParent !== null) {
      e.focus();
      return;
    }
  }
}

/**
 * The element with this id, of the kind expected (an input, a select...).
 * @template {HTMLElement} T
 * @param {string} id @param {{new (): T, name: string}} kind
 * @returns {T}
 */
export function $as(id, kind) {
  const e = $(id);
  if (!(e instanceof kind)) throw new Error(`#${id} is not a ${kind.name} in index.html`);
  return e;
}

/**
 * The element an event happened in that matches `selector` (a delegated click), or null.
 * @param {Event} ev @param {string} selector
 * @returns {HTMLElement|null}
 */
export function closestTo(ev, selector) {
  const found = ev.target instanceof Element ? ev.target.closest(selector) : null;
  return found instanceof HTMLElement ? found : null;
}
