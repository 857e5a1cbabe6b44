import { raceAbort } from "../../deadline.js";
import { cancelled } from "./retry.js";

interface Entry<T> {
  expiresAt: number;
  /** When the answer arrived; undefined while it is being fetched. */
  settledAt?: number;
  value: Promise<T>;
}

/**
 * Answers that change rarely (a property's metadata, its time zone, which fields combine), kept for a
 * while: one fetch at a time per key, shared by every caller (it carries no caller's signal, so one
 * caller cancelling never fails the others), a failure never kept, and at most `maxEntries` (the
 * oldest goes first).
 */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { ttlMs: number; maxEntries: number; now: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#now = options.now;
  }

  get(key: string, fetch: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const cached = this.#entries.get(key);
    if (cached && cached.expiresAt > this.#now()) return abortable(cached.value, signal);
    if (cached) this.#entries.delete(key);
    const value = fetch();
    const entry: Entry<T> = { expiresAt: Number.POSITIVE_INFINITY, value };
    if (this.#entries.size >= this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, entry);
    value.then(
      () => {
        entry.settledAt = this.#now();
        entry.expiresAt = entry.settledAt + this.#ttlMs;
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return abortable(value, signal);
  }

  /** How long ago the kept answer for `key` arrived ("fetching" while it is on its way; undefined: none kept). */
  age(key: string): number | "fetching" | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.expiresAt <= this.#now()) return undefined;
    return entry.settledAt === undefined ? "fetching" : this.#now() - entry.settledAt;
  }

  /** Drops the answers whose key matches: what they said has changed. */
  forget(match: (key: string) => boolean): void {
    for (const key of [...this.#entries.keys()]) if (match(key)) this.#entries.delete(key);
  }
}

/**
 * A kept answer the caller has reason to doubt (it lacks a name the caller was given) fetched again, at
 * most once per `minAgeMs`: undefined when the kept answer is younger than that (nothing new to learn so
 * soon), the answer being fetched when one is, else a new fetch's.
 */
export function fetchAgain<T>(
  cache: AnswerCache<T>,
  key: string,
  fetch: () => Promise<T>,
  signal: AbortSignal | undefined,
  minAgeMs: number,
): Promise<T | undefined> {
  const age = cache.age(key);
  if (age === "fetching") return cache.get(key, fetch, signal);
  if (age !== undefined && age < minAgeMs) return Promise.resolve(undefined);
  cache.forget((k) => k === key);
  return cache.get(key, fetch, signal);
}

/** Waits for a shared promise, giving up (CancelledError, or DeadlineExceededError) when this caller's signal aborts. */
function abortable<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? raceAbort(shared, signal, () => cancelled(signal)) : shared;
}
