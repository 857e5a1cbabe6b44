import { rangeText, type StatedRange } from "./date-presets.js";
import type { FlatRow } from "./report-flatten.js";

/**
 * A report over two date ranges, one row per dimension combination instead of GA's one per combination and
 * range. With several date ranges GA adds a "dateRange" dimension whose value is the range's name, or
 * "date_range_<index>" for an unnamed one
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange#FIELDS.name),
 * so each row can be put back with its range.
 */
export interface Comparison {
  rows: FlatRow[];
  totals: FlatRow[];
  /** Which range the changes go from and to: the later range minus the earlier one. */
  from: string;
  to: string;
  /** The largest changes of the first metric, for the summary. */
  movers: string[];
  /** Combinations seen in only one range on this page. */
  incomplete: number;
}

const DATE_RANGE = "dateRange";

/** The label of a range in column names: its name, else its dates. */
export function rangeLabel(range: StatedRange): string {
  return range.name ?? rangeText(range);
}

function rangeIndex(value: unknown, ranges: readonly StatedRange[]): number {
  if (typeof value !== "string") return -1;
  const named = ranges.findIndex((range) => range.name === value);
  if (named >= 0) return named;
  const index = /^date_range_(\d+)$/.exec(value)?.[1];
  return index === undefined ? -1 : Number(index);
}

const round = (value: number) => Math.round(value * 100) / 100;

function change(from: unknown, to: unknown): { change: number | null; pct: number | null } {
  if (typeof from !== "number" || typeof to !== "number") return { change: null, pct: null };
  return { change: round(to - from), pct: from === 0 ? null : round(((to - from) / Math.abs(from)) * 100) };
}

/** Merges GA's rows of two ranges into one row per combination, with each metric per range and its change. */
function merge(
  rows: readonly FlatRow[],
  dimensions: readonly string[],
  metrics: readonly string[],
  ranges: readonly StatedRange[],
  order: readonly [number, number],
): { rows: FlatRow[]; incomplete: number } {
  const groups = new Map<string, { key: FlatRow; values: (FlatRow | undefined)[] }>();
  for (const row of rows) {
    const index = rangeIndex(row[DATE_RANGE], ranges);
    if (index < 0) continue;
    const key: FlatRow = {};
    for (const name of dimensions) if (name !== DATE_RANGE) key[name] = row[name] ?? null;
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, values: [undefined, undefined] };
    group.values[index] = row;
    groups.set(id, group);
  }
  const [from, to] = order;
  let incomplete = 0;
  const merged = [...groups.values()].map(({ key, values }) => {
    if (!values[0] || !values[1]) incomplete += 1;
    const out: FlatRow = { ...key };
    for (const metric of metrics) {
      for (const [index, range] of ranges.entries()) {
        out[`${metric}[${rangeLabel(range)}]`] = values[index]?.[metric] ?? null;
      }
      const delta = change(values[from]?.[metric], values[to]?.[metric]);
      out[`${metric}_change`] = delta.change;
      out[`${metric}_change_pct`] = delta.pct;
    }
    return out;
  });
  return { rows: merged, incomplete };
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

/**
 * The comparison of a two-range report; changes go from the earlier range to the later one (the first to the
 * second when both start on the same day), so "+" always means more in the later period.
 */
export function compareRanges(
  report: { rows: readonly FlatRow[]; totals: readonly FlatRow[] },
  dimensions: readonly string[],
  metrics: readonly string[],
  ranges: readonly StatedRange[],
): Comparison | undefined {
  const [first, second] = ranges;
  if (!first || !second || ranges.length !== 2) return undefined;
  const order: [number, number] = second.start_date < first.start_date ? [1, 0] : [0, 1];
  const rows = merge(report.rows, dimensions, metrics, ranges, order);
  // Totals carry the dateRange cell as well (one total per range).
  const totals = merge(report.totals, [DATE_RANGE], metrics, ranges, order).rows;
  const metric = metrics[0];
  const fromRange = ranges[order[0]] as StatedRange;
  const toRange = ranges[order[1]] as StatedRange;
  return {
    rows: rows.rows,
    totals,
    from: rangeLabel(fromRange),
    to: rangeLabel(toRange),
    movers: movers(rows.rows, dimensions, metric),
    incomplete: rows.incomplete,
  };
}

/**
 * Where the missing range's row of a merged row may be: on a later page, or, when this page starts after
 * an offset, on an earlier one too, which only a call from offset 0 brings onto the same page.
 */
function elsewhere(paging: { first: number; nextOffset: number | undefined; rowCount: number }): string {
  if (paging.first > 0) {
    const page = paging.nextOffset !== undefined ? "an earlier or a later page" : "an earlier page";
    return `, or the row is on ${page}: call again with offset 0 and limit ${paging.rowCount} to have both on one page`;
  }
  return paging.nextOffset !== undefined
    ? ", or the row is on a later page: raise limit to have both on one page"
    : "";
}

/** What the merged rows of a two-range report hold, and which rows miss a range. */
export function comparisonHints(
  comparison: Comparison,
  gaRows: number,
  paging: { first: number; nextOffset: number | undefined; rowCount: number },
): string[] {
  const hints = [
    `The ${gaRows} rows GA returned (one per combination and date range) are merged into ` +
      `${comparison.rows.length}: each metric per range as <metric>[<range>], and <metric>_change and ` +
      `<metric>_change_pct from ${comparison.from} to ${comparison.to}.`,
  ];
  if (comparison.incomplete > 0) {
    hints.push(
      `${comparison.incomplete} merged row(s) have a value in one date range only: GA returned no row for the ` +
        `other (no data there${elsewhere(paging)}); their change is null.`,
    );
  }
  return hints;
}
