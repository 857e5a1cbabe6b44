/**
 * "sessions/day": a metric's mean a day over the days each row covers. Agents divided a month's figures by its
 * days, and averaged a report by date into weekdays and weekends by hand (trial s20, N225 and N234: every figure
 * of the answer was the model's). A mean a day is the mean of the metric's daily values: GA is asked once more,
 * for the same report with `date` added, and each row's daily values are summed and divided by the days of its
 * range that have the row's calendar values (a September row: the 30 days of September in the range; a
 * Saturday row: the range's Saturdays) and that the filter's calendar conditions keep (report-day-filter.ts).
 * Only days that can have data count: from the property's first day to today in its zone (review s24,
 * finding 2); a day in between without a row counts as 0. For users this is the mean of each day's users, not
 * the period's users divided by its days: GA's user metrics are "the number of distinct users" over the
 * report's dates (activeUsers, totalUsers in https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema),
 * so a user of two days is one user of the period. The totals' mean a day is of GA's daily totals (one
 * more request by date alone, unless every dimension is one a day determines, when the rows' daily values are
 * those totals). The request side is report-per-day-request.ts.
 */
import type { MetricType, Row, RunReportResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import type { StatedRange } from "./date-presets.js";
import { type CountedDays, DAY_VALUES, daysMatching, rangeByKey } from "./report-calendar.js";
import { dayFilter } from "./report-day-filter.js";
import { perDayBase } from "./report-per-day-request.js";
import { weekendNote } from "./report-weekend.js";

/** GA answers at most 250,000 rows a request (RunReportRequest.limit, REAL-API B2). */
const MOST_ROWS = 250_000;
const HUNDREDTHS = 100;

const cellOf = (row: Row, at: number) => row.dimensionValues?.[at]?.value;
const numberOf = (row: Row, at: number) => {
  const value = Number(row.metricValues?.[at]?.value);
  return Number.isFinite(value) ? value : 0;
};
const rounded = (value: number) => String(Math.round(value * HUNDREDTHS) / HUNDREDTHS);

/** The days that can have data: from the property's first day to today, in its zone (YYYY-MM-DD, when known). */
export interface DaySpan {
  firstDay?: string | undefined;
  today?: string | undefined;
}

/** Each range cut to the days that can have data (undefined where none can), and the filter's days. */
export function countedDays(
  stated: readonly StatedRange[],
  span: DaySpan,
  dimensionFilter: unknown,
): CountedDays {
  const ranges = stated.map((range, index) => {
    const start = span.firstDay && span.firstDay > range.start_date ? span.firstDay : range.start_date;
    const end = span.today && span.today < range.end_date ? span.today : range.end_date;
    const label = range.name ?? `${range.start_date}…${range.end_date}`;
    return {
      key: range.name ?? `date_range_${index}`,
      label,
      counted: start <= end ? { start_date: start, end_date: end } : undefined,
    };
  });
  return { ranges, keep: (known) => dayFilter(dimensionFilter, known), today: span.today };
}

/** The day-by-day report's rows, summed by the answer's dimensions. */
interface DailySums {
  sums: Map<string, number[]>;
  key: (values: readonly (string | undefined)[]) => string;
  rows: { values: Record<string, string>; metrics: number[] }[];
}

/** `metricAt`: where each per-day column's metric is among the response's (the by-date report's: in order). */
function sumByKey(
  response: RunReportResponse,
  dimensions: readonly string[],
  metricAt: readonly number[],
): DailySums {
  const width = metricAt.length;
  const names = (response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const at = dimensions.map((name) => names.indexOf(name));
  const key = (values: readonly (string | undefined)[]) => JSON.stringify(values);
  const sums = new Map<string, number[]>();
  const rows = (response.rows ?? []).map((row) => {
    const metrics = metricAt.map((index) => numberOf(row, index));
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
  span: DaySpan;
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

/** A per-day column's type: its metric's (seconds, currency), a count's mean a number with decimals. */
function perDayType(response: RunReportResponse, name: string): MetricType {
  const type = response.metricHeaders?.find((header) => header.name === perDayBase(name))?.type;
  return type === undefined || type === "TYPE_INTEGER" ? "TYPE_FLOAT" : type;
}

export interface PerDayAnswer {
  response: RunReportResponse;
  note?: string;
  hints: string[];
  /** The days each range's means count (none without per-day columns). */
  days?: CountedDays;
}

/** The answer with each per-day column after GA's metrics, the weekend note by day of week, and its hints. */
export async function withPerDay(o: PerDayAsk): Promise<PerDayAnswer> {
  if (o.perDay.length === 0) return { response: o.response, hints: [] };
  const dimensions = (o.response.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const asked = (o.sent.dimensions as { name: string }[] | undefined) ?? [];
  const dated = asked.some((d) => d.name === "date");
  // By date (and not by day of week, whose note reads every day) each row is one day's: its mean is its own
  // figure, and the report is not asked for again (review s25, finding 12).
  const own = dated && !dimensions.some((name) => /^dayOfWeek/.test(name));
  const byDate = own ? undefined : await daily(o, dated ? asked : [...asked, { name: "date" }]);
  // The rows' key: their own dimensions, date among them only when the report is by date (review s24, finding 1).
  const keyed = dated ? dimensions : dimensions.filter((name) => name !== "date");
  const days = countedDays(o.stated, o.span, o.sent.dimensionFilter);
  const names = (o.response.metricHeaders ?? []).map((header) => header.name);
  const sums = byDate
    ? sumByKey(
        byDate,
        keyed,
        o.perDay.map((_, i) => i),
      )
    : sumByKey(
        o.response,
        keyed,
        o.perDay.map((name) => names.indexOf(perDayBase(name))),
      );
  const rangeAt = dimensions.indexOf("dateRange");

  const cells = (row: Row): Row => {
    const values = Object.fromEntries(dimensions.map((name, i) => [name, cellOf(row, i) ?? ""]));
    const range = rangeByKey(days, rangeAt < 0 ? undefined : values.dateRange)?.counted;
    const count = range ? daysMatching(range, values, days.keep(values)).length : 0;
    const sum = sums.sums.get(sums.key(keyed.map((name) => values[name])));
    const means = o.perDay.map((_, i) => (count > 0 ? { value: rounded((sum?.[i] ?? 0) / count) } : {}));
    return { ...row, metricValues: [...(row.metricValues ?? []), ...means] };
  };
  const totals = o.response.totals ? await dailyTotals(o, dimensions, byDate, days) : undefined;
  const totalAt = (row: Row, i: number) =>
    rangeAt < 0 ? i : days.ranges.findIndex((range) => range.key === cellOf(row, rangeAt));
  const response: RunReportResponse = {
    ...o.response,
    metricHeaders: [
      ...(o.response.metricHeaders ?? []),
      ...o.perDay.map((name) => ({ name, type: perDayType(o.response, name) })),
    ],
    ...(o.response.rows ? { rows: o.response.rows.map(cells) } : {}),
    // GA's totals rows carry their range's key: a range without rows may have none (review s26).
    ...(o.response.totals && totals
      ? { totals: o.response.totals.map((row, i) => withMeans(row, totals[totalAt(row, i)], o.perDay)) }
      : {}),
  };
  const note = weekendNote({ dimensions, perDay: o.perDay, days, rows: sums.rows });
  return { response, ...(note ? { note } : {}), hints: perDayHints(o, days), days };
}

const withMeans = (row: Row, means: (number | undefined)[] | undefined, perDay: readonly string[]): Row => ({
  ...row,
  metricValues: [
    ...(row.metricValues ?? []),
    ...perDay.map((_, i) => means?.[i]).map((mean) => (mean === undefined ? {} : { value: rounded(mean) })),
  ],
});

/**
 * With two date ranges merged, a mean a day of a range without the row's GA row: 0 when the range has days the
 * row's calendar values and the filter keep and that can have data, else no value (review s25, finding 11: a
 * range before the property's first day showed 0). `row` is the merged row (a paired dimension's columns are
 * named per range, and so not read as calendar values).
 */
export function absentMean(days: CountedDays | undefined) {
  return (metric: string, range: number, row: Readonly<Record<string, unknown>>): null | undefined => {
    if (!days || !perDayBase(metric)) return undefined;
    const counted = days.ranges[range]?.counted;
    const values = Object.fromEntries(
      Object.entries(row).flatMap(([name, value]) =>
        name in DAY_VALUES && typeof value === "string" ? [[name, value]] : [],
      ),
    );
    return counted && daysMatching(counted, values, days.keep(values)).length > 0 ? undefined : null;
  };
}

/**
 * Each range's totals a day: the sum of GA's daily totals over its days. When every dimension is one a day
 * determines, each day is in one row and the rows' daily values are those totals; else GA is asked by date.
 */
async function dailyTotals(
  o: PerDayAsk,
  dimensions: readonly string[],
  byDate: RunReportResponse | undefined,
  days: CountedDays,
) {
  const byDay = dimensions.every((name) => name === "dateRange" || name in DAY_VALUES);
  const source = byDay && byDate ? byDate : await daily(o, [{ name: "date" }]);
  const names = (source.dimensionHeaders ?? []).map((header) => header.name ?? "");
  const rangeAt = names.indexOf("dateRange");
  return days.ranges.map((range) => {
    const rows = (source.rows ?? []).filter((row) => rangeAt < 0 || cellOf(row, rangeAt) === range.key);
    const count = range.counted ? daysMatching(range.counted, {}, days.keep()).length : 0;
    return o.perDay.map((_, i) =>
      count > 0 ? rows.reduce((sum, row) => sum + numberOf(row, i), 0) / count : undefined,
    );
  });
}

/** What the per-day columns are, and which days they count where the ranges run past the data. */
function perDayHints(o: PerDayAsk, days: CountedDays): string[] {
  const users = o.perDay.some((name) => /users$/i.test(perDayBase(name) ?? ""));
  const hints = [
    `${o.perDay.join(", ")}: the mean of the metric's daily values over the days each row covers (a day without ` +
      `data counts as 0)${users ? "; each day counts its own users, so a user active on several days counts on each" : ""}.`,
  ];
  const cut = o.stated.flatMap((range, i) => {
    const counted = days.ranges[i]?.counted;
    if (counted && counted.start_date === range.start_date && counted.end_date === range.end_date) return [];
    return [
      counted ? `${counted.start_date}…${counted.end_date}` : `none of ${range.start_date}…${range.end_date}`,
    ];
  });
  if (days.ranges.some((range) => range.counted && range.counted.end_date === o.span.today)) {
    hints.push(`Today (${o.span.today}) counts as one of the days, though GA is still collecting it.`);
  }
  if (cut.length > 0) {
    // Only the bound that cut a range is named (review s25, finding 11: "to today" on a range that ended before).
    const cutStart = o.stated.some((range, i) => days.ranges[i]?.counted?.start_date !== range.start_date);
    const cutEnd = o.stated.some((range, i) => days.ranges[i]?.counted?.end_date !== range.end_date);
    const bounds = [
      ...(cutStart ? [`from the property's first day${o.span.firstDay ? ` (${o.span.firstDay})` : ""}`] : []),
      ...(cutEnd ? [`to today${o.span.today ? ` (${o.span.today})` : ""}`] : []),
    ];
    hints.push(`The means a day count only days that can have data, ${bounds.join(" ")}: ${cut.join("; ")}.`);
  }
  return hints;
}
