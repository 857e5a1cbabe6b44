/**
 * What a count by two or more fields says of each field's own totals (compute-words.ts's count sentence adds it):
 * the first field's are what each row's percent_in_<first> divides by.
 */
import { n, plural } from "../numbers-in-words.js";
import { compareRows } from "../records/buckets.js";
import type { RecordCompute } from "../records/compute.js";

const MOST_FIRST_TOTALS = 24;

/**
 * "rows per createdAt:month, which percent_in_createdAt:month divides by: 2026-07 149; …" (trial s20, N219), and
 * each other field's own totals, "rows per utmMedium: cpc 60; …", so no row is added up (trial s22, N258: the
 * totals of two conditions were read off their combinations).
 */
export function fieldTotalsWords(compute: RecordCompute, unit: string): string[] {
  const fields = compute.spec.countBy ?? [];
  return fields.flatMap((field, at) => {
    const totals = compute.fieldTotals(at);
    if (!totals) return [];
    if (totals.length > MOST_FIRST_TOTALS) {
      return at === 0
        ? [`${plural(totals.length, `${field} value`)}: count by ${field} alone for each one's ${unit}s`]
        : [];
    }
    const divides = at === 0 ? `, which percent_in_${field} divides by` : "";
    return [`${unit}s per ${field}${divides}: ${totalsText(compute, field, totals)}`];
  });
}

/**
 * With count_distinct: its different values over every row, and by two or more fields each field's values' own, "1,822
 * distinct leadId over all; distinct leadId per lead.industry: Finance 310; …" (trial s42, N590: two calls more for
 * them; the rows cannot be added up to them, a lead being in several).
 */
export function distinctTotalsWords(compute: RecordCompute, unit: string): string[] {
  const { distinct, countBy = [] } = compute.spec;
  const overall = compute.distinctOverall;
  if (distinct === undefined || overall === undefined) return [];
  const perField = countBy.flatMap((field, at) => {
    const totals = compute.fieldTotals(at);
    if (!totals) return [];
    // Too many to list: said, not left out (review s52, 7).
    if (totals.length > MOST_FIRST_TOTALS)
      return [
        `${plural(totals.length, `${field} value`)}: count by ${field} alone for each one's distinct ${distinct}`,
      ];
    return [`distinct ${distinct} per ${field}: ${totalsText(compute, field, totals)}`];
  });
  // Over every row counted, those min_count or limit leave out too (review s52, 7).
  const { minCount, limit, each } = compute.spec;
  const all =
    minCount !== undefined || limit !== undefined || each !== undefined
      ? ", rows min_count or limit leave out too"
      : "";
  return [
    `${n(overall)} distinct ${distinct} over all the ${unit}s counted (one in several rows counts once${all})`,
    ...perField,
  ];
}

/** A field's values and their records, in the rows' order: a date or weekday bucket in its order, else largest first. */
function totalsText(
  compute: RecordCompute,
  field: string,
  totals: { value: unknown; count: number }[],
): string {
  const { buckets } = compute.spec;
  const dated = buckets?.some((bucket) => bucket.column === field);
  const keys = dated
    ? [{ field, desc: false }]
    : [
        { field: "count", desc: true },
        { field, desc: false },
      ];
  const rows = totals.map(({ value, count }) => ({ [field]: value, count }));
  const each = rows
    .sort(compareRows(keys, buckets))
    .map(
      (row) =>
        `${row[field] === null || row[field] === undefined ? "empty" : String(row[field])} ${n(row.count)}`,
    );
  return each.join("; ");
}
