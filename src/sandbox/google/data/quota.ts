/**
 * Property quotas of the Data API as Google's quota page lists them
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/quotas): three categories,
 * each with its own buckets per property, for a standard property:
 * - Core (runReport, runPivotReport, batchRunReports, batchRunPivotReports, getMetadata,
 *   checkCompatibility, ...), Realtime (runRealtimeReport) and Funnel (runFunnelReport);
 * - tokens per property per day 200,000 and per hour 40,000; tokens per project per property per hour
 *   14,000 (35 %, PropertyQuota.tokensPerProjectPerHour in the discovery document); 10 concurrent
 *   requests per property; 10 server errors per project per property per hour; 120 potentially
 *   thresholded requests per hour.
 * Windows are rolling (the real day message says tokens "will return in under 24 hours"). "If any
 * quota for a property is exhausted, all requests to that property will return Resource Exhausted
 * errors" (PropertyQuota), so getMetadata and checkCompatibility are refused on an exhausted property
 * too. The sandbox serves one Cloud project, so the per-project bucket is this project's.
 */
import { RpcError } from "./rpc.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SERVER_ERRORS_PER_HOUR = 10;
const THRESHOLDED_PER_HOUR = 120;

export type QuotaKind = "core" | "realtime" | "funnel";
export const QUOTA_KINDS: readonly QuotaKind[] = ["core", "realtime", "funnel"];

export interface TokenLimits {
  tokensPerHour: number;
  tokensPerDay: number;
  tokensPerProjectPerHour: number;
  concurrentRequests: number;
}

/** Standard-property limits of every category (the quota page lists the same numbers for each). */
export const STANDARD_LIMITS: TokenLimits = {
  tokensPerHour: 40_000,
  tokensPerDay: 200_000,
  tokensPerProjectPerHour: 14_000,
  concurrentRequests: 10,
};

/**
 * getMetadata and checkCompatibility are Core methods on the quota page, which publishes no token
 * count per method ("most requests consume fewer than 10 tokens"): the sandbox charges them the
 * smallest cost any request has, 1 token, so they count against the property like real requests.
 */
export const SCHEMA_METHOD_TOKENS = 1;

/**
 * Token cost of one report, documented because the real formula is not public ("more dimensions or
 * larger date ranges cost more"; most requests cost under 10 tokens):
 *   1 + floor((days - 1) / 100) + floor(dimensions / 4) + floor(rows / 10,000)
 * where days is the sum of the date ranges' lengths (0 for realtime) and rows the full row count.
 */
export function tokenCost(input: { days: number; dimensions: number; rows: number }): number {
  return (
    1 +
    Math.floor(Math.max(0, input.days - 1) / 100) +
    Math.floor(input.dimensions / 4) +
    Math.floor(input.rows / 10_000)
  );
}

/** QuotaStatus: int32 fields in proto3 JSON, so a zero is omitted like every proto3 default. */
function status(consumed: number, remaining: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (consumed > 0) out.consumed = consumed;
  if (remaining > 0) out.remaining = remaining;
  return out;
}

interface Charge {
  at: number;
  tokens: number;
}

export class QuotaTracker {
  private readonly charges = new Map<string, Charge[]>();
  private readonly inFlight = new Map<string, number>();
  readonly maxInFlight: Record<string, number> = {};

  constructor(private readonly limits: Record<QuotaKind, TokenLimits>) {}

  private used(kind: QuotaKind, propertyId: string, now: number): { hour: number; day: number } {
    const key = `${kind}:${propertyId}`;
    const kept = (this.charges.get(key) ?? []).filter((c) => c.at > now - DAY_MS);
    this.charges.set(key, kept);
    let hour = 0;
    let day = 0;
    for (const c of kept) {
      day += c.tokens;
      if (c.at > now - HOUR_MS) hour += c.tokens;
    }
    return { hour, day };
  }

  /** Throws the real 429 when the property has no tokens left in any window of the category. */
  ensureTokens(kind: QuotaKind, propertyId: string, now: number): void {
    const { hour, day } = this.used(kind, propertyId, now);
    const limit = this.limits[kind];
    if (day >= limit.tokensPerDay) {
      throw new RpcError(
        "RESOURCE_EXHAUSTED",
        "Exhausted property tokens per day. These quota tokens will return in under 24 hours.",
      );
    }
    if (hour >= limit.tokensPerHour)
      throw new RpcError("RESOURCE_EXHAUSTED", "Exhausted property tokens per hour.");
    // Google's wording, as clients that met it match it (Airbyte's GA4 source, api_quota.py
    // "tokensPerProjectPerHour": error_pattern "Exhausted property tokens for a project per hour.",
    // https://github.com/airbytehq/airbyte/tree/master/airbyte-integrations/connectors/source-google-analytics-data-api).
    if (hour >= limit.tokensPerProjectPerHour)
      throw new RpcError("RESOURCE_EXHAUSTED", "Exhausted property tokens for a project per hour.");
  }

  /** Records the cost of a finished request and returns the PropertyQuota "including this request". */
  charge(kind: QuotaKind, propertyId: string, now: number, tokens: number): Record<string, unknown> {
    const key = `${kind}:${propertyId}`;
    const list = this.charges.get(key) ?? [];
    list.push({ at: now, tokens });
    this.charges.set(key, list);
    const { hour, day } = this.used(kind, propertyId, now);
    const limit = this.limits[kind];
    return {
      tokensPerDay: status(tokens, Math.max(0, limit.tokensPerDay - day)),
      tokensPerHour: status(tokens, Math.max(0, limit.tokensPerHour - hour)),
      concurrentRequests: status(0, limit.concurrentRequests),
      serverErrorsPerProjectPerHour: status(0, SERVER_ERRORS_PER_HOUR),
      potentiallyThresholdedRequestsPerHour: status(0, THRESHOLDED_PER_HOUR),
      tokensPerProjectPerHour: status(tokens, Math.max(0, limit.tokensPerProjectPerHour - hour)),
    };
  }

  /** Takes a concurrency slot of the category; the 429 when all slots of the property are busy. */
  acquire(kind: QuotaKind, propertyId: string): () => void {
    const key = `${kind}:${propertyId}`;
    const current = this.inFlight.get(key) ?? 0;
    if (current >= this.limits[kind].concurrentRequests) {
      throw new RpcError("RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota.");
    }
    this.inFlight.set(key, current + 1);
    if (kind === "core")
      this.maxInFlight[propertyId] = Math.max(this.maxInFlight[propertyId] ?? 0, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(key, (this.inFlight.get(key) ?? 1) - 1);
    };
  }
}
