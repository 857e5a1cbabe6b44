import { isDeadlineReason, seconds } from "../../deadline.js";
import { CancelledError, DeadlineExceededError, type MartechError } from "../../errors.js";

/** A wait before sending that ended at the deadline, or would have ended after it (`why`). */
export function waitPastDeadline(why: string, totalMs: number): DeadlineExceededError {
  return new DeadlineExceededError(
    `The Marketo call did not finish within its ${seconds(totalMs)} deadline: ${why}.`,
    {
      writeMayHaveHappened: false,
      deadlineMs: totalMs,
      hint: "Nothing was sent for this call; retry later (other work may be using Marketo's limits), or raise MARTECH_STEPS_DEADLINE_MS.",
    },
  );
}

/**
 * The error for a wait that `signal` ended before anything was sent: the caller cancelled, or the
 * call's deadline passed (then a DeadlineExceededError, since nothing was cancelled by anyone).
 */
export function cancelled(what: string, signal?: AbortSignal): MartechError {
  const reason: unknown = signal?.reason;
  if (isDeadlineReason(reason)) return waitPastDeadline(`it was still ${what}`, reason.totalMs);
  return new CancelledError(`The Marketo call was cancelled while ${what}.`, {
    hint: "Nothing was sent for this call; run it again when needed.",
  });
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * In-process FIFO gate in front of the shared semaphore: callers of one process queue here and
 * are woken in order when a slot frees, so only the callers that hold a local slot poll the shared
 * state (a thousand queued calls would otherwise poll Redis all at once). A release hands its slot
 * to the first waiter only: nobody else wakes, and nothing is thrown to wake anyone.
 */
export class LocalGate {
  readonly #limit: number;
  readonly #cancelled: (signal: AbortSignal) => unknown;
  #active = 0;
  readonly #queue: Waiter[] = [];

  /** `onCancel` makes the error of a waiter whose signal aborts (default: the Marketo wording). */
  constructor(limit: number, onCancel?: (signal: AbortSignal) => unknown) {
    this.#limit = limit;
    this.#cancelled = onCancel ?? ((signal) => cancelled("waiting for a free concurrency slot", signal));
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Resolves true when a slot was free at once, false after queueing. */
  acquire(signal: AbortSignal | undefined, onQueued: () => void): Promise<boolean> {
    if (signal?.aborted) return Promise.reject(this.#cancelled(signal));
    if (this.#active < this.#limit) {
      this.#active += 1;
      return Promise.resolve(true);
    }
    onQueued();
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => resolve(false),
        reject,
        signal,
        onAbort: () => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(this.#cancelled(signal as AbortSignal));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) {
      // The slot passes straight to the next waiter; #active stays the same.
      next.signal?.removeEventListener("abort", next.onAbort);
      next.resolve();
      return;
    }
    this.#active = Math.max(0, this.#active - 1);
  }
}
