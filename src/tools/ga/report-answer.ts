/**
 * Run Reports' answer for one page: the step's output (rows, or the two ranges merged; totals, quota,
 * the stated dates) and the summary an agent can repeat without arithmetic.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import type { RunReportsOutput } from "../../schemas/google-analytics.js";
import { n as count } from "../numbers-in-words.js";
import { rangeText, type StatedRange } from "./date-presets.js";
import { type PropertyRef, propertyText } from "./property-name.js";
import { type Comparison, comparisonPairing } from "./report-compare.js";
import type { flattenReport, quotaSummary } from "./report-flatten.js";
import type { pageReport } from "./report-paging.js";
import type { buildReportRequest } from "./report-request.js";

type ReportRequest = ReturnType<typeof buildReportRequest>;
type FlatReport = ReturnType<typeof flattenReport>;
type Quota = ReturnType<typeof quotaSummary>;

/** The step's output for one page of the report. */
export function reportOutput({
  property,
  page,
  flat,
  quota,
  response,
  request,
  hints,
  stated,
  comparison,
}: {
  property: PropertyRef;
  page: ReturnType<typeof pageReport>;
  flat: FlatReport;
  quota: Quota;
  response: RunReportResponse;
  request: ReportRequest;
  hints: string[];
  stated: StatedRange[] | undefined;
  comparison: Comparison | undefined;
}): RunReportsOutput {
  // A two-range report's flat is already its merged rows (report-two-ranges.ts).
  const timeZone = response.metadata?.timeZone;
  const currency = response.metadata?.currencyCode;
  return {
    property: `properties/${property.id}`,
    ...(property.displayName ? { property_name: property.displayName } : {}),
    rows: page.rows,
    row_count: flat.rowCount,
    ...(page.nextOffset !== undefined ? { next_offset: page.nextOffset } : {}),
    totals: flat.totals,
    ...(quota ? { quota } : {}),
    ...(timeZone || currency
      ? {
          metadata: {
            ...(currency ? { currency_code: currency } : {}),
            ...(timeZone ? { time_zone: timeZone } : {}),
          },
        }
      : {}),
    ...(stated ? { date_ranges: stated } : {}),
    ...(comparison ? { comparison: comparisonFields(comparison) } : {}),
    request,
    hints,
  };
}

/**
 * The comparison's fields: the periods changes go from and to; with rows by an absolute date, the
 * dimensions paired by position (`paired`, comma-separated) and, when their pairs cover different days, why
 * rows have no change (`no_row_change`; report-pairs.ts).
 */
function comparisonFields(comparison: Comparison): Record<string, string> {
  const { from, to, pairing } = comparison;
  if (pairing.dimensions.length === 0) return { from, to };
  const paired = { from, to, paired: pairing.dimensions.join(",") };
  return pairing.changes ? paired : { ...paired, no_row_change: comparisonPairing(comparison) ?? "" };
}

/** "2026-11-01…2026-11-30 and 2025-11-01…2025-11-30 (last year)": the periods as a summary states them. */
export const rangesText = (stated: readonly StatedRange[]): string =>
  stated.map((r) => `${rangeText(r)}${r.name ? ` (${r.name})` : ""}`).join(" and ");

/**
 * Where the figures are, said so they are not read or shared as the whole property's (console review s10,
 * C2): ", only where country == "France"".
 */
export function onlyWhere(filter: unknown): string {
  if (typeof filter === "string") return filter.trim() && `, only where ${filter.trim()}`;
  return filter ? ", only where its filter matches" : "";
}

/**
 * The answer in one line: which property and dates, the rows shown of how many, the quota left; then the
 * notes (for two ranges, the periods' note of report-periods.ts; dates before the property's data starts;
 * a dimension mostly "(not set)", report-not-set.ts) and, for two ranges, the largest changes over every
 * merged row.
 */
export function summarize(
  data: RunReportsOutput,
  asked: { realtime: boolean; filter?: unknown },
  dates: { stated: StatedRange[]; zone: string | undefined } | undefined,
  merged: Comparison | undefined,
  notes: readonly (string | undefined)[],
): string {
  const kind = asked.realtime ? "Realtime report" : "Report";
  const ranges = dates ? ` for ${rangesText(dates.stated)}, dates in ${dates.zone ?? "UTC"}` : "";
  const only = onlyWhere(asked.filter);
  const plural = (n: number) => `${count(n)} row${n === 1 ? "" : "s"}`;
  const rows = merged
    ? `${plural(data.rows.length)} of ${count(data.row_count)}, one per combination (GA's ${count(merged.gaRows)} rows, ` +
      "one per combination and date range, merged)"
    : `${plural(data.rows.length)} of ${count(data.row_count)}`;
  const left = data.quota?.tokens_per_hour?.remaining;
  const quota = left !== undefined ? `; ${count(left)} quota tokens left this hour` : "";
  const on = propertyText({
    id: data.property.replace(/^properties\//, ""),
    ...(data.property_name ? { displayName: data.property_name } : {}),
  });
  const tail = summaryTail(data, merged, notes);
  return `${kind} on ${on}${ranges}${only}: ${rows}${quota}.${tail}`;
}

/**
 * What a summary says after its first sentence: the notes, the comparison's pairing and, for two ranges,
 * the largest changes over every merged row (with a leading space; empty when there is nothing to say).
 * Several properties' answer says it of each (report-properties-answer.ts).
 */
export function summaryTail(
  data: RunReportsOutput,
  merged: Comparison | undefined,
  notes: readonly (string | undefined)[],
): string {
  const metric = (data.request.metrics as { name: string }[] | undefined)?.[0]?.name;
  const over =
    merged && merged.rows.length > data.rows.length ? ` over all ${count(merged.rows.length)} rows` : "";
  const movers =
    merged && metric && merged.movers.length > 0
      ? ` Largest changes in ${metric}${over} (${merged.from} → ${merged.to}): ${merged.movers.join(", ")}.`
      : "";
  const paired = merged ? comparisonPairing(merged) : undefined;
  const noted = [...notes, paired].filter(Boolean).join(" ");
  return `${noted ? ` ${noted}` : ""}${movers}`;
}
