import { type PropertyQuota, type PropertyQuotaSnapshot, QUOTA_KINDS, type QuotaStatus } from "./types.js";

/**
 * Ten reports of average cost: below this many tokens left an agent should slow down before GA answers
 * 429 (https://developers.google.com/analytics/devguides/reporting/data/v1/quotas). The report's hints
 * (src/tools/ga/report-flatten.ts) and the Google room's log warnings (src/connections/google/log-warnings.ts)
 * both use it.
 */
export const LOW_TOKENS = 1_000;

function readStatus(value: unknown): QuotaStatus | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { consumed, remaining } = value as Record<string, unknown>;
  const status: QuotaStatus = {};
  // proto3 omits zeros: a kind with nothing consumed arrives as {"remaining": N}.
  if (typeof consumed === "number") status.consumed = consumed;
  if (typeof remaining === "number") status.remaining = remaining;
  return status.consumed === undefined && status.remaining === undefined ? undefined : status;
}

export function readPropertyQuota(value: unknown): PropertyQuota | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const quota: PropertyQuota = {};
  for (const kind of QUOTA_KINDS) {
    const status = readStatus((value as Record<string, unknown>)[kind]);
    if (status) quota[kind] = status;
  }
  return Object.keys(quota).length > 0 ? quota : undefined;
}

/** The last `propertyQuota` in a report response, or in the reports of a batch response. */
export function quotaFromResponse(body: unknown): PropertyQuota | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  const direct = readPropertyQuota(record.propertyQuota);
  if (direct) return direct;
  let last: PropertyQuota | undefined;
  for (const key of ["reports", "pivotReports"]) {
    const list = record[key];
    if (!Array.isArray(list)) continue;
    for (const report of list) {
      last = readPropertyQuota((report as Record<string, unknown> | null)?.propertyQuota) ?? last;
    }
  }
  return last;
}

export function snapshot(
  propertyId: string,
  kind: PropertyQuotaSnapshot["kind"],
  quotas: PropertyQuota,
  now: number,
): PropertyQuotaSnapshot {
  return { propertyId, kind, seenAt: new Date(now).toISOString(), quotas };
}
