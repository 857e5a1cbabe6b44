/**
 * What the summary says of count_by with a ":columns" field (records/pivot.ts): what the rows and the columns
 * are, what a cell holds, and that each row adds up to its total and the totals to the records counted, so a
 * model reads the table as the whole answer and adds nothing itself (trial 2026-12-03, N44 and N45).
 */

import { n, plural } from "../numbers-in-words.js";
import type { RecordCompute } from "../records/compute.js";
import { sumOfSpec } from "../records/compute-spec.js";
import { EMPTY_COLUMN } from "../records/pivot.js";
import { sumList, sumScope, tidySum } from "../records/sum.js";
import { OBJECTS } from "./sum-words.js";

/** The columns a summary names, the first few of many. */
const LISTED = 30;

/** The pivot's words, `zeros` the long form's words for values named in the request and not counted. */
export function pivotWords(compute: RecordCompute, unit: string, zeros: string): string[] {
  // Counted through a list, the cells count its items (unnest.ts: review s26, finding 13).
  const through = compute.unnest.lists.size > 0;
  const counted = through ? compute.unnest.items + compute.unnest.whole : compute.matched;
  const lists = [...compute.unnest.lists].join(", ");
  const countsOf = (k: number) =>
    through ? `${k === 1 ? "item" : "items"} of ${lists}` : `${unit}${k === 1 ? "" : "s"}`;
  const counts = countsOf(2);
  const { spec, pivot } = compute;
  if (!pivot || !spec.columns) return [];
  const field = spec.columns;
  const rowFields = (spec.countBy ?? []).filter((name) => name !== field);
  const over = spec.where
    ? `the ${n(compute.matched)} matching ${unit}s`
    : `all ${plural(compute.matched, unit)}`;
  const folded = spec.ignoreCase ? " ignoring case and outer spaces" : "";
  const kept = spec.minCount === undefined ? undefined : compute.kept;
  // min_count keeps the rows of that many records or more: the totals add up to theirs (trial s44, N608).
  const rows = kept
    ? `${plural(kept.groups, "row")} of ${n(spec.minCount ?? 0)} or more ${counts} (${n(kept.records)} ${countsOf(kept.records)}; min_count ${n(spec.minCount ?? 0)}; those with fewer are left out)`
    : plural(pivot.rows.length, "row");
  const by =
    rowFields.length > 0
      ? `counted by ${rowFields.join(", ")}${folded}, with ${field}'s values as columns: ${rows} over ${over}${zeros}`
      : `counted by ${field}${folded}, its values as the columns of one row, over ${over}${zeros}`;
  const names = pivot.columns;
  const dated = spec.buckets?.some((bucket) => bucket.column === rowFields[0]);
  const more = names.length > LISTED ? `, and ${n(names.length - LISTED)} more` : "";
  const empty = names.includes(EMPTY_COLUMN) ? ` (${EMPTY_COLUMN}: ${unit}s with no ${field})` : "";
  // Dates are not added: the cells count, and each row has its first and last (records/pivot-dates.ts).
  const dates = compute.sumRange !== undefined;
  const cell =
    dates && !spec.distinct
      ? `each cell counts its ${counts}`
      : spec.sum && !dates
        ? `each cell adds its ${unit}s' ${spec.sum}${sumScope(sumOfSpec(spec) ?? spec.sum, sumList(sumOfSpec(spec), spec.where?.expression), OBJECTS)}`
        : spec.distinct
          ? `each cell is its count of distinct ${spec.distinct}`
          : `each cell counts its ${counts}`;
  const totals = pivot.columnTotals;
  // With min_count, the rows kept add up to their columns' totals, a sum's too (the columns total only those rows).
  const keptTotal = kept && totals ? tidySum(totals.reduce((sum, total) => sum + total, 0)) : undefined;
  const adds = spec.distinct
    ? "distinct counts do not add up, so there is no total"
    : `each row adds up to its total, and the totals add up to ${n(keptTotal ?? (spec.sum && !dates ? (compute.sumTotal ?? 0) : counted))}`;
  // Each column with its total, when cells add up: the sums a model would otherwise make (trial s10, N69).
  const listed = names
    .slice(0, LISTED)
    .map((name, i) => (totals ? `${name} (${n(totals[i] ?? 0)} in all)` : name))
    .join(", ");
  return [
    by,
    // No row kept, no column (review s55, F3: "columns: activityType values ;").
    names.length > 0
      ? `columns: ${field} values ${listed}${more}${empty}`
      : `no ${field} columns: no row is kept`,
    `${cell}, 0 where none; ${adds}`,
    // A row of no dated record has none: said, as the rows show null (review s57's notes).
    ...(dates
      ? [`each row's min and max are its ${unit}s' first and last ${spec.sum} (null where none has one)`]
      : []),
    ...(pivot.filled > 0 ? [`${plural(pivot.filled, "column")} of ${field} with no record listed at 0`] : []),
    ...(pivot.unfilled !== undefined
      ? [
          `the ${field} columns span too long to list those with no record between them (count by a longer unit)`,
        ]
      : []),
    // Rates asked for in order_by, computed here from the counts (pivot-rates.ts).
    ...(pivot.rates ?? []).map(
      (rate) =>
        `${rate.words}${rate.name.endsWith("%") ? ", to 0.1" : ", to 4 decimals"}, null where it would divide by 0`,
    ),
    // Rows by a date are in date order, which bucketWords says.
    ...(spec.order || dated ? [] : [rowOrderWords(compute, names[0])]),
  ];
}

/** The rows' order when order_by names none (and the rows are not by a date). */
function rowOrderWords(compute: RecordCompute, first: string | undefined): string {
  if (compute.spec.distinct)
    return `rows by ${first ?? "their first column"}, largest first (order_by names another column)`;
  return 'rows by total, largest first (order_by "-<column>" ranks by a column)';
}
