// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view: a source to follow (a URL, a local file, pasted text),
// a grid of small view-only boards with the referee's state of each, in the
// round's order (board numbers), a strip of the boards that need the
// arbiter now, and the event log, newest first. Its state is model.js's;
// this file follows the source and renders the model. The chess is done in the
// arbiter's own worker (pychessdraw.web.follow, see client.js); everything from
// the source (tags, names, moves, reasons) goes into the page as text only.
import { LAWS } from "../contract.js";
import { el } from "../ui/dom.js";
import { t } from "../i18n.js";
import { tAttr, tText } from "../ui/language.js";
import { ArbiterClient } from "./client.js";
import { eventRow, fillCard, fillStrip, makeCard, placeCard } from "./cards.js";
import { ArbiterModel } from "./model.js";
import { FileSource, SourceError, StreamSource, TextSource, UrlSource, poll } from "./sources.js";
import { messageOf } from "../errors.js";

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("../contract.js").FollowUpdate} Update */
/** @typedef {import("./cards.js").Card} Card */

/** Cards drawn in one frame (a new card is about 1 ms: a thousand at once would block the page for a second). */
const BOARDS_A_FRAME = 40;

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

const unknownError = () => t("unknown error");

/** @param {HTMLElement} section */
function buildControls(section) {
  const source = tAttr(el("textarea", { attrs: { id: "arbiter-source", rows: "3", spellcheck: "false" },
    dataset: { testid: "arbiter-source" } }), "placeholder", "https://… a PGN that changes, or paste PGN text");
  const fileInput = el("input", { attrs: { type: "file", accept: ".pgn,text/plain", hidden: "" }, dataset: { testid: "arbiter-file-input" } });
  const parts = {
    source, fileInput,
    file: el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-file" } }, tText("Choose a local file…")),
    interval: el("input", { attrs: { type: "number", min: "1", max: "600", step: "1", value: "3", id: "arbiter-interval" },
      dataset: { testid: "arbiter-interval" } }),
    rules: el("select", { attrs: { id: "arbiter-rules" } }, el("option", { attrs: { value: "fide" }, text: LAWS.flag_rules.fide }),
      el("option", { attrs: { value: "uscf" }, text: LAWS.flag_rules.uscf })),
    follow: el("button", { class: "primary", attrs: { type: "button" }, dataset: { testid: "arbiter-follow" } }, tText("Follow")),
    sound: el("input", { attrs: { type: "checkbox", id: "arbiter-sound" } }),
    notify: el("input", { attrs: { type: "checkbox", id: "arbiter-notify" } }),
    download: el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-download" } }, tText("Download the log (JSON lines)")),
    status: el("p", { class: "arb-status", attrs: { role: "status" }, dataset: { testid: "arbiter-status" } }),
    summary: el("p", { class: "arb-summary", dataset: { testid: "arbiter-summary" } }),
    grid: el("div", { class: "arb-grid", dataset: { testid: "arbiter-grid" } }),
    urgent: tAttr(el("div", { class: "arb-urgent", attrs: { hidden: "" },
      dataset: { testid: "arbiter-urgent" } }), "aria-label", "Needs the arbiter now"),
    log: el("ol", { class: "arb-log", attrs: { reversed: "" }, dataset: { testid: "arbiter-log" } }),
  };
  section.append(
    el("h2", {}, tText("Arbiter: follow a live round")),
    el("label", { attrs: { for: "arbiter-source" } }, tText("A URL of a PGN that changes (re-read every few seconds), or PGN text")),
    source,
    el("div", { class: "row" }, parts.file, fileInput,
      el("label", { attrs: { for: "arbiter-interval" } }, tText("every (s)")), parts.interval,
      el("label", { attrs: { for: "arbiter-rules" } }, tText("flag falls by")), parts.rules, parts.follow),
    el("div", { class: "row" }, el("label", { class: "inline" }, parts.sound, " ", tText("sound at “must stop”")),
      el("label", { class: "inline" }, parts.notify, " ", tText("browser notification at “must stop”")), parts.download),
    parts.status, parts.summary,
    el("div", { class: "arb-main" }, parts.urgent,
      el("div", { class: "arb-events" }, el("h3", {}, tText("Events, newest first")), parts.log), parts.grid));
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
    /** The drawn card of each board of the model. @type {Map<number, Card>} */
    this.cards = new Map();
    /** The grid's cards in the round's order. @type {Card[]} */
    this.placed = [];
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
  async apply(u) {
    const { mustStop } = this.model.apply(u);
    await this.render(u);
    this.perf.applied = this.model.applied;
    this.section.dataset.updates = String(this.model.applied);
    if (mustStop.length) this.alarm(mustStop);
    return performance.now();
  }

  /**
   * Draw the model where `u` changed it: new log rows, voided rows, the
   * boards sent (BOARDS_A_FRAME a frame), the strip, the count.
   * @param {Update} u
   */
  async render(u) {
    const ui = this.ui;
    const m = this.model;
    const fragment = document.createDocumentFragment();
    for (const e of u.events) fragment.prepend(eventRow(e, m.source, m.generation));
    ui.log.prepend(fragment);
    for (const id of u.voided) {
      const row = ui.log.querySelector(`[data-generation="${m.generation}"][data-id="${Number(id)}"]`);
      if (row instanceof HTMLElement) {
        row.dataset.void = "1";
        row.title = t("void: moves taken back or another game at this number");
      }
    }
    const generation = m.generation;
    for (let at = 0; at < u.boards.length; at++) {
      // a slice a frame: a round of a thousand boards never blocks the page for long
      if (at && at % BOARDS_A_FRAME === 0) await new Promise((done) => requestAnimationFrame(() => done(null)));
      if (generation !== m.generation) return; // another source meanwhile: its boards are not drawn
      this.draw(u.boards[at]);
    }
    if (u.boards.length) fillStrip(ui.urgent, m.urgent(), (game) => this.jump(game));
    ui.summary.textContent = m.summary();
  }

  /** A board's card, made and placed the first time. @param {BoardView} b */
  draw(b) {
    let c = this.cards.get(b.game);
    if (!c) {
      c = makeCard(b);
      this.cards.set(b.game, c);
      placeCard(this.ui.grid, this.placed, c);
    }
    fillCard(c, b);
  }

  /** Bring a board's card into view and give it the focus. @param {number} game */
  jump(game) {
    const c = this.cards.get(game);
    if (!c) return;
    c.card.scrollIntoView({ block: "center" });
    c.card.focus({ preventScroll: true });
  }

  /** @param {ArbiterEvent[]} events */
  alarm(events) {
    if (this.ui.sound.checked) beep();
    if (this.ui.notify.checked && "Notification" in window && Notification.permission === "granted") {
      for (const e of events.slice(0, 3)) new Notification(t("Must stop now"), { body: e.text });
    }
  }

  /** @param {string} text @param {number} readAt */
  async onText(text, readAt) {
    const got = performance.now();
    const asked = this.model.generation;
    const answer = await (this.streaming ? this.client.feed(text) : this.client.update(text));
    if (asked !== this.model.generation) return;
    if (answer.note) this.say(answer.note);
    if (!answer.ok) return this.say(t("The referee failed: {error}", { error: answer.error ? answer.error.message : unknownError() }));
    const update = { events: answer.events ?? [], voided: answer.voided ?? [], boards: answer.boards ?? [], count: answer.count ?? 0 };
    const shown = await this.apply(update);
    // for benchmarks/bench_arbiter.py: times on this page's clock (performance.timeOrigin + ms is the epoch)
    const rec = { read_at: readAt, text_at: got, shown_at: shown, painted_at: 0, worker_ms: answer.worker_ms,
      bytes: text.length, events: update.events.length, boards: update.boards.length };
    this.perf.updates.push(rec);
    requestAnimationFrame(() => setTimeout(() => { rec.painted_at = performance.now(); }, 0));
  }

  /** The Follow button as the phase says: Follow when idle, Stop otherwise, disabled while starting. */
  showPhase() {
    const phase = this.model.phase;
    this.ui.follow.textContent = phase === "idle" ? "Follow" : "Stop";
    this.ui.follow.disabled = phase === "starting" || phase === "stopping";
    this.section.dataset.phase = phase;
    this.section.dataset.following = phase === "following" ? "1" : "0";
  }

  /** End the follower, whatever its phase: no read is asked after this, and late answers are dropped. */
  stop() {
    this.model.go("stopping");
    this.following?.stop();
    this.following = null;
    this.followedFile = null;
    this.model.end();
    this.showPhase();
  }

  /** The source the visitor gave (a chosen file, a URL, pasted text), or null with the reason said. */
  source() {
    const typed = this.ui.source.value.trim();
    try {
      if (this.chosen && !typed) return new FileSource(this.chosen);
      if (/^https?:\/\/\S+$/i.test(typed)) return StreamSource.names(typed) ? new StreamSource(typed) : new UrlSource(typed);
      if (typed) return new TextSource(this.ui.source.value);
      this.say(t("Give a URL, paste PGN text, or choose a local file."));
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
    const generation = this.model.begin(source.name);
    if (generation == null) return; // a follower is starting or running: one at most
    this.showPhase();
    this.streaming = source instanceof StreamSource;
    for (const { card } of this.cards.values()) card.remove();
    this.cards.clear();
    this.placed = [];
    fillStrip(ui.urgent, [], () => {});
    for (const row of ui.log.children) row.classList.add("arb-old"); // the last source's events stay, marked
    ui.summary.textContent = "";
    const interval = Math.min(600, Math.max(1, Number(ui.interval.value) || 3));
    this.say(this.client.referee?.state !== "ready" ? t("Starting the referee (Python) for the arbiter…") : "");
    const r = await this.client.start(ui.rules.value === "uscf" ? "uscf" : "fide");
    if (generation !== this.model.generation) return; // stopped meanwhile
    if (!r.ok) {
      this.stop();
      return this.say(t("The referee could not start: {error}", { error: r.error ? r.error.message : unknownError() }));
    }
    this.model.go("following");
    this.showPhase();
    this.say(source instanceof TextSource ? t("Reading the pasted text once.") : this.streaming
      ? t("Following the stream {name}, shown every {seconds} s.", { name: source.name, seconds: interval })
      : t("Following {name}, every {seconds} s.", { name: source.name, seconds: interval }));
    const once = source instanceof TextSource;
    this.followedFile = source instanceof FileSource && source.file ? source : null;
    this.following = poll(source, { interval, onText: (text, readAt) => this.onText(text, readAt),
      onNote: (m) => generation === this.model.generation && this.say(m), once, onDone: () => {
        this.stop();
        this.say(t("The pasted text was read: change it and press Follow to read it again."));
      } });
  }

  /** @param {{getFile: () => Promise<File>} | File} file @param {string} name */
  choose(file, name) {
    this.chosen = file;
    this.ui.source.value = "";
    if (this.following && this.followedFile && file instanceof File) {
      // chosen again while followed: read at the next tick, as a change of the same source
      this.followedFile.replace(file);
      return this.say(t("{name} chosen again: its changes are read at the next tick.", { name }));
    }
    this.stop();
    this.say("getFile" in file ? t("{name} chosen: Follow reads it again whenever it changes.", { name })
      : t("{name} chosen: Follow reads it again whenever it changes (this browser needs it chosen again after each change).", { name }));
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
    if (v.model.phase === "following") {
      v.stop();
      v.say("Stopped.");
    } else if (v.model.phase === "idle") {
      void v.start().catch((e) => v.say(e instanceof SourceError ? e.message : t("Could not follow: {error}", { error: e.message })));
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
        if (p !== "granted") v.say(t("Notifications are not allowed by the browser: the log and the grid still say it."));
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
