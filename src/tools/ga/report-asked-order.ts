/**
 * The order a Run Reports request asked GA for (its orderBys), as the column the page's table starts sorted
 * by. GA answers in that order
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/OrderBy), so the table
 * must not re-sort it by the chart's column (trial s7, finding 2).
 */

type Order = { column: string; descending: boolean };

/**
 * `undefined` when the request asked no order; `null` when the table cannot say it with one column's sort
 * (several keys, or a dimension GA sorts as numbers or ignoring case, which a sort of the cells' text would
 * not reproduce): the table then keeps the answer's order with no column marked.
 */
export function askedOrder(request: Record<string, unknown>): Order | null | undefined {
  const orderBys = request.orderBys;
  if (!Array.isArray(orderBys) || orderBys.length === 0) return undefined;
  if (orderBys.length > 1) return null;
  const [only] = orderBys as {
    desc?: boolean;
    metric?: { metricName?: string };
    dimension?: { dimensionName?: string; orderType?: string };
  }[];
  const descending = only?.desc === true;
  const metric = only?.metric?.metricName;
  if (metric) return { column: metric, descending };
  const dimension = only?.dimension;
  // ALPHANUMERIC (the default) is by Unicode code point, as the table compares text.
  const plain = dimension?.orderType === undefined || dimension.orderType === "ALPHANUMERIC";
  return dimension?.dimensionName && plain ? { column: dimension.dimensionName, descending } : null;
}
