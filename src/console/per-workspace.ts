/**
 * Entries the console keeps in memory for a while (sessions, Google connects waiting for their
 * redirect), bounded per workspace. One workspace's key holder must never push another
 * workspace's people out, so a workspace at its own limit makes room from its own least recently
 * used entry, and the bound over all workspaces (memory) refuses a new entry instead of evicting
 * anyone else's.
 */
import { RateLimitError } from "../errors.js";

export interface Expiring {
  expiresAt: number;
}

export interface PerWorkspaceLimits {
  /** Entries one workspace may hold; at this limit its least recently used one goes. */
  perWorkspace: number;
  /** Entries all workspaces together may hold; at this limit a new one is refused. */
  total: number;
  /** What the entries are, for the refusal ("open console sessions"). */
  what: string;
  /** What to do when refused. */
  hint: string;
}

export class PerWorkspace<T extends Expiring> {
  /** Entries by id, with the workspace that holds them. */
  readonly #entries = new Map<string, { workspace: string; entry: T }>();
  /** Each workspace's entry ids, least recently used first. */
  readonly #byWorkspace = new Map<string, Set<string>>();
  readonly #limits: PerWorkspaceLimits;
  readonly #now: () => number;

  constructor(limits: PerWorkspaceLimits, now: () => number) {
    this.#limits = limits;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** How many entries a workspace holds (expired ones included until they are swept). */
  countOf(workspace: string): number {
    return this.#byWorkspace.get(workspace)?.size ?? 0;
  }

  /** The live entry of an id, marked as just used; an expired one is dropped. */
  use(id: string): T | undefined {
    const found = this.#entries.get(id);
    if (!found) return undefined;
    if (found.entry.expiresAt <= this.#now()) {
      this.delete(id);
      return undefined;
    }
    const ids = this.#byWorkspace.get(found.workspace);
    ids?.delete(id);
    ids?.add(id);
    return found.entry;
  }

  /**
   * Adds an entry for a workspace. Throws RateLimitError, adding nothing, when all workspaces
   * together hold the total and none of it has expired.
   */
  add(workspace: string, id: string, entry: T): void {
    const ids = this.#byWorkspace.get(workspace) ?? new Set<string>();
    this.#sweep(ids);
    if (ids.size >= this.#limits.perWorkspace) {
      this.delete(ids.values().next().value as string);
    } else if (this.#entries.size >= this.#limits.total) {
      for (const other of this.#byWorkspace.values()) this.#sweep(other);
      if (this.#entries.size >= this.#limits.total) throw this.#refusal();
    }
    ids.add(id);
    this.#byWorkspace.set(workspace, ids);
    this.#entries.set(id, { workspace, entry });
  }

  delete(id: string): void {
    const found = this.#entries.get(id);
    if (!found) return;
    this.#entries.delete(id);
    const ids = this.#byWorkspace.get(found.workspace);
    ids?.delete(id);
    if (ids?.size === 0) this.#byWorkspace.delete(found.workspace);
  }

  #sweep(ids: Set<string>): void {
    const now = this.#now();
    for (const id of ids) {
      const found = this.#entries.get(id);
      if (!found || found.entry.expiresAt <= now) this.delete(id);
    }
  }

  #refusal(): RateLimitError {
    let soonest = Number.POSITIVE_INFINITY;
    for (const { entry } of this.#entries.values()) soonest = Math.min(soonest, entry.expiresAt);
    const retryAfterMs = Math.max(0, soonest - this.#now());
    return new RateLimitError(
      `The console already holds ${this.#limits.total} ${this.#limits.what}, its limit over all workspaces.`,
      retryAfterMs,
      { hint: this.#limits.hint },
    );
  }
}
