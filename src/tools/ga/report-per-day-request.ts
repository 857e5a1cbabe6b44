/**
 * What a "sessions/day" column asks of GA (report-per-day.ts works the means out): the metric itself, checked
 * before anything is sent. A mean a day is for counts and sums that add up over days: a rate or an average
 * (bounceRate, averageSessionDuration, sessionsPerUser) does not, and its days without data would count as 0
 * (review s24, finding 4).
 */
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";

const PER_DAY = /^([A-Za-z][A-Za-z0-9_:. ]*?)\s*\/day$/;
/** GA's rates, averages and per-user or per-session figures, by name (the Data API schema's metrics). */
export const NOT_ADDED_UP = /^average|Average|Rate$|Per[A-Z]|^returnOnAdSpend$/;
/** Dimensions finer than a day, or counted from the range's start: a mean a day of their rows is not defined. */
const NOT_BY_DAY = /^(dateHour|dateHourMinute|nth[A-Z][A-Za-z]*)$/;

/** The metric a per-day column is the mean of: "sessions/day" → "sessions". */
export const perDayBase = (name: string): string | undefined => PER_DAY.exec(name)?.[1];

type Shape = Pick<RunReportsFields, "metrics" | "dimensions" | "realtime">;

/** The request with each "x/day" asked as x (once), and the per-day columns the answer adds. */
export function perDayRequest<F extends Shape>(fields: F): { fields: F; perDay: string[] } {
  const perDay = fields.metrics.filter((name) => perDayBase(name));
  if (perDay.length === 0) return { fields, perDay };
  const twice = perDay.find((name, i) => perDay.indexOf(name) !== i);
  if (twice) throw new ValidationError("metrics", `"${twice}" is listed twice.`, { hint: "List it once." });
  if (fields.realtime) {
    throw new ValidationError("metrics", `a mean a day (${perDay.join(", ")}) needs date ranges.`, {
      hint: "Leave out realtime, or ask for the metric without /day.",
    });
  }
  const rates = perDay.filter((name) => NOT_ADDED_UP.test(perDayBase(name) ?? ""));
  if (rates.length > 0) {
    throw new ValidationError(
      "metrics",
      `${rates.join(", ")}: a mean a day is for counts and sums that add up over days, and ` +
        `${rates.map(perDayBase).join(", ")} is a rate or an average already.`,
      { hint: "Ask for it without /day (GA's figure over each row's days), or for a count with /day." },
    );
  }
  const finer = fields.dimensions.filter((name) => NOT_BY_DAY.test(name));
  if (finer.length > 0) {
    throw new ValidationError("dimensions", `a mean a day cannot be worked out by ${finer.join(", ")}.`, {
      hint: "Use date, day, dayOfWeekName, week, month, yearMonth or year, or ask for the metric without /day.",
    });
  }
  const metrics = [...new Set(fields.metrics.map((name) => perDayBase(name) ?? name))];
  return { fields: { ...fields, metrics }, perDay };
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
