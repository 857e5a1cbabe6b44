/**
 * What an empty report says. "No data for these dates and filters" misled an agent whose report asked for
 * item fields (trial s7, N13: itemsViewed by itemName gave no rows while the property had 116,921 events that
 * month): GA fills item-scoped dimensions and metrics only from the `items` array sent with ecommerce events
 * (https://developers.google.com/analytics/devguides/collection/ga4/ecommerce), so a property whose events
 * carry no items has data and still no item rows. The item fields are Google's "Item …"/"Items …" names and
 * the two item view rates (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema).
 */

/** Item-scoped fields by API name: itemName, itemCategory2, itemsViewed, itemRevenue, cartToViewRate… */
const ITEM_FIELD = /^items?[A-Z]|^(?:cartToViewRate|purchaseToViewRate)$/;

/** The hint of a report that matched no rows, for the fields it used (metrics and dimensions). */
export function emptyReportHint(used: Iterable<string>): string {
  const items = [...used].filter((name) => ITEM_FIELD.test(name));
  if (items.length === 0)
    return "No rows matched: the property has no data for these dates and filters (this is not an error).";
  return (
    `No rows matched. The report asks for item fields (${items.join(", ")}), which GA fills only from the ` +
    "items sent with ecommerce events: events sent without items give no rows here even where the property " +
    "has data. To see what it collected, run metric eventCount by dimension eventName for the same dates."
  );
}
