// SPDX-License-Identifier: GPL-3.0-or-later
// Clock times recorded in a game (the `[%clk h:mm:ss]` comments of an
// imported PGN, or the page's own clocks): what each side's clock showed at a
// given ply while browsing. Pure.

/**
 * @typedef {"white" | "black"} Color
 * @typedef {{ply: number, color: Color, ms: number | null}} ClockEntry
 *   after the move to `ply`, the mover `color` had `ms` left (null: not recorded)
 */

/**
 * Each side's time as last recorded at or before `ply` (null where that side
 * has no recorded time yet). `entries` must be in ascending ply order.
 * @param {ClockEntry[]} entries
 * @param {number} ply
 * @returns {{white: number | null, black: number | null}}
 */
export function clocksAt(entries, ply) {
  /** @type {{white: number | null, black: number | null}} */
  const out = { white: null, black: null };
  for (const e of entries) {
    if (e.ply > ply) break;
    if (e.ms !== null) out[e.color] = e.ms;
  }
  return out;
}

