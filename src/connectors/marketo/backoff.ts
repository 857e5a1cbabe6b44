import { cancelled } from "./local-gate.js";

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 30_000;

/**
 * Exponential backoff with full jitter (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/):
 * a random wait in [0, min(cap, base * 2^attempt)), so retrying callers spread out instead of
 * hitting Marketo again together.
 */
export function fullJitter(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** The ceiling of the next backoff: what a caller should wait before retrying after we gave up. */
export function backoffCeiling(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/**
 * After a 606 the rolling window must move on before a replay can pass; a quarter to half of the
 * window (5-10 s for Marketo's 20 s) lets the oldest calls age out while staying jittered.
 */
export function windowWait(windowMs: number, random: () => number): number {
  return Math.floor(windowMs * (0.25 + 0.25 * random()));
}

/** setTimeout that rejects with CancelledError (DeadlineExceededError at the deadline) when the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelled("waiting", signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled("waiting", signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
