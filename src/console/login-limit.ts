/**
 * Wrong API keys at the console's login, counted per client (an address; an IPv6 /64) in a fixed window: past the limit,
 * every login from that address is refused (429, Retry-After) until the window ends, a right key included,
 * so guessing gains nothing from the answers. Without it, 300 wrong keys took 0.24 s (issue 16, item 7).
 * A fixed window is enough here: the keys are 24+ random characters, and the limit only has to make
 * guessing hopeless, not shape traffic. Behind a proxy every client shares its address: the limit then
 * holds for all of them together, which errs on the safe side.
 */
import { clientKey } from "../auth/client-address.js";
import { RateLimitError } from "../errors.js";

/** Wrong keys an address may send per window. */
export const LOGIN_FAILURES_PER_WINDOW = 10;
export const LOGIN_WINDOW_MS = 60_000;
/** Clients tracked at once (memory); past it, new clients share one window (see OVERFLOW). */
const MAX_ADDRESSES = 10_000;

/** Whom an address's failures count against (an IPv6 client's whole /64): src/auth/client-address.ts. */
export const loginClient = clientKey;

interface Window {
  start: number;
  failures: number;
}

/**
 * Past this many clients in their window, new ones share one window. Evicting the oldest instead would
 * let a client with more addresses than that (an IPv6 /48 holds 65,536 /64s) cycle through them and
 * find its own window gone each time round: no limit at all.
 */
const OVERFLOW = "(every other client)";

export class LoginAttempts {
  readonly #windows = new Map<string, Window>();
  readonly #now: () => number;
  readonly #maxClients: number;

  constructor(now: () => number = Date.now, options: { maxClients?: number } = {}) {
    this.#now = now;
    this.#maxClients = options.maxClients ?? MAX_ADDRESSES;
  }

  /** Throws RateLimitError (429 with Retry-After) while an address is over its limit. */
  check(address: string): void {
    const window = this.#current(this.#slot(loginClient(address)));
    if (!window || window.failures < LOGIN_FAILURES_PER_WINDOW) return;
    const retryAfterMs = window.start + LOGIN_WINDOW_MS - this.#now();
    throw new RateLimitError(
      `Too many wrong API keys from this address: log in again in ${Math.ceil(retryAfterMs / 1000)} s.`,
      retryAfterMs,
    );
  }

  /** Counts a wrong key. */
  failed(address: string): void {
    const slot = this.#slot(loginClient(address));
    const window = this.#current(slot) ?? { start: this.#now(), failures: 0 };
    window.failures += 1;
    this.#windows.set(slot, window);
  }

  /** The window a client counts in: its own, or the shared one while the table is full. */
  #slot(client: string): string {
    if (this.#windows.has(client) || this.#windows.size < this.#maxClients) return client;
    // Windows are kept in the order they started (a new one is a new entry): the ended ones lead.
    for (const key of this.#windows.keys()) if (this.#current(key)) break;
    return this.#windows.size < this.#maxClients ? client : OVERFLOW;
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
