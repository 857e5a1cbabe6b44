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
  const verb = zero.length === 1 ? "is" : "are";
  const tail = ratios.length > 0 ? `; ${ratios.join(", ")} therefore has no value.` : ".";
  // Another item metric has values: items are sent, so it is the event that fills this one that did not come
  // (trial s27, N357: itemRefundAmount 0 beside item revenue was blamed on events without items).
  const filled = names.find((name) => !ratioParts(name) && ITEM_FIELD.test(name) && !zero.includes(name));
  if (filled) {
    const events = [...new Set(zero.flatMap((name) => ITEM_EVENTS[name] ?? []))];
    const which = events.length > 0 ? `no ${events.join(" or ")} event` : "none of the events that fill it";
    const check =
      events.length > 0 ? `whether ${events.join(" or ")} events come in at all` : "which events come in";
    return (
      `${list} ${verb} 0 in every row and in total while ${filled} is not: items come in with other events, so ` +
      `${which} carried items (eventCount by eventName shows ${check})${tail}`
    );
  }
  return (
    `${list} ${verb} 0 in every row and in total: GA counts item metrics only from ` +
    "the items sent with ecommerce events, so this most likely means the property's events carry no items, not " +
    `that nothing happened (eventCount by eventName shows whether the events come in)${tail}`
  );
}

/**
 * The ecommerce event whose items fill an item metric (GA4's recommended events:
 * https://developers.google.com/analytics/devguides/collection/ga4/reference/events).
 */
const ITEM_EVENTS: Record<string, string> = {
  itemRefundAmount: "refund",
  itemsAddedToCart: "add_to_cart",
  itemsCheckedOut: "begin_checkout",
  itemsViewed: "view_item",
  itemsViewedInList: "view_item_list",
  itemsClickedInList: "select_item",
  itemsViewedInPromotion: "view_promotion",
  itemsClickedInPromotion: "select_promotion",
  itemsPurchased: "purchase",
  itemRevenue: "purchase",
  grossItemRevenue: "purchase",
};
