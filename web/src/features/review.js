// SPDX-License-Identifier: GPL-3.0-or-later
// The review feature: open a PGN file (file picker or drag-and-drop; .pgn,
// and .pgn.gz where the browser can decompress), have the referee judge
// every game in a worker of its own (so the board keeps answering), and show
// a table of games with their verdicts, filters, a summary, downloads (CSV,
// JSON lines as the CLI's scan prints them), and for an opened game its
// events on the move list and a timeline. State: review/table.js; reading
// and driving: review/reader.js, review/runner.js; this file draws.
//
// Hooks: pgn-file, review-drop, review-progress (data-state), review-cancel,
// review-summary, review-filter-<verdict>, review-csv, review-jsonl,
// review-games (rows with data-game, data-verdict, data-result),
// review-more, review-timeline.

import { Referee } from "../referee/client.js";
import { openStream, readGame } from "../review/reader.js";
import { ReviewCancelled, runReview } from "../review/runner.js";
import { ReviewTable, UNDECIDED_WORDS, VERDICTS, VERDICT_WORDS, firstEventPly, timeline } from "../review/table.js";
import { el, setText } from "../ui/dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../review/table.js").ReviewRow} ReviewRow */
/** @typedef {import("../review/table.js").Verdict} Verdict */
/** @typedef {import("../review/reader.js").GameSource} GameSource */

const PAGE_ROWS = 500; // rows drawn at a time; "show more" draws the next ones

/**
 * @param {{ctrl: Controller, addSection: typeof import("../ui/sections.js").addSection}} env
 */
export function reviewFeature({ ctrl, addSection }) {
  const body = addSection({ id: "review", title: "Review a PGN file", column: "info" });

  // ------------------------------------------------------------ the referees of the review
  // Workers of their own (the board's referee never waits for a review),
  // one per core up to 3: each judges every n-th game of the file.
  // (?review-workers=N sets the number, for the benchmark)
  const asked = Number(new URLSearchParams(location.search).get("review-workers"));
  // The final positions' search: scan's default, auto, so that the verdicts
  // are the CLI's (?review-search=static, for the benchmark, as the page was).
  const search = new URLSearchParams(location.search).get("review-search") === "static" ? "static" : "auto";
  const poolSize = asked >= 1 && asked <= 8 ? Math.floor(asked)
    : Math.max(1, Math.min(3, navigator.hardwareConcurrency || 2));
  /** @type {Referee[]} */
  let pool = [];
  /** @returns {Promise<Referee[]>} */
  function reviewReferees() {
    if (!pool.length) pool = Array.from({ length: poolSize }, () => new Referee({}, {}));
    return Promise.all(pool.map((r, k) => {
      if (r.state === "ready") return Promise.resolve(r);
      return new Promise((resolve, reject) => {
        r.on("ready", () => resolve(r));
        r.on("failed", (e) => {
          pool = [];
          reject(new Error(`the review's referee could not start: ${e.message}`));
        });
        if (k === 0) {
          r.on("progress", (e) => {
            if (running) showState("starting", `Starting the review's referees (${poolSize}): ${e.stage}`);
          });
        }
        if (!r.worker) r.start();
      });
    }));
  }

  // ------------------------------------------------------------ the DOM
  const fileInput = el("input", { attrs: { id: "pgn-file", type: "file", accept: ".pgn,.gz,.pgn.gz,application/x-chess-pgn,application/gzip" },
    dataset: { testid: "pgn-file" } });
  const drop = el("div", { class: "review-drop", dataset: { testid: "review-drop" } },
    el("label", { attrs: { for: "pgn-file" } }, "Open a .pgn or .pgn.gz file, or drop one here: "), fileInput);
  const progress = el("progress", { attrs: { max: "1", value: "0", "aria-label": "Review progress" },
    dataset: { testid: "review-progress", state: "idle" } });
  const progressText = el("span", { class: "review-progress-text", attrs: { role: "status" } });
  const cancel = el("button", { attrs: { type: "button" }, dataset: { testid: "review-cancel" } }, "Cancel");
  cancel.disabled = true;
  const summary = el("p", { class: "review-summary", dataset: { testid: "review-summary" } });
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
  const csv = el("button", { attrs: { type: "button" }, dataset: { testid: "review-csv" } }, "Download CSV");
  const jsonl = el("button", { attrs: { type: "button" }, dataset: { testid: "review-jsonl" } }, "Download JSON lines");
  const tbody = el("tbody");
  const table = el("table", { class: "review-games", dataset: { testid: "review-games" } },
    el("caption", { class: "sr-only" }, "Games of the file and the referee's verdict"),
    el("thead", {}, el("tr", {}, ...["#", "White – Black", "Result", "Verdict"].map((h) => el("th", { attrs: { scope: "col" } }, h)))),
    tbody);
  const more = el("button", { attrs: { type: "button" }, dataset: { testid: "review-more" } }, "Show more games");
  more.hidden = true;
  const openedTitle = el("h3", { class: "review-opened" });
  const bar = el("div", { class: "review-bar", attrs: { "aria-hidden": "true" } });
  const marks = el("ol", { class: "review-timeline", dataset: { testid: "review-timeline" } });
  const opened = el("div", { class: "review-game" }, openedTitle, bar, marks);
  opened.hidden = true;
  body.append(drop, el("div", { class: "review-run" }, progress, progressText, cancel), summary, filters,
    el("div", { class: "review-downloads" }, csv, jsonl), el("div", { class: "review-table-wrap" }, table), more, opened);
  for (const b of [csv, jsonl]) b.disabled = true;

  // ------------------------------------------------------------ state
  let review = new ReviewTable();
  /** @type {Map<number, GameSource>} */
  let sources = new Map();
  /** @type {(Blob & {name?: string}) | null} */
  let file = null;
  /** @type {AbortController | null} */
  let running = null;
  let drawn = 0; // rows of the filtered list drawn
  let limit = PAGE_ROWS;
  /** @type {ReviewRow[]} */
  let shownRows = [];
  /** @type {{row: ReviewRow, text: string} | null} */
  let opening = null;
  /** @type {{row: ReviewRow, game: unknown} | null} */
  let openGame = null;

  /** @param {string} state @param {string} text */
  function showState(state, text) {
    progress.dataset.state = state;
    setText(progressText, text);
  }

  function activeVerdicts() {
    return VERDICTS.filter((v) => filterBoxes[v].checked);
  }

  /** @param {ReviewRow} r */
  function rowElement(r) {
    const where = r.error ?? (r.verdict === "ended_earlier" ? `ended at ply ${r.ended_at}` : r.verdict === "wrong_result"
      ? `should be ${r.expected_result}` : r.verdict === "undecided" ? UNDECIDED_WORDS
        : r.events.length ? `${r.events.length} event${r.events.length > 1 ? "s" : ""}` : "");
    const open = el("button", { attrs: { type: "button", "aria-label": `Open game ${r.game}` }, class: "review-open" }, String(r.game));
    return el("tr", { class: `verdict-${r.verdict}`, dataset: { game: String(r.game), verdict: r.verdict, result: r.result } },
      el("td", {}, open), el("td", { class: "players" }, `${r.white} – ${r.black}`), el("td", {}, r.result),
      el("td", {}, el("span", { class: "verdict" }, VERDICT_WORDS[r.verdict]), where ? el("span", { class: "where" }, where) : null));
  }

  /** Draw the rows of the filter that are not drawn yet, up to the limit. */
  function drawRows() {
    const frag = document.createDocumentFragment();
    while (drawn < shownRows.length && drawn < limit) frag.append(rowElement(shownRows[drawn++]));
    tbody.append(frag);
    more.hidden = drawn >= shownRows.length;
    if (!more.hidden) setText(more, `Show more games (${shownRows.length - drawn} not shown)`);
  }

  function refilter() {
    shownRows = review.filtered(activeVerdicts());
    tbody.replaceChildren();
    drawn = 0;
    limit = PAGE_ROWS;
    drawRows();
  }

  function renderSummary() {
    const s = review.summary();
    const parts = VERDICTS.map((v) => `${VERDICT_WORDS[v]} ${s[v]}`).join(", ");
    setText(summary, s.total ? `${s.total} game${s.total === 1 ? "" : "s"} (${s.plies} plies): ${parts}` : "No games reviewed yet.");
    summary.dataset.total = String(s.total);
    for (const v of VERDICTS) {
      summary.dataset[v] = String(s[v]);
      const c = filters.querySelector(`[data-count="${v}"]`);
      if (c instanceof HTMLElement) setText(c, String(s[v]));
    }
    for (const b of [csv, jsonl]) b.disabled = s.total === 0;
  }

  // ------------------------------------------------------------ a review
  /** @param {File} f */
  async function start(f) {
    running?.abort();
    const job = new AbortController();
    running = job;
    review = new ReviewTable();
    sources = new Map();
    file = f;
    openGame = null;
    opened.hidden = true;
    refilter();
    renderSummary();
    cancel.disabled = false;
    progress.value = 0;
    showState("starting", `Opening ${f.name}…`);
    const t0 = performance.now();
    let rawBytes = 0;
    const current = () => running === job; // a newer review replaces this one
    try {
      const referees = await reviewReferees();
      const t1 = performance.now();
      if (job.signal.aborted) throw new ReviewCancelled();
      const stream = openStream(f, (n) => { rawBytes += n; });
      showState("running", "Reviewing…");
      const done = await runReview({
        stream, total: f.size, sends: referees.map((r) => (op, args) => r.request(op, args)), table: review, sources,
        signal: job.signal, chunkBytes: 64 * 1024, search,
        flagRules: ctrl.clocks?.flagRules ?? "fide",
        onProgress: (p) => {
          if (!current()) return;
          // a compressed file: how much of the file was read; else how much was judged
          const read = /\.gz$/i.test(f.name) ? rawBytes : p.bytes;
          progress.value = f.size ? Math.min(1, read / f.size) : 0;
          progress.dataset.games = String(p.games);
          const before = shownRows.length;
          shownRows = review.filtered(activeVerdicts());
          if (shownRows.length !== before || drawn < limit) drawRows();
          renderSummary();
          if (!p.cancelled) setText(progressText, `Reviewing… ${Math.round(100 * progress.value)}%, ${p.games} games`);
        },
      });
      if (!current()) return;
      progress.value = 1;
      refilter();
      renderSummary();
      const secs = (performance.now() - t1) / 1000;
      showState("done", `Done: ${done.games} games of ${f.name} in ${secs.toFixed(1)} s.`);
      window.__review = { games: done.games, plies: review.plies, seconds: secs,
        start_seconds: (t1 - t0) / 1000, bytes: f.size, workers: referees.length };
    } catch (e) {
      if (!current()) return;
      refilter();
      renderSummary();
      if (e instanceof ReviewCancelled) showState("cancelled", `Cancelled after ${review.size} games; the games reviewed so far are listed.`);
      else showState("failed", `The review stopped: ${/** @type {Error} */ (e).message}`);
    } finally {
      if (running === job) {
        running = null;
        cancel.disabled = true;
      }
    }
  }

  // Start the review's workers as soon as a review looks likely (the
  // pointer or the focus comes to this section), not at page load: a page
  // that never reviews never pays for them.
  const warm = () => void reviewReferees().catch(() => {});
  body.addEventListener("pointerenter", warm, { once: true });
  body.addEventListener("focusin", warm, { once: true });
  fileInput.addEventListener("change", () => {
    const f = fileInput.files && fileInput.files[0];
    fileInput.value = ""; // choosing the same file again reviews it again
    if (f) void start(f);
  });
  drop.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    drop.classList.add("dragging");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("dragging");
    const f = ev.dataTransfer && ev.dataTransfer.files[0];
    if (f) void start(f);
  });
  cancel.addEventListener("click", () => running?.abort());
  for (const v of VERDICTS) filterBoxes[v].addEventListener("change", refilter);
  more.addEventListener("click", () => {
    limit += PAGE_ROWS;
    drawRows();
  });

  /** @param {BlobPart[]} parts @param {string} type @param {string} name */
  function download(parts, type, name) {
    const url = URL.createObjectURL(new Blob(parts, { type }));
    const a = el("a", { attrs: { href: url, download: name } });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  const baseName = () => (file?.name ?? "review").replace(/\.pgn(\.gz)?$/i, "").replace(/\.gz$/i, "");
  csv.addEventListener("click", () => download([review.toCSV()], "text/csv", `${baseName()}-review.csv`));
  jsonl.addEventListener("click", () => download(review.jsonLines(), "application/x-ndjson", `${baseName()}-review.jsonl`));

  // ------------------------------------------------------------ opening a game
  tbody.addEventListener("click", (ev) => {
    const tr = /** @type {HTMLElement} */ (ev.target).closest("tr[data-game]");
    if (!(tr instanceof HTMLElement) || !file) return;
    const row = review.row(Number(tr.dataset.game));
    const src = row && sources.get(row.game);
    if (!row || !src) return;
    const f = file;
    void readGame(src, /\.gz$/i.test(f.name ?? "") ? { open: () => openStream(f) } : { blob: f })
      .then((text) => {
        opening = { row, text };
        // a game with an error opens up to its first bad move
        ctrl.confirmLoss(`Open game ${row.game} of the review?`, "Open the game",
          () => void ctrl.act("load_pgn", { pgn: text, partial: true }));
      });
  });
  ctrl.on("reply", (/** @type {string} */ op, /** @type {{pgn?: unknown}} */ args, /** @type {import("../contract.js").Reply} */ r) => {
    if (op !== "load_pgn" || !opening || args.pgn !== opening.text) return;
    const row = opening.row;
    opening = null;
    if (!r.ok) {
      openGame = null;
      showOpened(row, r.error ? r.error.message : "the game could not be loaded");
      return;
    }
    openGame = { row, game: ctrl.state.game };
    setTimeout(() => ctrl.goto(firstEventPly(row)), 0);
    showOpened(row, null);
  });
  ctrl.on("change", (s, parts) => {
    if (!parts.has("moves") && !parts.has("game")) return;
    if (openGame && s.game !== openGame.game) {
      openGame = null;
      opened.hidden = true;
    }
    markMoves();
  });

  /** @param {ReviewRow} row @param {string | null} problem */
  function showOpened(row, problem) {
    opened.hidden = false;
    opened.dataset.game = String(row.game);
    setText(openedTitle, `Game ${row.game}: ${row.white} – ${row.black}, ${row.result} (${VERDICT_WORDS[row.verdict]})`);
    const items = timeline(row).map((m) => {
      const b = el("button", { attrs: { type: "button" }, dataset: { ply: String(m.ply), rule: m.rule, kind: m.kind } }, m.label);
      b.addEventListener("click", () => ctrl.goto(m.ply));
      return el("li", { class: `kind-${m.kind}` }, b);
    });
    if (problem || row.error) items.push(el("li", { class: "kind-error" }, problem ?? row.error ?? ""));
    if (!items.length) items.push(el("li", {}, "No rule became claimable or ended the game."));
    marks.replaceChildren(...items);
    bar.replaceChildren(...timeline(row).map((m) => {
      const tick = el("span", { class: `tick kind-${m.kind}`, attrs: { title: m.label } });
      tick.style.left = `${row.plies ? (100 * m.ply) / row.plies : 0}%`;
      return tick;
    }));
    markMoves();
  }

  /** Mark the events of the opened game on the move list. */
  function markMoves() {
    for (const b of document.querySelectorAll("[data-testid=move-list] button.review-event")) {
      b.classList.remove("review-event", "kind-automatic", "kind-claimable", "kind-claimable_with_move");
      b.removeAttribute("data-review-event");
    }
    if (!openGame) return;
    for (const m of timeline(openGame.row)) {
      const b = document.querySelector(`[data-testid=move-list] button[data-ply="${m.ply}"]`);
      if (!(b instanceof HTMLElement)) continue;
      b.classList.add("review-event", `kind-${m.kind}`);
      b.dataset.reviewEvent = m.rule;
      b.title = m.label;
    }
  }

  renderSummary();
}
