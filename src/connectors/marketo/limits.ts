import { randomUUID } from "node:crypto";
import { seconds } from "../../deadline.js";
import { QuotaExceededError } from "../../errors.js";
import { sharedKey } from "../../state/keys.js";
import type { SharedState } from "../../state/types.js";
import { registerWindow, telemetry } from "../../telemetry.js";
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
  /** How long a slot stays held without renewal: a killed process frees its slots this soon. */
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
 * Each call stays in the window from its admission until its answer is back, and a full window
 * after that (the state moves its entry to the finish time): Marketo counted it when it arrived,
 * somewhere in between, so every call's own round trip is its margin, measured, however loaded the
 * process or slow the network was for that call. What remains is this small constant for the
 * clocks' resolution (a fifth of a percent of the window, at least 5 ms: 40 ms of Marketo's 20 s).
 */
export function windowWithMargin(windowMs: number): number {
  return windowMs + Math.max(5, Math.ceil(windowMs * 0.002));
}

/** A lease is renewed this often while its call runs, well inside its length. */
const RENEWALS_PER_LEASE = 3;

/** The daily counter outlives its day by this much, so a late process still reads it. */
const DAY_KEY_SLACK_MS = 60 * 60 * 1000;

/**
 * Marketo's limits, enforced before the service has to refuse
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits):
 * a sliding log of calls per rolling window (606 otherwise), short renewed leases on in-flight
 * slots (615), and a counter per Chicago day (607), admitted together in one step of the shared
 * state. Everything is keyed by instance host, so all connectors and processes that talk to one
 * instance share one budget.
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
    this.#windowKey = sharedKey(`marketo:${options.instance}`, "window");
    this.#slotsKey = sharedKey(`marketo:${options.instance}`, "inflight");
    this.#windowMs = windowWithMargin(options.windowMs);
    registerWindow("marketo", options.instance, this);
  }

  get dailyQuota(): number {
    return this.#o.dailyQuota;
  }

  #dailyKey(now: number): string {
    return sharedKey(`marketo:${this.#o.instance}`, "daily", chicagoDay(now));
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
  serviceQuotaError(countedHere: number | undefined, unrecorded?: string): QuotaExceededError {
    const resetsAt = nextChicagoMidnight(this.#o.now());
    const sent =
      countedHere === undefined
        ? ""
        : `; this server sent ${countedHere} of today's calls, the other apps of the subscription the rest`;
    // The shared state could not take the day as spent: other replicas of this server do not know yet.
    const others = unrecorded
      ? ` The shared state could not record it (${unrecorded}), so other replicas of this server may send calls Marketo refuses the same way until then; check the Redis at REDIS_URL (or REDIS_CLUSTER_NODES).`
      : "";
    return new QuotaExceededError(
      `Marketo reports that the instance's daily API quota is reached (607)${sent}.`,
      resetsAt,
      {
        hint: `Retry after ${resetsAt.toISOString()} (midnight America/Chicago), or ask the Marketo admin for a larger quota.${others}`,
        details: {
          serviceCode: "607",
          ...(countedHere === undefined ? {} : { callsCountedHere: countedHere }),
        },
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

  /**
   * Waits for a local slot (FIFO within the process), then until the shared state admits the call:
   * room in the rolling window, a free in-flight slot and calls left today, taken together right
   * before sending, so the recorded time is the send time and a call waiting for the window holds no
   * slot. The lease is renewed while the call runs and freed with release(). Waits end with the
   * budget's signal; a window wait that would end after the deadline fails at once.
   */
  async acquire(budget: Budget, onWait: OnWait | undefined): Promise<Slot> {
    const signal = budget.signal;
    const started = this.#o.now();
    await this.#gate.acquire(signal, () => onWait?.({ reason: "concurrency", waitMs: 0 }));
    const id = randomUUID();
    try {
      for (;;) {
        if (signal.aborted) throw cancelled("waiting for room in the rate window", signal);
        const now = this.#o.now();
        const admission = await this.#o.state.admitCall({
          windowKey: this.#windowKey,
          limit: this.#o.callsPerWindow,
          windowMs: this.#windowMs,
          slotsKey: this.#slotsKey,
          maxConcurrent: this.#o.maxConcurrent,
          leaseMs: this.#o.leaseMs,
          dailyKey: this.#dailyKey(now),
          dailyQuota: this.#o.dailyQuota,
          dayTtlMs: this.#dayTtl(now),
          id,
        });
        if (admission.admitted) break;
        if (admission.limit === "daily_quota") throw this.quotaError(admission.callsToday);
        if (admission.limit === "concurrency") {
          // Other processes hold every shared slot: poll, jittered so they do not all ask at once.
          const waitMs = SEMAPHORE_POLL_MS + Math.floor(this.#o.random() * SEMAPHORE_POLL_MS);
          onWait?.({ reason: "concurrency", waitMs });
          await this.#sleep(waitMs, signal, "waiting for a free concurrency slot");
          continue;
        }
        if (!budget.fits(admission.waitMs)) {
          throw waitPastDeadline(
            `room in Marketo's rate window comes only in ${seconds(admission.waitMs)}, after the deadline`,
            budget.totalMs,
          );
        }
        onWait?.({ reason: "rate_window", waitMs: admission.waitMs });
        await this.#sleep(admission.waitMs, signal, "waiting for room in the rate window");
      }
    } catch (error) {
      this.#gate.release();
      throw error;
    }
    telemetry.limiterWait("marketo", this.#o.now() - started);
    return this.#held(id);
  }

  /** The admitted call's slot: its lease renewed while it runs, finished once on release. */
  #held(id: string): Slot {
    const { state, leaseMs } = this.#o;
    const renewal = setInterval(() => {
      // A failed renewal (Redis briefly away) is retried at the next tick; the lease covers the gap.
      state.semaphoreRenew(this.#slotsKey, id, leaseMs).catch(() => undefined);
    }, leaseMs / RENEWALS_PER_LEASE);
    renewal.unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        try {
          await state.finishCall({
            windowKey: this.#windowKey,
            slotsKey: this.#slotsKey,
            windowMs: this.#windowMs,
            id,
          });
        } catch {
          // The call itself is done: a failed release (Redis down) must not turn its result into an
          // error a caller might retry. The lease expires on its own after leaseMs.
        } finally {
          this.#gate.release();
        }
      },
    };
  }
}
