/**
 * Requests of the embedded authorization server that anyone may send and that make it keep something
 * (a registration, a sign-in request, a metadata document fetched), limited per client address (an IPv6
 * /64: src/auth/client-address.ts) with a token bucket: `burst` at once, then one more every `everyMs`.
 * Over it, the answer is 429 with Retry-After and nothing is kept. Behind a proxy every client shares its
 * address, so the limit holds for all of them together (docs/security.md), which errs on the safe
 * side; the store's caps (memory-store.ts) hold whatever the addresses.
 */
import { clientKey } from "../../auth/client-address.js";

export interface BucketRule {
  /** Requests an address may send at once. */
  burst: number;
  /** Then one more per this many milliseconds. */
  everyMs: number;
}

/** Registrations (RFC 7591): an MCP client registers once per server, and again only when it lost its id. */
export const REGISTRATION_RULE: BucketRule = { burst: 10, everyMs: 60_000 };
/** Sign-in requests (the authorization and pushed authorization endpoints): a person's sign-in is one or two. */
export const SIGN_IN_RULE: BucketRule = { burst: 30, everyMs: 2_000 };
/**
 * Token requests (code redemptions, refreshes): a client makes one every 15 minutes (the access token's
 * life). Each with a client assertion or a DPoP proof keeps a replay guard's entry for up to 330 s
 * (store-limits.ts), so one address keeps at most about 30 + 330 / 2 of them at once.
 */
export const TOKEN_RULE: BucketRule = { burst: 30, everyMs: 2_000 };
/** Client ID Metadata Documents fetched for requests from one address (each a request to another host). */
export const FETCH_RULE: BucketRule = { burst: 10, everyMs: 6_000 };

/** Addresses tracked at once; past it, new ones share one bucket (see OVERFLOW). */
const MAX_CLIENTS = 10_000;
/**
 * Past MAX_CLIENTS addresses with a bucket still short of full, new addresses share one: evicting a
 * bucket in use would let a client with more addresses than that (an IPv6 /48 holds 65,536 /64s)
 * cycle through them and find a full bucket each time round.
 */
const OVERFLOW = "(every other client)";

interface Bucket {
  tokens: number;
  at: number;
}

export class ClientBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #rule: BucketRule;
  readonly #now: () => number;
  readonly #maxClients: number;

  constructor(rule: BucketRule, now: () => number = Date.now, maxClients = MAX_CLIENTS) {
    this.#rule = rule;
    this.#now = now;
    this.#maxClients = maxClients;
  }

  /** Takes one request for `address`: 0 when admitted, else the milliseconds until one is. */
  take(address: string): number {
    const key = this.#slot(clientKey(address));
    const bucket = this.#refilled(key);
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) * this.#rule.everyMs);
    bucket.tokens -= 1;
    // Kept in the order last used: the least recently used (the likeliest to be full again) lead.
    this.#buckets.delete(key);
    this.#buckets.set(key, bucket);
    return 0;
  }

  #refilled(key: string): Bucket {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#rule.burst, at: now };
    bucket.tokens = Math.min(this.#rule.burst, bucket.tokens + (now - bucket.at) / this.#rule.everyMs);
    bucket.at = now;
    return bucket;
  }

  /** The bucket an address counts in: its own, or the shared one while the table is full of buckets in use. */
  #slot(key: string): string {
    if (this.#buckets.has(key) || this.#buckets.size < this.#maxClients) return key;
    // A bucket refilled to its burst is the same as a new one: it may go.
    for (const [other] of this.#buckets) {
      if (this.#buckets.size < this.#maxClients) break;
      if (this.#refilled(other).tokens >= this.#rule.burst) this.#buckets.delete(other);
    }
    return this.#buckets.size < this.#maxClients ? key : OVERFLOW;
  }
}
