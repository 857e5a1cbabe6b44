/**
 * Wrong API keys at the console's login, counted per client address in a fixed window: past the limit,
 * every login from that address is refused (429, Retry-After) until the window ends, a right key included,
 * so guessing gains nothing from the answers. Without it, 300 wrong keys took 0.24 s (issue 16, item 7).
 * A fixed window is enough here: the keys are 24+ random characters, and the limit only has to make
 * guessing hopeless, not shape traffic. Behind a proxy every client shares its address: the limit then
 * holds for all of them together, which errs on the safe side.
 */
import { RateLimitError } from "../errors.js";

/** Wrong keys an address may send per window. */
export const LOGIN_FAILURES_PER_WINDOW = 10;
export const LOGIN_WINDOW_MS = 60_000;
/** Addresses tracked at once (memory); the oldest window is dropped first. */
const MAX_ADDRESSES = 10_000;

interface Window {
  start: number;
  failures: number;
}

export class LoginAttempts {
  readonly #windows = new Map<string, Window>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Throws RateLimitError (429 with Retry-After) while an address is over its limit. */
  check(address: string): void {
    const window = this.#current(address);
    if (!window || window.failures < LOGIN_FAILURES_PER_WINDOW) return;
    const retryAfterMs = window.start + LOGIN_WINDOW_MS - this.#now();
    throw new RateLimitError(
      `Too many wrong API keys from this address: log in again in ${Math.ceil(retryAfterMs / 1000)} s.`,
      retryAfterMs,
    );
  }

  /** Counts a wrong key. */
  failed(address: string): void {
    const window = this.#current(address) ?? { start: this.#now(), failures: 0 };
    window.failures += 1;
    this.#windows.delete(address);
    this.#windows.set(address, window);
    if (this.#windows.size > MAX_ADDRESSES) this.#windows.delete(this.#windows.keys().next().value as string);
  }

  #current(address: string): Window | undefined {
    const window = this.#windows.get(address);
    if (window && this.#now() - window.start >= LOGIN_WINDOW_MS) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }
}
