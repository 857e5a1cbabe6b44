import { randomBytes } from "node:crypto";
import {
  lifetimeOf,
  type NewResult,
  type ResultMeta,
  type ResultStore,
  type ResultStoreLimits,
} from "./types.js";

export function newResultId(): string {
  // 128 random bits: an id cannot be guessed (and another workspace's id is not found anyway).
  return randomBytes(16).toString("base64url");
}

/**
 * Whether `id` has the shape newResultId gives (22 base64url characters). A store looks up nothing
 * else: in Redis a crafted id such as "index" would name the workspace's own index key.
 */
export function isResultId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

export function metaOf(result: NewResult, id: string, now: number, ttlMs: number): ResultMeta {
  return {
    ...result.meta,
    id,
    items: result.pages.reduce((sum, page) => sum + page.items, 0),
    pageItems: result.pages.map((page) => page.items),
    bytes: result.pages.reduce((sum, page) => sum + Buffer.byteLength(page.json), 0),
    createdAt: now,
    expiresAt: now + ttlMs,
  };
}

interface Entry {
  meta: ResultMeta;
  pages: string[];
}

/**
 * Results in this process's memory. Besides the TTL and the count per workspace, all workspaces
 * together hold at most `maxBytes` (the oldest results go first), so memory stays bounded however
 * many workspaces a server has.
 */
export class MemoryResultStore implements ResultStore {
  readonly #limits: ResultStoreLimits & { maxBytes: number };
  readonly #now: () => number;
  /** Insertion order is age: the first entries are the oldest. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(limits: ResultStoreLimits & { maxBytes: number }, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  #key = (workspace: string, id: string) => `${workspace}\u0000${id}`;

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.meta.bytes;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.meta.expiresAt <= now) this.#drop(key);
  }

  async put(workspace: string, result: NewResult): Promise<ResultMeta> {
    this.#sweep();
    const file = result.meta.file === true;
    const { ttlMs, count } = lifetimeOf(this.#limits, file);
    const meta = metaOf(result, newResultId(), this.#now(), ttlMs);
    // Export files and other results are counted apart: many answers do not push out a file.
    const mine = [...this.#entries.entries()]
      .filter(([key, entry]) => key.startsWith(`${workspace}\u0000`) && (entry.meta.file === true) === file)
      .map(([key]) => key);
    for (const key of mine.slice(0, Math.max(0, mine.length - count + 1))) this.#drop(key);
    for (const key of this.#entries.keys()) {
      if (this.#bytes + meta.bytes <= this.#limits.maxBytes) break;
      this.#drop(key);
    }
    this.#entries.set(this.#key(workspace, meta.id), { meta, pages: result.pages.map((page) => page.json) });
    this.#bytes += meta.bytes;
    return meta;
  }

  #get(workspace: string, id: string): Entry | undefined {
    if (!isResultId(id)) return undefined;
    const entry = this.#entries.get(this.#key(workspace, id));
    if (!entry) return undefined;
    if (entry.meta.expiresAt > this.#now()) return entry;
    this.#drop(this.#key(workspace, id));
    return undefined;
  }

  async meta(workspace: string, id: string): Promise<ResultMeta | undefined> {
    return this.#get(workspace, id)?.meta;
  }

  async page(workspace: string, id: string, index: number): Promise<string | undefined> {
    return this.#get(workspace, id)?.pages[index];
  }

  async close(): Promise<void> {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
