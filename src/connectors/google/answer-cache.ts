import { raceAbort } from "../../deadline.js";
import { cancelled } from "./retry.js";

interface Entry<T> {
  expiresAt: number;
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
    const entry = { expiresAt: Number.POSITIVE_INFINITY, value };
    if (this.#entries.size >= this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, entry);
    value.then(
      () => {
        entry.expiresAt = this.#now() + this.#ttlMs;
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return abortable(value, signal);
  }
}

/** Waits for a shared promise, giving up (CancelledError, or DeadlineExceededError) when this caller's signal aborts. */
function abortable<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? raceAbort(shared, signal, () => cancelled(signal)) : shared;
}
