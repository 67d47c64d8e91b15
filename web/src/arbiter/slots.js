// SPDX-License-Identifier: GPL-3.0-or-later
// One source of the Arbiter view among several followed at once (the open
// and the women's sections of one event, two URLs or files): its own input
// (`arbiter-source`, a URL or pasted PGN), its file chooser, its status
// line, a button to remove it, its letter (A, B, ...) that tells its boards
// from another source's with the same board numbers, and its poller while
// followed. No chess here: view.js sends its texts to the worker.
import { t } from "../i18n.js";
import { el } from "../ui/dom.js";
import { tAttr, tText } from "../ui/language.js";
import { messageOf } from "../errors.js";
import { FileSource, StreamSource, TextSource, UrlSource } from "./sources.js";

/** @typedef {{read: () => Promise<string|null>, name: string, cut: string|null, close?: () => void}} Source */
/** A message, or what makes it (made again in another language). @typedef {string | (() => string)} Said */

/** A source's letter from its number (1: A, 27: A again: the number tells them apart in the data). @param {number} id */
export const letterOf = (id) => String.fromCharCode(65 + ((id - 1) % 26));

export class SourceSlot {
  /** @param {number} id  the worker's number of this source, from 1, never used again in the page */
  constructor(id) {
    this.id = id;
    this.letter = letterOf(id);
    this.input = tAttr(el("textarea", { attrs: { id: `arbiter-source-${id}`, rows: "2", spellcheck: "false" },
      dataset: { testid: "arbiter-source", source: this.letter } }), "placeholder", "https://… a PGN that changes, or paste PGN text");
    this.fileInput = el("input", { attrs: { type: "file", accept: ".pgn,text/plain", hidden: "" }, dataset: { testid: "arbiter-file-input" } });
    this.file = el("button", { attrs: { type: "button" }, dataset: { testid: "arbiter-file" } }, tText("Choose a local file…"));
    this.remove = el("button", { class: "arb-src-remove", attrs: { type: "button" }, dataset: { testid: "arbiter-source-remove" } }, tText("Remove"));
    tAttr(this.remove, "aria-label", "Remove source {letter}", { letter: this.letter });
    this.status = el("p", { class: "arb-src-status", attrs: { role: "status" }, dataset: { testid: "arbiter-source-status" } });
    this.row = el("div", { class: "arb-src", dataset: { source: this.letter } },
      el("label", { class: "arb-src-letter", attrs: { for: `arbiter-source-${id}` } }, tText("Source {letter}", { letter: this.letter })),
      this.input, el("div", { class: "arb-src-tools" }, this.file, this.fileInput, this.remove), this.status);
    /** @type {{getFile: () => Promise<File>} | File | null} */
    this.chosen = null;
    /** @type {{stop: () => void} | null} */
    this.poller = null;
    /** @type {FileSource | null} the file being followed, when it is a File from the chooser */
    this.followedFile = null;
    this.streaming = false; // the source sends pieces (StreamSource), not the whole text
    this.name = "";
    /** The message shown, said again in another language. @type {() => string} */
    this.said = () => "";
  }

  /** The source's message (a maker of it: said again in another language). @param {Said} m */
  say(m) {
    this.status.textContent = (this.said = typeof m === "function" ? m : () => m)();
  }

  /** Whether anything was given (a URL, text, a file). */
  given() {
    return Boolean(this.chosen || this.input.value.trim());
  }

  /** The source given here (a chosen file, a URL, pasted text), or null with the reason said. @returns {Source | null} */
  source() {
    const typed = this.input.value.trim();
    try {
      if (this.chosen && !typed) return new FileSource(this.chosen);
      if (/^https?:\/\/\S+$/i.test(typed)) return StreamSource.names(typed) ? new StreamSource(typed) : new UrlSource(typed);
      if (typed) return new TextSource(this.input.value);
      this.say(() => t("Give a URL, paste PGN text, or choose a local file."));
    } catch (e) {
      this.say(messageOf(e));
    }
    return null;
  }

  /**
   * Its controls: the file chooser (File System Access where there is one),
   * its removal, a change of its text.
   * @param {{choose: (file: {getFile: () => Promise<File>} | File, name: string) => void, remove: () => void, changed: () => void}} on
   */
  listen(on) {
    this.file.addEventListener("click", async () => {
      const picker = window.showOpenFilePicker;
      if (typeof picker !== "function") return this.fileInput.click();
      try {
        const [handle] = await picker.call(window, { types: [{ description: "PGN", accept: { "text/plain": [".pgn"] } }] });
        on.choose(handle, handle.name);
      } catch {
        // the chooser was closed
      }
    });
    this.fileInput.addEventListener("change", () => {
      const f = this.fileInput.files && this.fileInput.files[0];
      if (f) on.choose(f, f.name);
      this.fileInput.value = ""; // so that choosing the same file again is a change
    });
    this.remove.addEventListener("click", () => on.remove());
    this.input.addEventListener("change", () => on.changed());
  }

  /** Stop reading it: no request is asked after this. */
  stop() {
    this.poller?.stop();
    this.poller = null;
    this.followedFile = null;
  }
}
