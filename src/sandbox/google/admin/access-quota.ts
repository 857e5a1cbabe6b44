/**
 * The quota a property's data access reports use, returned with `returnEntityQuota`
 * (https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties/runAccessReport:
 * "Toggles whether to return the current state of this Analytics Property's quota. Quota is returned in
 * AccessQuota. For account-level requests, this field must be false."). The buckets and their sizes are
 * AccessQuota's in analyticsadmin v1beta: 250,000 tokens per day, 50,000 per hour, 25 % of the hour per
 * project (12,500), 50 concurrent requests, 50 server errors per project per hour. Each report costs one
 * token here (inferred: "Most requests consume fewer than 10 tokens"); windows are rolling. Values are
 * "including this request" and an empty bucket is `{}`-free: proto3 JSON leaves out the zero `consumed`
 * of the buckets a request does not draw on.
 */
import type { GoogleWorld } from "../world.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const TOKENS_PER_DAY = 250_000;
const TOKENS_PER_HOUR = 50_000;
const TOKENS_PER_PROJECT_PER_HOUR = 12_500;
const CONCURRENT_REQUESTS = 50;
const SERVER_ERRORS_PER_PROJECT_PER_HOUR = 50;
const COST = 1;

/** Per world, per property: when each access report was charged. */
const ledgers = new WeakMap<GoogleWorld, Map<string, number[]>>();

/** Charges one access report to the property and returns its AccessQuota, this request included. */
export function chargeAccessReport(
  world: GoogleWorld,
  propertyId: string,
  now: number,
): Record<string, unknown> {
  const ledger = ledgers.get(world) ?? new Map<string, number[]>();
  ledgers.set(world, ledger);
  const charges = (ledger.get(propertyId) ?? []).filter((at) => at > now - DAY_MS);
  charges.push(now);
  ledger.set(propertyId, charges);
  const day = charges.length * COST;
  const hour = charges.filter((at) => at > now - HOUR_MS).length * COST;
  const status = (limit: number, used: number) => ({ consumed: COST, remaining: Math.max(0, limit - used) });
  return {
    tokensPerDay: status(TOKENS_PER_DAY, day),
    tokensPerHour: status(TOKENS_PER_HOUR, hour),
    concurrentRequests: { remaining: CONCURRENT_REQUESTS },
    serverErrorsPerProjectPerHour: { remaining: SERVER_ERRORS_PER_PROJECT_PER_HOUR },
    tokensPerProjectPerHour: status(TOKENS_PER_PROJECT_PER_HOUR, hour),
  };
}
