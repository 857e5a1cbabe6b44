/**
 * The chart of a Run Reports result, as a model (model.ts): a line over time when a time dimension (date,
 * dateHour…) is in the report, bars otherwise, and a funnel for a funnel report. The step puts it on its
 * result; the console draws it with ECharts and MCP renders the very same chart to PNG (render-png.ts).
 * Fields are named as Google Analytics shows them ("Sessions", from the property's metadata uiName) and the
 * property by its display name. With two or more date ranges, each range is a series of its own over the
 * same categories: grouped bars per combination, or lines paired day by day, each named with its dates.
 */

import { type ChartModel, chartTitle, TIME_DIMENSIONS, type ValueUnit } from "../../charts/model.js";
import type { RunReportsOutput } from "../../schemas/google-analytics.js";
import { reportFilterWords } from "./filter-print.js";
import { periodWords, presetWords } from "./period-words.js";
import { askedOrder } from "./report-asked-order.js";
import { ABSOLUTE_TIME, pairedColumn, pairing, positionOf, presentPairing, valueAt } from "./report-pairs.js";

type Row = RunReportsOutput["rows"][number];
/** API name → the name Google Analytics shows (getMetadata's uiName); a name missing reads as itself. */
export type UiNames = Readonly<Record<string, string>>;

/** Bars beyond this many categories, or lines beyond this many series, would not be readable. */
const MAX_BARS = 20;
const MAX_LINES = 8;
/** The dimension GA appends to each row, holding its range's name, when a report has several ranges. */
const DATE_RANGE = "dateRange";

function names(request: Record<string, unknown>, key: "dimensions" | "metrics", rows: Row[]): string[] {
  const listed = request[key];
  const fromRequest = Array.isArray(listed)
    ? listed.flatMap((item) =>
        item && typeof item === "object" && typeof (item as { name?: unknown }).name === "string"
          ? [(item as { name: string }).name]
          : [],
      )
    : [];
  // Keep the names the rows carry: a realtime or edited request may differ from what came back.
  const present = new Set(rows.flatMap((row) => Object.keys(row)));
  return fromRequest.filter((name) => present.has(name));
}

const num = (value: Row[string] | undefined): number => (typeof value === "number" ? value : 0);
const label = (row: Row, dimensions: readonly string[]): string =>
  dimensions.map((d) => String(row[d] ?? "(not set)")).join(" / ") || "Total";

/** Map.groupBy arrived in Node 21; the package supports Node 20. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  // Pushed in place: copying the group on each row made a 10,000-row report's chart quadratic.
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/**
 * The date ranges the rows hold, in the request's order: GA names an unnamed range date_range_<its
 * index> and keeps a named one's name
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange).
 */
function rangeOrder(
  rows: readonly Row[],
  request: Record<string, unknown>,
): { order: string[]; index: (range: string) => number } {
  const listed = (Array.isArray(request.dateRanges) ? request.dateRanges : []).map((range: unknown) =>
    range && typeof range === "object" ? String((range as { name?: unknown }).name ?? "") : "",
  );
  const present = [...new Set(rows.map((row) => String(row[DATE_RANGE] ?? "")))];
  const index = (range: string) => {
    const named = listed.indexOf(range);
    if (named >= 0) return named;
    const unnamed = /^date_range_(\d+)$/.exec(range);
    return unnamed ? Number(unnamed[1]) : listed.length;
  };
  return { order: present.sort((a, b) => index(a) - index(b) || a.localeCompare(b)), index };
}

/**
 * How a range reads in the legend: its name with its dates, or for one GA named date_range_<i> (no name
 * given) its dates, as the answer states them ("Last 7 days (25 Nov – 1 Dec 2026)", "3 – 30 Nov 2026",
 * period-words.ts). A label says what was meant and the dates what was drawn: an example's "last 28 days"
 * left on a week read as 28 days (trial 2026-12-02-s8, finding 3). Without stated dates, the name (a
 * preset's in words, "Last 7 days": trial s7, finding 10).
 */
function rangeWords(output: RunReportsOutput): (range: string) => string {
  const words = periodWords(output.date_ranges);
  return (range) => {
    const said = words(range);
    return said === range ? presetWords(range) : said;
  };
}

const total = (rows: readonly Row[], metric: string) => rows.reduce((sum, row) => sum + num(row[metric]), 0);

function lineSeries(
  rows: Row[],
  time: string,
  others: string[],
  metrics: string[],
  ui: (n: string) => string,
) {
  const format = TIME_DIMENSIONS[time] ?? ((v: string) => v);
  const stamps = [...new Set(rows.map((row) => String(row[time] ?? "")))].sort();
  const at = new Map(stamps.map((stamp, index) => [stamp, index]));
  // With other dimensions, one line per combination of them (the largest first) for the first metric;
  // without, one line per metric.
  const groups =
    others.length === 0
      ? metrics.map((metric) => ({ name: ui(metric), metric, rows }))
      : [...groupBy(rows, (row) => label(row, others)).entries()]
          .map(([name, grouped]) => ({ name, metric: metrics[0] as string, rows: grouped }))
          .sort((a, b) => total(b.rows, b.metric) - total(a.rows, a.metric));
  const series = groups.slice(0, MAX_LINES).map((group) => {
    const data: number[] = stamps.map(() => 0);
    for (const row of group.rows) data[at.get(String(row[time] ?? "")) ?? 0]! += num(row[group.metric]);
    return { name: group.name, data, metric: group.metric };
  });
  const cut =
    groups.length > MAX_LINES ? `the ${MAX_LINES} largest of ${count(groups.length)} lines` : undefined;
  return { categories: stamps.map(format), series, cut };
}

/**
 * Where a row of one period sits along the time axis: a dimension of absolute dates (date, yearMonth…) by
 * its position in its period, as the table's rows pair them (report-pairs.ts: day 1 with day 1), named by
 * the longest period's value there; another (firstSessionDate) by its value, as the table merges it.
 */
function timeAxis(
  rows: readonly Row[],
  time: string,
  output: RunReportsOutput,
  order: readonly string[],
  index: (r: string) => number,
) {
  const stated = (output.date_ranges ?? []).map((r) => ({
    start_date: r.start_date ?? "",
    end_date: r.end_date ?? "",
  }));
  const dated = stated.length > 1 && stated.every((r) => r.start_date && r.end_date);
  const absolute = ABSOLUTE_TIME[time];
  const seen = () =>
    rows.map((row) => ({ value: String(row[time] ?? ""), range: index(String(row[DATE_RANGE] ?? "")) }));
  const pairs = !absolute ? undefined : dated ? pairing([time], stated) : presentPairing(time, seen());
  const lengths = pairs?.buckets[time]?.map((b) => b.values.length) ?? [];
  const longest = lengths.indexOf(Math.max(...lengths));
  const key = (value: string, range: string): string => {
    const position = pairs && positionOf(pairs, time, value, index(range));
    return position === undefined ? `=${value}` : position;
  };
  const name = (k: string) =>
    k.startsWith("=") || !pairs ? k.slice(1) : (valueAt(pairs, time, k, longest) ?? k);
  // Positions in order (day, then the hour within it), values after them as GA writes them.
  const sortKey = (k: string) =>
    k.startsWith("=")
      ? `~${k}`
      : k
          .split(":")
          .map((n) => n.padStart(6, "0"))
          .join(":");
  return { key: pairs ? key : (value: string) => `=${value}`, name, sortKey, ranges: order };
}

/**
 * Several date ranges over time: one line per range and metric, or per range and combination of the other
 * dimensions (the largest first) for the first metric, along the periods' positions (timeAxis).
 */
function pairedLines(
  rows: Row[],
  time: string,
  others: string[],
  metrics: string[],
  ui: (n: string) => string,
  ranges: { order: string[]; index: (r: string) => number; output: RunReportsOutput },
  said: (range: string) => string,
) {
  const format = TIME_DIMENSIONS[time] ?? ((v: string) => v);
  const axis = timeAxis(rows, time, ranges.output, ranges.order, ranges.index);
  const keyOf = (row: Row) => axis.key(String(row[time] ?? ""), String(row[DATE_RANGE] ?? ""));
  const keys = [...new Set(rows.map(keyOf))].sort((a, b) => {
    const [x, y] = [axis.sortKey(a), axis.sortKey(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const at = new Map(keys.map((k, i) => [k, i]));
  const byRange = groupBy(rows, (row) => String(row[DATE_RANGE] ?? ""));
  const combos =
    others.length === 0
      ? metrics.map((metric) => ({ key: "", metric, name: ui(metric) }))
      : [...groupBy(rows, (row) => label(row, others)).entries()]
          .sort(([, a], [, b]) => total(b, metrics[0] ?? "") - total(a, metrics[0] ?? ""))
          .map(([key]) => ({ key, metric: metrics[0] ?? "", name: key }));
  const perCombo = Math.max(1, Math.floor(MAX_LINES / Math.max(1, ranges.order.length)));
  const series = combos.slice(0, perCombo).flatMap((combo) =>
    ranges.order.map((range) => {
      const data: number[] = keys.map(() => 0);
      for (const row of byRange.get(range) ?? []) {
        if (others.length > 0 && label(row, others) !== combo.key) continue;
        data[at.get(keyOf(row)) ?? 0]! += num(row[combo.metric]);
      }
      return { name: `${combo.name}, ${said(range)}`, data, metric: combo.metric };
    }),
  );
  const cut =
    others.length > 0 && combos.length > perCombo
      ? `the ${perCombo} largest of ${count(combos.length)} combinations`
      : undefined;
  return { categories: keys.map((k) => format(axis.name(k))), series, cut };
}

function barSeries(rows: Row[], dimensions: string[], metrics: string[], ui: (n: string) => string) {
  const first = metrics[0] ?? "";
  const top = [...rows].sort((a, b) => num(b[first]) - num(a[first])).slice(0, MAX_BARS);
  return {
    categories: top.map((row) => label(row, dimensions)),
    series: metrics.map((metric) => ({ name: ui(metric), data: top.map((row) => num(row[metric])), metric })),
    cut: rows.length > MAX_BARS ? `the ${MAX_BARS} largest of ${count(rows.length)} rows` : undefined,
  };
}

/**
 * Several date ranges as grouped bars: one category per combination of the dimensions (ordered by the
 * first range's first metric, largest first), one bar per range in it (per range and metric with several).
 */
function groupedBars(
  rows: Row[],
  dimensions: string[],
  metrics: string[],
  ui: (n: string) => string,
  ranges: string[],
  said: (range: string) => string,
) {
  const byCombo = groupBy(rows, (row) => label(row, dimensions));
  const first = metrics[0] ?? "";
  const value = (combo: Row[], range: string, metric: string) =>
    total(
      combo.filter((row) => String(row[DATE_RANGE] ?? "") === range),
      metric,
    );
  const combos = [...byCombo.entries()].sort(
    ([, a], [, b]) => value(b, ranges[0] ?? "", first) - value(a, ranges[0] ?? "", first),
  );
  return {
    categories: combos.slice(0, MAX_BARS).map(([name]) => name),
    series: metrics.flatMap((metric) =>
      ranges.map((range) => ({
        name: metrics.length > 1 ? `${ui(metric)}, ${said(range)}` : said(range),
        data: combos.slice(0, MAX_BARS).map(([, combo]) => value(combo, range, metric)),
        metric,
      })),
    ),
    cut:
      combos.length > MAX_BARS
        ? `the ${MAX_BARS} largest of ${count(combos.length)} combinations`
        : undefined,
  };
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What a series of each of GA's metric types counts (MetricType:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricType): the chart
 * gives series of different units an axis each. A rate (bounceRate, TYPE_FLOAT, 0–1) is a "number", not a
 * count beside sessions in thousands; GA's other types (minutes, distances) read as numbers too.
 */
const GA_UNITS: Readonly<Record<string, ValueUnit>> = {
  TYPE_INTEGER: "count",
  TYPE_FLOAT: "number",
  TYPE_STANDARD: "number",
  TYPE_CURRENCY: "currency",
  TYPE_SECONDS: "seconds",
  TYPE_MILLISECONDS: "number",
  TYPE_MINUTES: "number",
  TYPE_HOURS: "number",
};

/**
 * What of the report the chart draws, for its subtitle, when it is not all: the rows of one page of a
 * report GA has more rows for (`charted`: where they start and how many the report has), and the largest
 * bars or lines when there are too many to read.
 */
function coverage(rows: number, charted: Charted | undefined, cut: string | undefined): string[] {
  const part =
    charted && rows < charted.of
      ? [`rows ${count(charted.first + 1)}–${count(charted.first + rows)} of ${count(charted.of)}`]
      : [];
  return [...part, ...(cut ? [cut] : [])];
}

/** The rows a chart is given: where they start in the report and how many rows the report has. */
export interface Charted {
  first: number;
  of: number;
}

/**
 * The table's column of the time dimension: a paired one's (report-pairs.ts) is its value in each period,
 * `date[<period>]`; the table runs along the later period's.
 */
function timeColumn(time: string, output: RunReportsOutput): string {
  const paired = output.comparison?.paired?.split(",") ?? [];
  return paired.includes(time) && output.comparison?.to ? pairedColumn(time, output.comparison.to) : time;
}

/**
 * The chart of a Run Reports result (empty axes, titled "No rows", when nothing matched). Its rows may be a
 * page of the report (`charted`): the subtitle then says which rows it draws, so a chart of a page never
 * reads as the whole report's. `types` are GA's metric types by name (the response's metricHeaders): a
 * chart of times only says its values are seconds.
 */
export function reportChart(
  output: RunReportsOutput,
  uiNames: UiNames = {},
  charted?: Charted,
  types: Readonly<Record<string, string | undefined>> = {},
): ChartModel {
  const ui = (name: string) => uiNames[name] ?? name;
  const rows = output.rows;
  const dimensions = names(output.request, "dimensions", rows);
  // With several date ranges GA adds a `dateRange` dimension the request does not name: without it the
  // chart would add the ranges' values together. https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange
  const ranged = !dimensions.includes(DATE_RANGE) && rows.some((row) => DATE_RANGE in row);
  // A metric asked for as its mean a day ("sessions/day") is drawn as that (review s24, finding 5).
  const metrics = names(output.request, "metrics", rows).map((name) =>
    rows.some((row) => `${name}/day` in row) ? `${name}/day` : name,
  );
  const time = dimensions.find((d) => d in TIME_DIMENSIONS);
  const others = dimensions.filter((d) => d !== time);
  const { order, index } = ranged ? rangeOrder(rows, output.request) : { order: [], index: () => -1 };
  const said = rangeWords(output);
  const { categories, series, cut } = time
    ? ranged
      ? pairedLines(rows, time, others, metrics, ui, { order, index, output }, said)
      : lineSeries(rows, time, others, metrics, ui)
    : ranged
      ? groupedBars(rows, dimensions, metrics, ui, order, said)
      : barSeries(rows, dimensions, metrics, ui);
  const unitOf = (metric: string) => GA_UNITS[types[metric] ?? ""];
  const currency = output.metadata?.currency_code;
  const by = dimensions.length > 0 ? dimensions.map(ui).join(", ") : undefined;
  const only = reportFilterWords(output.request, ui);
  // Several ranges: the legend names each with its dates, which the title would only make long.
  const title = metrics.length > 0 ? chartTitle(metrics.map(ui), by, only) : "No rows";
  // The table runs in the order the request asked for (null: the answer's own, no column marked); else
  // in the chart's: by time, or by the first metric, largest first.
  const asked = askedOrder(output.request);
  const orderedBy =
    asked !== undefined
      ? (asked ?? undefined)
      : time
        ? { column: timeColumn(time, output), descending: false }
        : metrics[0] && !ranged
          ? { column: metrics[0], descending: true }
          : undefined;
  return {
    kind: time ? "line" : "bar",
    title,
    subtitle: [output.property_name ?? output.property, ...coverage(rows.length, charted, cut)].join(" · "),
    categories,
    ...(by ? { by } : {}),
    ...(only ? { only } : {}),
    series: series.map(({ metric, ...drawn }) => {
      const unit = unitOf(metric);
      // Its metric's name when there are several: a chart split by unit (chartsByUnit) is titled by them.
      return { ...drawn, ...(metrics.length > 1 ? { metric: ui(metric) } : {}), ...(unit ? { unit } : {}) };
    }),
    ...(currency && metrics.some((metric) => unitOf(metric) === "currency") ? { currency } : {}),
    ...(orderedBy ? { orderedBy } : {}),
    // GA types a time metric TYPE_SECONDS (MetricType:
    // https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricType).
    ...(metrics.length > 0 && metrics.every((metric) => types[metric] === "TYPE_SECONDS")
      ? { unit: "seconds" as const }
      : {}),
  };
}

/**
 * A funnel report's chart: one stage per step, its users (the rows of every breakdown value together,
 * "(all)", when there is a breakdown), in the steps' order.
 */
export function funnelChart(output: RunReportsOutput, breakdown: string | undefined): ChartModel {
  const steps = output.rows.filter(
    (row) => typeof row.step_number === "number" && (breakdown === undefined || row[breakdown] === "(all)"),
  );
  return {
    kind: "funnel",
    title: "Users reaching each step",
    subtitle: output.property_name ?? output.property,
    categories: steps.map((row) => `${row.step_number}. ${row.step}`),
    series: [{ name: "Users", data: steps.map((row) => num(row.users)) }],
    orderedBy: { column: "step_number", descending: false },
  };
}
