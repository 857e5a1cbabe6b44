/**
 * What an empty report says. "No data for these dates and filters" misled an agent whose report asked for
 * item fields (trial s7, N13: itemsViewed by itemName gave no rows while the property had 116,921 events that
 * month): GA fills item-scoped dimensions and metrics only from the `items` array sent with ecommerce events
 * (https://developers.google.com/analytics/devguides/collection/ga4/ecommerce), so a property whose events
 * carry no items has data and still no item rows. The item fields are Google's "Item …"/"Items …" names and
 * the two item view rates (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema).
 */

import type { ConnectorOf } from "../../connections/registry.js";

/** Item-scoped fields by API name: itemName, itemCategory2, itemsViewed, itemRevenue, cartToViewRate… */
export const ITEM_FIELD = /^items?[A-Z]|^(?:cartToViewRate|purchaseToViewRate)$/;

/**
 * What the same dates hold without the report's filter: the first metric's total, from one more report
 * with neither filter nor dimensions (one row, a few quota tokens). "No rows matched: the property has no
 * data for these dates and filters" was read as "the property has no data at all" while it had 3,836
 * sessions that week and no "Paid Social" among them (trial s10, N59): the answer says which it is.
 */
export interface Unfiltered {
  metric: string;
  total: number;
  /** Whether a dimension's condition was among the filters (else only metrics were filtered). */
  dimensionFiltered: boolean;
}

/** Only an empty report with a filter (a metric's or a dimension's) over dates is asked again. */
export async function unfilteredTotal(
  ga: Pick<ConnectorOf<"google">, "runReport">,
  propertyId: string,
  sent: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<Unfiltered | undefined> {
  // A realtime report has no dateRanges: it is not asked again.
  const filtered = sent.dimensionFilter !== undefined || sent.metricFilter !== undefined;
  const [metric] = (sent.metrics as { name?: string }[] | undefined) ?? [];
  if (!filtered || !metric?.name || !Array.isArray(sent.dateRanges)) return undefined;
  const body = { dateRanges: sent.dateRanges, metrics: [{ name: metric.name }], limit: "1" };
  const response = await ga.runReport(propertyId, body, signal);
  const total = (response.rows ?? []).reduce(
    (sum, row) => sum + Number(row.metricValues?.[0]?.value ?? 0),
    0,
  );
  return { metric: metric.name, total, dimensionFiltered: sent.dimensionFilter !== undefined };
}

/** The sentence after "No rows matched": the filter matches nothing, or the dates hold nothing either. */
function withoutFilter(unfiltered: Unfiltered | undefined): string {
  if (!unfiltered) return "no row matches these fields and filters on these dates (this is not an error).";
  const { metric, total } = unfiltered;
  if (total === 0) {
    return `no row matches these filters on these dates, and without the filters these dates have no ${metric} either (this is not an error).`;
  }
  return (
    `no row matches these filters on these dates (this is not an error). The property does have data then: ` +
    `without the filters, ${metric} is ${total.toLocaleString("en-US")} on the same dates, so no data matches ` +
    (unfiltered.dimensionFiltered
      ? "the filters; to see the values they could match, run the report without the filter by the filtered dimensions."
      : // A metric filter alone: the rows are there, none reaches it (review s22, finding 9).
        "the filters: no row reaches the metric filter; run the report without it, sorted by that metric, to see its largest values.")
  );
}

/** The hint of a report that matched no rows, for the fields it used (metrics and dimensions). */
export function emptyReportHint(used: Iterable<string>, unfiltered?: Unfiltered): string {
  const items = [...used].filter((name) => ITEM_FIELD.test(name));
  if (items.length === 0) return `No rows matched: ${withoutFilter(unfiltered)}`;
  return (
    `No rows matched. The report asks for item fields (${items.join(", ")}), which GA fills only from the ` +
    "items sent with ecommerce events: events sent without items give no rows here even where the property " +
    "has data. To see what it collected, run metric eventCount by dimension eventName for the same dates."
  );
}
