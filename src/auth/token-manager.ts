/**
 * Access-token cache for one credential, shaped after google-auth-library-nodejs:
 * - one in-flight token request shared by every concurrent caller (never one request per call);
 * - the shared promise is cleared on success and on failure, so a failure is never cached;
 * - refresh ahead of expiry: inside the refresh window the current token is still served while one
 *   background refresh runs;
 * - `invalidate(token)` drops a token the service rejected (Marketo 601/602, Google 401), but only
 *   if it is still the current one, so a late 601 cannot throw away a fresh token.
 */

export interface FetchedToken {
  accessToken: string;
  /** Lifetime in seconds as the service reported it. */
  expiresIn: number;
}

export interface TokenManagerOptions {
  fetchToken: () => Promise<FetchedToken>;
  /** Start refreshing this long before expiry. Default 60 s. */
  refreshAheadMs?: number;
  now?: () => number;
  /** Told when a token is invalidated (a token shared with other processes is dropped there too). */
  onInvalidate?: (token: string) => void;
}

interface CachedToken {
  value: string;
  expiresAt: number;
  /** When a background refresh should start. */
  refreshAt: number;
}

export class TokenManager {
  readonly #fetchToken: () => Promise<FetchedToken>;
  readonly #refreshAheadMs: number;
  readonly #now: () => number;
  readonly #onInvalidate: ((token: string) => void) | undefined;
  #current: CachedToken | undefined;
  #inflight: Promise<string> | undefined;
  #requests = 0;

  constructor(options: TokenManagerOptions) {
    this.#fetchToken = options.fetchToken;
    this.#refreshAheadMs = options.refreshAheadMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#onInvalidate = options.onInvalidate;
  }

  /** How many token requests this manager has sent (for tests and benchmarks). */
  get requestCount(): number {
    return this.#requests;
  }

  async getToken(): Promise<string> {
    const now = this.#now();
    const current = this.#current;
    if (current && now < current.expiresAt) {
      if (now >= current.refreshAt && !this.#inflight) {
        // Background refresh: its failure is ignored here; the next caller after expiry retries.
        this.#refresh().catch(() => undefined);
      }
      return current.value;
    }
    return this.#inflight ?? this.#refresh();
  }

  /** Forget `token` if it is the current one, so the next getToken() fetches a new one. */
  invalidate(token?: string): void {
    if (token === undefined || this.#current?.value === token) this.#current = undefined;
    if (token !== undefined) this.#onInvalidate?.(token);
  }

  #refresh(): Promise<string> {
    const previous = this.#current?.value;
    this.#requests += 1;
    const promise = this.#fetchToken()
      .then((fetched) => {
        const now = this.#now();
        const expiresAt = now + Math.max(0, fetched.expiresIn) * 1000;
        // Marketo answers a re-request with the SAME token and its remaining lifetime
        // (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/authentication).
        // Asking again inside the refresh window would only spin, so for a token we already had
        // we wait for its expiry instead of refreshing ahead.
        const ahead = fetched.accessToken === previous ? 0 : this.#refreshAheadMs;
        const refreshAt = Math.max(now, expiresAt - Math.min(ahead, (expiresAt - now) / 2));
        this.#current = { value: fetched.accessToken, expiresAt, refreshAt };
        return fetched.accessToken;
      })
      .finally(() => {
        if (this.#inflight === promise) this.#inflight = undefined;
      });
    this.#inflight = promise;
    return promise;
  }
}
