import { sharedKey } from "../../state/keys.js";
import { MemoryState } from "../../state/memory.js";
import type { SharedState } from "../../state/types.js";
import { LocalGate } from "../marketo/local-gate.js";
import { cancelled, defaultSleep } from "./retry.js";

/** GA4 allows 10 concurrent core reporting requests per Standard property (REAL-API B5). */
export const GA4_MAX_IN_FLIGHT = 10;

/** A held slot's lease is renewed this often while its request runs (a third of the lease). */
const RENEWALS_PER_LEASE = 3;
/** Poll interval while other processes hold every shared slot of the property (no cross-process wake-up). */
const POLL_MS = 25;

/**
 * Local gates by state and property: callers of this process queue in order, and a released slot
 * passes to the first waiter only (no other waiter wakes, nothing is thrown to wake it). Keyed by
 * the state too, so connectors on separate states (tests, separate deployments) never share a gate.
 */
const gates = new WeakMap<SharedState, Map<string, LocalGate>>();

/** Shared by connectors built without a SharedState, so two accounts on one property still share the limit. */
let processState: SharedState | undefined;

/**
 * Per-property in-flight slots (`ga4:<propertyId>:inflight`) over SharedState, so several
 * processes on one Redis together stay within the property's concurrency quota. A caller over the
 * limit waits in line instead of failing. Leases are short and renewed while the request runs, so a
 * process that dies frees its slots within one lease.
 */
export class PropertySlots {
  readonly #state: SharedState;
  readonly #limit: number;
  readonly #leaseMs: number;

  constructor(options: { state?: SharedState | undefined; limit?: number; leaseMs: number }) {
    processState ??= new MemoryState();
    this.#state = options.state ?? processState;
    this.#limit = options.limit ?? GA4_MAX_IN_FLIGHT;
    this.#leaseMs = options.leaseMs;
  }

  #gate(key: string): LocalGate {
    let byKey = gates.get(this.#state);
    if (!byKey) {
      byKey = new Map();
      gates.set(this.#state, byKey);
    }
    let gate = byKey.get(key);
    if (!gate) {
      gate = new LocalGate(this.#limit, cancelled);
      byKey.set(key, gate);
    }
    return gate;
  }

  /** Waits for a slot; returns its release function. Rejects with CancelledError when `signal` aborts. */
  async acquire(propertyId: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const key = sharedKey(`ga4:${propertyId}`, "inflight");
    const gate = this.#gate(key);
    await gate.acquire(signal, () => undefined);
    let lease: string | null = null;
    try {
      for (;;) {
        if (signal?.aborted) throw cancelled(signal);
        lease = await this.#state.semaphoreAcquire(key, this.#limit, this.#leaseMs);
        if (lease !== null) break;
        await defaultSleep(POLL_MS + Math.floor(Math.random() * POLL_MS), signal);
      }
    } catch (error) {
      gate.release();
      throw error;
    }
    const held = lease;
    const renewal = setInterval(() => {
      this.#state.semaphoreRenew(key, held, this.#leaseMs).catch(() => undefined);
    }, this.#leaseMs / RENEWALS_PER_LEASE);
    renewal.unref();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      try {
        await this.#state.semaphoreRelease(key, held);
      } finally {
        gate.release();
      }
    };
  }
}
