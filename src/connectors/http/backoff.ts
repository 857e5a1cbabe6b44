/** How long retries wait: the first step and the longest. */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

/** The ceiling of the step after `attempt` failed attempts: what a caller should wait before retrying after we gave up. */
export function backoffCeiling(attempt: number, policy: BackoffPolicy): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
}

/**
 * Capped exponential backoff with "equal jitter"
 * (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/): half of the step fixed,
 * half random, so retries of concurrent callers spread out but never collapse to an immediate replay.
 * A Retry-After from the service wins. Every connector's retries wait by this one formula; what is
 * retried, and how often, is each service's policy.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const step = backoffCeiling(attempt, policy);
  return Math.round(step / 2 + (step / 2) * random());
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
