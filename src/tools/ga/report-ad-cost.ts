/**
 * The sentence a report's summary gets when every ad metric it asked for is 0 in every row and in the totals:
 * GA has ad costs only from what is linked or imported, so such a 0 most likely means none was received, not
 * that ads were free (trial s8, N28: "advertiserAdCost 0, returnOnAdSpend 0" came with no word, and an agent
 * reading only the report could have said "ROAS 0").
 *
 * Google's API schema, advertiserAdCost: "The total amount you paid for your ads. Includes costs from linked
 * integrations like linked Google Ads accounts. Also includes uploaded cost from data import"; returnOnAdSpend:
 * "total revenue divided by advertiser ad cost"
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema). A property's Google Ads
 * links are listed by the Admin API's properties.googleAdsLinks.list
 * (https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties.googleAdsLinks/list).
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import type { UiNames } from "./report-chart.js";
import type { FlatReport, FlatRow } from "./report-flatten.js";

/** The metrics that come from linked ad accounts or imported cost data (the schema's "Advertising" ones). */
const AD_METRIC = /^(?:advertiserAd|returnOnAdSpend$)/;

const isZero = (row: FlatRow, name: string) => {
  const value = row[name];
  return value === 0 || value === "0" || value === null || value === undefined;
};

/** Whether a metric is 0 (or has no value) in every row and in the totals: the test of each all-zero note. */
export const zeroThroughout = (flat: FlatReport, name: string): boolean =>
  [...flat.rows, ...flat.totals].every((row) => isZero(row, name));

/** The note, or undefined when the report asks for no ad metric, has no rows, or one ad metric is not 0. */
export function adCostNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "metricHeaders">,
  uiNames: UiNames,
  property: string,
): string | undefined {
  const asked = (headers.metricHeaders ?? []).flatMap((h) =>
    h.name && AD_METRIC.test(h.name) ? [h.name] : [],
  );
  // Return on ad spend alone is 0 wherever revenue is, whatever the costs: only a cost asked for says.
  if (!asked.some((name) => name.startsWith("advertiserAd")) || flat.rows.length === 0) return undefined;
  if (!asked.every((name) => zeroThroughout(flat, name))) return undefined;
  const shown = asked.map((name) => uiNames[name] ?? name);
  const names = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : shown.join("");
  return (
    `${names} ${asked.length > 1 ? "are" : "is"} 0 in every row: Google Analytics has ad costs only from linked ` +
    "ad accounts (Google Ads) or imported cost data, so this most likely means it received none, not that the " +
    `ads cost nothing. To see the property's Google Ads links: GET v1beta/properties/${property}/googleAdsLinks.`
  );
}

/**
 * Search Console's metrics (organicGoogleSearchClicks, …Impressions, …ClickThroughRate, …AveragePosition)
 * are filled only on a property linked to Search Console (Google's API schema lists them as Search Console's:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema; the link is made in GA's Admin,
 * Product links). A report of them with no value said only "No rows matched" (trial s16, N142).
 */
const SEARCH_CONSOLE_METRIC = /^organicGoogleSearch/;

/** The note when every Search Console metric asked for is 0 or absent in every row (or there is no row). */
export function searchConsoleNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "metricHeaders">,
): string | undefined {
  const asked = (headers.metricHeaders ?? []).flatMap((h) =>
    h.name && SEARCH_CONSOLE_METRIC.test(h.name) ? [h.name] : [],
  );
  if (asked.length === 0) return undefined;
  if (!asked.every((name) => zeroThroughout(flat, name))) return undefined;
  return (
    `${asked.join(", ")} ${flat.rows.length === 0 ? "has no row" : "is 0 in every row"}: Google Analytics has ` +
    "Search Console's metrics only on a property linked to Search Console (GA's Admin, Product links), so this " +
    "property most likely has no such link; the search queries themselves are only in Search Console."
  );
}
