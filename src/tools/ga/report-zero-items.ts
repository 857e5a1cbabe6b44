/**
 * An item metric that is 0 in every row and in the totals: GA fills item-scoped metrics (itemsAddedToCart,
 * itemsViewed, itemsCheckedOut…) only from the `items` array sent with ecommerce events
 * (https://developers.google.com/analytics/devguides/collection/ga4/ecommerce), so events sent without items
 * count 0 there while the events themselves are counted. A ratio over such a metric has no value. "0" read as
 * a real zero, and the agent spent two calls to tell "not collected" from "nobody added" (trial s18, N179).
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { zeroThroughout } from "./report-ad-cost.js";
import { ITEM_FIELD } from "./report-empty.js";
import type { FlatReport } from "./report-flatten.js";
import { ratioParts } from "./report-ratios.js";

/** The note, or undefined when no item metric asked for is 0 throughout (or the report has no rows). */
export function zeroItemsNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "metricHeaders">,
): string | undefined {
  if (flat.rows.length === 0) return undefined;
  const names = (headers.metricHeaders ?? []).flatMap((h) => (h.name ? [h.name] : []));
  const zero = names.filter(
    (name) => !ratioParts(name) && ITEM_FIELD.test(name) && zeroThroughout(flat, name),
  );
  if (zero.length === 0) return undefined;
  const ratios = names.filter((name) => zero.includes(ratioParts(name)?.[1] ?? ""));
  const list = zero.join(", ");
  return (
    `${list} ${zero.length === 1 ? "is" : "are"} 0 in every row and in total: GA counts item metrics only from ` +
    "the items sent with ecommerce events, so this most likely means the property's events carry no items, not " +
    "that nothing happened (eventCount by eventName shows whether the events come in)" +
    (ratios.length > 0 ? `; ${ratios.join(", ")} therefore has no value.` : ".")
  );
}
