import { isDeadlineReason, seconds } from "../../deadline.js";
import { CancelledError, DeadlineExceededError, type MartechError } from "../../errors.js";
import type { BackoffPolicy } from "../http/index.js";

/** 500/503: Google asks for truncated exponential backoff (https://cloud.google.com/storage/docs/retry-strategy). */
export const SERVER_ERROR_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8_000 };
/** 429 concurrent requests: a slot frees as soon as another report of the property finishes. */
export const CONCURRENCY_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 8_000 };

/**
 * The error for a wait that `signal` ended before this attempt was sent: the caller cancelled, or the
 * call's deadline passed (a DeadlineExceededError: nobody cancelled anything).
 */
export function cancelled(signal: AbortSignal | undefined): MartechError {
  const reason: unknown = signal?.reason;
  if (isDeadlineReason(reason)) {
    return new DeadlineExceededError(
      `The Google Analytics call did not finish within its ${seconds(reason.totalMs)} deadline: it was still waiting (for an access token, a free slot of the property, or a retry).`,
      {
        writeMayHaveHappened: false,
        deadlineMs: reason.totalMs,
        hint: "Nothing was sent for this attempt; retry later, or raise MARTECH_STEPS_DEADLINE_MS.",
      },
    );
  }
  return new CancelledError("The Google Analytics call was cancelled.", { cause: reason });
}

/** setTimeout-based sleep that rejects with CancelledError (DeadlineExceededError at the deadline) when the signal aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelled(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
