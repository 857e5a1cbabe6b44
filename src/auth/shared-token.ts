import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { sharedKey } from "../state/keys.js";
import type { SharedState } from "../state/types.js";
import type { FetchedToken } from "./token-manager.js";

export interface SharedTokenOptions {
  state: SharedState;
  /** The namespace of the shared entry, e.g. `marketo:<instance host>`; the client id is hashed into it. */
  scope: string;
  clientId: string;
  /** Seals the shared token: a process (or a Redis reader) without the client secret cannot use it. */
  clientSecret: string;
  /** Asks the service for a token (only the process holding the lock does). */
  fetchToken: () => Promise<FetchedToken>;
  /** How long the lock may be held: the token request's timeout, plus a little. */
  lockMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** How often a process waiting for another one's token request looks for its answer. */
const POLL_MS = 25;
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface Entry {
  token: string;
  expiresAt: number;
}

/**
 * One access token per client for every process on the shared state (Redis when replicas run): the
 * first process that needs one takes a short lock and asks the service, the others wait for its answer
 * in the shared state, so a thousand cold calls across replicas make one token request. The token is
 * stored sealed (AES-256-GCM, a key derived from the client secret), never in clear.
 */
export class SharedToken {
  readonly #o: SharedTokenOptions;
  readonly #key: Buffer;
  readonly #tokenKey: string;
  readonly #lockKey: string;
  readonly #now: () => number;
  /** The sealed value each token was read or written as, to delete exactly that one when refused. */
  readonly #sealed = new Map<string, string>();
  /** Tokens the service refused (601/602): never taken from the shared state again. */
  readonly #refused = new Set<string>();

  constructor(options: SharedTokenOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const id = createHash("sha256").update(`${options.scope}\n${options.clientId}`).digest("base64url");
    this.#tokenKey = sharedKey(options.scope, "token", id.slice(0, 32));
    this.#lockKey = `${this.#tokenKey}:lock`;
    this.#key = Buffer.from(
      hkdfSync("sha256", options.clientSecret, id, "martech-steps shared access token", 32),
    );
  }

  /** The names of the shared entry and of its lock (hashes, no secret in them). */
  get keys(): { token: string; lock: string } {
    return { token: this.#tokenKey, lock: this.#lockKey };
  }

  /** A token: the shared one while it lives, else one fetched now by exactly one process. */
  async fetch(): Promise<FetchedToken> {
    const sleep = this.#o.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const random = this.#o.random ?? Math.random;
    for (;;) {
      const shared = await this.#read();
      if (shared) return shared;
      const holder = randomUUID();
      if (await this.#o.state.valueSet(this.#lockKey, holder, this.#o.lockMs, true)) {
        try {
          return (await this.#read()) ?? (await this.#fetchAndShare());
        } finally {
          await this.#o.state.valueDeleteIf(this.#lockKey, holder).catch(() => undefined);
        }
      }
      // Another process is asking: its answer appears in the shared state, or its lock lapses.
      await sleep(POLL_MS + Math.floor(random() * POLL_MS));
    }
  }

  /** The service refused `token`: it is dropped from the shared state (if still there) and never reused. */
  forget(token: string): void {
    this.#refused.add(token);
    if (this.#refused.size > 16) this.#refused.delete(this.#refused.values().next().value as string);
    const sealed = this.#sealed.get(token);
    if (sealed) this.#o.state.valueDeleteIf(this.#tokenKey, sealed).catch(() => undefined);
  }

  async #fetchAndShare(): Promise<FetchedToken> {
    const fetched = await this.#o.fetchToken();
    const ttlMs = Math.floor(fetched.expiresIn * 1000);
    if (ttlMs > 0) {
      const sealed = this.#seal({ token: fetched.accessToken, expiresAt: this.#now() + ttlMs });
      this.#remember(fetched.accessToken, sealed);
      // Sharing is an optimisation: this process has its token even if the write fails.
      await this.#o.state.valueSet(this.#tokenKey, sealed, ttlMs).catch(() => undefined);
    }
    return fetched;
  }

  async #read(): Promise<FetchedToken | undefined> {
    const sealed = await this.#o.state.valueGet(this.#tokenKey);
    if (sealed === undefined) return undefined;
    const entry = this.#open(sealed);
    const left = entry ? entry.expiresAt - this.#now() : 0;
    if (!entry || left <= 0 || this.#refused.has(entry.token)) return undefined;
    this.#remember(entry.token, sealed);
    return { accessToken: entry.token, expiresIn: left / 1000 };
  }

  #remember(token: string, sealed: string): void {
    if (this.#sealed.size > 16) this.#sealed.clear();
    this.#sealed.set(token, sealed);
  }

  #seal(entry: Entry): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(entry), "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
  }

  /** Undefined for anything that does not open with this client's key (another secret, a damaged value). */
  #open(sealed: string): Entry | undefined {
    try {
      const bytes = Buffer.from(sealed, "base64");
      const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      const entry = JSON.parse(text.toString("utf8")) as Partial<Entry>;
      return typeof entry.token === "string" && typeof entry.expiresAt === "number"
        ? { token: entry.token, expiresAt: entry.expiresAt }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
