import { type BackoffPolicy, backoffCeiling, backoffDelay } from "../http/index.js";
import { cancelled } from "./local-gate.js";

/** Marketo's retry steps: 1 s doubling to 30 s, by the connectors' one backoff formula. */
export const MARKETO_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };

/** The wait before retry number `attempt` + 1 (see ../http/backoff.ts). */
export function retryDelay(attempt: number, random: () => number): number {
  return backoffDelay(attempt, MARKETO_BACKOFF, random);
}

/** The ceiling of the next backoff: what a caller should wait before retrying after we gave up. */
export function retryCeiling(attempt: number): number {
  return backoffCeiling(attempt, MARKETO_BACKOFF);
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
