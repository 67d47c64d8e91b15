// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view: a source to follow (a URL, a local file, pasted text),
// a grid of small view-only boards with the referee's state of each, most
// urgent first, and the event log, newest first. Its state is model.js's;
// this file follows the source and renders the model. The chess is done in the
// arbiter's own worker (pychessdraw.web.follow, see client.js); everything from
// the source (tags, names, moves, reasons) goes into the page as text only.
import { Chessground } from "@lichess-org/chessground";
import { LAWS } from "../contract.js";
import { key } from "../ui/board.js";
import { el } from "../ui/dom.js";
import { ArbiterClient } from "./client.js";
import { ArbiterModel } from "./model.js";
import { FileSource, SourceError, StreamSource, TextSource, UrlSource, poll } from "./sources.js";
import { messageOf } from "../errors.js";

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("../contract.js").FollowUpdate} Update */

/** @param {string|null} s */
const orDash = (s) => (s == null || s === "" ? "?" : s);

/**
 * One board of the grid.
 * @param {BoardView} b
 */
function makeCard(b) {
  const cgHost = el("div", { class: "arb-cg" });
  const card = el("article", { class: "arb-board", dataset: { testid: "arbiter-board", game: String(b.game) } },
    el("header", { class: "arb-head" }, el("span", { class: "arb-num", text: `#${b.game}` }),
      el("span", { class: "arb-players" }), el("span", { class: "arb-round" })),
    cgHost,
    el("p", { class: "arb-line" }, el("span", { class: "arb-state" }), el("span", { class: "arb-moves" })),
    el("p", { class: "arb-clocks" }),
    el("p", { class: "arb-note" }));
  const cg = Chessground(cgHost, { viewOnly: true, coordinates: false, animation: { enabled: false },
    drawable: { enabled: false, visible: false }, highlight: { lastMove: true, check: false } });
  return { card, cg };
}

/** @param {HTMLElement} card @param {string} cls @param {string} text */
const setText = (card, cls, text) => {
  const e = /** @type {HTMLElement} */ (card.querySelector(`.${cls}`));
  if (e.textContent !== text) e.textContent = text;
};

/**
 * Show a board's latest view in its card.
 * @param {{card: HTMLElement, cg: ReturnType<typeof Chessground>}} c @param {BoardView} b
 */
function fillCard(c, b) {
  const { card, cg } = c;
  card.dataset.state = b.state;
  card.dataset.urgency = String(b.urgency);
  card.dataset.error = b.error ? "1" : "";
  card.style.order = String(b.urgency * 100000 + b.game);
  setText(card, "arb-players", `${orDash(b.white)} – ${orDash(b.black)}`);
  setText(card, "arb-round", b.round && b.round !== "?" ? `round ${b.round}` : "");
  setText(card, "arb-state", b.state_text); // the referee's words, as every text of the card
  setText(card, "arb-moves", b.move_text);
  setText(card, "arb-clocks", b.clocks_text);
  setText(card, "arb-note", b.note);
  card.title = b.note;
  if (b.fen) {
    const last = b.last_uci ? [key(b.last_uci.slice(0, 2)), key(b.last_uci.slice(2, 4))] : undefined;
    cg.set({ fen: b.placement ?? undefined, lastMove: last });
  }
}

/** @param {ArbiterEvent} e */
function eventRow(e) {
  const time = new Date().toLocaleTimeString("en-GB");
  return el("li", {
    class: `arb-event arb-kind-${e.kind}`,
    dataset: { testid: "arbiter-event", id: String(e.id), game: String(e.game), ply: String(e.ply),
      rule: e.rule ?? "", kind: e.kind },
  }, el("time", { text: time }), " ", el("span", { text: e.text }));
}

/** A short beep (no sound file: nothing to fetch). */
function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    osc.frequency.value = 880;
    osc.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => void ctx.close();
  } catch {
    // no audio here: the log and the grid still say it
  }
}

/** @param {HTMLElement} section */
function buildControls(section) {
  const source = el("textarea", { attrs: { id: "arbiter-source", rows: "3", spellcheck: "false",
    placeholder: "https://… a PGN that changes, or paste PGN text" }, dataset: { testid: "arbiter-source" } });
  const fileInput = el("input", { attrs: { type: "file", accept: ".pgn,text/plain", hidden: "" }, dataset: { testid: "arbiter-file-input" } });
  const parts = {
    source, fileInput,
    file: el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-file" }, text: "Choose a local file…" }),
    interval: el("input", { attrs: { type: "number", min: "1", max: "600", step: "1", value: "3", id: "arbiter-interval" },
      dataset: { testid: "arbiter-interval" } }),
    rules: el("select", { attrs: { id: "arbiter-rules" } }, el("option", { attrs: { value: "fide" }, text: LAWS.flag_rules.fide }),
      el("option", { attrs: { value: "uscf" }, text: LAWS.flag_rules.uscf })),
    follow: el("button", { class: "primary", attrs: { type: "button" }, dataset: { testid: "arbiter-follow" }, text: "Follow" }),
    sound: el("input", { attrs: { type: "checkbox", id: "arbiter-sound" } }),
    notify: el("input", { attrs: { type: "checkbox", id: "arbiter-notify" } }),
    download: el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-download" }, text: "Download the log (JSON lines)" }),
    status: el("p", { class: "arb-status", attrs: { role: "status" }, dataset: { testid: "arbiter-status" } }),
    summary: el("p", { class: "arb-summary", dataset: { testid: "arbiter-summary" } }),
    grid: el("div", { class: "arb-grid", dataset: { testid: "arbiter-grid" } }),
    log: el("ol", { class: "arb-log", attrs: { reversed: "" }, dataset: { testid: "arbiter-log" } }),
  };
  section.append(
    el("h2", { text: "Arbiter: follow a live round" }),
    el("label", { attrs: { for: "arbiter-source" }, text: "A URL of a PGN that changes (re-read every few seconds), or PGN text" }),
    source,
    el("div", { class: "row" }, parts.file, fileInput,
      el("label", { attrs: { for: "arbiter-interval" }, text: "every (s)" }), parts.interval,
      el("label", { attrs: { for: "arbiter-rules" }, text: "flag falls by" }), parts.rules, parts.follow),
    el("div", { class: "row" }, el("label", { class: "inline" }, parts.sound, " sound at “must stop”"),
      el("label", { class: "inline" }, parts.notify, " browser notification at “must stop”"), parts.download),
    parts.status, parts.summary, parts.grid,
    el("h3", { text: "Events, newest first" }), parts.log);
  return parts;
}

/** @typedef {{read: () => Promise<string|null>, name: string, cut: string|null}} Source */

/**
 * The view's actions (the source followed) and its drawing: the model's
 * boards as cards, its log as rows, through the elements of buildControls.
 */
class ArbiterView {
  /** @param {HTMLElement} section */
  constructor(section) {
    this.section = section;
    this.ui = buildControls(section);
    this.client = new ArbiterClient();
    this.model = new ArbiterModel();
    /** The drawn card of each board of the model. @type {Map<number, {card: HTMLElement, cg: ReturnType<typeof Chessground>}>} */
    this.cards = new Map();
    /** @type {{stop: () => void} | null} */
    this.following = null;
    /** @type {FileSource | null} the file being followed, when it is a File from the chooser */
    this.followedFile = null;
    /** @type {{getFile: () => Promise<File>} | File | null} */
    this.chosen = null;
    /** @type {NonNullable<Window["__arbiter"]>} */
    this.perf = (window.__arbiter = { updates: [], applied: 0 });
    this.streaming = false; // the source sends pieces (StreamSource), not the whole text
  }

  /** @param {string} m */
  say(m) {
    this.ui.status.textContent = m;
  }

  /** Take in an update and draw what it changed. @param {Update} u */
  apply(u) {
    const { mustStop } = this.model.apply(u);
    this.render(u);
    this.perf.applied = this.model.applied;
    this.section.dataset.updates = String(this.model.applied);
    if (mustStop.length) this.alarm(mustStop);
    return performance.now();
  }

  /** Draw the model where `u` changed it: new log rows, voided rows, the boards sent, the count. @param {Update} u */
  render(u) {
    const ui = this.ui;
    const fragment = document.createDocumentFragment();
    for (const e of u.events) fragment.prepend(eventRow(e));
    ui.log.prepend(fragment);
    for (const id of u.voided) {
      const row = ui.log.querySelector(`[data-id="${Number(id)}"]`);
      if (row instanceof HTMLElement) {
        row.dataset.void = "1";
        row.title = "void: moves taken back or another game at this number";
      }
    }
    for (const b of u.boards) {
      let c = this.cards.get(b.game);
      if (!c) {
        c = makeCard(b);
        this.cards.set(b.game, c);
        ui.grid.append(c.card);
      }
      fillCard(c, b);
    }
    ui.summary.textContent = this.model.summary();
  }

  /** @param {ArbiterEvent[]} events */
  alarm(events) {
    if (this.ui.sound.checked) beep();
    if (this.ui.notify.checked && "Notification" in window && Notification.permission === "granted") {
      for (const e of events.slice(0, 3)) new Notification("Must stop now", { body: e.text });
    }
  }

  /** @param {string} text @param {number} readAt */
  async onText(text, readAt) {
    const got = performance.now();
    const asked = this.model.generation;
    const answer = await (this.streaming ? this.client.feed(text) : this.client.update(text));
    if (asked !== this.model.generation) return;
    if (answer.note) this.say(answer.note);
    if (!answer.ok) return this.say(`The referee failed: ${answer.error ? answer.error.message : "unknown error"}`);
    const update = { events: answer.events ?? [], voided: answer.voided ?? [], boards: answer.boards ?? [], count: answer.count ?? 0 };
    const shown = this.apply(update);
    // for benchmarks/bench_arbiter.py: times on this page's clock (performance.timeOrigin + ms is the epoch)
    const rec = { read_at: readAt, text_at: got, shown_at: shown, painted_at: 0, worker_ms: answer.worker_ms,
      bytes: text.length, events: update.events.length, boards: update.boards.length };
    this.perf.updates.push(rec);
    requestAnimationFrame(() => setTimeout(() => { rec.painted_at = performance.now(); }, 0));
  }

  stop() {
    this.following?.stop();
    this.following = null;
    this.ui.follow.textContent = "Follow";
    this.section.dataset.following = "0";
  }

  /** The source the visitor gave (a chosen file, a URL, pasted text), or null with the reason said. */
  source() {
    const typed = this.ui.source.value.trim();
    try {
      if (this.chosen && !typed) return new FileSource(this.chosen);
      if (/^https?:\/\/\S+$/i.test(typed)) return StreamSource.names(typed) ? new StreamSource(typed) : new UrlSource(typed);
      if (typed) return new TextSource(this.ui.source.value);
      this.say("Give a URL, paste PGN text, or choose a local file.");
    } catch (e) {
      this.say(messageOf(e));
    }
    return null;
  }

  async start() {
    const ui = this.ui;
    /** @type {Source | null} */
    const source = this.source();
    if (!source) return;
    this.model.reset();
    this.streaming = source instanceof StreamSource;
    for (const { card } of this.cards.values()) card.remove();
    this.cards.clear();
    ui.log.replaceChildren();
    const interval = Math.min(600, Math.max(1, Number(ui.interval.value) || 3));
    if (this.client.referee?.state !== "ready") this.say("Starting the referee (Python) for the arbiter…");
    const r = await this.client.start(ui.rules.value === "uscf" ? "uscf" : "fide");
    if (!r.ok) return this.say(`The referee could not start: ${r.error ? r.error.message : "unknown error"}`);
    ui.follow.textContent = "Stop";
    this.section.dataset.following = "1";
    this.say(source instanceof TextSource ? "Reading the pasted text once." : this.streaming
      ? `Following the stream ${source.name}, shown every ${interval} s.` : `Following ${source.name}, every ${interval} s.`);
    const once = source instanceof TextSource;
    this.followedFile = source instanceof FileSource && source.file ? source : null;
    this.following = poll(source, { interval, onText: (text, readAt) => this.onText(text, readAt),
      onNote: (m) => this.say(m), once, onDone: () => {
        this.stop();
        this.say("The pasted text was read: change it and press Follow to read it again.");
      } });
  }

  /** @param {{getFile: () => Promise<File>} | File} file @param {string} name */
  choose(file, name) {
    this.chosen = file;
    this.ui.source.value = "";
    if (this.following && this.followedFile && file instanceof File) {
      // chosen again while followed: read at the next tick, as a change of the same source
      this.followedFile.replace(file);
      return this.say(`${name} chosen again: its changes are read at the next tick.`);
    }
    this.stop();
    this.say(`${name} chosen: Follow reads it again whenever it changes` +
      ("getFile" in file ? "." : " (this browser needs it chosen again after each change)."));
  }

  download() {
    const url = URL.createObjectURL(new Blob([this.model.jsonLines()], { type: "application/x-ndjson" }));
    const a = el("a", { attrs: { href: url, download: "arbiter-log.jsonl" } });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

/** @param {ArbiterView} v */
function listen(v) {
  const ui = v.ui;
  ui.follow.addEventListener("click", () => {
    if (v.following) {
      v.stop();
      v.say("Stopped.");
    } else {
      void v.start().catch((e) => v.say(e instanceof SourceError ? e.message : `Could not follow: ${e.message}`));
    }
  });
  ui.file.addEventListener("click", async () => {
    const picker = window.showOpenFilePicker;
    if (typeof picker !== "function") return ui.fileInput.click();
    try {
      const [handle] = await picker.call(window, { types: [{ description: "PGN", accept: { "text/plain": [".pgn"] } }] });
      v.choose(handle, handle.name);
    } catch {
      // the chooser was closed
    }
  });
  ui.fileInput.addEventListener("change", () => {
    const f = ui.fileInput.files && ui.fileInput.files[0];
    if (f) v.choose(f, f.name);
    ui.fileInput.value = ""; // so that choosing the same file again is a change
  });
  ui.notify.addEventListener("change", () => {
    if (ui.notify.checked && "Notification" in window && Notification.permission === "default") {
      void Notification.requestPermission().then((p) => {
        if (p !== "granted") v.say("Notifications are not allowed by the browser: the log and the grid still say it.");
      });
    }
  });
  ui.download.addEventListener("click", () => v.download());
}

/** @param {HTMLElement} section */
export function mountArbiterView(section) {
  const v = new ArbiterView(section);
  listen(v);
  v.client.warm();
  section.dataset.mounted = "1";
}
