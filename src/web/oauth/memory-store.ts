/**
 * The embedded authorization server's storage: in this process's memory, one store per server (oidc-provider's
 * own quick-start adapter keeps one store for the whole process and warns on every start). Registered clients,
 * grants, codes and refresh tokens end with the process: after a restart every client registers and signs in
 * again (docs/remote-sign-in.md). The adapter contract: https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#adapter
 *
 * Bounded by kind (docs/security.md): each kind of model has its own cap and its own size limit per
 * entry (store-limits.ts), so no kind's traffic can push another kind's entries out. What anyone may create
 * without a credential (a registration, a sign-in request) never evicts a grant or a refresh token: a full
 * table first drops its own expired entries, then (registrations only) the oldest registration no person
 * ever approved, and otherwise refuses the new entry (StoreFull: 503 with Retry-After), keeping what it has.
 * Refresh tokens and codes are also capped per grant: a grant's own rotations drop its own oldest used ones.
 */
import type { Adapter, AdapterPayload } from "oidc-provider";
import { type KindLimits, limitsOf, PER_GRANT_TOKENS, type StoreLimits } from "./store-limits.js";

/** A new entry the store will not hold: its kind's table is full of live entries, or the entry is over its size. */
export class StoreRefusal extends Error {
  constructor(
    readonly kind: string,
    readonly reason: "full" | "too_large",
    /** When the table will have room (the oldest entry expires), for Retry-After; undefined: not by itself. */
    readonly retryAfterMs?: number,
  ) {
    super(
      reason === "full"
        ? `The authorization server holds as many ${kind} entries as it may; try again later.`
        : `This ${kind} is larger than the authorization server keeps.`,
    );
  }
}

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** Kinds whose entries belong to a grant (revoked with it, capped per grant). */
const GRANT_TOKENS = new Set(["RefreshToken", "AuthorizationCode", "AccessToken"]);

/** One kind's table: entries in the order they were first stored, with the secondary indexes it needs. */
class Table {
  readonly entries = new Map<string, Entry>();
  readonly byUid = new Map<string, string>();
  /** grantId → ids of this kind's entries of that grant (grant tokens only), in the order stored. */
  readonly byGrant = new Map<string, Set<string>>();
  constructor(readonly limits: KindLimits) {}
}

export class MemoryStore {
  readonly #tables = new Map<string, Table>();
  readonly #limits: StoreLimits;
  readonly #now: () => number;
  /** clientId → its live grants: a registration with one is established and never evicted. */
  readonly #grantsOfClient = new Map<string, number>();

  constructor(now: () => number = Date.now, limits: StoreLimits = {}) {
    this.#now = now;
    this.#limits = limits;
  }

  /** oidc-provider's `adapter` option: one adapter per model name, over this store. */
  adapter(toProviderError: (refusal: StoreRefusal) => Error): (name: string) => Adapter {
    return (name) => new ModelStore(name, this, toProviderError);
  }

  #table(kind: string): Table {
    let table = this.#tables.get(kind);
    if (!table) {
      table = new Table(limitsOf(kind, this.#limits));
      this.#tables.set(kind, table);
    }
    return table;
  }

  get(kind: string, id: string): AdapterPayload | undefined {
    const table = this.#table(kind);
    const entry = table.entries.get(id);
    if (!entry) return undefined;
    if (this.#now() >= entry.expiresAt) {
      this.delete(kind, id);
      return undefined;
    }
    return entry.payload;
  }

  /** Whether a live entry is held (the /mcp check of a token's grant: one map lookup). */
  has(kind: string, id: string): boolean {
    return this.get(kind, id) !== undefined;
  }

  /** Live entries of a kind (tests and the measured bound). */
  size(kind: string): number {
    return this.#table(kind).entries.size;
  }

  /** Stores an entry; throws StoreRefusal when its kind has no room or it is over its size. */
  set(kind: string, id: string, payload: AdapterPayload, expiresIn: number | undefined): void {
    const table = this.#table(kind);
    if (Buffer.byteLength(JSON.stringify(payload)) > table.limits.maxBytes)
      throw new StoreRefusal(kind, "too_large");
    const previous = table.entries.get(id);
    if (previous) this.#unindex(kind, table, id, previous.payload);
    else this.#makeRoom(kind, table, payload);
    const life = Math.min(
      expiresIn || Number.POSITIVE_INFINITY,
      table.limits.maxLifeSeconds ?? Number.POSITIVE_INFINITY,
    );
    const expiresAt = this.#now() + life * 1000;
    // A replaced entry keeps its place: the order is that of first storage (the oldest leads).
    table.entries.set(id, { payload, expiresAt });
    this.#index(kind, table, id, payload);
  }

  delete(kind: string, id: string): void {
    const table = this.#table(kind);
    const entry = table.entries.get(id);
    if (!entry) return;
    table.entries.delete(id);
    this.#unindex(kind, table, id, entry.payload);
  }

  findByUid(kind: string, uid: string): AdapterPayload | undefined {
    const id = this.#table(kind).byUid.get(uid);
    return id === undefined ? undefined : this.get(kind, id);
  }

  findWhere(kind: string, test: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    for (const [id, entry] of this.#table(kind).entries) if (test(entry.payload)) return this.get(kind, id);
    return undefined;
  }

  /** Every entry of a kind issued under a grant (the grant's revocation takes them all). */
  revokeByGrantId(kind: string, grantId: string): void {
    const table = this.#table(kind);
    const ids = GRANT_TOKENS.has(kind)
      ? [...(table.byGrant.get(grantId) ?? [])]
      : [...table.entries].filter(([, entry]) => entry.payload.grantId === grantId).map(([id]) => id);
    for (const id of ids) this.delete(kind, id);
  }

  /** Room for one new entry of `kind`, or StoreRefusal: never at another kind's expense. */
  #makeRoom(kind: string, table: Table, payload: AdapterPayload): void {
    if (GRANT_TOKENS.has(kind) && typeof payload.grantId === "string")
      this.#roomInGrant(kind, table, payload.grantId);
    if (table.entries.size < table.limits.max) return;
    const soonest = this.#dropExpired(kind, table);
    if (table.entries.size < table.limits.max) return;
    // A registration no person approved (no live grant) may give way to a new one: it holds nothing, and its
    // client registers again if it ever comes back. An established one never does.
    if (kind === "Client") {
      for (const [id] of table.entries) {
        if (!this.#grantsOfClient.get(id)) {
          this.delete(kind, id);
          return;
        }
      }
    }
    throw new StoreRefusal(kind, "full", Number.isFinite(soonest) ? soonest - this.#now() : undefined);
  }

  /** A grant's own tokens past PER_GRANT_TOKENS: its oldest used one (else its oldest) goes. */
  #roomInGrant(kind: string, table: Table, grantId: string): void {
    const ids = table.byGrant.get(grantId);
    const limit = this.#limits.perGrant ?? PER_GRANT_TOKENS;
    if (!ids || ids.size < limit) return;
    const used = [...ids].find((id) => table.entries.get(id)?.payload.consumed !== undefined);
    this.delete(kind, used ?? (ids.values().next().value as string));
  }

  /**
   * Drops a kind's expired entries (one pass over at most its cap, only when it is full) and answers when
   * the first live one expires.
   */
  #dropExpired(kind: string, table: Table): number {
    const now = this.#now();
    let soonest = Number.POSITIVE_INFINITY;
    for (const [id, entry] of table.entries) {
      if (now >= entry.expiresAt) this.delete(kind, id);
      else soonest = Math.min(soonest, entry.expiresAt);
    }
    return soonest;
  }

  #index(kind: string, table: Table, id: string, payload: AdapterPayload): void {
    if (typeof payload.uid === "string") table.byUid.set(payload.uid, id);
    if (GRANT_TOKENS.has(kind) && typeof payload.grantId === "string") {
      const ids = table.byGrant.get(payload.grantId) ?? new Set<string>();
      ids.add(id);
      table.byGrant.set(payload.grantId, ids);
    }
    if (kind === "Grant" && typeof payload.clientId === "string")
      this.#grantsOfClient.set(payload.clientId, (this.#grantsOfClient.get(payload.clientId) ?? 0) + 1);
  }

  #unindex(kind: string, table: Table, id: string, payload: AdapterPayload): void {
    if (typeof payload.uid === "string" && table.byUid.get(payload.uid) === id)
      table.byUid.delete(payload.uid);
    if (typeof payload.grantId === "string") {
      const ids = table.byGrant.get(payload.grantId);
      ids?.delete(id);
      if (ids?.size === 0) table.byGrant.delete(payload.grantId);
    }
    if (kind === "Grant" && typeof payload.clientId === "string") {
      const left = (this.#grantsOfClient.get(payload.clientId) ?? 1) - 1;
      if (left > 0) this.#grantsOfClient.set(payload.clientId, left);
      else this.#grantsOfClient.delete(payload.clientId);
    }
  }
}

class ModelStore implements Adapter {
  constructor(
    readonly name: string,
    readonly store: MemoryStore,
    readonly toProviderError: (refusal: StoreRefusal) => Error,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    try {
      this.store.set(this.name, id, payload, expiresIn);
    } catch (error) {
      throw error instanceof StoreRefusal ? this.toProviderError(error) : error;
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.store.get(this.name, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.store.findByUid(this.name, uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.store.findWhere(this.name, (payload) => payload.userCode === userCode);
  }

  async consume(id: string): Promise<void> {
    const payload = this.store.get(this.name, id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.name, id);
  }

  /** A revoked grant takes every token issued under it (oidc-provider calls this on each model). */
  async revokeByGrantId(grantId: string): Promise<void> {
    this.store.revokeByGrantId(this.name, grantId);
  }
}
