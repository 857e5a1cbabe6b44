/**
 * A property's GA4 token quota as the Google card states it: only figures Google reported, each for what it
 * is, with when. In a report's `propertyQuota`, a QuotaStatus's `consumed` is what that one request
 * consumed and `remaining` what was left after it
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/PropertyQuota): "1 used,
 * 199,990 left" read as if the two added up to the quota, and they do not. A status Google sent without one
 * of them means 0 (proto3 leaves zeros out); a status Google did not send is not shown.
 */

export interface QuotaStatus {
  consumed?: number;
  remaining?: number;
}

export interface QuotaSeen {
  propertyId: string;
  kind: "core" | "realtime";
  seenAt: string;
  quotas: { tokensPerDay?: QuotaStatus; tokensPerHour?: QuotaStatus };
}

const tokens = (n: number) => `${n.toLocaleString("en-US")} token${n === 1 ? "" : "s"}`;

/** What the last report cost: one number, deducted from every bucket (PropertyQuota.tokensPerHour). */
function cost(day: QuotaStatus | undefined, hour: QuotaStatus | undefined): string | undefined {
  if (!day && !hour) return undefined;
  const [d, h] = [day?.consumed ?? 0, hour?.consumed ?? 0];
  if (!day || !hour || d === h) return `the report cost ${tokens(day ? d : h)}`;
  return `the report cost ${tokens(d)} of the daily quota and ${tokens(h)} of the hourly`;
}

/** What was left after it, per bucket Google reported. */
function left(day: QuotaStatus | undefined, hour: QuotaStatus | undefined): string | undefined {
  const n = (status: QuotaStatus) => (status.remaining ?? 0).toLocaleString("en-US");
  const parts = [...(day ? [`${n(day)} per day`] : []), ...(hour ? [`${n(hour)} per hour`] : [])];
  if (parts.length === 0) return undefined;
  return `Google then had ${parts.join(" and ").replace(" per ", " tokens per ")} left`;
}

/**
 * "Acme Store, core reports, last report 1 Dec 2026, 21:40 UTC: the report cost 1 token; Google then had
 * 199,990 tokens per day and 39,990 per hour left." `when` words the time (time-words.ts); the
 * property goes by its display name (`name`, from the account's listing), by its id only while that is
 * not known (trial s5, finding 8: "Property 412345671").
 */
export function quotaLine(seen: QuotaSeen, when: (iso: string) => string, name?: string): string {
  const { tokensPerDay: day, tokensPerHour: hour } = seen.quotas;
  const figures = [cost(day, hour), left(day, hour)].filter(Boolean).join("; ");
  const kind = seen.kind === "realtime" ? "realtime" : "core";
  const head = `${name ?? `Property ${seen.propertyId}`}, ${kind} reports, last report ${when(seen.seenAt)}`;
  return figures ? `${head}: ${figures}.` : `${head}: Google reported no token figures.`;
}
