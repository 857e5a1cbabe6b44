import type { RunReportResponse } from "../../connectors/google/types.js";
import { n } from "../numbers-in-words.js";
import type { ResolvedDates } from "./date-presets.js";
import type { FieldCatalog } from "./field-catalog.js";
import { emptyReportHint, type Unfiltered } from "./report-empty.js";
import { type FlatReport, type QuotaSummary, responseHints } from "./report-flatten.js";

/** Run Reports' notes for the reader: deprecated names, empty pages, recent or UTC dates, sampling and quota. */
export function reportHints({
  fields,
  used,
  catalog,
  flat,
  dates,
  response,
  quota,
  bare,
  sent,
  each,
}: {
  /** An empty report's first metric without its filter (report-empty.ts). */
  bare: Unfiltered | undefined;
  /** The request as sent to GA (whether it has a metricFilter). */
  sent?: { metricFilter?: unknown };
  fields: { offset: number; filter?: unknown };
  /** With limit per: its note says what the totals cover (report-limit-each.ts). */
  each?: boolean;
  used: Set<string>;
  catalog: FieldCatalog;
  flat: FlatReport;
  dates: ResolvedDates | undefined;
  response: RunReportResponse;
  quota: QuotaSummary | undefined;
}): string[] {
  const hints: string[] = [];
  const deprecated = [...used].flatMap((name) => {
    const entry = catalog.get(name);
    return entry?.deprecated
      ? [`"${name}" is a deprecated name of "${entry.apiName}": use the new name.`]
      : [];
  });
  hints.push(...deprecated);
  if (flat.rows.length === 0) {
    hints.push(
      flat.rowCount > 0
        ? `No rows at offset ${fields.offset}: the report has ${flat.rowCount} rows; use a smaller offset.`
        : emptyReportHint(used, bare),
    );
  }
  if (dates?.includesRecent) {
    hints.push(
      "The dates include the last 48 hours: GA may still be processing that data (final within 24–48 h).",
    );
  }
  if (dates?.calendarInUtc) {
    const zone = response.metadata?.timeZone;
    hints.push(
      `Calendar presets were resolved to UTC dates${zone ? `; the property's day is in ${zone}` : ""}: ` +
        `${(dates.dateRanges ?? []).map((r) => `${r.startDate}…${r.endDate}`).join(", ")}.`,
    );
  }
  // limit per's note says what the totals cover: its rows are the step's cut, not the report's (trial s36, N529:
  // "over all 40 rows" beside the note's "over all 60").
  const covered = each ? undefined : totalsHint(flat, fields.filter, sent?.metricFilter !== undefined);
  if (covered) hints.push(covered);
  hints.push(...responseHints(response.metadata, quota));
  return hints;
}

/**
 * What GA's totals cover when that is not the rows in sight: every row the filter keeps, the rows `limit`
 * left out included (GA computes metricAggregations over all matching rows:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport).
 * An agent could not tell whether a filtered report's totals were filtered (trial s14, N97). A metric filter
 * is applied "after aggregating the report's rows" (the same page), which does not say whether the totals
 * count the rows it leaves out: that is said instead of a claim (report-metric-filter.ts gives GA's total
 * without it).
 */
function totalsHint(flat: FlatReport, filter: unknown, metricFilter: boolean): string | undefined {
  if (flat.totals.length === 0 || flat.rows.length === 0) return undefined;
  const filtered = filter !== undefined && filter !== "";
  const more = flat.rowCount > flat.rows.length;
  if (!filtered && !more) return undefined;
  const notOnly = more ? `, not only the ${n(flat.rows.length)} returned` : "";
  if (metricFilter) {
    return (
      `totals are GA's${notOnly}; Google's reference does not say whether they count the rows a metric filter ` +
      "leaves out."
    );
  }
  const where = typeof filter === "string" ? ` where ${filter}` : filtered ? " the filter keeps" : "";
  return `totals are GA's over all ${n(flat.rowCount)} rows${where}${notOnly}.`;
}
