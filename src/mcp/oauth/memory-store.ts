/**
 * The embedded authorization server's storage: in this process's memory, one store per server (oidc-provider's
 * own quick-start adapter keeps one store for the whole process and warns on every start). Registered clients,
 * grants, codes and refresh tokens end with the process: after a restart every client registers and signs in
 * again (README, "Remote sign-in"). The adapter contract: https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#adapter
 */
import type { Adapter, AdapterPayload } from "oidc-provider";

/** Entries one kind of model may hold; the oldest goes first when a new one needs room (memory). */
const MAX_ENTRIES = 10_000;

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

export class MemoryStore {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** oidc-provider's `adapter` option: one adapter per model name, over this store. */
  adapter(): (name: string) => Adapter {
    return (name) => new ModelStore(name, this);
  }

  get(key: string): AdapterPayload | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(key: string, payload: AdapterPayload, expiresIn: number | undefined): void {
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    const expiresAt = expiresIn ? this.#now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
    this.#entries.set(key, { payload, expiresAt });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Every entry whose payload matches (a grant's tokens, an interaction by its uid). */
  keysWhere(test: (key: string, payload: AdapterPayload) => boolean): string[] {
    return [...this.#entries].filter(([key, { payload }]) => test(key, payload)).map(([key]) => key);
  }
}

class ModelStore implements Adapter {
  readonly #name: string;
  readonly #store: MemoryStore;

  constructor(name: string, store: MemoryStore) {
    this.#name = name;
    this.#store = store;
  }

  #key(id: string): string {
    return `${this.#name}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    this.#store.set(this.#key(id), payload, expiresIn);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.#store.get(this.#key(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const [key] = this.#store.keysWhere((k, p) => k.startsWith(`${this.#name}:`) && p.uid === uid);
    return key ? this.#store.get(key) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const [key] = this.#store.keysWhere((k, p) => k.startsWith(`${this.#name}:`) && p.userCode === userCode);
    return key ? this.#store.get(key) : undefined;
  }

  async consume(id: string): Promise<void> {
    const payload = this.#store.get(this.#key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.#store.delete(this.#key(id));
  }

  /** A revoked grant takes every token issued under it (oidc-provider calls this on each model). */
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const key of this.#store.keysWhere(
      (k, p) => k.startsWith(`${this.#name}:`) && p.grantId === grantId,
    ))
      this.#store.delete(key);
  }
}
