// SPDX-License-Identifier: GPL-3.0-or-later
// The review feature: open a PGN file (file picker or drag-and-drop; .pgn,
// and .pgn.gz where the browser can decompress), have the referee judge
// every game in a worker of its own (so the board keeps answering), and show
// a table of games with their verdicts, filters, a summary, downloads (CSV,
// JSON lines as the CLI's scan prints them), and for an opened game its
// events on the move list and a timeline. State and driving:
// review/controller.js (with review/pool.js, reader.js, runner.js,
// table.js); this file only draws and forwards the visitor's actions.
//
// Hooks: pgn-file, review-drop, review-progress (data-state), review-cancel,
// review-summary, review-filter-<verdict>, review-csv, review-jsonl,
// review-games (rows with data-game, data-verdict, data-result),
// review-more, review-timeline.

import { ReviewController } from "../review/controller.js";
import { poolSizeFor } from "../review/pool.js";
import { VERDICTS, VERDICT_WORDS, timeline } from "../review/table.js";
import { closestTo, el, setText } from "../ui/dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../review/table.js").ReviewRow} ReviewRow */
/** @typedef {import("../review/controller.js").ReviewView} ReviewView */

const PAGE_ROWS = 500; // rows drawn at a time; "show more" draws the next ones

/** The section's elements. */
function buildDom() {
  const fileInput = el("input", { attrs: { id: "pgn-file", type: "file", accept: ".pgn,.gz,.pgn.gz,application/x-chess-pgn,application/gzip" },
    dataset: { testid: "pgn-file" } });
  /** @type {Record<string, HTMLInputElement>} */
  const filterBoxes = {};
  const filters = el("fieldset", { class: "review-filters" }, el("legend", {}, "Show games whose verdict is"),
    ...VERDICTS.map((v) => {
      const box = el("input", { attrs: { type: "checkbox", id: `review-filter-${v}` }, dataset: { testid: `review-filter-${v}`, verdict: v } });
      box.checked = true;
      filterBoxes[v] = box;
      return el("label", { attrs: { for: `review-filter-${v}` }, class: `verdict-${v}` }, box, ` ${VERDICT_WORDS[v]} `,
        el("span", { class: "count", dataset: { count: v } }, "0"));
    }));
  const dom = {
    fileInput, filters, filterBoxes,
    drop: el("div", { class: "review-drop", dataset: { testid: "review-drop" } },
      el("label", { attrs: { for: "pgn-file" } }, "Open a .pgn or .pgn.gz file, or drop one here: "), fileInput),
    progress: el("progress", { attrs: { max: "1", value: "0", "aria-label": "Review progress" },
      dataset: { testid: "review-progress", state: "idle" } }),
    progressText: el("span", { class: "review-progress-text", attrs: { role: "status" } }),
    cancel: el("button", { attrs: { type: "button" }, dataset: { testid: "review-cancel" } }, "Cancel"),
    summary: el("p", { class: "review-summary", dataset: { testid: "review-summary" } }),
    csv: el("button", { attrs: { type: "button" }, dataset: { testid: "review-csv" } }, "Download CSV"),
    jsonl: el("button", { attrs: { type: "button" }, dataset: { testid: "review-jsonl" } }, "Download JSON lines"),
    tbody: el("tbody"),
    more: el("button", { attrs: { type: "button" }, dataset: { testid: "review-more" } }, "Show more games"),
    openedTitle: el("h3", { class: "review-opened" }),
    bar: el("div", { class: "review-bar", attrs: { "aria-hidden": "true" } }),
    marks: el("ol", { class: "review-timeline", dataset: { testid: "review-timeline" } }),
  };
  const table = el("table", { class: "review-games", dataset: { testid: "review-games" } },
    el("caption", { class: "sr-only" }, "Games of the file and the referee's verdict"),
    el("thead", {}, el("tr", {}, ...["#", "White – Black", "Result", "Verdict"].map((h) => el("th", { attrs: { scope: "col" } }, h)))),
    dom.tbody);
  const opened = el("div", { class: "review-game" }, dom.openedTitle, dom.bar, dom.marks);
  dom.cancel.disabled = true;
  dom.more.hidden = true;
  opened.hidden = true;
  for (const b of [dom.csv, dom.jsonl]) b.disabled = true;
  const parts = [dom.drop, el("div", { class: "review-run" }, dom.progress, dom.progressText, dom.cancel), dom.summary, filters,
    el("div", { class: "review-downloads" }, dom.csv, dom.jsonl), el("div", { class: "review-table-wrap" }, table), dom.more, opened];
  return { ...dom, opened, parts };
}

/** @typedef {ReturnType<typeof buildDom>} ReviewDom */

/** @param {ReviewRow} r */
function rowElement(r) {
  const where = r.error ?? r.detail; // the referee's words
  const open = el("button", { attrs: { type: "button", "aria-label": `Open game ${r.game}` }, class: "review-open" }, String(r.game));
  return el("tr", { class: `verdict-${r.verdict}`, dataset: { game: String(r.game), verdict: r.verdict, result: r.result } },
    el("td", {}, open), el("td", { class: "players" }, `${r.white} – ${r.black}`), el("td", {}, r.result),
    el("td", {}, el("span", { class: "verdict" }, VERDICT_WORDS[r.verdict]), where ? el("span", { class: "where" }, where) : null));
}

/**
 * The table of games, drawn a page at a time (the rows of the filter).
 * @param {ReviewController} rc @param {ReviewDom} dom
 */
function tableView(rc, dom) {
  let drawn = 0; // rows of the filtered list drawn
  let limit = PAGE_ROWS;
  /** @type {ReviewRow[]} */
  let shownRows = [];
  const active = () => VERDICTS.filter((v) => dom.filterBoxes[v].checked);
  const drawRows = () => {
    const frag = document.createDocumentFragment();
    while (drawn < shownRows.length && drawn < limit) frag.append(rowElement(shownRows[drawn++]));
    dom.tbody.append(frag);
    dom.more.hidden = drawn >= shownRows.length;
    if (!dom.more.hidden) setText(dom.more, `Show more games (${shownRows.length - drawn} not shown)`);
  };
  /** @param {boolean} all  all again (a new filter or review), else only what came */
  const rows = (all) => {
    const before = shownRows.length;
    shownRows = rc.table.filtered(active());
    if (all) {
      dom.tbody.replaceChildren();
      drawn = 0;
      limit = PAGE_ROWS;
      drawRows();
    } else if (shownRows.length !== before || drawn < limit) drawRows();
  };
  for (const v of VERDICTS) dom.filterBoxes[v].addEventListener("change", () => rows(true));
  dom.more.addEventListener("click", () => {
    limit += PAGE_ROWS;
    drawRows();
  });
  return rows;
}

/** @param {ReviewController} rc @param {ReviewDom} dom */
function renderSummary(rc, dom) {
  const s = rc.table.summary();
  const parts = VERDICTS.map((v) => `${VERDICT_WORDS[v]} ${s[v]}`).join(", ");
  setText(dom.summary, s.total ? `${s.total} game${s.total === 1 ? "" : "s"} (${s.plies} plies): ${parts}` : "No games reviewed yet.");
  dom.summary.dataset.total = String(s.total);
  for (const v of VERDICTS) {
    dom.summary.dataset[v] = String(s[v]);
    const c = dom.filters.querySelector(`[data-count="${v}"]`);
    if (c instanceof HTMLElement) setText(c, String(s[v]));
  }
  for (const b of [dom.csv, dom.jsonl]) b.disabled = s.total === 0;
}

/**
 * The opened game: its timeline, and its events marked on the move list.
 * The timeline's entry of the position shown is aria-current="true", however
 * it was reached (the timeline, the move list, the arrows, the keys).
 * @param {Controller} ctrl @param {ReviewController} rc @param {ReviewDom} dom
 */
function openedView(ctrl, rc, dom) {
  const current = () => {
    const ply = String(ctrl.shownPly());
    for (const b of dom.marks.querySelectorAll("button[data-ply]")) {
      if (/** @type {HTMLElement} */ (b).dataset.ply === ply) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  };
  ctrl.on("change", (_s, parts) => {
    if (parts.has("browse") || parts.has("moves") || parts.has("game")) current();
  });
  const markMoves = () => {
    for (const b of document.querySelectorAll("[data-testid=move-list] button.review-event")) {
      b.classList.remove("review-event", "kind-automatic", "kind-claimable", "kind-claimable_with_move");
      b.removeAttribute("data-review-event");
    }
    if (!rc.openGame) return;
    for (const m of timeline(rc.openGame.row)) {
      const b = document.querySelector(`[data-testid=move-list] button[data-ply="${m.ply}"]`);
      if (!(b instanceof HTMLElement)) continue;
      b.classList.add("review-event", `kind-${m.kind}`);
      b.dataset.reviewEvent = m.rule;
      b.title = m.label;
    }
  };
  /** @param {ReviewRow | null} row @param {string | null} problem */
  const opened = (row, problem) => {
    dom.opened.hidden = !row;
    if (!row) return;
    dom.opened.dataset.game = String(row.game);
    setText(dom.openedTitle, `Game ${row.game}: ${row.white} – ${row.black}, ${row.result} (${VERDICT_WORDS[row.verdict]})`);
    const items = timeline(row).map((m) => {
      const b = el("button", { attrs: { type: "button" }, dataset: { ply: String(m.ply), rule: m.rule, kind: m.kind } }, m.label);
      b.addEventListener("click", () => ctrl.goto(m.ply));
      return el("li", { class: `kind-${m.kind}` }, b);
    });
    if (problem || row.error) items.push(el("li", { class: "kind-error" }, problem ?? row.error ?? ""));
    if (!items.length) items.push(el("li", {}, "No rule became claimable or ended the game."));
    dom.marks.replaceChildren(...items);
    dom.bar.replaceChildren(...timeline(row).map((m) => {
      const tick = el("span", { class: `tick kind-${m.kind}`, attrs: { title: m.label } });
      tick.style.left = `${row.plies ? (100 * m.ply) / row.plies : 0}%`;
      return tick;
    }));
    markMoves();
    current();
  };
  return { opened, marks: markMoves };
}

/** @param {BlobPart[]} parts @param {string} type @param {string} name */
function download(parts, type, name) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = el("a", { attrs: { href: url, download: name } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The visitor's actions, forwarded to the controller.
 * @param {ReviewController} rc @param {ReviewDom} dom @param {HTMLElement} body
 */
function listen(rc, dom, body) {
  // Start the review's workers as soon as a review looks likely (the
  // pointer or the focus comes to this section), not at page load: a page
  // that never reviews never pays for them.
  body.addEventListener("pointerenter", () => rc.warm(), { once: true });
  body.addEventListener("focusin", () => rc.warm(), { once: true });
  dom.fileInput.addEventListener("change", () => {
    const f = dom.fileInput.files && dom.fileInput.files[0];
    dom.fileInput.value = ""; // choosing the same file again reviews it again
    if (f) void rc.start(f);
  });
  dom.drop.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    dom.drop.classList.add("dragging");
  });
  dom.drop.addEventListener("dragleave", () => dom.drop.classList.remove("dragging"));
  dom.drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    dom.drop.classList.remove("dragging");
    const f = ev.dataTransfer && ev.dataTransfer.files[0];
    if (f) void rc.start(f);
  });
  dom.cancel.addEventListener("click", () => rc.cancel());
  dom.csv.addEventListener("click", () => download([rc.table.toCSV()], "text/csv", `${rc.baseName()}-review.csv`));
  dom.jsonl.addEventListener("click", () => download(rc.table.jsonLines(), "application/x-ndjson", `${rc.baseName()}-review.jsonl`));
  dom.tbody.addEventListener("click", (ev) => {
    const tr = closestTo(ev, "tr[data-game]");
    if (tr instanceof HTMLElement) rc.open(Number(tr.dataset.game));
  });
}

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function reviewFeature({ ctrl, addSection }) {
  const body = addSection({ id: "review", title: "Review a PGN file", column: "info" });
  const dom = buildDom();
  body.append(...dom.parts);
  // The final positions' search: scan's default, auto, so that the verdicts
  // are the CLI's (?review-search=static, for the benchmark, as the page was).
  const search = new URLSearchParams(location.search).get("review-search") === "static" ? "static" : "auto";
  const rc = new ReviewController(ctrl, { poolSize: poolSizeFor(location.search), search });
  /** @type {ReviewView} */
  const view = {
    state: (state, text) => {
      dom.progress.dataset.state = state;
      setText(dom.progressText, text);
    },
    progress: (value, games, text) => {
      dom.progress.value = value;
      if (games != null) dom.progress.dataset.games = String(games);
      if (text != null) setText(dom.progressText, text);
    },
    rows: tableView(rc, dom),
    summary: () => renderSummary(rc, dom),
    running: (running) => { dom.cancel.disabled = !running; },
    ...openedView(ctrl, rc, dom),
  };
  rc.view = view;
  listen(rc, dom, body);
  view.summary();
}
