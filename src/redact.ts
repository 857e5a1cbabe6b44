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
 * replacing what we recognise would leave the remainder readable, so such a text is withheld whole.
 * Every `Redactor` also feeds one process-wide instance that errors (src/errors.ts) and log lines
 * (src/log.ts) pass through as a last line of defence.
 *
 * Cost: linear in the text (src/redact-scan.ts), as it runs synchronously on every answer, inside the
 * call's deadline and beside every other request of a server.
 */
import { inspect } from "node:util";
import { installErrorScrubber } from "./errors.js";
import { decodedForms, MIN_SECRET_CHARS, type Pattern, patternsOf, secretParts } from "./redact-forms.js";
import { growToWords, WindowIndex } from "./redact-scan.js";

export const REDACTED = "[redacted]";
export const WITHHELD = "[withheld: the service's text repeated a credential]";

/** Registered secrets and the lookup tables of their forms. */
export class Redactor {
  readonly #capacity: number;
  readonly #feeds: Redactor | undefined;
  /** Insertion order is recency: add() moves a value to the end; the oldest is dropped past capacity. */
  readonly #secrets = new Map<string, Pattern[]>();
  readonly #windows = new WindowIndex();

  /**
   * @param capacity the most recent values kept (tokens rotate; older ones are forgotten first).
   * @param feeds another redactor that learns every value added here (the process-wide one by default).
   */
  constructor(options: { capacity?: number; feeds?: Redactor | null } = {}) {
    this.#capacity = options.capacity ?? 64;
    this.#feeds = options.feeds === null ? undefined : (options.feeds ?? processRedactor);
  }

  /**
   * Registers credentials that were (or are about to be) sent. Values under 8 characters are ignored, and
   * so are the public words a value may carry (a PEM key's BEGIN and END lines: secretParts).
   */
  add(...values: readonly (string | undefined | null)[]): this {
    for (const value of values.flatMap((v) => (typeof v === "string" ? secretParts(v) : []))) {
      if (value.length < MIN_SECRET_CHARS) continue;
      const known = this.#secrets.get(value);
      if (known) {
        this.#secrets.delete(value);
        this.#secrets.set(value, known);
        continue;
      }
      const patterns = patternsOf(value);
      this.#secrets.set(value, patterns);
      this.#windows.add(patterns);
      if (this.#secrets.size > this.#capacity) {
        const [oldest, stale] = this.#secrets.entries().next().value as [string, Pattern[]];
        this.#secrets.delete(oldest);
        this.#windows.remove(stale);
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
    if (this.#secrets.size === 0 || value.length < this.#windows.minSize) return value;
    const ranges = this.#windows.scan(value);
    if (ranges.length === 0) return this.#leaksDecoded(value) ? WITHHELD : value;
    const cut = replaceRanges(value, growToWords(value, ranges));
    return this.#leaks(cut) ? WITHHELD : cut;
  }

  /**
   * JSON.parse of an upstream body, with every string (keys included) passed through `text()`. The
   * parsed strings are checked, not the body: what is shown is the parsed value, JSON.parse has already
   * decoded the body's own escapes, and most strings are too short to hold a secret or have no escape
   * to decode. A clean body comes back as parsed, uncopied.
   */
  json(body: string): unknown {
    const parsed: unknown = JSON.parse(body);
    return this.#secrets.size > 0 && this.#holds(parsed) ? this.value(parsed) : parsed;
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
      // Defined, not assigned: an upstream "__proto__" key must stay a key, not become the copy's prototype.
      Object.defineProperty(out, safeKey, {
        value: this.#walk(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** Whether any string (or key) of a parsed JSON value leaks; iterative, as JSON.parse takes any depth. */
  #holds(root: unknown): boolean {
    const stack: unknown[] = [root];
    // The rows of a report repeat the same few keys: each is checked once.
    const cleanKeys = new Set<string>();
    while (stack.length > 0) {
      const item = stack.pop();
      if (typeof item === "string") {
        if (this.#leaks(item)) return true;
      } else if (Array.isArray(item)) {
        for (const element of item) stack.push(element);
      } else if (item !== null && typeof item === "object") {
        for (const key in item) {
          if (!Object.hasOwn(item, key)) continue;
          if (!cleanKeys.has(key)) {
            if (this.#leaks(key)) return true;
            cleanKeys.add(key);
          }
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    }
    return false;
  }

  #leaks(text: string): boolean {
    if (text.length < this.#windows.minSize) return false;
    return this.#windows.has(text) || this.#leaksDecoded(text);
  }

  /** Whether a decoded form of `text` (not `text` itself) holds a secret. */
  #leaksDecoded(text: string): boolean {
    const forms = decodedForms(text);
    for (let i = 1; i < forms.length; i += 1) if (this.#windows.has(forms[i] as string)) return true;
    return false;
  }
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
