/**
 * "sessions/day": a metric's mean a day over the days each row covers. Agents divided a month's figures by its
 * days, and averaged a report by date into weekdays and weekends by hand (trial s20, N225 and N234: every figure
 * of the answer was the model's). A mean a day is the mean of the metric's daily values: GA is asked once more,
 * for the same report with `date` added, and each row's daily values are summed and divided by the days of its
 * range that have the row's calendar values (a September row: the 30 days of September in the range; a
 * Saturday row: the range's Saturdays). A day without a row counts as 0. For users this is the mean of each
 * day's users, not the period's users divided by its days: GA counts a user once over a period
 * (https://support.google.com/analytics/answer/12253918), so the period's figure is smaller than the sum of
 * its days'. The totals' mean a day is of GA's daily totals (one more request by date alone, unless every
 * dimension is one a day determines, when the rows' daily values are those totals).
 */
import type { Row, RunReportResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import type { StatedRange } from "./date-presets.js";
import { DAY_VALUES, daysMatching } from "./report-calendar.js";
import { weekendNote } from "./report-weekend.js";

const PER_DAY = /^([A-Za-z][A-Za-z0-9_:.]*)\/day$/;
/** GA answers at most 250,000 rows a request (RunReportRequest.limit, REAL-API B2). */
const MOST_ROWS = 250_000;
const HUNDREDTHS = 100;

/** The metric a per-day column is the mean of: "sessions/day" → "sessions". */
export const perDayBase = (name: string): string | undefined => PER_DAY.exec(name)?.[1];

/** Dimensions finer than a day, or counted from the range's start: a mean a day of their rows is not defined. */
const NOT_BY_DAY = /^(dateHour|dateHourMinute|nth[A-Z][A-Za-z]*)$/;

type Shape = Pick<RunReportsFields, "metrics" | "dimensions" | "realtime">;

/** The request with each "x/day" asked as x (once), and the per-day columns the answer adds. */
export function perDayRequest<F extends Shape>(fields: F): { fields: F; perDay: string[] } {
  const perDay = fields.metrics.filter((name) => perDayBase(name));
  if (perDay.length === 0) return { fields, perDay };
  if (fields.realtime) {
    throw new ValidationError("metrics", `a mean a day (${perDay.join(", ")}) needs date ranges.`, {
      hint: "Leave out realtime, or ask for the metric without /day.",
    });
  }
  const finer = fields.dimensions.filter((name) => NOT_BY_DAY.test(name));
  if (finer.length > 0) {
    throw new ValidationError("dimensions", `a mean a day cannot be worked out by ${finer.join(", ")}.`, {
      hint: `Use date, day, dayOfWeekName, week, month, yearMonth or year, or ask for the metric without /day.`,
    });
  }
  const metrics = [...new Set(fields.metrics.map((name) => perDayBase(name) ?? name))];
  return { fields: { ...fields, metrics }, perDay };
}

/** What the per-day columns are, in the answer's hints. */
export function perDayHints(perDay: readonly string[]): string[] {
  if (perDay.length === 0) return [];
  return [
    `${perDay.join(", ")}: the mean of the metric's daily values over the days each row covers (a day without ` +
      "data counts as 0); for users each day counts its own users, so the mean is more than the period's users " +
      "divided by its days.",
  ];
}

/** Refuses a metric condition beside a per-day column: GA would apply it to single days, not to the rows. */
export function checkPerDayFilter(sent: Record<string, unknown>, perDay: readonly string[]): void {
  if (perDay.length === 0 || sent.metricFilter === undefined) return;
  throw new ValidationError(
    "filter",
    `a mean a day (${perDay.join(", ")}) is worked out from each day's figures, and a condition on a metric ` +
      "would keep or drop single days rather than rows.",
    { hint: "Keep the filter's dimension conditions only, or ask for the metric without /day." },
  );
}

interface Days {
  stated: readonly StatedRange[];
  /** The answer's dimension names, dateRange included when GA added it. */
  dimensions: readonly string[];
}

/** A row's date range: GA's dateRange value (its name, or date_range_N), else the only range. */
function rangeOf(days: Days, value: string | undefined): StatedRange | undefined {
  if (value === undefined) return days.stated[0];
  const at = days.stated.findIndex((range, index) => (range.name ?? `date_range_${index}`) === value);
  return days.stated[at];
}

const cellOf = (row: Row, at: number) => row.dimensionValues?.[at]?.value;
const numberOf = (row: Row, at: number) => {
  const value = Number(row.metricValues?.[at]?.value);
  return Number.isFinite(value) ? value : 0;
};
const rounded = (value: number) => String(Math.round(value * HUNDREDTHS) / HUNDREDTHS);

/** The day-by-day report: its rows' metric values summed by the answer's dimensions (date left out). */
export interface DailySums {
  sums: Map<string, number[]>;
  /** A row's key in `sums`: its values of the answer's dimensions, date and dateRange included as asked. */
  key: (values: readonly (string | undefined)[]) => string;
  rows: { values: Record<string, string>; metrics: number[] }[];
}

function sumByKey(response: RunReportResponse, dimensions: readonly string[], width: number): DailySums {
  const names = (response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const at = dimensions.map((name) => names.indexOf(name));
  const key = (values: readonly (string | undefined)[]) => JSON.stringify(values);
  const sums = new Map<string, number[]>();
  const rows = (response.rows ?? []).map((row) => {
    const metrics = Array.from({ length: width }, (_, i) => numberOf(row, i));
    const k = key(at.map((index) => (index < 0 ? undefined : cellOf(row, index))));
    const sum = sums.get(k) ?? Array.from({ length: width }, () => 0);
    sums.set(
      k,
      sum.map((value, i) => value + (metrics[i] ?? 0)),
    );
    return { values: Object.fromEntries(names.map((name, i) => [name, cellOf(row, i) ?? ""])), metrics };
  });
  return { sums, key, rows };
}

export interface PerDayAsk {
  response: RunReportResponse;
  perDay: readonly string[];
  sent: Record<string, unknown>;
  stated: readonly StatedRange[];
  ask: (body: Record<string, unknown>) => Promise<RunReportResponse>;
}

/** The same report by date (and its other dimensions), whole. */
async function daily(o: PerDayAsk, dimensions: { name: string }[]): Promise<RunReportResponse> {
  const { orderBys: _order, offset: _offset, metricAggregations: _totals, ...rest } = o.sent;
  const metrics = o.perDay.map((name) => ({ name: perDayBase(name) }));
  const answer = await o.ask({ ...rest, dimensions, metrics, limit: String(MOST_ROWS) });
  if ((answer.rowCount ?? 0) > (answer.rows?.length ?? 0)) {
    throw new ValidationError(
      "metrics",
      `a mean a day reads the report by date, and it has ${answer.rowCount} rows.`,
      {
        hint: "Narrow the dates or the dimensions, or ask for the metric without /day.",
      },
    );
  }
  return answer;
}

/** The answer with each per-day column after GA's metrics, and the weekend note when asked by day of week. */
export async function withPerDay(o: PerDayAsk): Promise<{ response: RunReportResponse; note?: string }> {
  if (o.perDay.length === 0) return { response: o.response };
  const dimensions = (o.response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const asked = (o.sent.dimensions as { name: string }[] | undefined) ?? [];
  const withDate = asked.some((d) => d.name === "date") ? asked : [...asked, { name: "date" }];
  const byDate = await daily(o, withDate);
  const keyed = dimensions.filter((name) => name !== "date");
  const days: Days = { stated: o.stated, dimensions };
  const sums = sumByKey(byDate, keyed, o.perDay.length);
  const rangeAt = dimensions.indexOf("dateRange");
  const cells = (row: Row): Row => {
    const values = Object.fromEntries(dimensions.map((name, i) => [name, cellOf(row, i) ?? ""]));
    const range = rangeOf(days, rangeAt < 0 ? undefined : values.dateRange);
    const count = range ? daysMatching(range, values).length : 0;
    const sum = sums.sums.get(sums.key(keyed.map((name) => values[name])));
    const means = o.perDay.map((_, i) => (count > 0 ? { value: rounded((sum?.[i] ?? 0) / count) } : {}));
    return { ...row, metricValues: [...(row.metricValues ?? []), ...means] };
  };
  const totals = o.response.totals ? await dailyTotals(o, dimensions, byDate) : undefined;
  const response: RunReportResponse = {
    ...o.response,
    metricHeaders: [
      ...(o.response.metricHeaders ?? []),
      ...o.perDay.map((name) => ({ name, type: "TYPE_FLOAT" as const })),
    ],
    ...(o.response.rows ? { rows: o.response.rows.map(cells) } : {}),
    ...(o.response.totals && totals
      ? { totals: o.response.totals.map((row, i) => withMeans(row, totals[i])) }
      : {}),
  };
  const note = weekendNote({ dimensions, perDay: o.perDay, stated: o.stated, rows: sums.rows });
  return note ? { response, note } : { response };
}

const withMeans = (row: Row, means: (number | undefined)[] | undefined): Row => ({
  ...row,
  metricValues: [
    ...(row.metricValues ?? []),
    ...(means ?? []).map((mean) => (mean === undefined ? {} : { value: rounded(mean) })),
  ],
});

/**
 * Each range's totals a day: the sum of GA's daily totals over its days. When every dimension is one a day
 * determines, each day is in one row and the rows' daily values are those totals; else GA is asked by date.
 */
async function dailyTotals(o: PerDayAsk, dimensions: readonly string[], byDate: RunReportResponse) {
  const byDay = dimensions.every((name) => name === "dateRange" || name in DAY_VALUES);
  const source = byDay ? byDate : await daily(o, [{ name: "date" }]);
  const names = (source.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const rangeAt = names.indexOf("dateRange");
  return o.stated.map((range, index) => {
    const name = range.name ?? `date_range_${index}`;
    const rows = (source.rows ?? []).filter((row) => rangeAt < 0 || cellOf(row, rangeAt) === name);
    const count = daysMatching(range, {}).length;
    return o.perDay.map((_, i) =>
      count > 0 ? rows.reduce((sum, row) => sum + numberOf(row, i), 0) / count : undefined,
    );
  });
}
