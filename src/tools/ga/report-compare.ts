import { timeValue } from "../../charts/model.js";
import type { StatedRange } from "./date-presets.js";
import { rangeLabels } from "./period-words.js";
import type { FlatRow } from "./report-flatten.js";
import { type MergedOrder, sortMerged } from "./report-merged-order.js";
import { type Pairing, pairedColumn, pairing, pairingNote, positionOf, valueAt } from "./report-pairs.js";

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
  /** The dimensions of absolute dates paired by position, and whether rows have a change (report-pairs.ts). */
  pairing: Pairing;
  /** Metrics whose change is not worked out, and why (a running range's mean a day). */
  withheld?: Withheld | undefined;
}

/** Metrics whose change between the ranges is not worked out, and why. */
export interface Withheld {
  metrics: readonly string[];
  why: string;
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
  pairing: Pairing;
  absentFor?: AbsentValue | undefined;
  withheld?: Withheld | undefined;
}

/**
 * What a merged row shows for a metric of a range that has no GA row for it, when that is not GA's 0: no value
 * (null) for a ratio (0 / 0) or a mean over no day that can have data (review s25, finding 11); undefined keeps
 * the default.
 */
export type AbsentValue = (metric: string, range: number, row: FlatRow) => null | undefined;

/**
 * A GA row's combination: its dimensions' values, a paired dimension's by its position in the row's period
 * ("#3"; a value outside the period, which GA does not return, keeps its own, "=20261127").
 */
function combination(row: FlatRow, index: number, m: Merge): FlatRow {
  const key: FlatRow = {};
  for (const name of m.dimensions) {
    if (name === DATE_RANGE) continue;
    const value = row[name] ?? null;
    if (!m.pairing.dimensions.includes(name)) key[name] = value;
    else {
      const position = positionOf(m.pairing, name, String(value), index);
      key[name] = position === undefined ? `=${value}` : `#${position}`;
    }
  }
  return key;
}

/** A merged row's combination as the answer shows it: a paired dimension's value in each period. */
function shownKey(key: FlatRow, m: Merge, own: readonly (FlatRow | undefined)[]): FlatRow {
  const out: FlatRow = {};
  for (const [name, value] of Object.entries(key)) {
    if (!m.pairing.dimensions.includes(name)) out[name] = value;
    else {
      const text = String(value);
      for (const [index, label] of m.labels.entries()) {
        out[pairedColumn(name, label)] = text.startsWith("#")
          ? valueAt(m.pairing, name, text.slice(1), index)
          : (own[index]?.[name] ?? null);
      }
    }
  }
  return out;
}

/** Whether a period has the merged row's position at all (a shorter period lacks the longer one's last days). */
function inPeriod(shown: FlatRow, m: Merge, index: number): boolean {
  const label = m.labels[index] ?? "";
  return m.pairing.dimensions.every((name) => shown[pairedColumn(name, label)] !== null);
}

/** A merged row's dimension values in one range: a paired dimension's value there (its column of that range). */
function valuesIn(out: FlatRow, m: Merge, index: number): FlatRow {
  const label = m.labels[index] ?? "";
  return Object.fromEntries(
    m.dimensions
      .filter((name) => name !== DATE_RANGE)
      .map((name) => [
        name,
        m.pairing.dimensions.includes(name) ? (out[pairedColumn(name, label)] ?? null) : (out[name] ?? null),
      ]),
  );
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
    const key = combination(row, index, m);
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, values: [undefined, undefined] };
    group.values[index] = row;
    groups.set(id, group);
  }
  const [from, to] = m.order;
  const absent = { from: 0, to: 0 };
  const merged = [...groups.values()].map(({ key, values }) => {
    const out: FlatRow = shownKey(key, m, values);
    const has = m.labels.map((_, index) => inPeriod(out, m, index));
    if (!values[from] && has[from]) absent.from += 1;
    if (!values[to] && has[to]) absent.to += 1;
    for (const metric of m.metrics) {
      const missing = (index: number) =>
        m.absentFor?.(metric, index, valuesIn(out, m, index)) === null ? null : m.absentAs;
      const value = (index: number) =>
        values[index] ? (values[index]?.[metric] ?? null) : has[index] ? missing(index) : null;
      for (const [index, label] of m.labels.entries()) out[`${metric}[${label}]`] = value(index);
      const delta =
        m.pairing.changes && !m.withheld?.metrics.includes(metric)
          ? change(value(from), value(to))
          : { change: null, pct: null };
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

/**
 * How a merged row is named: its dimensions' values, "France / mobile"; a paired dimension's two values as
 * people read them, the later period's first, "2026-11-27 vs 2025-11-28".
 */
function rowName(shown: readonly string[], pairs: Pairing, labels: { from: string; to: string }) {
  return (row: FlatRow): string => {
    if (shown.length === 0) return "total";
    return shown
      .map((name) => {
        if (!pairs.dimensions.includes(name)) return row[name];
        const [to, from] = [labels.to, labels.from].map((l) => timeValue(name, row[pairedColumn(name, l)]));
        return `${to ?? "–"} vs ${from ?? "–"}`;
      })
      .join(" / ");
  };
}

/** "France +120 (+25%)" for the rows whose first metric changed most, largest first. */
function movers(
  rows: readonly FlatRow[],
  name: (row: FlatRow) => string,
  metric: string | undefined,
): string[] {
  if (!metric) return [];
  return rows
    .filter((row) => typeof row[`${metric}_change`] === "number" && row[`${metric}_change`] !== 0)
    .sort((a, b) => Math.abs(Number(b[`${metric}_change`])) - Math.abs(Number(a[`${metric}_change`])))
    .slice(0, 3)
    .map((row) => {
      const pct = row[`${metric}_change_pct`];
      return `${name(row)} ${signed(Number(row[`${metric}_change`]))}${typeof pct === "number" ? ` (${signed(pct)}%)` : ""}`;
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
  options: {
    order: readonly MergedOrder[];
    metricFilter: boolean;
    absentFor?: AbsentValue | undefined;
    withheld?: Withheld | undefined;
  },
): Comparison | undefined {
  if (ranges.length !== 2) return undefined;
  const { dimensions, metrics } = names;
  const labels = rangeLabels(ranges);
  const order = changeOrder(ranges);
  const absentAs = options.metricFilter ? null : 0;
  const shown = dimensions.filter((name) => name !== DATE_RANGE);
  const pairs = pairing(shown, ranges);
  const withheld = options.withheld?.metrics.some((metric) => metrics.includes(metric))
    ? options.withheld
    : undefined;
  const base = { metrics, labels, ranges, order, absentFor: options.absentFor, withheld };
  const merged = merge(report.rows, { ...base, dimensions, absentAs, pairing: pairs });
  // Totals carry the dateRange cell as well (one total per range); a range with no rows has no total: 0.
  const none = pairing([], ranges);
  const totals =
    report.totals.length > 0
      ? merge(report.totals, { ...base, dimensions: [DATE_RANGE], absentAs: 0, pairing: none }).rows
      : [];
  // A paired dimension sorts by its value in the later period (its positions' order), ties too.
  const later = labels[order[1]] as string;
  const column = (name: string) => (pairs.dimensions.includes(name) ? pairedColumn(name, later) : name);
  const sorted = options.order.map((key) => (key.orderType ? { ...key, column: column(key.column) } : key));
  // Ties by every shown column (the earlier period's value too: a longer period's last days have no later one).
  const earlier = labels[order[0]] as string;
  const ties = shown.flatMap((name) =>
    pairs.dimensions.includes(name) ? [column(name), pairedColumn(name, earlier)] : [name],
  );
  const rows = sortMerged(merged.rows, sorted, ties);
  const columns = [
    ...shown.flatMap((name) =>
      pairs.dimensions.includes(name) ? labels.map((label) => pairedColumn(name, label)) : [name],
    ),
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
    movers: movers(rows, rowName(shown, pairs, { from: earlier, to: later }), metrics[0]),
    absent: merged.absent,
    absentAs,
    gaRows: report.rows.length,
    pairing: pairs,
    ...(withheld ? { withheld } : {}),
  };
}

/** The periods' labels in the request's order. */
const requestLabels = (c: Comparison) => (c.order[0] === 0 ? [c.from, c.to] : [c.to, c.from]);

/** How rows by an absolute date pair the periods, or why they have no change (report-pairs.ts). */
export const comparisonPairing = (c: Comparison) => pairingNote(c.pairing, requestLabels(c));

/** What the merged rows hold, and what a combination with no GA row in one range reads there. */
export function comparisonHints(comparison: Comparison): string[] {
  const paired = comparisonPairing(comparison);
  const hints = [
    `GA's ${comparison.gaRows} rows of the whole report (one per combination and date range) are merged into ` +
      `${comparison.rows.length}, one per combination: each metric per range as <metric>[<range>], and ` +
      `<metric>_change and <metric>_change_pct from ${comparison.from} to ${comparison.to} (to 2 decimals, or ` +
      `4 significant digits under 1, so a rate's change of a few thousandths is kept). offset, limit and ` +
      "next_offset count these merged rows.",
    ...(paired ? [paired] : []),
    ...(comparison.withheld
      ? [
          `${comparison.withheld.metrics.map((m) => `${m}_change`).join(", ")} not worked out: ${comparison.withheld.why}.`,
        ]
      : []),
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
          "are 0 (a change to 0 is −100 %; a change from 0 has no percentage: its change_pct is null)" +
          // A ratio there is 0 / 0, and a mean a day over no day that can have data is none (review s25, 11).
          (comparison.columns.some((column) => column.includes("/"))
            ? "; a ratio, or a mean a day over no day that can have data, has none."
            : ".")
      : `GA returned no row for ${counts}: the metric filter may have removed it there, so those values, and ` +
          "their changes, are null (unknown), not 0.",
  );
  return hints;
}
