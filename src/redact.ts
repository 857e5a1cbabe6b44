/**
 * The one place that keeps credentials out of upstream text. Whoever sends a credential (a client id or
 * secret, an access, refresh or id token, an authorization code or PKCE verifier) registers it with
 * `add()`; every text that came back from a service (an error message, an error_description, a success
 * body, a header) goes through `text()` or `json()` before it becomes part of an error, a warning, a
 * tool result or a log line.
 *
 * A service can echo what it was sent in many encodings: raw, percent- or form-encoded (either hex
 * case, or twice), JSON-escaped (`\/`, `\u0061`), HTML entities, hex, and base64 or base64url, alone or
 * inside a larger blob such as the `id:secret` of a Basic header. All of these are recognised, also as
 * fragments of at least 12 characters (a service or a truncation may cut a token short).
 *
 * Redact or withhold: an echo in one of the encodings above is cut out exactly and replaced by
 * "[redacted]", together with the rest of the word it sits in, so the rest of the message still says
 * what went wrong (a base64 echo's edge characters mix bits of the secret with bits of its neighbours,
 * and a neighbouring piece may be the same secret in another encoding). Anything else (an echo with
 * every character escaped, mixed escapes, an encoding inside another) cannot be cut out exactly:
 * replacing what we recognise would leave the remainder readable, so such a text is withheld whole. Every `Redactor` also feeds one process-wide instance
 * that errors (src/errors.ts) and log lines (src/log.ts) pass through as a last line of defence.
 */
import { inspect } from "node:util";
import { installErrorScrubber } from "./errors.js";
import { decodedForms, fold, MIN_SECRET_CHARS, type Pattern, patternsOf } from "./redact-forms.js";

/** A run of this many characters of a secret (in any encoding above) counts as the secret. */
const FRAGMENT_CHARS = 12;

export const REDACTED = "[redacted]";
export const WITHHELD = "[withheld: the service's text repeated a credential]";

/** Where a word ends: white space, quotes, brackets and the separators of query strings and lists. */
const WORD_END = /[\s"'`<>()[\]{},;&=|]/;

interface WindowHit {
  pattern: Pattern;
  offset: number;
}

/** Registered secrets and the lookup tables of their forms. */
export class Redactor {
  readonly #capacity: number;
  readonly #feeds: Redactor | undefined;
  /** Insertion order is recency: add() moves a value to the end; the oldest is dropped past capacity. */
  readonly #secrets = new Map<string, Pattern[]>();
  /** Window size → window text → where it occurs in which pattern. */
  readonly #windows = new Map<number, Map<string, WindowHit[]>>();

  /**
   * @param capacity the most recent values kept (tokens rotate; older ones are forgotten first).
   * @param feeds another redactor that learns every value added here (the process-wide one by default).
   */
  constructor(options: { capacity?: number; feeds?: Redactor | null } = {}) {
    this.#capacity = options.capacity ?? 64;
    this.#feeds = options.feeds === null ? undefined : (options.feeds ?? processRedactor);
  }

  /** Registers credentials that were (or are about to be) sent. Values under 8 characters are ignored. */
  add(...values: readonly (string | undefined | null)[]): this {
    for (const value of values) {
      if (typeof value !== "string" || value.length < MIN_SECRET_CHARS) continue;
      const known = this.#secrets.get(value);
      if (known) {
        this.#secrets.delete(value);
        this.#secrets.set(value, known);
        continue;
      }
      const patterns = patternsOf(value);
      this.#secrets.set(value, patterns);
      this.#index(patterns, true);
      if (this.#secrets.size > this.#capacity) {
        const [oldest, stale] = this.#secrets.entries().next().value as [string, Pattern[]];
        this.#secrets.delete(oldest);
        this.#index(stale, false);
      }
    }
    this.#feeds?.add(...values);
    return this;
  }

  get size(): number {
    return this.#secrets.size;
  }

  /** Upstream text made safe to show: echoes cut out, or the whole text withheld (see the module comment). */
  text(value: string): string {
    if (this.#secrets.size === 0 || value.length < MIN_SECRET_CHARS) return value;
    const ranges = this.#find(value);
    const cut = ranges.length === 0 ? value : replaceRanges(value, ranges);
    return this.#leaks(cut) ? WITHHELD : cut;
  }

  /** JSON.parse of an upstream body, with every string (keys included) passed through `text()`. */
  json(body: string): unknown {
    const parsed: unknown = JSON.parse(body);
    return this.#secrets.size > 0 && this.#leaks(body) ? this.value(parsed) : parsed;
  }

  /** A copy of a JSON-like value (plain objects and arrays) with every string, keys included, passed through `text()`. */
  value<T>(input: T): T {
    return this.#walk(input) as T;
  }

  /** Whether a text holds any registered secret in any encoding this module knows. */
  leaks(text: string): boolean {
    return this.#secrets.size > 0 && this.#leaks(text);
  }

  #walk(input: unknown): unknown {
    if (typeof input === "string") return this.text(input);
    if (Array.isArray(input)) return input.map((item) => this.#walk(item));
    if (input === null || typeof input !== "object") return input;
    // Only JSON-like objects are copied: a Date, a URL or an Error keeps its own type (and its text is
    // not upstream text).
    const proto: unknown = Object.getPrototypeOf(input);
    if (proto !== Object.prototype && proto !== null) return input;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input)) {
      let safeKey = this.text(key);
      while (safeKey !== key && Object.hasOwn(out, safeKey)) safeKey = `${safeKey}'`;
      out[safeKey] = this.#walk(item);
    }
    return out;
  }

  /** Adds or removes the windows of some patterns in the lookup table. */
  #index(patterns: readonly Pattern[], add: boolean): void {
    for (const pattern of patterns) {
      const size = Math.min(FRAGMENT_CHARS, pattern.folded.length);
      let bySize = this.#windows.get(size);
      if (!bySize) {
        bySize = new Map();
        this.#windows.set(size, bySize);
      }
      for (let offset = 0; offset + size <= pattern.folded.length; offset += 1) {
        const key = pattern.folded.slice(offset, offset + size);
        const hits = bySize.get(key) ?? [];
        const kept = add ? [...hits, { pattern, offset }] : hits.filter((hit) => hit.pattern !== pattern);
        if (kept.length > 0) bySize.set(key, kept);
        else bySize.delete(key);
      }
      if (bySize.size === 0) this.#windows.delete(size);
    }
  }

  /** Ranges [start, end) of `text` that hold a secret or a fragment of one, in a plain or base64 form. */
  #find(text: string): [number, number][] {
    const folded = fold(text);
    const ranges: [number, number][] = [];
    for (const [size, windows] of this.#windows) {
      for (let at = 0; at + size <= folded.length; at += 1) {
        const hits = windows.get(folded.slice(at, at + size));
        if (!hits) continue;
        for (const { pattern, offset } of hits) ranges.push(extend(text, folded, at, size, pattern, offset));
      }
    }
    return merge(ranges);
  }

  #leaks(text: string): boolean {
    return decodedForms(text).some((form) => this.#find(form).length > 0);
  }
}

/**
 * Grows a window match to the whole run the text shares with the pattern, then to the whole word around
 * it: a neighbouring piece of the same secret in another encoding (`ab%63d`, a base64 edge character that
 * mixes in bits of the secret) must not stay readable beside the cut.
 */
function extend(
  text: string,
  folded: string,
  at: number,
  size: number,
  pattern: Pattern,
  offset: number,
): [number, number] {
  let start = at;
  let end = at + size;
  for (let p = offset - 1; start > 0 && p >= 0 && folded[start - 1] === pattern.folded[p]; p -= 1) start -= 1;
  for (
    let p = offset + size;
    end < text.length && p < pattern.folded.length && folded[end] === pattern.folded[p];
    p += 1
  )
    end += 1;
  while (start > 0 && !WORD_END.test(text[start - 1] ?? " ")) start -= 1;
  while (end < text.length && !WORD_END.test(text[end] ?? " ")) end += 1;
  if (pattern.kind === "base64") while (text[end] === "=") end += 1;
  return [start, end];
}

function merge(ranges: [number, number][]): [number, number][] {
  if (ranges.length < 2) return ranges;
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [ranges[0] as [number, number]];
  for (const [start, end] of ranges.slice(1)) {
    const last = out[out.length - 1] as [number, number];
    if (start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

function replaceRanges(text: string, ranges: readonly [number, number][]): string {
  let out = "";
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Every credential any redactor of this process has seen (the most recent 128): errors and log lines
 * pass through it, so a path that forgot its own redactor still cannot show a known secret.
 */
export const processRedactor: Redactor = new Redactor({ capacity: 128, feeds: null });

// Every error of the process is scrubbed by it (errors.ts holds no import of this module, see there).
installErrorScrubber({
  text: (text) => processRedactor.text(text),
  value: (value) => processRedactor.value(value),
  cause: (cause) =>
    processRedactor.size > 0 && processRedactor.leaks(inspect(cause, { depth: 6 }))
      ? new Error("[cause withheld: it held a credential]")
      : cause,
});
