/** The summary's words on count_by's buckets (src/tools/records/buckets.ts): dates and numbers' bands. */

import { n, plural } from "../numbers-in-words.js";
import { CYCLES, MAX_FILLED, unitWords } from "../records/buckets.js";
import type { RecordCompute } from "../records/compute.js";

/**
 * Date buckets: the clock they read (the zone, or UTC), and, counted by date first, the buckets listed in date
 * order with those where no record fell (agent trial s7, N23).
 */
export function bucketWords(compute: RecordCompute): string[] {
  const { buckets, zone, countBy } = compute.spec;
  if (!buckets) return [];
  const clock = zone ?? "UTC (time_zone names another zone)";
  const parts = buckets.map(({ column, field, unit, width, edges }) =>
    unit === "band"
      ? `${column} is the ${unitWords(unit, width, edges)} of ${field}`
      : `${column} is the ${unitWords(unit)} of ${field} in ${clock}`,
  );
  // Said once, as the days' clock is a choice: Marketo's REST API has no field for the instance's zone (none
  // in its Swagger definitions), which its own reports' days follow (agent trial s9, N44 looked for it).
  if (buckets.some(({ unit }) => unit !== "band"))
    parts.push("Marketo's API does not give the instance's own time zone");
  const first = buckets.find(({ column }) => column === countBy?.[0]);
  // A pivot of one date field lists its dates as columns (pivot-words.ts says so); no row, no order to tell.
  if (!first || first.column === compute.spec.columns || (compute.groups ?? 0) === 0) return parts;
  const units = `${first.unit}s`;
  const cycles = (countBy ?? []).map(
    (column) => CYCLES[buckets.find((b) => b.column === column)?.unit ?? "day"],
  );
  if (cycles[0]) {
    const all = cycles.every(Boolean);
    const cells = all
      ? cycles.reduce((product, cycle) => product * (cycle?.length ?? 1), 1)
      : cycles[0].length;
    const what = all && cycles.length > 1 ? `${(countBy ?? []).join(" × ")} cells` : units;
    const order = compute.spec.order ? "" : `rows in ${first.unit} order (${cycles[0][0]} first); `;
    if (compute.spec.minCount) return parts;
    const gaps = compute.gaps > 0 ? `: ${n(compute.gaps)} with no record, count 0` : "";
    parts.push(`${order}all ${n(cells)} ${what} listed${gaps}`);
    return parts;
  }
  const order = compute.spec.order ? "" : `rows in ${first.unit === "band" ? "band" : "date"} order; `;
  if (compute.unfilled !== undefined) {
    parts.push(
      `${order}the ${n(compute.unfilled)} ${units} counted span more than ${n(MAX_FILLED)} ${units}, so those ` +
        `with no record between them are not listed (count by a ${first.unit === "band" ? "wider band" : "longer unit"} to see them)`,
    );
  } else if (!compute.spec.minCount) {
    parts.push(
      `${order}every ${first.unit} from the first to the last counted listed` +
        (compute.gaps > 0 ? `: ${plural(compute.gaps, first.unit)} with no record, count 0` : ""),
    );
  }
  return parts;
}
