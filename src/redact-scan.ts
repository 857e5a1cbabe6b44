/**
 * Finding the forms of registered credentials in a text (src/redact.ts decides what to do with them),
 * in time linear in the text: every window of the text is hashed once (a rolling hash), only windows
 * whose hash is in a bit filter are looked up, the hits are merged into ranges as they come, and each
 * merged range is grown to the word around it once.
 */
import { fold, type Pattern } from "./redact-forms.js";

/** A run of this many characters of a secret (in any of its forms) counts as the secret. */
export const FRAGMENT_CHARS = 12;

/** A part of a text that holds a secret or a fragment of one. */
export interface Range {
  start: number;
  end: number;
  /** Whether a base64 form matched in it (its `=` padding goes with it). */
  base64: boolean;
}

/**
 * A filter has 16 bits per window (false positives under 1 in 16 windows), from 2^12 bits (512 B) up to
 * 2^21 (256 KB, for the ~100,000 windows of the 128 secrets the process-wide redactor keeps).
 */
const BITS_PER_WINDOW = 16;
const MIN_FILTER_BITS = 12;
const MAX_FILTER_BITS = 21;
const BASE = 0x01000193;

/** A character code, ASCII-lowercased as fold() does. */
function code(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** A filter: its bits, and log2 of how many. */
interface Filter {
  bits: Uint32Array;
  log2: number;
}

function slot(hash: number, log2: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - log2);
}

function hashOf(text: string, from: number, size: number): number {
  let hash = 0;
  for (let i = from; i < from + size; i += 1) hash = (Math.imul(hash, BASE) + code(text, i)) | 0;
  return hash;
}

/** The windows of one size: window text → the patterns it occurs in, and a filter of their hashes. */
interface Table {
  size: number;
  /** BASE^(size-1): what the character leaving the window weighed in the rolling hash. */
  top: number;
  windows: Map<string, Pattern[]>;
  /** Rebuilt lazily after a removal (a bit cannot be cleared: another window may share it) or when it fills up. */
  filter: Filter | undefined;
}

function setBit(filter: Filter, hash: number): void {
  const at = slot(hash, filter.log2);
  filter.bits[at >>> 5] = (filter.bits[at >>> 5] ?? 0) | (1 << (at & 31));
}

/** The windows of every registered pattern, by size (12, or the whole pattern when it is shorter). */
export class WindowIndex {
  readonly #tables = new Map<number, Table>();
  /** Kept up to date by add() and remove(): every string of every answer asks for it. */
  #minSize = Number.POSITIVE_INFINITY;

  /** The shortest window: a shorter text cannot hold a secret. */
  get minSize(): number {
    return this.#minSize;
  }

  #updateMinSize(): void {
    let min = Number.POSITIVE_INFINITY;
    for (const size of this.#tables.keys()) min = Math.min(min, size);
    this.#minSize = min;
  }

  add(patterns: readonly Pattern[]): void {
    for (const pattern of patterns) {
      const size = Math.min(FRAGMENT_CHARS, pattern.folded.length);
      let table = this.#tables.get(size);
      if (!table) {
        let top = 1;
        for (let i = 1; i < size; i += 1) top = Math.imul(top, BASE);
        table = { size, top, windows: new Map(), filter: undefined };
        this.#tables.set(size, table);
      }
      for (let offset = 0; offset + size <= pattern.folded.length; offset += 1) {
        const key = pattern.folded.slice(offset, offset + size);
        const known = table.windows.get(key);
        if (known) known.push(pattern);
        else table.windows.set(key, [pattern]);
        if (table.filter) setBit(table.filter, hashOf(key, 0, size));
      }
      if (table.filter && table.windows.size * BITS_PER_WINDOW > 2 ** table.filter.log2)
        table.filter = undefined;
    }
    this.#updateMinSize();
  }

  remove(patterns: readonly Pattern[]): void {
    for (const pattern of patterns) {
      const size = Math.min(FRAGMENT_CHARS, pattern.folded.length);
      const table = this.#tables.get(size);
      if (!table) continue;
      for (let offset = 0; offset + size <= pattern.folded.length; offset += 1) {
        const key = pattern.folded.slice(offset, offset + size);
        const kept = (table.windows.get(key) ?? []).filter((p) => p !== pattern);
        if (kept.length > 0) table.windows.set(key, kept);
        else table.windows.delete(key);
      }
      table.filter = undefined;
      if (table.windows.size === 0) this.#tables.delete(size);
    }
    this.#updateMinSize();
  }

  /** Whether a window of a pattern occurs in `text` (stops at the first). */
  has(text: string): boolean {
    for (const table of this.#tables.values()) if (scanTable(table, text, undefined)) return true;
    return false;
  }

  /** The ranges of `text` where a window of a pattern occurs, merged (touching ones too) and sorted. */
  scan(text: string): Range[] {
    const found: Range[] = [];
    let sizes = 0;
    for (const table of this.#tables.values()) if (scanTable(table, text, found)) sizes += 1;
    return sizes > 1 ? mergeSorted(found) : found;
  }
}

function filterOf(table: Table): Filter {
  if (!table.filter) {
    const wanted = Math.ceil(Math.log2(table.windows.size * BITS_PER_WINDOW));
    const log2 = Math.min(MAX_FILTER_BITS, Math.max(MIN_FILTER_BITS, wanted));
    const filter = { bits: new Uint32Array(2 ** (log2 - 5)), log2 };
    for (const key of table.windows.keys()) setBit(filter, hashOf(key, 0, table.size));
    table.filter = filter;
  }
  return table.filter;
}

/**
 * Appends the merged hits of one window size (in text order) to `out`; true when there was one. Without
 * `out`, stops at the first hit.
 */
function scanTable(table: Table, text: string, out: Range[] | undefined): boolean {
  const { size, top, windows } = table;
  if (text.length < size) return false;
  const { bits, log2 } = filterOf(table);
  let hash = hashOf(text, 0, size);
  let last: Range | undefined;
  let hit = false;
  for (let at = 0; ; at += 1) {
    const bit = slot(hash, log2);
    if (((bits[bit >>> 5] ?? 0) & (1 << (bit & 31))) !== 0) {
      const patterns = windows.get(fold(text.slice(at, at + size)));
      if (patterns) {
        hit = true;
        if (!out) return true;
        const base64 = patterns.some((p) => p.kind === "base64");
        if (last && at <= last.end) {
          last.end = at + size;
          last.base64 ||= base64;
        } else {
          last = { start: at, end: at + size, base64 };
          out.push(last);
        }
      }
    }
    if (at + size >= text.length) return hit;
    hash = (Math.imul((hash - Math.imul(code(text, at), top)) | 0, BASE) + code(text, at + size)) | 0;
  }
}

/** Sorts and merges ranges found by windows of different sizes (rare: a secret under 12 characters). */
function mergeSorted(ranges: Range[]): Range[] {
  ranges.sort((a, b) => a.start - b.start);
  const out: Range[] = [];
  for (const range of ranges) {
    const last = out[out.length - 1];
    if (last && range.start <= last.end) {
      last.end = Math.max(last.end, range.end);
      last.base64 ||= range.base64;
    } else out.push({ ...range });
  }
  return out;
}

/** Where a word ends: white space, quotes, brackets and the separators of query strings and lists. */
const WORD_END = /[\s"'`<>()[\]{},;&=|]/;

function endsWord(text: string, at: number): boolean {
  return WORD_END.test(text[at] ?? " ");
}

/**
 * Grows each range to the whole word around it (a neighbouring piece of the same secret in another
 * encoding, `ab%63d`, or a base64 edge character that mixes in bits of the secret, must not stay
 * readable beside the cut), and a base64 one over its `=` padding; merges ranges that then touch.
 * Linear: each character is looked at by at most one backward and one forward scan.
 */
export function growToWords(text: string, ranges: readonly Range[]): [number, number][] {
  const out: [number, number][] = [];
  /** Where the word of the last output range ended (before any `=` padding). */
  let wordEnd = 0;
  for (const range of ranges) {
    const last = out[out.length - 1];
    const floor = last ? last[1] : 0;
    let start = range.start;
    while (start > floor && !endsWord(text, start - 1)) start -= 1;
    // The characters up to the last word end are known to be inside that word: go on from there.
    let end = last && range.end <= wordEnd ? wordEnd : range.end;
    while (end < text.length && !endsWord(text, end)) end += 1;
    wordEnd = end;
    if (range.base64) while (text[end] === "=") end += 1;
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
