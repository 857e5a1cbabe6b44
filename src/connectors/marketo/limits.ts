import { seconds } from "../../deadline.js";
import { QuotaExceededError } from "../../errors.js";
import type { SharedState } from "../../state/types.js";
import type { Budget } from "../budget.js";
import { chicagoDay, nextChicagoMidnight } from "./chicago-day.js";
import { cancelled, LocalGate, waitPastDeadline } from "./local-gate.js";
import type { MarketoUsage, OnWait } from "./types.js";

export interface LimiterOptions {
  state: SharedState;
  instance: string;
  dailyQuota: number;
  callsPerWindow: number;
  windowMs: number;
  maxConcurrent: number;
  /** A lease outlives the longest call, so a crashed process frees its slot after this. */
  leaseMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
}

/** Held while one API call is in flight; release() is idempotent. */
export interface Slot {
  release(): Promise<void>;
}

/** Poll interval while another process holds every shared slot (no cross-process wake-up exists). */
const SEMAPHORE_POLL_MS = 25;
/**
 * The log records a call when it is sent, Marketo when it arrives. When an early call arrives late
 * (a new TLS connection, a busy event loop) and a later one arrives fast, Marketo sees them closer
 * together than we did and answers 606, so our window is longer by 5% (at least 250 ms, at most
 * 1 s: 21 s for Marketo's 20 s, 95 calls per 20 s at full speed).
 */
export function windowWithMargin(windowMs: number): number {
  return windowMs + Math.min(1_000, Math.max(250, Math.ceil(windowMs * 0.05)));
}

/** The daily counter outlives its day by this much, so a late process still reads it. */
const DAY_KEY_SLACK_MS = 60 * 60 * 1000;

/**
 * Marketo's limits, enforced before the service has to refuse
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits):
 * a sliding log of calls per rolling window (606 otherwise), leases on in-flight slots (615), and a
 * counter per Chicago day (607). Everything is keyed by instance host in the shared state, so all
 * connectors and processes that talk to one instance share one budget.
 */
export class MarketoLimiter {
  readonly #o: LimiterOptions;
  readonly #gate: LocalGate;
  readonly #windowKey: string;
  readonly #slotsKey: string;
  readonly #windowMs: number;

  constructor(options: LimiterOptions) {
    this.#o = options;
    this.#gate = new LocalGate(options.maxConcurrent);
    this.#windowKey = `marketo:${options.instance}:window`;
    this.#slotsKey = `marketo:${options.instance}:inflight`;
    this.#windowMs = windowWithMargin(options.windowMs);
  }

  get dailyQuota(): number {
    return this.#o.dailyQuota;
  }

  #dailyKey(now: number): string {
    return `marketo:${this.#o.instance}:daily:${chicagoDay(now)}`;
  }

  quotaError(used: number): QuotaExceededError {
    const resetsAt = nextChicagoMidnight(this.#o.now());
    return new QuotaExceededError(
      `The Marketo daily API quota is used up: ${used} of ${this.#o.dailyQuota} calls today (Marketo's day ends at midnight America/Chicago).`,
      resetsAt,
      {
        hint: `Retry after ${resetsAt.toISOString()}, or ask the Marketo admin for a larger quota.`,
        details: { callsToday: used, dailyQuota: this.#o.dailyQuota },
      },
    );
  }

  /**
   * Marketo itself answered 607: the instance's quota is shared by every app of the subscription, so
   * this server's own count may be far below it.
   */
  serviceQuotaError(countedHere: number): QuotaExceededError {
    const resetsAt = nextChicagoMidnight(this.#o.now());
    return new QuotaExceededError(
      `Marketo reports that the instance's daily API quota is reached (607); this server sent ${countedHere} of today's calls, the other apps of the subscription the rest.`,
      resetsAt,
      {
        hint: `Retry after ${resetsAt.toISOString()} (midnight America/Chicago), or ask the Marketo admin for a larger quota.`,
        details: { serviceCode: "607", callsCountedHere: countedHere },
      },
    );
  }

  async usage(): Promise<MarketoUsage> {
    const [callsToday, windowCalls] = await Promise.all([
      this.#o.state.counterGet(this.#dailyKey(this.#o.now())),
      this.#o.state.windowCount(this.#windowKey, this.#windowMs),
    ]);
    return {
      callsToday,
      dailyQuota: this.#o.dailyQuota,
      remaining: Math.max(0, this.#o.dailyQuota - callsToday),
      windowCalls,
      callsPerWindow: this.#o.callsPerWindow,
      windowMs: this.#o.windowMs,
    };
  }

  /** After Marketo answered 607, record the day as spent so every caller stops before sending. */
  async markDailyQuotaSpent(): Promise<void> {
    const now = this.#o.now();
    const key = this.#dailyKey(now);
    const used = await this.#o.state.counterGet(key);
    if (used < this.#o.dailyQuota)
      await this.#o.state.counterAdd(key, this.#o.dailyQuota - used, this.#dayTtl(now));
  }

  #dayTtl(now: number): number {
    return nextChicagoMidnight(now).getTime() - now + DAY_KEY_SLACK_MS;
  }

  async #sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
    await this.#o.sleep(ms, signal);
    if (signal?.aborted) throw cancelled(what, signal);
  }

  /** Polls the shared semaphore until it grants a lease (other processes hold the other slots). */
  async #takeLease(signal: AbortSignal | undefined, onWait: OnWait | undefined): Promise<string> {
    for (;;) {
      const lease = await this.#o.state.semaphoreAcquire(
        this.#slotsKey,
        this.#o.maxConcurrent,
        this.#o.leaseMs,
      );
      if (lease !== null) return lease;
      const waitMs = SEMAPHORE_POLL_MS + Math.floor(this.#o.random() * SEMAPHORE_POLL_MS);
      onWait?.({ reason: "concurrency", waitMs });
      await this.#sleep(waitMs, signal, "waiting for a free concurrency slot");
    }
  }

  /**
   * Waits for a concurrency slot, then for room in the rolling window, counts the call for the day,
   * and returns the slot. Order matters: the window is taken last, right before sending, so the
   * recorded time is the send time (taking it before a queue wait would let calls bunch up).
   * Waits end with the budget's signal; a window wait that would end after the deadline fails at once.
   */
  async acquire(budget: Budget, onWait: OnWait | undefined): Promise<Slot> {
    const signal = budget.signal;
    const before = await this.#o.state.counterGet(this.#dailyKey(this.#o.now()));
    if (before >= this.#o.dailyQuota) throw this.quotaError(before);

    await this.#gate.acquire(signal, () => onWait?.({ reason: "concurrency", waitMs: 0 }));
    let lease: string | null = null;
    let released = false;
    const slot: Slot = {
      release: async () => {
        if (released) return;
        released = true;
        try {
          if (lease !== null) await this.#o.state.semaphoreRelease(this.#slotsKey, lease);
        } catch {
          // The call itself is done: a failed release (Redis down) must not turn its result into an
          // error a caller might retry. The lease expires on its own after leaseMs.
        } finally {
          this.#gate.release();
        }
      },
    };
    try {
      lease = await this.#takeLease(signal, onWait);
      for (;;) {
        if (signal.aborted) throw cancelled("waiting for room in the rate window", signal);
        const waitMs = await this.#o.state.windowAcquire(
          this.#windowKey,
          this.#o.callsPerWindow,
          this.#windowMs,
        );
        if (waitMs <= 0) break;
        if (!budget.fits(waitMs)) {
          throw waitPastDeadline(
            `room in Marketo's rate window comes only in ${seconds(waitMs)}, after the deadline`,
            budget.totalMs,
          );
        }
        onWait?.({ reason: "rate_window", waitMs });
        await this.#sleep(waitMs, signal, "waiting for room in the rate window");
      }
      // The window wait can outlast the lease (taken before it): renew it for the request itself,
      // or, if it already expired and its slot may be another replica's, take a slot again.
      if (!(await this.#o.state.semaphoreRenew(this.#slotsKey, lease, this.#o.leaseMs))) {
        lease = await this.#takeLease(signal, onWait);
      }
      const now = this.#o.now();
      const key = this.#dailyKey(now);
      const used = await this.#o.state.counterAdd(key, 1, this.#dayTtl(now));
      if (used > this.#o.dailyQuota) {
        // Another caller took the last call of the day between our check and our increment.
        await this.#o.state.counterAdd(key, -1, this.#dayTtl(now));
        throw this.quotaError(used - 1);
      }
      return slot;
    } catch (error) {
      await slot.release();
      throw error;
    }
  }
}
