/** The summary's words on count_by's sum (src/tools/records/sum.ts), beside the count's (compute-words.ts). */

import { n, plural } from "../numbers-in-words.js";
import type { RecordCompute } from "../records/compute.js";
import { sumOfSpec } from "../records/compute-spec.js";
import { EMPTY_COLUMN } from "../records/pivot.js";
import { sumList, sumScope } from "../records/sum.js";
import { sumFields } from "../records/sum-difference.js";
import { isEmpty, textOf } from "../records/values.js";

/**
 * What a sum adds, and its total. Counted through a list (tags.tagType) with a sum outside it (costs.cost), a
 * record adds its sum to the row of each of its items: the rows then add up to more than the records' own total,
 * and both are said (review s26, finding 7).
 */
/** A sum of a field outside the list count_by counts through, which a record adds once per item. */
export const outsideSum = ({ spec, unnest }: RecordCompute): boolean =>
  spec.sum !== undefined &&
  unnest.lists.size > 0 &&
  ![...unnest.lists].some((list) => sumFields(sumOfSpec(spec)).some((f) => f.startsWith(`${list}.`)));

/** The objects the step adds to a record (lead-join.ts, activity-previous.ts): a sum through one adds no list's items. */
export const OBJECTS = ["lead", "previous", "next"] as const;

/** The most rows whose records without a value are named one by one. */
const MAX_ROWS_SAID = 10;

export function sumWords(compute: RecordCompute, unit: string): string {
  const { spec, unnest } = compute;
  const sum = spec.sum ?? "";
  const summed = sumOfSpec(spec) ?? sum;
  const scope = sumScope(summed, sumList(summed, spec.where?.expression), OBJECTS);
  const read = sumFields(summed);
  const of = [...unnest.lists].some((list) => read.some((f) => f.startsWith(`${list}.`))) ? "item" : unit;
  if (compute.sumRange) return dateWords(compute, sum, of);
  const total = compute.sumTotal ?? 0;
  if (outsideSum(compute) && compute.recordsSum !== total) {
    const lists = [...unnest.lists].join(", ");
    return (
      `each row's sum adds its items' ${unit}s' ${sum}${scope}: a ${unit} with several items of ${lists} adds to the ` +
      `row of each, so the rows add up to ${n(total)} (computed.sum), and the ${unit}s' own ${sum} to ${n(compute.recordsSum)} (computed.records_sum); each row's mean is its sum over its ${unit}s with a ${sum}, its median their middle ${sum} (${emptyWords(compute, unit, sum)})${percentileWords(spec.percentile)}`
    );
  }
  // The mean is over the records that have a value: an agent spent a call checking for empty ones (trial s24, N299).
  // Counted through the list the sum reads, it is over the items (review s28, finding 12).
  // Through a list, a record's value is its items' sum, which the median, min and max take (review s41, 6).
  // A difference is one value a record, not a sum of a list's (sum-difference.ts).
  const values = of === unit && scope && typeof summed === "string" ? `${unit}s' sums` : "values";
  const percentile = percentileWords(spec.percentile);
  return `each row's sum adds its ${of}s' ${sum}${scope}: ${n(total)} in all; its mean is that sum over those of its ${of}s with a ${sum}, its median, min and max the middle, least and greatest of their ${values} (${emptyWords(compute, of, sum)})${percentile}`;
}

/**
 * How many records have no value of the sum's field, by row when few: an agent spent a call counting them (trial s44,
 * N608). Counted through a list, a row counts items (review s54, F4); rows min_count or limit leave out are counted
 * too, and said (F5); an empty row value reads "(empty)", as a table's column does (F6).
 */
function emptyWords(compute: RecordCompute, of: string, sum: string): string {
  const rows = compute.sumEmpty ?? [];
  const empty = rows.reduce((total, row) => total + row.empty, 0);
  const lists = [...compute.unnest.lists];
  const items = lists.length > 0 && of !== "item";
  if (empty === 0) return `every ${items ? "item" : of} counted has one`;
  const value = (v: unknown) => (isEmpty(v) ? EMPTY_COLUMN : textOf(v));
  const named = (row: { values: unknown[] }) => row.values.map(value).join(" / ");
  // In the table's order (compute.sumEmpty).
  const each = rows.filter((row) => row.empty > 0);
  const by =
    rows.length > 1 && each.length <= MAX_ROWS_SAID
      ? `: ${each.map((row) => `${named(row)} ${n(row.empty)}`).join(", ")}`
      : "";
  // Said only when min_count or limit left a row out (review s55, F7: said of limit 100 over 4 rows).
  const { minCount, limit, each: per } = compute.spec;
  const kept = minCount === undefined ? rows.length : (compute.kept?.groups ?? rows.length);
  const left = kept < rows.length || (limit !== undefined && limit < kept) || per !== undefined;
  const all = left ? ", over every row counted (rows left out by min_count or limit too)" : "";
  const what = items
    ? `${plural(empty, "item")} of ${lists.join(", ")} whose ${of} has no ${sum}`
    : `${plural(empty, of)} with no ${sum}`;
  return `${what} ${empty === 1 ? "is" : "are"} left out${by}${all}`;
}

/**
 * A sum of dates: each row's first and last, which are not added, as the records write them; with a zone, one
 * without an offset is on its clock (review s41, 8: a New York day's max read as the next day in UTC, unexplained).
 */
function dateWords(compute: RecordCompute, sum: string, of: string): string {
  const { min, max } = compute.sumRange ?? {};
  const zone = compute.spec.zone;
  const clock = zone ? `, as written (one without an offset on ${zone}'s clock; Z is UTC)` : "";
  const p = compute.spec.percentile;
  // A :columns table's rows have min and max only (records/pivot-dates.ts).
  const middles = compute.spec.columns
    ? ""
    : `, its median${p === undefined ? "" : ` and p${p}`} the ${sum} ${p === undefined ? "half" : `half and ${p} %`} of them are at or before (one record's own, of two middle ones the earlier)`;
  return `${sum} holds dates, which are not added: each row's min and max are its ${of}s' first and last ${sum}${clock}${middles} (empty ones are left out), from ${String(min)} to ${String(max)} over every ${of} counted (rows left out by min_count or limit too)`;
}

/** A sum's percentile in words ("" without one): every form of the sum's words says it (review s52, 8). */
const percentileWords = (p: number | undefined): string =>
  p === undefined
    ? ""
    : `; its p${p} the value ${p} % of them are at or below (between the two nearest, as PERCENTILE.INC)`;
