import { isDeadlineReason, seconds } from "../../deadline.js";
import { CancelledError, DeadlineExceededError, type MartechError } from "../../errors.js";

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** 500/503: Google asks for truncated exponential backoff (https://cloud.google.com/storage/docs/retry-strategy). */
export const SERVER_ERROR_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8_000 };
/** 429 concurrent requests: a slot frees as soon as another report of the property finishes. */
export const CONCURRENCY_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 8_000 };

/**
 * Capped exponential backoff with "equal jitter": half the step fixed, half random, so retries of
 * concurrent callers spread out but never collapse to zero. A Retry-After from the service wins.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * random());
}

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
