// SPDX-License-Identifier: GPL-3.0-or-later
// The review feature: open a PGN file (file picker or drag-and-drop; .pgn,
// .pgn.gz, and .pgn.zst where the browser can decompress), have the referee
// judge every game in a worker of its own (so the board keeps answering), and
// show a table of games with their verdicts, filters, a summary, downloads
// (CSV, JSON lines as the CLI's scan prints them); an opened game goes on the
// Review's own board (features/reviewboard.js), never on the Play game's,
// with its timeline of events. On a phone the list and the board take turns
// (the review column's data-showing: "list" or "board"). State and driving:
// review/controller.js (with review/pool.js, reader.js, runner.js,
// table.js); this file only draws and forwards the visitor's actions.
//
// Hooks: pgn-file, review-drop, review-progress (data-state), review-cancel,
// review-summary, review-filter-<verdict>, review-csv, review-jsonl,
// review-games (rows with data-game, data-verdict, data-result),
// review-more, review-timeline.

import { ReviewController } from "../review/controller.js";
import { poolSizeFor } from "../review/pool.js";
import { VERDICTS, VERDICT_WORDS, firstEventPly, timeline } from "../review/table.js";
import { closestTo, el, setText } from "../ui/dom.js";
import { t, tMarked, tn } from "../i18n.js";
import { TURNS, reviewBoard } from "./reviewboard.js";
import { LANGUAGE_EVENT, tAttr, tText } from "../ui/language.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../review/table.js").ReviewRow} ReviewRow */
/** @typedef {import("../review/controller.js").ReviewView} ReviewView */

const PAGE_ROWS = 500; // rows drawn at a time; "show more" draws the next ones

/** The section's elements. */
function buildDom() {
  const fileInput = el("input", { attrs: { id: "pgn-file", type: "file", accept: ".pgn,.gz,.zst,.pgn.gz,.pgn.zst,application/x-chess-pgn,application/gzip,application/zstd" },
    dataset: { testid: "pgn-file" } });
  /** @type {Record<string, HTMLInputElement>} */
  const filterBoxes = {};
  const filters = el("fieldset", { class: "review-filters" }, el("legend", {}, tText("Show games whose verdict is")),
    ...VERDICTS.map((v) => {
      const box = el("input", { attrs: { type: "checkbox", id: `review-filter-${v}` }, dataset: { testid: `review-filter-${v}`, verdict: v } });
      box.checked = true;
      filterBoxes[v] = box;
      return el("label", { attrs: { for: `review-filter-${v}` }, class: `verdict-${v}` }, box, " ", el("span", { dataset: { verdictWord: v } }, tMarked(VERDICT_WORDS[v])), " ",
        el("span", { class: "count", dataset: { count: v } }, "0"));
    }));
  const dom = {
    fileInput, filters, filterBoxes,
    drop: el("div", { class: "review-drop", dataset: { testid: "review-drop" } },
      el("label", { attrs: { for: "pgn-file" } }, tText("Open a .pgn, .pgn.gz or .pgn.zst file, or drop one here: ")), fileInput),
    progress: tAttr(el("progress", { attrs: { max: "1", value: "0" },
      dataset: { testid: "review-progress", state: "idle" } }), "aria-label", "Review progress"),
    progressText: el("span", { class: "review-progress-text", attrs: { role: "status" } }),
    cancel: el("button", { attrs: { type: "button" }, dataset: { testid: "review-cancel" } }, tText("Cancel")),
    summary: el("p", { class: "review-summary", dataset: { testid: "review-summary" } }),
    csv: el("button", { attrs: { type: "button" }, dataset: { testid: "review-csv" } }, tText("Download CSV")),
    jsonl: el("button", { attrs: { type: "button" }, dataset: { testid: "review-jsonl" } }, tText("Download JSON lines")),
    tbody: el("tbody"),
    more: el("button", { attrs: { type: "button" }, dataset: { testid: "review-more" } }, tText("Show more games")),
    marks: el("ol", { class: "review-timeline", dataset: { testid: "review-timeline" } }),
  };
  const table = el("table", { class: "review-games", dataset: { testid: "review-games" } },
    el("caption", { class: "sr-only" }, tText("Games of the file and the referee's verdict")),
    el("thead", {}, el("tr", {}, ...["#", tText("White – Black"), tText("Result"), tText("Verdict")].map((h) => el("th", { attrs: { scope: "col" } }, h)))),
    dom.tbody);
  dom.cancel.disabled = true;
  dom.more.hidden = true;
  for (const b of [dom.csv, dom.jsonl]) b.disabled = true;
  const files = el("div", { class: "review-files" }, dom.drop, el("div", { class: "review-run" }, dom.progress, dom.progressText, dom.cancel), dom.summary, filters,
    el("div", { class: "review-downloads" }, dom.csv, dom.jsonl), el("div", { class: "review-table-wrap" }, table), dom.more);
  return { ...dom, files };
}

/** @typedef {ReturnType<typeof buildDom>} ReviewDom */

/** @param {ReviewRow} r */
function rowElement(r) {
  const where = r.error ?? r.detail; // the referee's words
  const players = `${r.white} – ${r.black}`;
  const open = el("button", { attrs: { type: "button", "aria-label": t("Open game {n}", { n: r.game }) }, class: "review-open" }, String(r.game));
  // the players cut with an ellipsis (whole in the title), the verdict and its reason whole (app.css)
  return el("tr", { class: `verdict-${r.verdict}`, dataset: { game: String(r.game), verdict: r.verdict, result: r.result } },
    el("td", { class: "num" }, open), el("td", { class: "players", attrs: { title: players } }, players), el("td", { class: "res" }, r.result),
    el("td", { class: "verdict-cell", attrs: { title: where ? `${tMarked(VERDICT_WORDS[r.verdict])}: ${where}` : tMarked(VERDICT_WORDS[r.verdict]) } },
      el("span", { class: "verdict" }, tMarked(VERDICT_WORDS[r.verdict])), where ? el("span", { class: "where" }, ` ${where}`) : null));
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
    if (!dom.more.hidden) setText(dom.more, t("Show more games ({n} not shown)", { n: shownRows.length - drawn }));
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
  // the same rows drawn again in their words (another language): as many as shown, the scroll kept
  const redraw = () => {
    const wrap = dom.tbody.closest(".review-table-wrap");
    const top = wrap ? wrap.scrollTop : 0;
    limit = Math.max(limit, drawn);
    dom.tbody.replaceChildren();
    drawn = 0;
    drawRows();
    if (wrap) wrap.scrollTop = top;
  };
  return { rows, redraw };
}

/** @param {ReviewController} rc @param {ReviewDom} dom */
function renderSummary(rc, dom) {
  const s = rc.table.summary();
  const parts = VERDICTS.map((v) => `${tMarked(VERDICT_WORDS[v])} ${s[v]}`).join(", ");
  setText(dom.summary, s.total ? tn("{n} game ({plies} plies): {verdicts}", "{n} games ({plies} plies): {verdicts}", s.total, { plies: s.plies, verdicts: parts }) : t("No games reviewed yet."));
  dom.summary.dataset.total = String(s.total);
  for (const v of VERDICTS) {
    dom.summary.dataset[v] = String(s[v]);
    const c = dom.filters.querySelector(`[data-count="${v}"]`);
    if (c instanceof HTMLElement) setText(c, String(s[v]));
  }
  for (const b of [dom.csv, dom.jsonl]) b.disabled = s.total === 0;
}

const BOARD_ENTRY = "board"; // history.state.review of the entry a game's board was shown in

/**
 * On a phone, a game's board is a history entry of its own (the same
 * address; the view's and the game's part of it untouched, ui/views.js),
 * so that the browser's Back returns to the list as the Back button does.
 * @param {HTMLElement} col @param {() => boolean} hasGame
 */
function boardHistory(col, hasGame) {
  const marked = () => {
    const st = history.state;
    return !!st && typeof st === "object" && /** @type {{review?: unknown}} */ (st).review === BOARD_ENTRY;
  };
  window.addEventListener("popstate", () => {
    col.dataset.showing = marked() && hasGame() ? "board" : "list";
  });
  return {
    shown: () => {
      if (marked() || !window.matchMedia(TURNS).matches) return;
      const st = history.state && typeof history.state === "object" ? history.state : {};
      history.pushState({ ...st, review: BOARD_ENTRY }, "", location.href);
    },
    back: () => {
      if (marked()) history.back(); // popstate shows the list
      else col.dataset.showing = "list";
    },
  };
}

/**
 * The opened game on the Review's own board, and its timeline of events
 * (which browse that board); on a phone the board takes the list's turn.
 * @param {Controller} ctrl @param {ReviewController} rc @param {ReviewDom} dom @param {HTMLElement} col
 */
function openedView(ctrl, rc, dom, col) {
  const entry = boardHistory(col, () => rc.openGame !== null);
  const board = reviewBoard({
    onContinue: (g, ply) => continueInPlay(ctrl, g, ply),
    onBack: () => entry.back(),
    askProof: (g, ply, color) => rc.proof(g, ply, color),
    // the timeline's entry of the position shown is aria-current, however it was reached
    onPly: (ply) => {
      for (const b of dom.marks.querySelectorAll("button[data-ply]")) {
        if (/** @type {HTMLElement} */ (b).dataset.ply === String(ply)) b.setAttribute("aria-current", "true");
        else b.removeAttribute("aria-current");
      }
    },
  });
  board.side.append(el("h3", { class: "review-timeline-title" }, tText("Events")), dom.marks);
  dom.marks.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-ply]");
    if (b instanceof HTMLElement) board.goto(Number(b.dataset.ply));
  });
  /** The timeline of the game's events (which browse its board). @param {ReviewRow} row @param {string | null} problem */
  const marks = (row, problem) => {
    const items = timeline(row).map((m) => el("li", { class: `kind-${m.kind}` },
      el("button", { attrs: { type: "button" }, dataset: { ply: String(m.ply), rule: m.rule, kind: m.kind } }, m.label)));
    if (problem || row.error) items.push(el("li", { class: "kind-error" }, problem ?? row.error ?? ""));
    if (!items.length) items.push(el("li", {}, t("No rule became claimable or ended the game.")));
    dom.marks.replaceChildren(...items);
  };
  let problemShown = /** @type {string | null} */ (null);
  /** @param {ReviewRow | null} row @param {string | null} problem */
  const opened = (row, problem) => {
    const open = rc.openGame && row && rc.openGame.row === row ? rc.openGame.game : null;
    col.dataset.showing = row ? "board" : "list";
    problemShown = problem;
    if (row) marks(row, problem);
    board.show(row, open, problem, row ? firstEventPly(row) : 0);
    if (!row) return;
    entry.shown();
    board.stage.scrollIntoView({ block: "nearest" });
  };
  // the opened game's sentences said again (another language): the same game at the same ply
  const reworded = () => {
    const open = rc.openGame;
    if (!open) return;
    marks(open.row, problemShown);
    board.reword(open.game);
  };
  return { opened, reworded, stage: board.stage };
}

/**
 * "Continue this position in Play": the Play game replaced (after its usual
 * question) by the reviewed game up to the ply shown, and the Play view.
 * @param {Controller} ctrl @param {import("../contract.js").ReviewGame} g @param {number} ply
 */
function continueInPlay(ctrl, g, ply) {
  const moves = g.plies.slice(1, ply + 1).map((p) => p.uci);
  ctrl.confirmLoss(t("Continue this position in Play?"), t("Continue in Play"), () => {
    void ctrl.act("restore", { start_fen: g.start_fen, chess960: g.chess960, moves, headers: {} }).then(() => {
      const tab = document.querySelector("[data-view-tab=play]");
      if (tab instanceof HTMLElement) tab.click();
    });
  });
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
 * @param {ReviewController} rc @param {ReviewDom} dom @param {HTMLElement} body @param {() => void} opening  a game was asked for
 */
function listen(rc, dom, body, opening) {
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
    if (!(tr instanceof HTMLElement)) return;
    opening();
    void rc.open(Number(tr.dataset.game));
  });
}

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function reviewFeature({ ctrl, addSection }) {
  const body = addSection({ id: "review", title: tText("Review a PGN file"), column: "info" });
  const dom = buildDom();
  const col = /** @type {HTMLElement} */ (body.closest(".review-col") ?? body);
  col.dataset.showing = "list";
  // The final positions' search: scan's default, auto, so that the verdicts
  // are the CLI's (?review-search=static, for the benchmark, as the page was).
  const search = new URLSearchParams(location.search).get("review-search") === "static" ? "static" : "auto";
  const rc = new ReviewController(ctrl, { poolSize: poolSizeFor(location.search), search });
  const shown = openedView(ctrl, rc, dom, col);
  const table = tableView(rc, dom);
  body.append(dom.files);
  col.prepend(shown.stage);
  let said = () => ""; // the run's sentence, said again in another language
  /** @type {ReviewView} */
  const view = {
    state: (state, text) => {
      dom.progress.dataset.state = state;
      setText(dom.progressText, (said = text)());
    },
    progress: (value, games, text) => {
      dom.progress.value = value;
      if (games != null) dom.progress.dataset.games = String(games);
      if (text != null) setText(dom.progressText, (said = text)());
    },
    rows: table.rows,
    summary: () => renderSummary(rc, dom),
    running: (running) => { dom.cancel.disabled = !running; },
    opened: shown.opened,
    reworded: () => {
      table.redraw();
      shown.reworded();
    },
  };
  rc.view = view;
  listen(rc, dom, body, () => {
    shown.stage.dataset.state = "opening";
  });
  view.summary();
  // another language: the words made from the data said again (the filters' verdicts, the table, the summary), then the workers'
  document.addEventListener(LANGUAGE_EVENT, () => {
    for (const s of dom.filters.querySelectorAll("[data-verdict-word]")) {
      const v = /** @type {import("../contract.js").VerdictName} */ (/** @type {HTMLElement} */ (s).dataset.verdictWord);
      setText(/** @type {HTMLElement} */ (s), tMarked(VERDICT_WORDS[v]));
    }
    table.redraw();
    view.summary();
    setText(dom.progressText, said());
    void rc.reword().catch(() => {}); // the workers' sentences, when they come (a failure leaves them as they were)
  });
}
