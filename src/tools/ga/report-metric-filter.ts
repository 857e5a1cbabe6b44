/**
 * What a metric filter left out. GA applies metricFilter "after aggregating the report's rows, similar to SQL
 * having-clause" (RunReportRequest, https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport),
 * and Google's reference does not say whether a report's totals count the rows it leaves out. Agents asked
 * for "sources with at least 100 sessions" could not tell whether any source fell below, and spent a second
 * report to find out (trial s19, N200 and N210). The step asks GA once more for the same report without the
 * metric filter (one row, its rowCount and its totals), so the answer says how many rows the filter kept
 * of how many, and the first metric's total over all of them: GA's own figures, whatever its totals mean.
 * Said for one date range (two ranges are merged per row, report-two-ranges.ts), never realtime; with share
 * columns the same request gives, for one range or two, the totals they are shares of (review s22, finding 8).
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { isMartechError } from "../../errors.js";
import { n, plural } from "../numbers-in-words.js";
import type { FilterExpression } from "./filter-expression.js";
import { printFilter } from "./filter-print.js";
import type { Unfiltered as Bare } from "./report-empty.js";
import type { FlatReport } from "./report-flatten.js";

/**
 * The request for the same report without its metric filter, or undefined when none is asked of GA: with one
 * date range (what the filter left out), or with share columns (their total, one per range).
 */
export function unfilteredRequest(
  sent: Record<string, unknown>,
  shares: readonly string[] = [],
): Record<string, unknown> | undefined {
  if (sent.metricFilter === undefined || !Array.isArray(sent.dateRanges)) return undefined;
  if (sent.dateRanges.length !== 1 && shares.length === 0) return undefined;
  // Without dimensions the report is one row: the filter keeps it or not, and the empty answer says which.
  if (!Array.isArray(sent.dimensions) || sent.dimensions.length === 0) return undefined;
  const { metricFilter: _filter, orderBys: _order, offset: _offset, ...rest } = sent;
  return { ...rest, limit: "1", metricAggregations: ["TOTAL"] };
}

/** GA's answer to the same report without its metric filter, or why it could not be had. */
export type Unfiltered = { response: RunReportResponse } | { failed: string };

/** Runs the report without its metric filter; a refusal is kept as words (the report itself stands). */
export async function unfilteredReport(
  sent: Record<string, unknown>,
  shares: readonly string[],
  run: (request: Record<string, unknown>) => Promise<RunReportResponse>,
): Promise<Unfiltered | undefined> {
  const request = unfilteredRequest(sent, shares);
  if (!request) return undefined;
  try {
    return { response: await run(request) };
  } catch (error) {
    if (!isMartechError(error)) throw error;
    return { failed: error.message };
  }
}

/**
 * "The metric filter sessions >= 100 kept 12 of the 15 rows GA has without it, leaving out 3; without it,
 * sessions totals 37,506 (GA's total of all 15)", or undefined without a metric filter.
 */
export function metricFilterNote(o: {
  sent: Record<string, unknown>;
  flat: FlatReport;
  unfiltered: Unfiltered | undefined;
  shares: readonly string[];
}): string | undefined {
  const { unfiltered } = o;
  // With two ranges the rows are combinations of ranges: only the shares' total was asked for.
  if (!unfiltered || !Array.isArray(o.sent.dateRanges) || o.sent.dateRanges.length !== 1) return undefined;
  const filter = printFilter(o.sent.metricFilter as FilterExpression);
  if ("failed" in unfiltered) {
    return `Whether the metric filter ${filter} left rows out was not checked: the same report without it failed (${unfiltered.failed.replace(/\.$/, "")}).`;
  }
  const { response } = unfiltered;
  const all = Number(response.rowCount ?? 0);
  if (all === 0) return undefined;
  const kept = o.flat.rowCount;
  const share = kept === all ? "every row" : `${n(kept)} of the ${plural(all, "row")}`;
  const metric = response.metricHeaders?.[0]?.name;
  const total = response.totals?.[0]?.metricValues?.[0]?.value;
  const whole =
    metric && total !== undefined && kept < all
      ? `; without it, ${metric} totals ${n(Number(total))} (GA's total of all ${n(all)})`
      : "";
  const none =
    kept === all ? ` (all ${n(all)}): it left none out` : ` GA has without it, leaving out ${n(all - kept)}`;
  // The shares are of the total without the filter: a share of the kept rows' total read as a share of traffic.
  // Without the metric filter only: a dimension's condition still holds for the total (review s23, finding 3c).
  const base = o.sent.dimensionFilter === undefined ? "" : " (the filter's dimension conditions still apply)";
  const shares =
    o.shares.length > 0
      ? `; ${o.shares.join(", ")} ${o.shares.length === 1 ? "is a share" : "are shares"} of GA's total without the metric filter${base}`
      : "";
  return `The metric filter ${filter} kept ${share}${none}${whole}${shares}.`;
}

/**
 * What an empty report's dates hold without its filter, from the report without its metric filter when that
 * was the only filter: the same figure unfilteredTotal would ask GA for again (review s23, finding 4).
 */
export function barePart(
  sent: Record<string, unknown>,
  without: RunReportResponse | undefined,
): Bare | undefined {
  const metric = without?.metricHeaders?.[0]?.name;
  const total = without?.totals?.[0]?.metricValues?.[0]?.value;
  if (sent.dimensionFilter !== undefined || !metric || total === undefined) return undefined;
  return { metric, total: Number(total), dimensionFiltered: false };
}
