/**
 * Property quotas of the Data API (https://developers.google.com/analytics/devguides/reporting/data/v1/quotas):
 * tokens per hour and per day per property (core and realtime counted apart), and concurrent requests
 * per property. Windows are rolling (the real day message says tokens "will return in under 24 hours").
 * "If any property quota is exhausted, every request to that property gets RESOURCE_EXHAUSTED."
 */
import { RpcError } from "./rpc.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** tokensPerProjectPerHour is 35% of tokensPerHour (PropertyQuota description in the discovery doc). */
const PROJECT_SHARE = 0.35;
const SERVER_ERRORS_PER_HOUR = 10;
const THRESHOLDED_PER_HOUR = 120;

export type QuotaKind = "core" | "realtime";

export interface TokenLimits {
  tokensPerHour: number;
  tokensPerDay: number;
}

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

  constructor(
    private readonly limits: Record<QuotaKind, TokenLimits>,
    private readonly concurrentRequests: number,
  ) {}

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

  /** Throws the real 429 when the property has no tokens left in either window. */
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
  }

  /** Records the cost of a finished report and returns the PropertyQuota "including this request". */
  charge(kind: QuotaKind, propertyId: string, now: number, tokens: number): Record<string, unknown> {
    const key = `${kind}:${propertyId}`;
    const list = this.charges.get(key) ?? [];
    list.push({ at: now, tokens });
    this.charges.set(key, list);
    const { hour, day } = this.used(kind, propertyId, now);
    const limit = this.limits[kind];
    const projectHour = Math.floor(limit.tokensPerHour * PROJECT_SHARE);
    return {
      tokensPerDay: status(tokens, Math.max(0, limit.tokensPerDay - day)),
      tokensPerHour: status(tokens, Math.max(0, limit.tokensPerHour - hour)),
      concurrentRequests: status(0, this.concurrentRequests),
      serverErrorsPerProjectPerHour: status(0, SERVER_ERRORS_PER_HOUR),
      potentiallyThresholdedRequestsPerHour: status(0, THRESHOLDED_PER_HOUR),
      // The sandbox serves one Cloud project, so the project share is reported but never enforced
      // before the property's own hourly limit.
      tokensPerProjectPerHour: status(tokens, Math.max(0, projectHour - hour)),
    };
  }

  /** Takes a concurrency slot for a core request; the 429 when all slots of the property are busy. */
  acquire(propertyId: string): () => void {
    const current = this.inFlight.get(propertyId) ?? 0;
    if (current >= this.concurrentRequests) {
      throw new RpcError("RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota.");
    }
    this.inFlight.set(propertyId, current + 1);
    this.maxInFlight[propertyId] = Math.max(this.maxInFlight[propertyId] ?? 0, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(propertyId, (this.inFlight.get(propertyId) ?? 1) - 1);
    };
  }
}
