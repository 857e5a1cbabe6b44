import type { Row, RunReportResponse } from "../../connectors/google/types.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import { sortWords } from "./report-request.js";
import { wholeGroups } from "./report-subtotals.js";

/**
 * "sessions%": each row's share of GA's total of that metric, in percent to 0.1. GA4's Data API has no
 * share of total (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/Metric),
 * and agents worked shares out by hand over report rows in 10 of 20 tasks (trial s15, issue 27). The total
 * is GA's own (metricAggregations TOTAL, over every row the filter keeps, whatever limit and offset), so a
 * page's shares are the same as the whole report's. GA is asked for the metric itself; the share is added to
 * its answer as one more metric column, which every later view (text, JSON, CSV, table, chart) shows alike.
 */
export const SHARE_MARK = "%";

const DATE_RANGE = "dateRange";

export const isShare = (name: string): boolean => name.endsWith(SHARE_MARK);
export const shareOf = (name: string): string => (isShare(name) ? name.slice(0, -SHARE_MARK.length) : name);

export interface ShareRequest<F> {
  /** The fields as GA is asked: each "x%" is x (once), and order_by by "x%" is by x. */
  fields: F;
  /** The share columns asked for, in the order asked ("sessions%"). */
  shares: string[];
}

/** A sort key with its share's "%" taken off, written "-x" ("sessions% desc" too: review s58, F1). */
function shareKey(part: string): string {
  const { name, desc } = sortWords(part);
  return `${desc ? "-" : ""}${shareOf(name)}`;
}

/**
 * The request without its share columns. Within one date range a share sorts as its metric does, so a sort
 * on "x%" is a sort on x, which GA (or the merged rows' sort) does over the whole report.
 */
export function shareRequest<F extends Pick<RunReportsFields, "metrics" | "order_by">>(
  fields: F,
): ShareRequest<F> {
  const shares = fields.metrics.filter(isShare);
  if (shares.length === 0) return { fields, shares };
  const metrics = [...new Set(fields.metrics.map(shareOf))];
  const order = fields.order_by;
  const order_by =
    order === undefined
      ? undefined
      : typeof order === "string"
        ? order
            .split(",")
            .map((part) => shareKey(part.trim()))
            .join(",")
        : order.map((item) =>
            typeof item === "string" ? shareKey(item) : { ...item, field: shareOf(item.field) },
          );
  return { fields: { ...fields, metrics, ...(order_by === undefined ? {} : { order_by }) }, shares };
}

const percent = (value: number, total: number): string | undefined =>
  total > 0 ? String(Math.round((value / total) * 1000) / 10) : undefined;

/**
 * The response with each share column after its metric's: the row's value over its range's total, or over
 * `over` (the totals of the same report without its metric filter, report-metric-filter.ts) when given.
 */
export function withShares(
  response: RunReportResponse,
  shares: readonly string[],
  over?: readonly Row[],
): RunReportResponse {
  if (shares.length === 0) return response;
  const metrics = (response.metricHeaders ?? []).map((header) => header.name ?? "");
  const dimensions = (response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const rangeAt = dimensions.indexOf(DATE_RANGE);
  const rangeOf = (row: Row) => (rangeAt < 0 ? "" : (row.dimensionValues?.[rangeAt]?.value ?? ""));
  const totals = new Map((over ?? response.totals ?? []).map((row) => [rangeOf(row), row]));
  const value = (row: Row | undefined, at: number) => Number(row?.metricValues?.[at]?.value ?? Number.NaN);
  // Columns: each metric, then its share when asked for.
  const columns = metrics.flatMap((name, at) => [
    { name, at, share: false },
    ...(shares.includes(`${name}${SHARE_MARK}`) ? [{ name: `${name}${SHARE_MARK}`, at, share: true }] : []),
  ]);
  const cells = (row: Row, total: (at: number) => number): Row => ({
    ...row,
    metricValues: columns.map(({ at, share }) => {
      if (!share) return row.metricValues?.[at] ?? {};
      const cell = percent(value(row, at), total(at));
      return cell === undefined ? {} : { value: cell };
    }),
  });
  // Without dimensions the one row is the whole: its share is of itself.
  const totalFor = (row: Row) => (at: number) =>
    dimensions.length === 0 ? value(row, at) : value(totals.get(rangeOf(row)), at);
  return {
    ...response,
    metricHeaders: columns.map(({ name, at, share }) =>
      share ? { name, type: "TYPE_FLOAT" } : (response.metricHeaders?.[at] ?? { name }),
    ),
    ...(response.rows ? { rows: response.rows.map((row) => cells(row, totalFor(row))) } : {}),
    // A totals row's share is of itself (100 where the total is above 0), or of `over` (review s23, finding 3a).
    ...(response.totals
      ? { totals: response.totals.map((row) => cells(row, over ? totalFor(row) : (at) => value(row, at))) }
      : {}),
  };
}

/**
 * With two or more dimensions, each share column "sessions%" gets "sessions%in_<first dimension>": the row's
 * value over GA's own total of its first dimension's value (report-subtotals.ts: the same report by that
 * dimension alone), so a channel's share of its month reads off the row. Agents divided each row by its
 * month's or campaign's total by hand (trial s20, N219 and N236). Only when the summary states those totals
 * (report-subtotals.ts's wholeGroups); the totals row has none.
 */
export function withGroupShares(
  response: RunReportResponse,
  shares: readonly string[],
  coarse: RunReportResponse | undefined,
  first: string | undefined,
): RunReportResponse {
  if (shares.length === 0 || !coarse || !first || !wholeGroups(coarse)) return response;
  const names = (headers: { name?: string }[] | undefined) =>
    (headers ?? []).map((header) => header.name ?? "");
  const [metrics, coarseMetrics] = [names(response.metricHeaders), names(coarse.metricHeaders)];
  const firstAt = names(response.dimensionHeaders).indexOf(first);
  if (firstAt < 0) return response;
  const groups = new Map((coarse.rows ?? []).map((row) => [row.dimensionValues?.[0]?.value ?? "", row]));
  const value = (row: Row | undefined, at: number) => Number(row?.metricValues?.[at]?.value ?? Number.NaN);
  const columns = shares.map((share) => ({
    name: `${share}in_${first}`,
    at: metrics.indexOf(shareOf(share)),
    total: coarseMetrics.indexOf(shareOf(share)),
  }));
  const cells = (row: Row): Row => {
    const group = groups.get(row.dimensionValues?.[firstAt]?.value ?? "");
    const added = columns.map(({ at, total }) => {
      const cell = percent(value(row, at), value(group, total));
      return cell === undefined ? {} : { value: cell };
    });
    return { ...row, metricValues: [...(row.metricValues ?? []), ...added] };
  };
  return {
    ...response,
    metricHeaders: [
      ...(response.metricHeaders ?? []),
      ...columns.map(({ name }) => ({ name, type: "TYPE_FLOAT" as const })),
    ],
    ...(response.rows ? { rows: response.rows.map(cells) } : {}),
    ...(response.totals
      ? {
          totals: response.totals.map((row) => ({
            ...row,
            metricValues: [...(row.metricValues ?? []), ...columns.map(() => ({}))],
          })),
        }
      : {}),
  };
}
