/**
 * The Google room's log warnings: a step's answer that shows the property's GA token quota running low
 * (`quota.tokens_per_hour.remaining`, as src/tools/ga/report-flatten.ts summarises `propertyQuota`:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/quotas).
 */
import { LOW_TOKENS } from "../../connectors/google/quota.js";
import type { RoomLogEntry } from "../types.js";

export function googleLogWarnings(answer: object): RoomLogEntry[] {
  const { quota } = answer as { quota?: unknown };
  if (typeof quota !== "object" || quota === null) return [];
  const entries: RoomLogEntry[] = [];
  for (const [period, status] of Object.entries(quota as Record<string, unknown>)) {
    const remaining = (status as { remaining?: unknown } | undefined)?.remaining;
    if (typeof remaining === "number" && remaining < LOW_TOKENS) {
      entries.push({
        level: "warning",
        message: `Only ${remaining} Google Analytics quota tokens are left (${period.replaceAll("_", " ")}) for this property.`,
        data: { period, remaining },
      });
    }
  }
  return entries;
}
