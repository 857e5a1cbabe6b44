import type { Row, RunReportResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import { sortWords } from "./report-request.js";

/**
 * "totalRevenue/sessions": a ratio of two metrics, per row, as GA's derived metrics compute it (the row's
 * own sums divided: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/Metric,
 * `expression`). Agents divided report columns by hand (revenue per session, engaged time per user) in
 * trial s15 (issue 27). GA is asked for both metrics; the ratio is added to its answer as one more metric
 * column (to 4 decimals; no value where the divisor is 0), and its totals row is the totals' ratio.
 *
 * GA cannot sort by a ratio it was not asked for, so a sort on one reads the whole report (up to 10,000
 * rows, no GA order), sorts it here by the asked keys, and keeps the page asked for: the answer is the page
 * GA would have sent had it sorted.
 */
// Spaces too, each part then checked, offered its API name: "Item revenue/Sessions" was checked whole (review s56, F9).
const RATIO = /^([A-Za-z][A-Za-z0-9_:. ]*?)\s*\/\s*([A-Za-z][A-Za-z0-9_:. ]*)$/;
const WHOLE = 10_000;
const DECIMALS = 1e4;

/** A ratio's two metrics; "sessions/day" is not a ratio but a mean a day (report-per-day.ts). */
export const ratioParts = (name: string): [string, string] | undefined => {
  const parts = RATIO.exec(name);
  return parts && parts[2] !== "day" ? [parts[1] as string, parts[2] as string] : undefined;
};

/** Where a metric GA is asked for stands in the caller's list: itself, its share or a ratio it is part of. */
export function askedAt(asked: readonly string[]): (name: string) => number {
  return (name) => {
    const at = asked.findIndex((asking) => {
      const entry = asking.replace(/%change$/, "");
      return [entry, entry.replace(/(%|\/day)$/, ""), ...(ratioParts(entry) ?? [])].includes(name);
    });
    return at < 0 ? asked.indexOf(name) : at;
  };
}

export interface SortKey {
  name: string;
  desc: boolean;
}

export interface RatioRequest<F> {
  fields: F;
  ratios: string[];
  /** Set when order_by names a ratio: the whole report is read and sorted here. */
  sort?: SortKey[];
}

type Sortable = Pick<RunReportsFields, "metrics" | "dimensions" | "order_by" | "date_ranges">;

export function sortKeys(order: RunReportsFields["order_by"]): SortKey[] {
  if (order === undefined) return [];
  const items = typeof order === "string" ? order.split(",").map((part) => part.trim()) : order;
  return items.map((item) =>
    typeof item === "string"
      ? (({ name, desc }) => ({ name, desc }))(sortWords(item))
      : { name: item.field, desc: item.desc },
  );
}

/**
 * The request GA is sent: each ratio's two metrics (once each), and no sort on a ratio or on a column worked
 * out here (`computed`: the means a day of report-per-day.ts).
 */
export function ratioRequest<F extends Sortable>(
  fields: F,
  computed: readonly string[] = [],
): RatioRequest<F> {
  const ratios = fields.metrics.filter((name) => ratioParts(name));
  const here = [...ratios, ...computed];
  if (here.length === 0) return { fields, ratios };
  const metrics = [...new Set(fields.metrics.flatMap((name) => ratioParts(name) ?? [name]))];
  const keys = sortKeys(fields.order_by);
  // A two-range column of one ("sessions/day_change", "a/b[2026]") names it too (review s24, finding 7).
  const named = (key: SortKey) => here.includes(key.name.replace(/(\[[^\]]*\]|_change_pct|_change)$/, ""));
  // Two ranges' merged rows are sorted by the step over the whole report, by any column they print,
  // "sessions/day_change" included (report-merged-order.ts): GA is sent no order either way. Refused
  // before (trial s47, N646: the agent ranked the sites itself).
  if (!keys.some(named) || fields.date_ranges?.length === 2)
    return { fields: { ...fields, metrics }, ratios };
  if ((fields.date_ranges?.length ?? 1) > 1) {
    throw new ValidationError("order_by", `a sort on ${here.join(", ")} takes one or two date ranges.`, {
      hint: "Sort by a metric GA reports, or report on one or two date ranges at a time.",
    });
  }
  const columns = [...fields.metrics, ...metrics, ...fields.dimensions, ...computed];
  const unknown = keys.find((key) => !columns.includes(key.name));
  if (unknown) {
    throw new ValidationError("order_by", `"${unknown.name}" is not one of this report's columns.`, {
      hint: `Sort by the report's columns: ${[...new Set(columns)].join(", ")}.`,
    });
  }
  const { order_by: _sorted, ...rest } = fields;
  return { fields: { ...rest, metrics } as F, ratios, sort: keys };
}

/** What GA is sent when the answer is sorted here: every row from the first, in no order of GA's. */
export function wholeForSort(request: Record<string, unknown>, sort: readonly SortKey[] | undefined) {
  if (!sort) return request;
  const { orderBys: _none, offset: _first, ...rest } = request;
  return { ...rest, limit: WHOLE };
}

const numberAt = (row: Row | undefined, at: number) => {
  const value = row?.metricValues?.[at]?.value;
  return value === undefined || value.trim() === "" ? Number.NaN : Number(value);
};

function divided(row: Row, at: [number, number]): { value?: string } {
  const [top, bottom] = [numberAt(row, at[0]), numberAt(row, at[1])];
  if (!Number.isFinite(top) || !Number.isFinite(bottom) || bottom === 0) return {};
  return { value: String(Math.round((top / bottom) * DECIMALS) / DECIMALS) };
}

/** The response with each ratio as a metric column after GA's (its totals row: the totals' ratio). */
export function withRatios(response: RunReportResponse, ratios: readonly string[]): RunReportResponse {
  if (ratios.length === 0) return response;
  const metrics = (response.metricHeaders ?? []).map((header) => header.name ?? "");
  const at = ratios.map((name) => {
    const [top, bottom] = ratioParts(name) as [string, string];
    return [metrics.indexOf(top), metrics.indexOf(bottom)] as [number, number];
  });
  const cells = (row: Row): Row => ({
    ...row,
    metricValues: [...(row.metricValues ?? []), ...at.map((pair) => divided(row, pair))],
  });
  return {
    ...response,
    metricHeaders: [
      ...(response.metricHeaders ?? []),
      ...ratios.map((name) => ({ name, type: "TYPE_FLOAT" as const })),
    ],
    ...(response.rows ? { rows: response.rows.map(cells) } : {}),
    ...(response.totals ? { totals: response.totals.map(cells) } : {}),
  };
}

/** The whole report (read by wholeForSort) in the asked order, every column worked out here included. */
export function sortedHere(
  response: RunReportResponse,
  sort: readonly SortKey[] | undefined,
  perGroup = false,
): RunReportResponse {
  const rows = response.rows;
  if (!sort || !rows) return response;
  if ((response.rowCount ?? rows.length) > rows.length) {
    // limit "10 per date" reads the whole report too, whatever it sorts by (review s43, 7).
    throw new ValidationError(
      perGroup ? "limit" : "order_by",
      `${perGroup ? "limit per" : "a sort on a column worked out here, or a %change column,"} reads the whole report: at most ${WHOLE} rows.`,
      { hint: `This report has ${response.rowCount} rows: narrow it with a filter or fewer dimensions.` },
    );
  }
  const names = (response.metricHeaders ?? []).map((header) => header.name ?? "");
  const dimensions = (response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  return { ...response, rows: sortRows(rows, sort, { names, dimensions }) };
}

/** The page asked for of a report sorted here. */
export const pageHere = (
  response: RunReportResponse,
  page: { offset: number; limit: number } | undefined,
): RunReportResponse =>
  page && response.rows
    ? { ...response, rows: response.rows.slice(page.offset, page.offset + page.limit) }
    : response;

/** Rows in the asked order: numbers for metrics (no value last), text for dimensions; ties keep GA's order. */
function sortRows(
  rows: Row[],
  keys: readonly SortKey[],
  columns: { names: readonly string[]; dimensions: readonly string[] },
): Row[] {
  const compare = (a: Row, b: Row) => {
    for (const key of keys) {
      const metric = columns.names.indexOf(key.name);
      let diff: number;
      if (metric >= 0) {
        const [x, y] = [numberAt(a, metric), numberAt(b, metric)];
        if (Number.isNaN(x) || Number.isNaN(y)) {
          diff = Number.isNaN(x) === Number.isNaN(y) ? 0 : Number.isNaN(x) ? 1 : -1;
          if (diff !== 0) return diff;
          continue;
        }
        diff = x - y;
      } else {
        const dimension = columns.dimensions.indexOf(key.name);
        const [x, y] = [
          a.dimensionValues?.[dimension]?.value ?? "",
          b.dimensionValues?.[dimension]?.value ?? "",
        ];
        diff = x < y ? -1 : x > y ? 1 : 0;
      }
      if (diff !== 0) return key.desc ? -diff : diff;
    }
    return 0;
  };
  return [...rows].sort(compare);
}
