import { randomUUID } from "node:crypto";
import type { Admission, CallAdmission, SharedState } from "./types.js";

/**
 * A sliding log as a Map of call id → time, in insertion order. Every entry is written (or moved, by
 * deleting and setting it again) at the current time, so the Map stays sorted by time: expiring is
 * dropping entries from the front, and counting is its size. No call re-reads the whole log.
 */
class SlidingLog {
  readonly entries = new Map<string, number>();

  expire(before: number): void {
    for (const [id, at] of this.entries) {
      if (at > before) return;
      this.entries.delete(id);
    }
  }

  oldest(): number | undefined {
    for (const at of this.entries.values()) return at;
    return undefined;
  }

  /** Writes the entry at `at`, the end of the log (moved there when it was in it already). */
  touch(id: string, at: number): void {
    this.entries.delete(id);
    this.entries.set(id, at);
  }
}

/** In-process backend: exact, and enough when one process talks to an instance. */
export class MemoryState implements SharedState {
  readonly backend = "memory";
  readonly #windows = new Map<string, SlidingLog>();
  readonly #leases = new Map<string, Map<string, number>>();
  readonly #counters = new Map<string, { value: number; expiresAt: number }>();
  readonly #values = new Map<string, { value: string; expiresAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #log(key: string, windowMs: number, now: number): SlidingLog {
    let log = this.#windows.get(key);
    if (!log) {
      log = new SlidingLog();
      this.#windows.set(key, log);
    }
    log.expire(now - windowMs);
    return log;
  }

  #liveLeases(key: string, now: number): Map<string, number> {
    let leases = this.#leases.get(key);
    if (!leases) {
      leases = new Map();
      this.#leases.set(key, leases);
    }
    for (const [id, expiresAt] of leases) if (expiresAt <= now) leases.delete(id);
    return leases;
  }

  #counter(key: string, now: number): { value: number; expiresAt: number } | undefined {
    const entry = this.#counters.get(key);
    return entry && entry.expiresAt > now ? entry : undefined;
  }

  async windowAcquire(key: string, limit: number, windowMs: number): Promise<number> {
    const now = this.#now();
    const log = this.#log(key, windowMs, now);
    if (log.entries.size < limit) {
      log.entries.set(randomUUID(), now);
      return 0;
    }
    return Math.max(1, (log.oldest() ?? now) + windowMs - now);
  }

  async windowCount(key: string, windowMs: number): Promise<number> {
    return this.#log(key, windowMs, this.#now()).entries.size;
  }

  async admitCall(call: CallAdmission): Promise<Admission> {
    const now = this.#now();
    const callsToday = this.#counter(call.dailyKey, now)?.value ?? 0;
    if (callsToday >= call.dailyQuota) return { admitted: false, limit: "daily_quota", callsToday };
    // A call in flight may reach the service at any moment until its answer: its entry moves to now
    // before the window is trimmed, so it always counts (the Redis backend's ADMIT_CALL says more).
    const leases = this.#liveLeases(call.slotsKey, now);
    const log = this.#log(call.windowKey, call.windowMs, now);
    for (const id of leases.keys()) log.touch(id, now);
    if (log.entries.size >= call.limit) {
      return {
        admitted: false,
        limit: "rate_window",
        waitMs: Math.max(1, (log.oldest() ?? now) + call.windowMs - now),
      };
    }
    if (leases.size >= call.maxConcurrent) return { admitted: false, limit: "concurrency" };
    log.entries.set(call.id, now);
    leases.set(call.id, now + call.leaseMs);
    return { admitted: true, callsToday: this.#add(call.dailyKey, 1, call.dayTtlMs, now) };
  }

  async finishCall(call: Pick<CallAdmission, "windowKey" | "slotsKey" | "windowMs" | "id">): Promise<void> {
    // Written even if the log lost it: the call was sent, and may have been counted as late as now.
    this.#leases.get(call.slotsKey)?.delete(call.id);
    const now = this.#now();
    this.#log(call.windowKey, call.windowMs, now).touch(call.id, now);
  }

  async semaphoreAcquire(key: string, limit: number, leaseMs: number): Promise<string | null> {
    const now = this.#now();
    const leases = this.#liveLeases(key, now);
    if (leases.size >= limit) return null;
    const id = randomUUID();
    leases.set(id, now + leaseMs);
    return id;
  }

  async semaphoreRenew(key: string, leaseId: string, leaseMs: number): Promise<boolean> {
    const now = this.#now();
    const leases = this.#liveLeases(key, now);
    const held = leases.has(leaseId);
    leases.set(leaseId, now + leaseMs);
    return held;
  }

  async semaphoreRelease(key: string, leaseId: string): Promise<void> {
    this.#leases.get(key)?.delete(leaseId);
  }

  async counterAdd(key: string, by: number, ttlMs: number): Promise<number> {
    return this.#add(key, by, ttlMs, this.#now());
  }

  #add(key: string, by: number, ttlMs: number, now: number): number {
    let entry = this.#counter(key, now);
    if (!entry) {
      entry = { value: 0, expiresAt: now + ttlMs };
      this.#counters.set(key, entry);
    }
    entry.value += by;
    return entry.value;
  }

  async counterGet(key: string): Promise<number> {
    return this.#counter(key, this.#now())?.value ?? 0;
  }

  /** Synchronous, so that a check and the write after it are one step (no await in between). */
  #value(key: string): string | undefined {
    const entry = this.#values.get(key);
    if (entry && entry.expiresAt > this.#now()) return entry.value;
    this.#values.delete(key);
    return undefined;
  }

  async valueGet(key: string): Promise<string | undefined> {
    return this.#value(key);
  }

  async valueSet(key: string, value: string, ttlMs: number, onlyIfAbsent = false): Promise<boolean> {
    if (onlyIfAbsent && this.#value(key) !== undefined) return false;
    this.#values.set(key, { value, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async valueDeleteIf(key: string, expected: string): Promise<void> {
    if (this.#value(key) === expected) this.#values.delete(key);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
