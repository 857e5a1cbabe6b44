/**
 * A two-range report reads all of GA's rows and pages over the merged rows. GA pages over its own rows,
 * one per combination and range, in the request's order
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/basics#pagination), so one page of
 * GA's rows can hold a combination's row of one range and not the other's, which may be on any page:
 * merging a page of GA's rows split combinations across pages and computed the "largest changes" on the
 * page. Two ways mend it: ask GA, for the combinations of a page, their rows in both ranges (a second
 * request filtered to those combinations, an OR of one AND per combination, which GA's filter expressions
 * bound, and after a first request that still has to read past every earlier combination to know which
 * ones a page holds), or read every GA row of the report once and page over the merged rows here. The
 * second is taken: one request per page, whatever the order (a metric of one range, a change, a
 * dimension, which GA cannot sort merged rows by anyway: report-merged-order.ts), and the largest
 * changes, the row count and every offset are the whole report's. GA answers up to 250,000 rows per
 * request (RunReportRequest.limit in the discovery document); reading at most MERGE_MAX_GA_ROWS bounds the
 * memory a call takes, and a larger report is refused with what to do instead.
 */
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import type { StatedRange } from "./date-presets.js";
import { rangeLabels } from "./period-words.js";
import {
  type AbsentValue,
  type Comparison,
  changeOrder,
  compareRanges,
  comparisonHints,
  type Withheld,
} from "./report-compare.js";
import type { FlatReport } from "./report-flatten.js";
import type { CountedFields } from "./report-limit-each.js";
import { mergedOrder } from "./report-merged-order.js";
import { pageReport, type ReportPage } from "./report-paging.js";

/** GA rows read for one two-range report (two per combination at most: 50,000 combinations or more). */
export const MERGE_MAX_GA_ROWS = 100_000;

/** Whether the report's rows are merged per combination: two date ranges (realtime has none). */
export function mergesRanges(fields: RunReportsFields, ranges: readonly unknown[] | undefined): boolean {
  return !fields.realtime && ranges?.length === 2;
}

/**
 * The request sent for a two-range report: every row from the first (the offset and limit asked for
 * apply to the merged rows), unsorted (the merged rows are sorted here).
 */
export function wholeReportRequest(request: Record<string, unknown>): Record<string, unknown> {
  const { offset: _offset, orderBys: _orderBys, ...rest } = request;
  return { ...rest, limit: String(MERGE_MAX_GA_ROWS) };
}

/** Refuses a two-range report whose GA rows were not all read: merged rows of part of it would be wrong. */
export function checkWholeReport(flat: FlatReport): void {
  if (flat.rowCount <= flat.rows.length) return;
  throw new ValidationError(
    "date_ranges",
    `this two-range report has ${flat.rowCount.toLocaleString("en-US")} rows in GA (one per combination and ` +
      `range), more than the ${MERGE_MAX_GA_ROWS.toLocaleString("en-US")} read to merge them per combination.`,
    {
      hint:
        "Narrow it (a filter, fewer dimensions), or run each date range alone: a one-range report pages with " +
        "offset through any number of rows.",
    },
  );
}

export interface MergedPage {
  comparison: Comparison;
  page: ReportPage;
  /** The merged report as the answer states it: this page's rows, the totals, how many merged rows in all. */
  flat: FlatReport;
}

/** The merged rows of the whole report, sorted, and the page of them the offset and limit ask for. */
export function mergedPage(o: {
  flat: FlatReport;
  fields: CountedFields;
  names: { dimensions: readonly string[]; metrics: readonly string[] };
  stated: readonly StatedRange[];
  metricFilter: boolean;
  keepBytes: number | undefined;
  absentFor?: AbsentValue | undefined;
  withheld?: Withheld | undefined;
}): MergedPage | undefined {
  const { fields, names, stated } = o;
  const labels = rangeLabels(stated);
  // Merged rows have no dateRange column, which GA's rows carry: not offered to sort by (review s59, F5).
  const columns = { ...names, dimensions: names.dimensions.filter((name) => name !== "dateRange") };
  const order = mergedOrder(fields.order_by, columns, {
    labels,
    later: labels[changeOrder(stated)[1]] ?? "",
  });
  const comparison = compareRanges(o.flat, names, stated, {
    ...{ order, metricFilter: o.metricFilter },
    absentFor: o.absentFor,
    withheld: o.withheld,
  });
  if (!comparison) return undefined;
  const rows = comparison.rows.slice(fields.offset, fields.offset + fields.limit);
  const flat: FlatReport = { rows, totals: comparison.totals, rowCount: comparison.rows.length };
  const page = pageReport(flat, {
    first: fields.offset,
    columns: comparison.columns,
    keepBytes: o.keepBytes,
    realtime: false,
    source: "merged rows of this page",
  });
  page.hints.push(...comparisonHints(comparison));
  return { comparison, page, flat };
}
