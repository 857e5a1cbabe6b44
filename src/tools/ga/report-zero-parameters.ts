/**
 * A money metric GA fills from one ecommerce event's parameter that is 0 in every row and in total: shipping and
 * tax come from the `shipping` and `tax` parameters of purchase events, refunds from refund events
 * (https://developers.google.com/analytics/devguides/collection/ga4/reference/events#purchase,
 * https://developers.google.com/analytics/devguides/collection/ga4/reference/events#refund). A 0 there reads as
 * "free shipping, no tax, no refunds" when the parameter or event is simply not sent (trial s27, N359).
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { zeroThroughout } from "./report-ad-cost.js";
import type { FlatReport } from "./report-flatten.js";

/** Each metric and what fills it. */
const FILLED_BY: Record<string, string> = {
  shippingAmount: "the shipping parameter of purchase events",
  taxAmount: "the tax parameter of purchase events",
  refundAmount: "refund events",
};

/** The note, or undefined when no such metric asked for is 0 throughout (or the report has no rows). */
export function zeroParametersNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "metricHeaders">,
): string | undefined {
  if (flat.rows.length === 0) return undefined;
  const names = (headers.metricHeaders ?? []).flatMap((h) => (h.name && FILLED_BY[h.name] ? [h.name] : []));
  const zero = names.filter((name) => zeroThroughout(flat, name));
  if (zero.length === 0) return undefined;
  const each = zero.map((name) => `${name} from ${FILLED_BY[name]}`).join(", ");
  return (
    `${zero.join(", ")} ${zero.length === 1 ? "is" : "are"} 0 in every row and in total: GA fills ${each}, so ` +
    "none were sent with a value; it may not be that none were charged (eventCount by eventName shows which events come in)."
  );
}
