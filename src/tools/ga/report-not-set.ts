/**
 * The sentence a report's summary gets when a dimension is "(not set)" for nearly all of it (90 % or more of
 * the first count metric): what "(not set)" usually means for that dimension, so that it is not read as a
 * finding ("no keyword data this month") where Google Analytics can never have the value.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { n } from "../numbers-in-words.js";
import type { UiNames } from "./report-chart.js";
import { type FlatReport, type FlatRow, metricNumber } from "./report-flatten.js";

const NOT_SET = "(not set)";
const MOSTLY = 0.9;

/**
 * Google does not pass the queries of organic (unpaid) search visits to Analytics; Search Console reports
 * them, and Analytics shows them only in its Search Console reports once the two are linked
 * ("[GA4] Search Console integration": https://support.google.com/analytics/answer/10737381; Search
 * Console's "Associate your Search Console property with another Google service": "a Google Analytics
 * association shares your Search Console performance data", https://support.google.com/webmasters/answer/9419894).
 * The Data API's schema has no Search Console dimension
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema). The landing page is in
 * every session, organic ones included.
 */
const ORGANIC =
  "Google Analytics never receives the queries of unpaid search visits: Google Search Console reports them, " +
  "and the landing page (landingPage) shows where those visits began";

/** What "(not set)" usually means, by dimension (API name), first match wins. */
const MEANINGS: readonly [RegExp, string][] = [
  // The Google Ads keyword and query come from the clicks of a Google Ads account linked to the property
  // ("[GA4] Link Google Ads to Analytics": https://support.google.com/analytics/answer/9379420; the schema's
  // sessionGoogleAdsKeyword: "The matched keyword that led to the session").
  [
    /^(?:session|firstUser)?googleAds(?:Keyword|Query)$/i,
    `Google Ads keywords and queries come only from ad clicks of a linked Google Ads account; ${ORGANIC}`,
  ],
  // The manual term is "Populated by the utm_term parameter" (the API schema's sessionManualTerm).
  [/^(?:session|firstUser)?manualTerm$/i, `it comes only from links tagged with utm_term; ${ORGANIC}`],
  // searchTerm is the site's own search: "Populated by the event parameter 'search_term'", automatically with
  // enhanced measurement's site search (the API schema; https://support.google.com/analytics/answer/9216061).
  [
    /^searchTerm$/,
    "it holds searches made on the site itself (view_search_results events), not search engine queries",
  ],
];

/**
 * Google: "(not set)" is the placeholder Analytics uses when it has not received any information for the
 * dimension ("[GA4] What the value (not set) means", https://support.google.com/analytics/answer/13504892).
 */
const RECEIVED_NOTHING = "Google Analytics received no value for it";

/**
 * The sentence for the first dimension whose "(not set)" rows hold 90 % or more of the first count metric
 * (a share of a rate or an average means nothing) over the whole report: GA's totals, which every report
 * with dimensions asks for (report-request.ts), else the rows' sum. Undefined when no dimension is so, and
 * when the other values' rows hold 10 % or more as well: then the rows overlap (a user with events of no
 * article section and events of section A counts in both), and "(not set)" is not what the report mostly is
 * (trial s14, N102: "(not set) for 100% of active users" above four sections holding 9,206 of them).
 */
export function notSetNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "dimensionHeaders" | "metricHeaders">,
  uiNames: UiNames,
): string | undefined {
  const metric = headers.metricHeaders?.find((h) => h.type === "TYPE_INTEGER")?.name;
  if (!metric || flat.rows.length === 0) return undefined;
  const sum = (rows: readonly FlatRow[]) => rows.reduce((total, row) => total + metricNumber(row, metric), 0);
  const total = flat.totals.length > 0 ? sum(flat.totals) : sum(flat.rows);
  if (total <= 0) return undefined;
  for (const dimension of (headers.dimensionHeaders ?? []).flatMap((h) => h.name ?? [])) {
    const part = sum(flat.rows.filter((row) => row[dimension] === NOT_SET));
    const others = sum(flat.rows.filter((row) => row[dimension] !== NOT_SET));
    if (part / total < MOSTLY || others / total >= 1 - MOSTLY) continue;
    const meaning = MEANINGS.find(([pattern]) => pattern.test(dimension))?.[1] ?? RECEIVED_NOTHING;
    const share = part >= total ? 100 : Math.floor((part / total) * 100);
    const what = (uiNames[metric] ?? metric).toLowerCase();
    return (
      `${uiNames[dimension] ?? dimension} is "${NOT_SET}" for ${share}% of ${what} ` +
      `(${n(Math.min(part, total))} of ${n(total)}): ${meaning}.`
    );
  }
  return undefined;
}
