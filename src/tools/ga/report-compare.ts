import type { StatedRange } from "./date-presets.js";
import { rangeLabels } from "./period-words.js";
import type { FlatRow } from "./report-flatten.js";
import { type MergedOrder, sortMerged } from "./report-merged-order.js";

/**
 * A report over two date ranges, one row per dimension combination instead of GA's one per combination and
 * range. With several date ranges GA adds a "dateRange" dimension whose value is the range's name, or
 * "date_range_<index>" for an unnamed one
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange#FIELDS.name),
 * so each row can be put back with its range. The comparison is made over every GA row of the report
 * (report-two-ranges.ts reads them all), so its rows, their order and the largest changes are the whole
 * report's, whatever page is shown.
 */
export interface Comparison {
  /** Every merged row, in the report's order. */
  rows: FlatRow[];
  totals: FlatRow[];
  /** The merged rows' columns, in order (dimensions, then per metric each range, change, change %). */
  columns: string[];
  /** Which range the changes go from and to: the later range minus the earlier one. */
  from: string;
  to: string;
  /** Indexes in the request's date ranges of `from` and `to`. */
  order: readonly [number, number];
  /** The largest changes of the first metric over every merged row, for the summary. */
  movers: string[];
  /** Combinations GA returned no row for in the earlier (`from`) and in the later (`to`) range. */
  absent: { from: number; to: number };
  /**
   * What a missing range's values read: 0, since GA leaves out a row whose metrics are all 0; or null when
   * a metric filter may have removed the row instead (its values there are then unknown).
   */
  absentAs: 0 | null;
  /** GA's rows merged (one per combination and range). */
  gaRows: number;
}

const DATE_RANGE = "dateRange";

function rangeIndex(value: unknown, ranges: readonly StatedRange[]): number {
  if (typeof value !== "string") return -1;
  const named = ranges.findIndex((range) => range.name === value);
  if (named >= 0) return named;
  const index = /^date_range_(\d+)$/.exec(value)?.[1];
  return index === undefined ? -1 : Number(index);
}

/**
 * A change kept to 2 decimals, or to 4 significant digits when it is under 1 in size: a rate's change
 * (engagementRate 0.0431 → 0.0398) is a few thousandths, which 2 decimals would report as 0. So `from` plus
 * the change gives `to` within 0.005, or within 0.05 % of the change; a change that is not 0 never reads 0,
 * and the float noise of a subtraction (0.0398 − 0.0431 = −0.0033000000000000004) is dropped.
 */
export function roundChange(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Number(Math.abs(value) < 1 ? value.toPrecision(4) : value.toFixed(2));
}

/** The change from `from` to `to`; in % only from a value that is not 0 (from 0 any growth is undefined). */
function change(from: unknown, to: unknown): { change: number | null; pct: number | null } {
  if (typeof from !== "number" || typeof to !== "number") return { change: null, pct: null };
  const pct = from === 0 ? null : roundChange(((to - from) / Math.abs(from)) * 100);
  return { change: roundChange(to - from), pct };
}

interface Merge {
  dimensions: readonly string[];
  metrics: readonly string[];
  labels: readonly string[];
  ranges: readonly StatedRange[];
  order: readonly [number, number];
  absentAs: 0 | null;
}

/** Merges GA's rows of two ranges into one row per combination, with each metric per range and its change. */
function merge(
  rows: readonly FlatRow[],
  m: Merge,
): { rows: FlatRow[]; absent: { from: number; to: number } } {
  const groups = new Map<string, { key: FlatRow; values: (FlatRow | undefined)[] }>();
  for (const row of rows) {
    const index = rangeIndex(row[DATE_RANGE], m.ranges);
    if (index < 0) continue;
    const key: FlatRow = {};
    for (const name of m.dimensions) if (name !== DATE_RANGE) key[name] = row[name] ?? null;
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, values: [undefined, undefined] };
    group.values[index] = row;
    groups.set(id, group);
  }
  const [from, to] = m.order;
  const absent = { from: 0, to: 0 };
  const merged = [...groups.values()].map(({ key, values }) => {
    if (!values[from]) absent.from += 1;
    if (!values[to]) absent.to += 1;
    const out: FlatRow = { ...key };
    for (const metric of m.metrics) {
      const value = (index: number) => (values[index] ? (values[index]?.[metric] ?? null) : m.absentAs);
      for (const [index, label] of m.labels.entries()) out[`${metric}[${label}]`] = value(index);
      const delta = change(value(from), value(to));
      out[`${metric}_change`] = delta.change;
      out[`${metric}_change_pct`] = delta.pct;
    }
    return out;
  });
  return { rows: merged, absent };
}

function signed(value: number): string {
  return `${value > 0 ? "+" : ""}${value}`;
}

/** "France +120 (+25%)" for the rows whose first metric changed most, largest first. */
function movers(
  rows: readonly FlatRow[],
  dimensions: readonly string[],
  metric: string | undefined,
): string[] {
  if (!metric) return [];
  const shown = dimensions.filter((name) => name !== DATE_RANGE);
  return rows
    .filter((row) => typeof row[`${metric}_change`] === "number" && row[`${metric}_change`] !== 0)
    .sort((a, b) => Math.abs(Number(b[`${metric}_change`])) - Math.abs(Number(a[`${metric}_change`])))
    .slice(0, 3)
    .map((row) => {
      const pct = row[`${metric}_change_pct`];
      const label = shown.length > 0 ? shown.map((name) => row[name]).join(" / ") : "total";
      return `${label} ${signed(Number(row[`${metric}_change`]))}${typeof pct === "number" ? ` (${signed(pct)}%)` : ""}`;
    });
}

/** Changes go from the earlier range to the later one (the first to the second when both start on the same day). */
export function changeOrder(ranges: readonly StatedRange[]): [number, number] {
  const [first, second] = ranges;
  return first && second && second.start_date < first.start_date ? [1, 0] : [0, 1];
}

/**
 * The comparison of a two-range report over all of GA's rows; changes go from the earlier range to the
 * later one, so "+" always means more in the later period. `order` is the merged rows' order (resolved by
 * report-merged-order.ts); `metricFilter` says whether a missing row may have been filtered out.
 */
export function compareRanges(
  report: { rows: readonly FlatRow[]; totals: readonly FlatRow[] },
  names: { dimensions: readonly string[]; metrics: readonly string[] },
  ranges: readonly StatedRange[],
  options: { order: readonly MergedOrder[]; metricFilter: boolean },
): Comparison | undefined {
  if (ranges.length !== 2) return undefined;
  const { dimensions, metrics } = names;
  const labels = rangeLabels(ranges);
  const order = changeOrder(ranges);
  const absentAs = options.metricFilter ? null : 0;
  const base = { metrics, labels, ranges, order };
  const merged = merge(report.rows, { ...base, dimensions, absentAs });
  // Totals carry the dateRange cell as well (one total per range); a range with no rows has no total: 0.
  const totals =
    report.totals.length > 0
      ? merge(report.totals, { ...base, dimensions: [DATE_RANGE], absentAs: 0 }).rows
      : [];
  const shown = dimensions.filter((name) => name !== DATE_RANGE);
  const rows = sortMerged(merged.rows, options.order, shown);
  const columns = [
    ...shown,
    ...metrics.flatMap((metric) => [
      ...labels.map((label) => `${metric}[${label}]`),
      `${metric}_change`,
      `${metric}_change_pct`,
    ]),
  ];
  return {
    rows,
    totals,
    columns,
    from: labels[order[0]] as string,
    to: labels[order[1]] as string,
    order,
    movers: movers(rows, dimensions, metrics[0]),
    absent: merged.absent,
    absentAs,
    gaRows: report.rows.length,
  };
}

/** What the merged rows hold, and what a combination with no GA row in one range reads there. */
export function comparisonHints(comparison: Comparison): string[] {
  const hints = [
    `GA's ${comparison.gaRows} rows of the whole report (one per combination and date range) are merged into ` +
      `${comparison.rows.length}, one per combination: each metric per range as <metric>[<range>], and ` +
      `<metric>_change and <metric>_change_pct from ${comparison.from} to ${comparison.to} (to 2 decimals, or ` +
      `4 significant digits under 1, so a rate's change of a few thousandths is kept). offset, limit and ` +
      "next_offset count these merged rows.",
  ];
  const { from, to } = comparison.absent;
  if (from + to === 0) return hints;
  const counts = [
    ...(to > 0 ? [`${to} in ${comparison.to}`] : []),
    ...(from > 0 ? [`${from} in ${comparison.from}`] : []),
  ].join(" and ");
  hints.push(
    comparison.absentAs === 0
      ? `GA returned no row for ${counts}: GA leaves out a row whose metrics are all 0, so their values there ` +
          "are 0 (a change to 0 is −100 %; a change from 0 has no percentage: its change_pct is null)."
      : `GA returned no row for ${counts}: the metric filter may have removed it there, so those values, and ` +
          "their changes, are null (unknown), not 0.",
  );
  return hints;
}
