/**
 * The chart of a Run Reports result, as a model (model.ts): a line over time when a time dimension (date,
 * dateHour…) is in the report, bars otherwise. The step puts it on its result; the console draws it with
 * ECharts and MCP renders the very same chart to PNG (render-png.ts).
 */
import type { RunReportsOutput } from "../schemas/google-analytics.js";
import { type ChartModel, TIME_DIMENSIONS } from "./model.js";

type Row = RunReportsOutput["rows"][number];

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

function lineSeries(rows: Row[], time: string, others: string[], metrics: string[]) {
  const format = TIME_DIMENSIONS[time] ?? ((v: string) => v);
  const stamps = [...new Set(rows.map((row) => String(row[time] ?? "")))].sort();
  const at = new Map(stamps.map((stamp, index) => [stamp, index]));
  // With other dimensions, one line per combination of them (the largest first) for the first metric;
  // without, one line per metric.
  const groups =
    others.length === 0
      ? metrics.map((metric) => ({ name: metric, metric, rows }))
      : [...groupBy(rows, (row) => label(row, others)).entries()]
          .map(([name, grouped]) => ({ name, metric: metrics[0] as string, rows: grouped }))
          .sort(
            (a, b) =>
              b.rows.reduce((s, r) => s + num(r[b.metric]), 0) -
              a.rows.reduce((s, r) => s + num(r[a.metric]), 0),
          );
  const series = groups.slice(0, MAX_LINES).map((group) => {
    const data: number[] = stamps.map(() => 0);
    for (const row of group.rows) data[at.get(String(row[time] ?? "")) ?? 0]! += num(row[group.metric]);
    return { name: group.name, data };
  });
  const cut =
    groups.length > MAX_LINES ? `the ${MAX_LINES} largest of ${count(groups.length)} lines` : undefined;
  return { categories: stamps.map(format), series, cut };
}

function barSeries(rows: Row[], dimensions: string[], metrics: string[]) {
  const first = metrics[0] ?? "";
  const top = [...rows].sort((a, b) => num(b[first]) - num(a[first])).slice(0, MAX_BARS);
  return {
    categories: top.map((row) => label(row, dimensions)),
    series: metrics.map((metric) => ({
      name: metric,
      data: top.map((row) => num(row[metric])),
    })),
    cut: rows.length > MAX_BARS ? `the ${MAX_BARS} largest of ${count(rows.length)} rows` : undefined,
  };
}

const count = (n: number) => n.toLocaleString("en-US");

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
 * The chart of a Run Reports result (empty axes, titled "No rows", when nothing matched). Its rows may be a
 * page of the report (`charted`): the subtitle then says which rows it draws, so a chart of a page never
 * reads as the whole report's.
 */
export function reportChart(output: RunReportsOutput, charted?: Charted): ChartModel {
  const rows = output.rows;
  const dimensions = names(output.request, "dimensions", rows);
  // With several date ranges GA adds a `dateRange` dimension the request does not name: without it the
  // chart would add the ranges' values together. https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange
  if (!dimensions.includes(DATE_RANGE) && rows.some((row) => DATE_RANGE in row)) dimensions.push(DATE_RANGE);
  const metrics = names(output.request, "metrics", rows);
  const time = dimensions.find((d) => d in TIME_DIMENSIONS);
  const { categories, series, cut } = time
    ? lineSeries(
        rows,
        time,
        dimensions.filter((d) => d !== time),
        metrics,
      )
    : barSeries(rows, dimensions, metrics);
  const by = dimensions.length > 0 ? ` by ${dimensions.join(", ")}` : "";
  const title = metrics.length > 0 ? `${metrics.join(", ")}${by}` : "No rows";
  // The table beside the chart runs in the chart's order: by time, or by the first metric, largest first.
  const orderedBy = time
    ? { column: time, descending: false }
    : metrics[0]
      ? { column: metrics[0], descending: true }
      : undefined;
  return {
    kind: time ? "line" : "bar",
    title,
    subtitle: [output.property, ...coverage(rows.length, charted, cut)].join(" · "),
    categories,
    series,
    ...(orderedBy ? { orderedBy } : {}),
  };
}
