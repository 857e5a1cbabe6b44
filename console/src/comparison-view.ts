/**
 * Two periods compared, one measure at a time (console review s10, findings 3 and 4): three measures ×
 * (this period, previous period, change, change %) were twelve columns, revenue behind "Scroll sideways for 5
 * more columns →" at 1280 px and a card of 13 lines per row at 400 px. The table shows the chosen measure's
 * this period, previous period and change (its % beside it) after the dimensions; the downloads keep every
 * column (src/tools/ga/report-compare.ts names them: `sessions[<period>]`, `sessions_change`, `sessions_change_pct`).
 */
import { type ChartModel, chartTitle } from "../../src/charts/model.js";
import type { ComparedReport } from "./comparison-words.ts";

type Row = Record<string, unknown>;

/** The measures compared, in the request's order (the choice above the table). */
export function comparedMetrics(data: Pick<ComparedReport, "request">): string[] {
  return (data.request.metrics ?? []).map((metric) => metric.name);
}

/** The measure shown: the one chosen, or the first when the report has no such measure (a new report). */
export function shownMetric(data: Pick<ComparedReport, "request">, chosen: string | undefined): string {
  const metrics = comparedMetrics(data);
  return chosen !== undefined && metrics.includes(chosen) ? chosen : (metrics[0] ?? "");
}

/**
 * The comparison's chart of the measure the table shows (console review s10, result words 2): the chart of
 * every measure drew sessions and purchases on one count axis, purchases too short to see, beside a table
 * of one measure. Its bars (or lines) are this measure's in each period, named by the period alone, and its
 * title names the measure. The step's chart names a series' measure by its UI name (`metric`), in the
 * request's order (src/tools/ga/report-chart.ts): the nth measure of the request is the nth named there.
 * A chart that does not draw each measure (lines split by a dimension draw the first only) stays as it is.
 */
export function oneMetricChart(chart: ChartModel, metrics: readonly string[], metric: string): ChartModel {
  const named = [...new Set(chart.series.map((series) => series.metric))];
  const name = named[metrics.indexOf(metric)];
  if (named.length !== metrics.length || named.includes(undefined) || name === undefined) return chart;
  const series = chart.series
    .filter((one) => one.metric === name)
    .map(({ metric: _, ...one }) => ({
      ...one,
      name: one.name.startsWith(`${name}, `) ? one.name.slice(name.length + 2) : one.name,
    }));
  const { currency, ...rest } = chart;
  return {
    ...rest,
    title: chartTitle([name], chart.by, chart.only),
    series,
    ...(currency && series.some((one) => one.unit === "currency") ? { currency } : {}),
  };
}

/** The columns one measure's table has of it: this period's, the previous period's, the change. */
export function metricColumns(metric: string, comparison: ComparedReport["comparison"]) {
  return {
    current: `${metric}[${comparison.to}]`,
    previous: `${metric}[${comparison.from}]`,
    change: `${metric}_change`,
    percent: `${metric}_change_pct`,
  };
}

/** Whether a column belongs to one of the compared measures (its value in a period, its change). */
function ofMetric(column: string, metrics: readonly string[]): boolean {
  return metrics.some(
    (metric) =>
      column === `${metric}_change` || column === `${metric}_change_pct` || column.startsWith(`${metric}[`),
  );
}

/**
 * A row as the one-measure table shows it: every other column as it is (the dimensions, a paired date's
 * value in each period), then the measure's this period, previous period and change, in that order. The
 * change in % is not a column of its own: the change's cell says it (`changeWithPercent`).
 */
export function oneMetricRow(row: Row, metric: string, data: ComparedReport): Row {
  const metrics = comparedMetrics(data);
  const columns = metricColumns(metric, data.comparison);
  const kept = Object.entries(row).filter(([column]) => !ofMetric(column, metrics));
  const shown = [columns.current, columns.previous, columns.change].filter((column) => column in row);
  return Object.fromEntries([...kept, ...shown.map((column) => [column, row[column]])]);
}

/**
 * The change's cell: "+1,234 (+5.2 % ▲)", its parenthesis on one line (number, % and arrow joined by
 * non-breaking spaces), so a narrow column breaks only before it: at 400 px "−$1,973.00 (−63.89 %" left
 * "▼)" on a line of its own (console review s10, result words 3). The change alone when there is no % (from
 * 0, or rows by dates that do not line up).
 */
export function changeWithPercent(change: string, percent: string | undefined): string {
  if (!percent) return change;
  return `${change} (${percent.replace(/ /g, "\u00a0")})`;
}
