// SPDX-License-Identifier: GPL-3.0-or-later
// What a caught value says: an Error's message, else the value as text
// (a worker or a promise may reject with anything).

/** @param {unknown} e */
export function messageOf(e) {
  return e instanceof Error && e.message ? e.message : String(e);
}
