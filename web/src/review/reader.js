// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a PGN file for the review as a stream: whole-line byte chunks (so
// every chunk decodes on its own), UTF-8 decoding as the CLI does it
// (invalid bytes become U+FFFD), and the map from the referee's character
// offsets back to byte offsets, so that opening a game re-reads only its bytes
// from the file instead of keeping every game's text. Works on any
// ReadableStream of bytes; `.pgn.gz` goes through the browser's
// DecompressionStream.
import { t } from "../i18n.js";


const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Whole-line chunks of at most about `target` bytes from a byte stream,
 * however large the pieces the stream delivers (a browser may hand over a
 * whole file at once); the last chunk may end without a newline. A line
 * longer than `target` makes a chunk of its own, cut anyway at 8 times
 * `target` when no newline comes.
 * @param {ReadableStream<Uint8Array>} stream
 * @param {number} [target]
 * @returns {AsyncGenerator<{bytes: Uint8Array, byteStart: number}>}
 */
export async function* lineChunks(stream, target = 32 * 1024) {
  const reader = stream.getReader();
  /** @type {Uint8Array[]} */
  let parts = [];
  let held = 0;
  let byteStart = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value && value.length) {
        parts.push(value);
        held += value.length;
      }
      if (held < target && !done) continue;
      let all = concat(parts, held);
      while (all.length >= target) {
        let cut = lineEndBefore(all, target);
        if (cut < 0) cut = lineEndAfter(all, target);
        if (cut < 0) {
          if (all.length < 8 * target) break;
          cut = all.length - 1;
        }
        yield { bytes: all.subarray(0, cut + 1), byteStart };
        byteStart += cut + 1;
        all = all.subarray(cut + 1);
      }
      if (done) {
        if (all.length) yield { bytes: all, byteStart };
        return;
      }
      parts = all.length ? [all] : [];
      held = all.length;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The last line end before `limit`, or -1. @param {Uint8Array} bytes @param {number} limit */
function lineEndBefore(bytes, limit) {
  for (let i = Math.min(limit, bytes.length) - 1; i >= 0; i--) if (bytes[i] === NEWLINE || bytes[i] === CR) return i;
  return -1;
}

/** The first line end from `from` on, or -1. @param {Uint8Array} bytes @param {number} from */
function lineEndAfter(bytes, from) {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === NEWLINE || bytes[i] === CR) return i;
  return -1;
}

/** @param {Uint8Array[]} parts @param {number} length */
function concat(parts, length) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Decode one whole-line chunk. A byte-order mark at the start of the file is
 * skipped (counted in `skip`). `exact` is false when the chunk held invalid
 * UTF-8: its characters then no longer map to bytes one to one.
 * @param {Uint8Array} bytes
 * @param {number} byteStart
 * @returns {{text: string, exact: boolean, skip: number}}
 */
export function decodeChunk(bytes, byteStart) {
  let skip = 0;
  if (byteStart === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) skip = 3;
  const body = bytes.subarray(skip);
  try {
    return { text: strict.decode(body), exact: true, skip };
  } catch {
    return { text: lenient.decode(body), exact: false, skip };
  }
}

/** UTF-8 length of a string (no allocation). @param {string} s @param {number} from @param {number} to */
export function utf8Length(s, from = 0, to = s.length) {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * @typedef {{charStart: number, byteStart: number, text: string, exact: boolean,
 *   cursor: {char: number, byte: number}}} FedChunk
 * @typedef {{byteStart: number, byteEnd: number} | {text: string}} GameSource
 */

/**
 * Character offsets of the text fed to the referee, mapped back to byte
 * offsets of the file. Keeps only the chunks a game still open may start in;
 * offsets must be asked for in ascending order.
 */
export class OffsetMap {
  constructor() {
    /** @type {FedChunk[]} */
    this.chunks = [];
    this.chars = 0;
  }

  /**
   * @param {{text: string, exact: boolean, skip: number}} decoded
   * @param {number} byteStart where the chunk's bytes begin in the file
   */
  add(decoded, byteStart) {
    const b = byteStart + decoded.skip;
    this.chunks.push({ charStart: this.chars, byteStart: b, text: decoded.text, exact: decoded.exact, cursor: { char: 0, byte: 0 } });
    this.chars += decoded.text.length;
  }

  /** @param {number} char @returns {number} index of the chunk holding `char` */
  #find(char) {
    let i = 0;
    while (i + 1 < this.chunks.length && this.chunks[i + 1].charStart <= char) i++;
    return i;
  }

  /** @param {FedChunk} c @param {number} char offset in the whole text */
  #byteOf(c, char) {
    const local = char - c.charStart;
    if (local < c.cursor.char) c.cursor = { char: 0, byte: 0 };
    c.cursor = { char: local, byte: c.cursor.byte + utf8Length(c.text, c.cursor.char, local) };
    return c.byteStart + c.cursor.byte;
  }

  /**
   * Where the game at characters [start, end) lives: a byte range of the
   * file, or its text when a chunk it spans was not valid UTF-8. Chunks
   * wholly before `start` are forgotten.
   * @param {number} start @param {number} end
   * @returns {GameSource}
   */
  locate(start, end) {
    const i = this.#find(start);
    this.chunks.splice(0, i);
    const j = this.#find(Math.max(start, end - 1));
    const span = this.chunks.slice(0, j + 1);
    if (span.every((c) => c.exact)) {
      return { byteStart: this.#byteOf(span[0], start), byteEnd: this.#byteOf(span[span.length - 1], end) };
    }
    return { text: span.map((c) => c.text).join("").slice(start - span[0].charStart, end - span[0].charStart) };
  }
}

/**
 * The text of a game from its source: a slice of the file (a Blob) or, for a
 * compressed file, the same bytes found again by streaming `open()`.
 * @param {GameSource} source
 * @param {{blob?: Blob, open?: () => ReadableStream<Uint8Array>}} file
 */
export async function readGame(source, file) {
  if ("text" in source) return source.text;
  if (file.blob) return lenient.decode(new Uint8Array(await file.blob.slice(source.byteStart, source.byteEnd).arrayBuffer()));
  if (!file.open) throw new Error(t("no way to read the file again"));
  const reader = file.open().getReader();
  const out = new Uint8Array(source.byteEnd - source.byteStart);
  let at = 0; // bytes of the stream seen
  try {
    while (at < source.byteEnd) {
      const { done, value } = await reader.read();
      if (done) break;
      const from = Math.max(source.byteStart, at);
      const to = Math.min(source.byteEnd, at + value.length);
      if (to > from) out.set(value.subarray(from - at, to - at), from - source.byteStart);
      at += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return lenient.decode(out);
}

/**
 * A byte stream of a file, decompressed when its name ends in `.gz` or
 * `.zst` (the browser's DecompressionStream; an Error says so when the
 * browser has none for the format: zstd is recent).
 * `onRawBytes` hears how many bytes of the file itself were read (the
 * progress of a compressed file).
 * @param {Blob & {name?: string}} file
 * @param {(n: number) => void} [onRawBytes]
 * @returns {ReadableStream<Uint8Array>}
 */
export function openStream(file, onRawBytes) {
  let raw = /** @type {ReadableStream<Uint8Array>} */ (file.stream());
  if (onRawBytes) {
    raw = raw.pipeThrough(new TransformStream({
      transform(chunk, out) {
        onRawBytes(chunk.length);
        out.enqueue(chunk);
      },
    }));
  }
  const kind = /\.gz$/i.test(file.name ?? "") ? "gzip" : /\.zst$/i.test(file.name ?? "") ? "zstd" : null;
  if (!kind) return raw;
  let inflate;
  try {
    // "zstd" where the browser has it (as scan reads .pgn.zst; skippable frames of pzstd included)
    inflate = new DecompressionStream(/** @type {CompressionFormat} */ (kind));
  } catch {
    throw new Error(t("this browser cannot decompress .{kind} files: decompress the file first", { kind: kind === "gzip" ? "gz" : "zst" }));
  }
  return raw.pipeThrough(/** @type {TransformStream<Uint8Array, Uint8Array>} */ (inflate));
}
