/**
 * The Google room's log warnings: a step's answer that shows a property's GA token quota running low
 * (`quota.tokens_per_hour.remaining`, as src/tools/ga/report-flatten.ts summarises `propertyQuota`:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/quotas); a report over several
 * properties has each one's quota in its line of `properties` (src/tools/ga/report-properties-answer.ts).
 */
import { LOW_TOKENS } from "../../connectors/google/quota.js";
import type { RoomLogEntry } from "../types.js";

export function googleLogWarnings(answer: object): RoomLogEntry[] {
  const { quota, properties } = answer as { quota?: unknown; properties?: unknown };
  const each = Array.isArray(properties)
    ? (properties as { quota?: unknown; property_name?: unknown }[])
    : [];
  return [
    ...lowQuota(quota, "this property"),
    ...each.flatMap((p) =>
      lowQuota(p.quota, typeof p.property_name === "string" ? p.property_name : "a property"),
    ),
  ];
}

function lowQuota(quota: unknown, which: string): RoomLogEntry[] {
  if (typeof quota !== "object" || quota === null) return [];
  const entries: RoomLogEntry[] = [];
  for (const [period, status] of Object.entries(quota as Record<string, unknown>)) {
    const remaining = (status as { remaining?: unknown } | undefined)?.remaining;
    if (typeof remaining === "number" && remaining < LOW_TOKENS) {
      entries.push({
        level: "warning",
        message: `Only ${remaining} Google Analytics quota tokens are left (${period.replaceAll("_", " ")}) for ${which}.`,
        data: { period, remaining },
      });
    }
  }
  return entries;
}
