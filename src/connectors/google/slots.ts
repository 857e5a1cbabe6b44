import { MemoryState } from "../../state/memory.js";
import type { SharedState } from "../../state/types.js";
import { cancelled, defaultSleep } from "./retry.js";

/** GA4 allows 10 concurrent core reporting requests per Standard property (REAL-API B5). */
export const GA4_MAX_IN_FLIGHT = 10;

/**
 * Local waiters by semaphore key, woken when this process frees a slot; slots freed by other
 * processes (Redis backend) are noticed by polling.
 */
const waiters = new Map<string, Set<() => void>>();

function wait(key: string, ms: number, signal?: AbortSignal): Promise<void> {
  const set = waiters.get(key) ?? new Set<() => void>();
  waiters.set(key, set);
  const controller = new AbortController();
  const wake = () => controller.abort();
  set.add(wake);
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return defaultSleep(ms, controller.signal)
    .catch(() => undefined)
    .finally(() => {
      set.delete(wake);
      if (set.size === 0 && waiters.get(key) === set) waiters.delete(key);
      signal?.removeEventListener("abort", onAbort);
    });
}

function wakeAll(key: string): void {
  for (const wake of waiters.get(key) ?? []) wake();
}

/** Shared by connectors built without a SharedState, so two accounts on one property still share the limit. */
let processState: SharedState | undefined;

/**
 * Per-property in-flight slots (`ga4:<propertyId>:inflight`) over SharedState, so several
 * processes on one Redis together stay within the property's concurrency quota. A caller over the
 * limit waits in line instead of failing.
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

  /** Waits for a slot; returns its release function. Rejects with CancelledError when `signal` aborts. */
  async acquire(propertyId: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const key = `ga4:${propertyId}:inflight`;
    let pollMs = 25;
    for (;;) {
      if (signal?.aborted) throw cancelled(signal);
      const lease = await this.#state.semaphoreAcquire(key, this.#limit, this.#leaseMs);
      if (lease !== null) {
        let released = false;
        return async () => {
          if (released) return;
          released = true;
          await this.#state.semaphoreRelease(key, lease);
          wakeAll(key);
        };
      }
      await wait(key, pollMs, signal);
      pollMs = Math.min(pollMs * 2, 500);
    }
  }
}
