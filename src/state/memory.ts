import { randomUUID } from "node:crypto";
import type { SharedState } from "./types.js";

/** In-process backend: exact, and enough when one process talks to an instance. */
export class MemoryState implements SharedState {
  readonly #windows = new Map<string, number[]>();
  readonly #leases = new Map<string, Map<string, number>>();
  readonly #counters = new Map<string, { value: number; expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async windowAcquire(key: string, limit: number, windowMs: number): Promise<number> {
    const now = this.#now();
    const log = (this.#windows.get(key) ?? []).filter((t) => t > now - windowMs);
    this.#windows.set(key, log);
    if (log.length < limit) {
      log.push(now);
      return 0;
    }
    // The log is in insertion order, so the first entry is the oldest.
    return Math.max(1, log[0]! + windowMs - now);
  }

  async windowCount(key: string, windowMs: number): Promise<number> {
    const now = this.#now();
    return (this.#windows.get(key) ?? []).filter((t) => t > now - windowMs).length;
  }

  async semaphoreAcquire(key: string, limit: number, leaseMs: number): Promise<string | null> {
    const now = this.#now();
    const leases = this.#leases.get(key) ?? new Map<string, number>();
    this.#leases.set(key, leases);
    for (const [id, expiresAt] of leases) if (expiresAt <= now) leases.delete(id);
    if (leases.size >= limit) return null;
    const id = randomUUID();
    leases.set(id, now + leaseMs);
    return id;
  }

  async semaphoreRenew(key: string, leaseId: string, leaseMs: number): Promise<boolean> {
    const leases = this.#leases.get(key);
    const expiresAt = leases?.get(leaseId);
    const now = this.#now();
    if (!leases || expiresAt === undefined || expiresAt <= now) {
      leases?.delete(leaseId);
      return false;
    }
    leases.set(leaseId, now + leaseMs);
    return true;
  }

  async semaphoreRelease(key: string, leaseId: string): Promise<void> {
    this.#leases.get(key)?.delete(leaseId);
  }

  async counterAdd(key: string, by: number, ttlMs: number): Promise<number> {
    const now = this.#now();
    let entry = this.#counters.get(key);
    if (!entry || entry.expiresAt <= now) {
      entry = { value: 0, expiresAt: now + ttlMs };
      this.#counters.set(key, entry);
    }
    entry.value += by;
    return entry.value;
  }

  async counterGet(key: string): Promise<number> {
    const entry = this.#counters.get(key);
    return entry && entry.expiresAt > this.#now() ? entry.value : 0;
  }

  async close(): Promise<void> {}
}
