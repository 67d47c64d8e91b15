// SPDX-License-Identifier: GPL-3.0-or-later
// The Arbiter view: the sources to follow, one or several at once (each a
// URL, a local file or pasted text, with its own status: slots.js), one
// grid of small view-only boards with the referee's state of each, in the
// round's order (source, then board number), a strip of the boards that
// need the arbiter now, and one event log, newest first. Its state is
// model.js's; this file follows the sources and renders the model. The chess is done in the
// arbiter's own worker (pychessdraw.web.follow, see client.js); everything from
// the source (tags, names, moves, reasons) goes into the page as text only.
import { LAWS } from "../contract.js";
import { audioContext, resumeAudio } from "../ui/audio.js";
import { el } from "../ui/dom.js";
import { ArbiterClient } from "./client.js";
import { boardLabel, eventRow, fillCard, fillStrip, makeCard, placeCard } from "./cards.js";
import { ArbiterModel, boardKey } from "./model.js";
import { FileSource, SourceError, StreamSource, TextSource, poll } from "./sources.js";
import { SourceSlot, letterOf } from "./slots.js";
import { t } from "../i18n.js";
import { LANGUAGE_EVENT, tAttr, tText } from "../ui/language.js";
import { sayAgain } from "./again.js";

/** @typedef {import("../contract.js").BoardView} BoardView */
/** @typedef {import("../contract.js").ArbiterEvent} ArbiterEvent */
/** @typedef {import("../contract.js").FollowUpdate} Update */
/** @typedef {import("./cards.js").Card} Card */
/** @typedef {import("./model.js").Board} Board */

/** Cards drawn in one frame (a new card is about 1 ms: a thousand at once would block the page for a second). */
const BOARDS_A_FRAME = 40;

/** A short beep (no sound file: nothing to fetch), in the page's one audio context, readied when the box is ticked. */
function beep() {
  const ctx = audioContext();
  if (!ctx) return; // no audio here: the log and the grid still say it
  const osc = ctx.createOscillator();
  osc.frequency.value = 880;
  osc.connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.25);
}

/** @param {HTMLElement} section */
function buildControls(section) {
  const parts = {
    sources: el("div", { class: "arb-sources", dataset: { testid: "arbiter-sources" } }),
    add: el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-add-source" } }, tText("Add a source")),
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
    urgent: tAttr(el("div", { class: "arb-urgent", attrs: { hidden: "" }, dataset: { testid: "arbiter-urgent" } }),
      "aria-label", "Needs the arbiter now"),
    log: el("ol", { class: "arb-log", attrs: { reversed: "" }, dataset: { testid: "arbiter-log" } }),
  };
  section.append(
    el("h2", {}, tText("Arbiter: follow a live round")),
    el("p", { class: "arb-hint" }, tText("Each source: a URL of a PGN that changes (re-read every few seconds), PGN text, or a local file")),
    parts.sources,
    el("div", { class: "row" }, parts.add,
      el("label", { attrs: { for: "arbiter-interval" } }, tText("every (s)")), parts.interval,
      el("label", { attrs: { for: "arbiter-rules" } }, tText("flag falls by")), parts.rules, parts.follow),
    el("div", { class: "row" }, el("label", { class: "inline" }, parts.sound, " ", tText("sound at “must stop”")),
      el("label", { class: "inline" }, parts.notify, " ", tText("browser notification at “must stop”")), parts.download),
    parts.status, parts.summary,
    el("div", { class: "arb-main" }, parts.urgent,
      el("div", { class: "arb-events" }, el("h3", {}, tText("Events, newest first")), parts.log), parts.grid));
  return parts;
}

/**
 * The view's actions (the sources followed) and its drawing: the model's
 * boards as cards, its log as rows, through the elements of buildControls.
 */
class ArbiterView {
  /** @param {HTMLElement} section */
  constructor(section) {
    this.section = section;
    this.ui = buildControls(section);
    this.client = new ArbiterClient();
    this.model = new ArbiterModel();
    /** The drawn card of each board of the model, by boardKey. @type {Map<string, Card>} */
    this.cards = new Map();
    /** The grid's cards in the round's order. @type {Card[]} */
    this.placed = [];
    /** The sources, in the order given. @type {SourceSlot[]} */
    this.slots = [];
    this.nextSlot = 1;
    /** Whether the cards show their source's letter (two sources with the same board numbers). */
    this.named = false;
    /** The view's message, said again in another language. @type {() => string} */
    this.said = () => "";
    /** Whether the view's status line repeats the only source's message. */
    this.mirrored = false;
    this.flagRules = /** @type {import("../contract.js").FlagRulesName} */ ("fide");
    this.interval = 3;
    /** @type {NonNullable<Window["__arbiter"]>} */
    this.perf = (window.__arbiter = { updates: [], applied: 0 });
  }

  /** The view's message (a maker of it: said again in another language). @param {import("./slots.js").Said} m */
  say(m) {
    this.ui.status.textContent = (this.said = typeof m === "function" ? m : () => m)();
    this.mirrored = false;
  }

  /** A source's message: on its own status line (shown when several), and on the view's when it is the only one. @param {SourceSlot} slot @param {import("./slots.js").Said} m */
  note(slot, m) {
    slot.say(m);
    if (this.slots.length === 1) {
      this.say(m);
      this.mirrored = true;
    }
  }

  /** A new source's row (an empty one). */
  addSlot() {
    const slot = new SourceSlot(this.nextSlot++);
    this.slots.push(slot);
    this.ui.sources.append(slot.row);
    slot.listen({ choose: (file, name) => this.choose(slot, file, name), remove: () => this.removeSlot(slot),
      changed: () => this.model.phase === "following" && slot.given() && void this.follow(slot, this.model.generation) });
    this.showSlots();
    return slot;
  }

  /** A source removed: no longer read, its boards leave the grid, its events stay in the log. @param {SourceSlot} slot */
  removeSlot(slot) {
    slot.stop();
    this.slots = this.slots.filter((s) => s !== slot);
    slot.row.remove();
    this.dropBoards(slot);
    if (this.model.phase !== "idle") void this.client.drop(slot.id);
    if (!this.slots.length) this.addSlot();
    this.showSlots();
    if (this.model.phase === "following" && !this.slots.some((s) => s.poller)) this.stop();
  }

  /** The sources' count on the section (CSS shows the letters when several). */
  showSlots() {
    this.section.dataset.sources = String(this.slots.length);
    // a source's message on the view's line would read as every source's once there are several
    if (this.slots.length > 1 && this.mirrored) this.say("");
    for (const s of this.slots) s.remove.hidden = this.slots.length < 2;
  }

  /** A board's number as shown. @param {Board} b */
  label(b) {
    return boardLabel(b, letterOf(b.src), this.named);
  }

  /** The strip, the count, and every card's number (when the letters come or go). */
  redrawAll() {
    if (this.named !== this.model.collides) {
      this.named = this.model.collides;
      for (const b of this.model.boards.values()) {
        const c = this.cards.get(boardKey(b.src, b.game));
        if (c) fillCard(c, b, this.label(b));
      }
    }
    fillStrip(this.ui.urgent, this.model.urgent(), (b) => this.label(b), (b) => this.jump(b));
    this.ui.summary.textContent = this.model.boards.size ? this.model.summary() : "";
  }

  /** Take in an update of a source and draw what it changed. @param {Update} u @param {SourceSlot} slot */
  async apply(u, slot) {
    const { mustStop } = this.model.apply(u, slot.id, slot.name);
    await this.render(u, slot);
    this.perf.applied = this.model.applied;
    this.section.dataset.updates = String(this.model.applied);
    if (mustStop.length) this.alarm(mustStop);
    return performance.now();
  }

  /**
   * Draw the model where `u` changed it: new log rows, voided rows, the
   * boards sent (BOARDS_A_FRAME a frame), the strip, the count.
   * @param {Update} u @param {SourceSlot} slot
   */
  async render(u, slot) {
    const ui = this.ui;
    const m = this.model;
    const fragment = document.createDocumentFragment();
    const from = { name: slot.name, id: slot.id, letter: slot.letter };
    for (const e of u.events) fragment.prepend(eventRow(e, from, m.generation));
    ui.log.prepend(fragment);
    for (const id of u.voided) {
      const row = ui.log.querySelector(`[data-generation="${m.generation}"][data-src="${slot.id}"][data-id="${Number(id)}"]`);
      if (row instanceof HTMLElement) {
        row.dataset.void = "1";
        row.title = t("void: moves taken back or another game at this number");
      }
    }
    const generation = m.generation;
    for (let at = 0; at < u.boards.length; at++) {
      // a slice a frame: a round of a thousand boards never blocks the page for long
      if (at && at % BOARDS_A_FRAME === 0) await new Promise((done) => requestAnimationFrame(() => done(null)));
      if (generation !== m.generation || !slot.poller) return; // stopped or removed meanwhile: not drawn
      this.draw(/** @type {Board} */ (m.boards.get(boardKey(slot.id, u.boards[at].game))));
    }
    this.redrawAll();
  }

  /** A board's card, made and placed the first time. @param {Board} b */
  draw(b) {
    const key = boardKey(b.src, b.game);
    let c = this.cards.get(key);
    if (!c) {
      c = makeCard(b, letterOf(b.src));
      this.cards.set(key, c);
      placeCard(this.ui.grid, this.placed, c);
    }
    fillCard(c, b, this.label(b));
  }

  /** Bring a board's card into view and give it the focus. @param {Board} b */
  jump(b) {
    const c = this.cards.get(boardKey(b.src, b.game));
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

  /** @param {SourceSlot} slot @param {string} text @param {number} readAt */
  async onText(slot, text, readAt) {
    const got = performance.now();
    const asked = this.model.generation;
    const answer = await (slot.streaming ? this.client.feed(text, slot.id) : this.client.update(text, slot.id));
    if (asked !== this.model.generation || !slot.poller) return;
    if (answer.note) this.note(slot, answer.note);
    if (!answer.ok) return this.note(slot, () => t("The referee failed: {reason}", { reason: answer.error ? answer.error.message : "?" }));
    const update = { events: answer.events ?? [], voided: answer.voided ?? [], boards: answer.boards ?? [], count: answer.count ?? 0 };
    const shown = await this.apply(update, slot);
    // for benchmarks/bench_arbiter.py: times on this page's clock (performance.timeOrigin + ms is the epoch)
    const rec = { read_at: readAt, text_at: got, shown_at: shown, painted_at: 0, worker_ms: answer.worker_ms,
      bytes: text.length, events: update.events.length, boards: update.boards.length };
    this.perf.updates.push(rec);
    requestAnimationFrame(() => setTimeout(() => { rec.painted_at = performance.now(); }, 0));
  }

  /** The Follow button as the phase says: Follow when idle, Stop otherwise, disabled while starting. */
  showPhase() {
    const phase = this.model.phase;
    this.ui.follow.textContent = phase === "idle" ? t("Follow") : t("Stop");
    this.ui.follow.disabled = phase === "starting" || phase === "stopping";
    this.section.dataset.phase = phase;
    this.section.dataset.following = phase === "following" ? "1" : "0";
  }

  /** End the follower, whatever its phase: no read is asked after this, and late answers are dropped. */
  stop() {
    this.model.go("stopping");
    for (const slot of this.slots) slot.stop();
    this.model.end();
    this.showPhase();
  }

  async start() {
    const ui = this.ui;
    const given = this.slots.filter((s) => s.given());
    if (!given.length) return this.note(this.slots[0], () => t("Give a URL, paste PGN text, or choose a local file."));
    const generation = this.model.begin(given.length === 1 ? given[0].input.value.trim() : "");
    if (generation == null) return; // a follower is starting or running: one at most
    this.showPhase();
    for (const { card } of this.cards.values()) card.remove();
    this.cards.clear();
    this.placed = [];
    this.named = false;
    fillStrip(ui.urgent, [], () => "", () => {});
    for (const row of ui.log.children) row.classList.add("arb-old"); // the last sources' events stay, marked
    ui.summary.textContent = "";
    for (const s of this.slots) s.say("");
    this.interval = Math.min(600, Math.max(1, Number(ui.interval.value) || 3));
    this.flagRules = ui.rules.value === "uscf" ? "uscf" : "fide";
    this.say(this.client.referee?.state !== "ready" ? () => t("Starting the referee (Python) for the arbiter…") : "");
    const r = await this.client.start(this.flagRules);
    if (generation !== this.model.generation) return; // stopped meanwhile
    if (!r.ok) {
      this.stop();
      return this.say(() => t("The referee could not start: {reason}", { reason: r.error ? r.error.message : "?" }));
    }
    this.model.go("following");
    this.showPhase();
    this.say("");
    for (const slot of given) await this.follow(slot, generation);
    if (generation === this.model.generation && !this.slots.some((s) => s.poller)) this.stop();
  }

  /** Read one source, every interval, while the follower runs. @param {SourceSlot} slot @param {number} generation */
  async follow(slot, generation) {
    const source = slot.source();
    if (!source) return;
    slot.stop();
    if (this.model.boards.size) this.dropBoards(slot);
    slot.name = source.name;
    slot.streaming = source instanceof StreamSource;
    const r = await this.client.start(this.flagRules, slot.id);
    if (generation !== this.model.generation || !this.slots.includes(slot)) return;
    if (!r.ok) return this.note(slot, () => t("The referee could not start: {reason}", { reason: r.error ? r.error.message : "?" }));
    const interval = this.interval;
    this.note(slot, () => source instanceof TextSource ? t("Reading the pasted text once.") : slot.streaming
      ? t("Following the stream {name}, shown every {n} s.", { name: source.name, n: interval })
      : t("Following {name}, every {n} s.", { name: source.name, n: interval }));
    slot.followedFile = source instanceof FileSource && source.file ? source : null;
    const poller = poll(source, { interval, onText: (text, readAt) => this.onText(slot, text, readAt),
      onNote: (m) => generation === this.model.generation && slot.poller === poller && this.note(slot, m),
      once: source instanceof TextSource, onDone: () => this.pastedRead(slot) });
    slot.poller = poller;
  }

  /** Pasted text was read: that source is done; the follower ends when no source is left to read. @param {SourceSlot} slot */
  pastedRead(slot) {
    slot.poller = null;
    if (!this.slots.some((s) => s.poller)) this.stop();
    this.note(slot, () => t("The pasted text was read: change it and press Follow to read it again."));
  }

  /** A source followed anew (another URL or file in its place): its old boards leave the grid. @param {SourceSlot} slot */
  dropBoards(slot) {
    this.model.drop(slot.id);
    this.placed = this.placed.filter((c) => c.at[0] !== slot.id);
    for (const [key, c] of this.cards) {
      if (c.at[0] === slot.id) {
        c.card.remove();
        this.cards.delete(key);
      }
    }
    this.redrawAll();
  }

  /** @param {SourceSlot} slot @param {{getFile: () => Promise<File>} | File} file @param {string} name */
  choose(slot, file, name) {
    slot.chosen = file;
    slot.input.value = "";
    if (slot.poller && slot.followedFile && file instanceof File) {
      // chosen again while followed: read at the next tick, as a change of the same source
      slot.followedFile.replace(file);
      return this.note(slot, () => t("{name} chosen again: its changes are read at the next tick.", { name }));
    }
    if (this.model.phase === "following") return void this.follow(slot, this.model.generation);
    this.note(slot, () => "getFile" in file ? t("{name} chosen: Follow reads it again whenever it changes.", { name })
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
      v.say(() => t("Stopped."));
    } else if (v.model.phase === "idle") {
      void v.start().catch((e) => v.say(e instanceof SourceError ? e.message : () => t("Could not follow: {reason}", { reason: e.message })));
    }
  });
  ui.add.addEventListener("click", () => v.addSlot().input.focus());
  ui.sound.addEventListener("change", () => ui.sound.checked && resumeAudio()); // a click: the audio may start
  ui.notify.addEventListener("change", () => {
    if (ui.notify.checked && "Notification" in window && Notification.permission === "default") {
      void Notification.requestPermission().then((p) => {
        if (p !== "granted") v.say(() => t("Notifications are not allowed by the browser: the log and the grid still say it."));
      });
    }
  });
  ui.download.addEventListener("click", () => v.download());
}

/** @param {HTMLElement} section */
export function mountArbiterView(section) {
  const v = new ArbiterView(section);
  v.addSlot();
  listen(v);
  document.addEventListener(LANGUAGE_EVENT, () => void sayAgain(v).catch(() => {})); // the worker's words too
  v.client.warm();
  section.dataset.mounted = "1";
}
