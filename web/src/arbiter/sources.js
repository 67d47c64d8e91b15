// SPDX-License-Identifier: GPL-3.0-or-later
// The sources the Arbiter view follows, each read again and again: a URL
// (fetch; the browser's cache makes the request conditional, with the ETag
// or Last-Modified it was given), a local file (File System Access API
// handle, or a File from the chooser), pasted text. No DOM, no chess: a
// source's read() gives the whole current text, or null when it did not
// change, and throws SourceError with a message for people when it fails.

import { messageOf } from "../errors.js";
import { currentLocale, t } from "../i18n.js";

/** A round of 64 long games with clocks is under 2 MB: the limit leaves room. */
export const MAX_BYTES = 16 << 20;
export const MAX_BACKOFF_S = 60;
export const FETCH_TIMEOUT_MS = 10000;

export class SourceError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "SourceError";
  }
}

/** Why a URL cannot be read here, and what to do instead. */
export const corsHelp = () =>
  t("The host does not let other sites read it (no Access-Control-Allow-Origin header), or it cannot be reached. Download the PGN and choose it as a local file, or paste its text.");

/**
 * Bytes as text, cut at `limit` (at the last whole line) with a message.
 * @param {Uint8Array[]} parts @param {number} size @param {number} limit
 * @returns {{text: string, cut: string | null}}
 */
export function decodeLimited(parts, size, limit) {
  let bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const p of parts) {
    const take = Math.min(p.length, bytes.length - at);
    bytes.set(p.subarray(0, take), at);
    at += take;
    if (at >= bytes.length) break;
  }
  /** @type {string | null} */
  let cut = null;
  if (size > limit) {
    bytes = bytes.subarray(0, bytes.lastIndexOf(10) + 1);
    cut = t("the source is larger than the limit ({mb} MB): only its first {bytes} bytes are read",
      { mb: (limit / (1 << 20)).toFixed(0), bytes: bytes.length.toLocaleString(currentLocale()) });
  }
  return { text: new TextDecoder("utf-8").decode(bytes), cut };
}

/**
 * A body read up to limit + 1 bytes (an endless one is cancelled there).
 * @param {ReadableStream<Uint8Array>} body @param {number} limit
 */
async function readLimited(body, limit) {
  const reader = body.getReader();
  /** @type {Uint8Array[]} */
  const parts = [];
  let size = 0;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
  } finally {
    if (size > limit) void reader.cancel().catch(() => {});
  }
  return decodeLimited(parts, size, limit);
}

/** @param {string} url  an http(s) URL, else SourceError */
function httpUrl(url) {
  const u = new URL(url);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new SourceError(t("not an http(s) URL: {url}", { url: url.slice(0, 80) }));
  return u.href;
}

/** @type {typeof fetch} */
const pageFetch = (input, init) => fetch(input, init);

/** A source that is the same text every time (pasted): read once. */
export class TextSource {
  /** @param {string} text */
  constructor(text) {
    this.name = t("pasted text");
    this.text = text;
    /** @type {string | null} */
    this.cut = null;
    this.done = false;
  }

  async read() {
    if (this.done) return null;
    this.done = true;
    const bytes = new TextEncoder().encode(this.text);
    const { text, cut } = decodeLimited([bytes], bytes.length, MAX_BYTES);
    this.cut = cut;
    return text;
  }
}

/** An http(s) URL, fetched without credentials; a text equal to the last is "no change". */
export class UrlSource {
  /** @param {string} url @param {{fetch?: typeof fetch, limit?: number}} [opts] */
  constructor(url, opts = {}) {
    this.name = httpUrl(url);
    this.fetch = opts.fetch ?? pageFetch;
    this.limit = opts.limit ?? MAX_BYTES;
    /** @type {string | null} */
    this.last = null;
    /** @type {string | null} */
    this.cut = null;
    /** The read under way, so that close() ends it at once. @type {AbortController | null} */
    this.abort = null;
  }

  /** End the read under way (Stop): no request stays open. */
  close() {
    this.abort?.abort();
    this.abort = null;
  }

  async read() {
    const abort = (this.abort = new AbortController());
    const timer = setTimeout(() => abort.abort(), FETCH_TIMEOUT_MS);
    /** @type {Response} */
    let r;
    try {
      // "no-cache": the browser asks again with If-None-Match / If-Modified-Since
      // itself (headers set here would cost a CORS preflight the host may refuse).
      r = await this.fetch(this.name, { cache: "no-cache", credentials: "omit", redirect: "follow", signal: abort.signal });
      if (r.status === 304) return null;
      if (!r.ok) throw new SourceError(`${this.name}: HTTP ${r.status} ${r.statusText}`.trim());
      const { text, cut } = r.body ? await readLimited(r.body, this.limit) : { text: await r.text(), cut: null };
      this.cut = cut;
      if (text === this.last) return null;
      this.last = text;
      return text;
    } catch (e) {
      if (e instanceof SourceError) throw e;
      if (abort.signal.aborted) throw new SourceError(t("{source}: no answer within {seconds} s", { source: this.name, seconds: FETCH_TIMEOUT_MS / 1000 }));
      if (e instanceof TypeError) throw new SourceError(t("{source} cannot be read from this page. {help}", { source: this.name, help: corsHelp() }));
      throw new SourceError(`${this.name}: ${messageOf(e)}`);
    } finally {
      clearTimeout(timer);
      if (this.abort === abort) this.abort = null;
    }
  }
}

/**
 * A URL that streams (lichess's broadcast stream sends each game's whole PGN
 * again whenever it changes): one connection kept open; read() gives what
 * came since the last read (a piece, not the whole text: the worker's
 * StreamRound puts the round together), null when nothing came. A stream
 * that ends or breaks throws once; the next read connects again (the host
 * then sends every game again: nothing is said twice).
 */
export class StreamSource {
  /** @param {string} url @param {{fetch?: typeof fetch}} [opts] */
  constructor(url, opts = {}) {
    this.name = httpUrl(url);
    this.fetch = opts.fetch ?? pageFetch;
    /** @type {string | null} */
    this.cut = null;
    /** @type {string[]} */
    this.buffer = [];
    /** @type {ReadableStreamDefaultReader<Uint8Array> | null} */
    this.reader = null;
    /** @type {SourceError | null} */
    this.failed = null;
  }

  /** Whether a URL names a stream: lichess's streaming API, or one marked so. @param {string} url */
  static names(url) {
    return /\/api\/stream\//.test(url);
  }

  async read() {
    if (this.failed) {
      const e = this.failed;
      this.failed = this.reader = null;
      throw e;
    }
    if (!this.reader) await this.connect();
    if (!this.buffer.length) return null;
    const text = this.buffer.join("");
    this.buffer = [];
    return text;
  }

  async connect() {
    /** @type {Response} */
    let r;
    try {
      r = await this.fetch(this.name, { cache: "no-store", credentials: "omit", redirect: "follow" });
    } catch (e) {
      if (e instanceof TypeError) throw new SourceError(t("{source} cannot be read from this page. {help}", { source: this.name, help: corsHelp() }));
      throw new SourceError(`${this.name}: ${messageOf(e)}`);
    }
    if (!r.ok || !r.body) throw new SourceError(`${this.name}: HTTP ${r.status} ${r.statusText}`.trim());
    const reader = (this.reader = r.body.getReader());
    void this.pump(reader);
  }

  /** @param {ReadableStreamDefaultReader<Uint8Array>} reader */
  async pump(reader) {
    const decoder = new TextDecoder("utf-8");
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer.push(decoder.decode(value, { stream: true }));
      }
      if (this.reader === reader) this.failed = new SourceError(t("{source}: the stream ended.", { source: this.name }));
    } catch (e) {
      if (this.reader === reader) this.failed = new SourceError(t("{source}: the stream broke ({reason}).", { source: this.name, reason: messageOf(e) }));
    }
  }

  close() {
    const reader = this.reader;
    this.reader = null;
    if (reader) void reader.cancel().catch(() => {});
  }
}

/**
 * A local file: a File System Access handle (read again whenever its size
 * or time changes), or a File from the chooser (a browser without that API
 * may refuse to read it again once it changed: then choose it again).
 */
export class FileSource {
  /** @param {{getFile: () => Promise<File>} | File} file */
  constructor(file) {
    this.handle = "getFile" in file ? file : null;
    this.file = "getFile" in file ? null : file;
    this.name = this.file ? this.file.name : t("the chosen file");
    this.stamp = "";
    /** @type {string | null} */
    this.cut = null;
  }

  /** The file chosen again (a browser without handles gives a new File each time). @param {File} file */
  replace(file) {
    this.file = file;
    this.name = file.name;
    this.stamp = "";
  }

  async read() {
    /** @type {File} */
    let f;
    try {
      f = this.handle ? await this.handle.getFile() : /** @type {File} */ (this.file);
      this.name = f.name;
      const stamp = `${f.size}:${f.lastModified}`;
      if (stamp === this.stamp) return null;
      const { text, cut } = decodeLimited([new Uint8Array(await f.slice(0, MAX_BYTES + 1).arrayBuffer())], f.size, MAX_BYTES);
      this.stamp = stamp;
      this.cut = cut;
      return text;
    } catch (e) {
      const said = { source: this.name, reason: messageOf(e) };
      throw new SourceError(this.handle ? t("{source} cannot be read ({reason}).", said)
        : t("{source} cannot be read ({reason}). Choose it again (this browser cannot follow a file as it changes).", said));
    }
  }
}

/**
 * Read a source every `interval` seconds (never more often: the next read is
 * planned when the last one ends); after a failure, every 2, 4, 8...
 * intervals up to MAX_BACKOFF_S. Calls onText(text) with each new text,
 * onNote(message) when it fails (once) or answers again. stop() ends it.
 * @param {{read: () => Promise<string | null>, name: string, cut: string | null, close?: () => void}} source
 * @param {{interval: number, onText: (text: string, at: number) => Promise<void> | void, onNote: (m: string) => void,
 *   setTimer?: (fn: () => void, ms: number) => unknown, clearTimer?: (t: any) => void, once?: boolean,
 *   onDone?: () => void}} opts  once: read once (pasted text), then onDone()
 */
export function poll(source, opts) {
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((t) => clearTimeout(t));
  let failures = 0;
  let stopped = false;
  /** @type {unknown} */
  let timer = null;
  let cutSaid = /** @type {string | null} */ (null);
  const tick = async () => {
    const start = performance.now();
    try {
      const text = await source.read();
      if (stopped) return; // stopped during the read: nothing more is said or asked
      if (failures) opts.onNote(t("{source} answers again", { source: source.name }));
      failures = 0;
      if (source.cut && source.cut !== cutSaid) opts.onNote(source.cut);
      cutSaid = source.cut;
      if (text != null && !stopped) await opts.onText(text, start);
    } catch (e) {
      if (stopped) return; // the read was ended by stop(): not a failure of the source
      if (failures === 0) opts.onNote(t("{reason} Trying again, less often, until it answers.", { reason: messageOf(e) }));
      failures++;
    }
    if (stopped) return;
    if (opts.once) return opts.onDone?.();
    const wait = failures ? Math.min(opts.interval * 2 ** Math.min(failures, 16), Math.max(opts.interval, MAX_BACKOFF_S)) : opts.interval;
    timer = setTimer(() => void tick(), Math.max(0, start + wait * 1000 - performance.now()));
  };
  void tick();
  return {
    stop() {
      stopped = true;
      if (timer != null) clearTimer(timer);
      source.close?.();
    },
  };
}
