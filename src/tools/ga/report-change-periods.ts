/**
 * The periods a "sessions%change" column steps along (report-change.ts): the values of the report's rising
 * calendar dimension over the days of the range that can have data (from the property's first day to today, as
 * the means a day count them: report-per-day.ts) and that the filter's calendar conditions keep
 * (report-day-filter.ts), so with `dayOfWeekName == "Monday"` a Monday's previous period is the Monday before.
 * A period is cut when only part of it can be compared with a whole one (review s26, findings 1 and 3):
 * - "start": days of it lie before the range or before the property's first day;
 * - "end": days of it lie after the range;
 * - "running": it holds today, which GA is still collecting;
 * - "short": a GA `yearWeek` split by 1 January ("January 1st is always in week 01", the API schema's `week`), 4
 *   days of week 202553 against 7;
 * - "uneven": a filter of days that come round keeps more of some periods than of others (5 Mondays, 4 Mondays);
 * - "filter": the filter's conditions on rising calendar dimensions (`date >= 20260920`) keep only part of it, as
 *   a range's bounds would (review s27, finding 5: 11 days of September against October's 31 read +186 %).
 */
import type { StatedRange } from "./date-presets.js";
import { CALENDARS, DAY_VALUES, dayOf } from "./report-calendar.js";
import { dayTruth, risingOnly } from "./report-day-filter.js";
import type { DaySpan } from "./report-per-day.js";

const DAY_MS = 86_400_000;
const WEEK = 7;

export type Cut = "start" | "end" | "running" | "short" | "filter" | "uneven";

export interface Period {
  value: string;
  /** Its first day in the range that can have data (UTC midnight, ms). */
  first: number;
  /** Its days in the range that can have data and that the filter keeps. */
  days: number;
  cut?: Cut;
  /** A short week's days; a period the filter cuts: its days in the range that can have data. */
  length?: number;
  /** A period the filter cuts: the days of it that the filter's dates keep; an uneven one: of its day conditions. */
  kept?: number;
  /** An uneven period: the period compared with it that holds a different number of the filter's days. */
  unlike?: { period: Period; kept: number };
}

const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The filter's truth on a day: kept, dropped, or unknown (a condition on another dimension); kept when it fails. */
function truthOf(dimensionFilter: unknown): (ms: number) => boolean | undefined {
  const truth = dayTruth(dimensionFilter);
  return (ms) => {
    try {
      return truth(ms);
    } catch {
      return true;
    }
  };
}

/** The days the filter's calendar conditions keep; every day when it cannot tell (a condition on another dimension). */
function keptDays(dimensionFilter: unknown): (ms: number) => boolean {
  const truth = truthOf(dimensionFilter);
  return (ms) => truth(ms) !== false;
}

/** The periods of `calendar` in the range, over the days that can have data and the filter keeps, each cut or not. */
export function changePeriods(
  calendar: string,
  range: StatedRange,
  span: DaySpan,
  dimensionFilter: unknown,
): Period[] {
  const of = DAY_VALUES[calendar];
  if (!of) return [];
  const start = span.firstDay && span.firstDay > range.start_date ? span.firstDay : range.start_date;
  const end = span.today && span.today < range.end_date ? span.today : range.end_date;
  if (start > end) return [];
  const keep = keptDays(dimensionFilter);
  const periods: Period[] = [];
  for (let ms = dayOf(start); ms <= dayOf(end); ms += DAY_MS) {
    if (!keep(ms)) continue;
    const last = periods.at(-1);
    if (last?.value === of(ms)) last.days += 1;
    else periods.push({ value: of(ms), first: ms, days: 1 });
  }
  const [head, tail] = [periods[0], periods.at(-1)];
  if (head && of(dayOf(start) - DAY_MS) === head.value) head.cut = "start";
  if (tail && span.today === end && of(dayOf(end)) === tail.value) tail.cut = "running";
  else if (tail && of(dayOf(end) + DAY_MS) === tail.value) tail.cut = "end";
  cutByFilter(periods, of, [start, end], dimensionFilter);
  if (calendar === "yearWeek") {
    for (const period of periods) {
      const whole = Array.from({ length: 2 * WEEK - 1 }, (_, i) => period.first + (i - WEEK + 1) * DAY_MS);
      const length = whole.filter((ms) => of(ms) === period.value).length;
      if (!period.cut && length < WEEK) Object.assign(period, { cut: "short", length });
    }
  }
  return periods;
}

/** Marks "filter" a period whose days in [start, end] the filter's dates keep only part of. */
function cutByFilter(
  periods: Period[],
  of: (ms: number) => string,
  [start, end]: readonly [string, string],
  dimensionFilter: unknown,
): void {
  // Each day's truth: kept, dropped, or unknown (it depends on the row: `date >= 20260920 or <channel>` keeps all
  // of September for that channel and 11 days of it for the others). A period whose days differ is cut for some
  // rows, so it is cut (review s29, finding 4: +246.6 % from an 11-day September).
  const truth = truthOf(risingOnly(dimensionFilter));
  const counts = new Map<
    string,
    { length: number; kept: number; sure: number; seen: Set<boolean | undefined> }
  >();
  for (let ms = dayOf(start); ms <= dayOf(end); ms += DAY_MS) {
    const count = counts.get(of(ms)) ?? { length: 0, kept: 0, sure: 0, seen: new Set() };
    const day = truth(ms);
    count.seen.add(day);
    Object.assign(count, {
      length: count.length + 1,
      kept: count.kept + (day !== false ? 1 : 0),
      sure: count.sure + (day === true ? 1 : 0),
    });
    counts.set(of(ms), count);
  }
  for (const period of periods) {
    const count = counts.get(period.value);
    if (period.cut || !count || count.seen.size < 2) continue;
    const kept = count.seen.has(false) ? count.kept : count.sure;
    Object.assign(period, { cut: "filter", length: count.length, kept });
  }
  cutUneven(
    periods.filter((period) => !period.cut),
    (period) => counts.get(period.value)?.kept ?? period.days,
    sureDays(periods, of, [start, end], dimensionFilter),
  );
}

/**
 * A filter of days that come round (dayOfWeekName == "Monday") keeps 4 of one month and 5 of the next: counts of
 * periods holding different numbers of its days are not compared (review s29, finding 3: +35.7 % from a fifth
 * Monday, +8.6 % a day at a time). Or-ed with another dimension (`… or <channel> == "Email"`), the days it surely
 * keeps are those of every row but that channel's (review s30, finding 3). A period is cut when its days differ
 * from the period before or from the first, so the changes between periods alike stay (review s30, finding 10).
 */
function cutUneven(
  whole: Period[],
  kept: (period: Period) => number,
  sure: (period: Period) => number,
): void {
  const measures = [
    ...(whole.some((period) => period.days < kept(period)) ? [(period: Period) => period.days] : []),
    ...(whole.some((period) => sure(period) < period.days) ? [sure] : []),
  ];
  const [first] = whole;
  if (!first) return;
  whole.forEach((period, i) => {
    const before = whole[i - 1];
    for (const measure of measures) {
      const other = [before, first].find((p) => p && measure(p) !== measure(period));
      if (!other) continue;
      Object.assign(period, {
        cut: "uneven",
        kept: measure(period),
        unlike: { period: other, kept: measure(other) },
      });
      return;
    }
  });
}

/** The days of each period the whole filter surely keeps, whatever the row (a condition on a calendar dimension). */
function sureDays(
  periods: readonly Period[],
  of: (ms: number) => string,
  [start, end]: readonly [string, string],
  dimensionFilter: unknown,
): (period: Period) => number {
  const truth = truthOf(dimensionFilter);
  const sure = new Map<string, number>();
  for (let ms = dayOf(start); ms <= dayOf(end); ms += DAY_MS)
    if (truth(ms) === true) sure.set(of(ms), (sure.get(of(ms)) ?? 0) + 1);
  const listed = new Set(periods.map((period) => period.value));
  return (period) => (listed.has(period.value) ? (sure.get(period.value) ?? 0) : period.days);
}

/** How the answer names a period: "Sep 2026", "week 202553 (28 – 31 Dec 2025)". */
export const periodLabel = (calendar: string, period: Period): string =>
  CALENDARS[calendar]?.label(period.first) ?? period.value;

/** Why a cut period is cut, and the dates that make the range's periods whole. */
export function cutWords(calendar: string, periods: readonly Period[], span: DaySpan): string[] {
  const next = (period: Period) => periods[periods.indexOf(period) + 1];
  return periods.flatMap((period) => {
    const label = periodLabel(calendar, period);
    switch (period.cut) {
      case "start": {
        const after = next(period);
        const why = [
          ...(span.firstDay && isoOf(period.first) === span.firstDay
            ? [`data starts on ${span.firstDay}`]
            : []),
          ...(after ? [`for whole periods, start on ${isoOf(after.first)}`] : []),
        ];
        return [`${label} is only partly in the range${why.length > 0 ? ` (${why.join("; ")})` : ""}`];
      }
      case "running":
        return [
          `${label} is still running (today, ${span.today}, is still being collected; for whole periods, end on ${isoOf(period.first - DAY_MS)})`,
        ];
      case "end":
        return [
          `${label} is only partly in the range (for whole periods, end on ${isoOf(period.first - DAY_MS)})`,
        ];
      case "filter":
        return [
          `${label} is only partly in the filter's dates (${period.kept} of its ${period.length} days in the range)`,
        ];
      case "uneven": {
        const unlike = period.unlike
          ? `, ${periodLabel(calendar, period.unlike.period)} ${period.unlike.kept}`
          : "";
        return [
          `${label} holds ${period.kept ?? period.days} of the days the filter's day conditions keep${unlike}`,
        ];
      }
      case "short":
        return [
          `${label} has ${period.length} days (GA's weeks restart on 1 January; isoYearIsoWeek's weeks are whole)`,
        ];
      default:
        return [];
    }
  });
}

/**
 * How a row's period is cut: its period's, or, when the row has other calendar values (month × year), by the row's
 * own days: year over year by month compares whole Novembers of a year still running (review s27, finding 4).
 */
export function rowCutter(
  calendar: string,
  range: StatedRange,
  span: DaySpan,
  dimensionFilter: unknown,
): (period: Period, values: Readonly<Record<string, string>>) => { cut?: Cut; days?: number } {
  const of = DAY_VALUES[calendar];
  const start = span.firstDay && span.firstDay > range.start_date ? span.firstDay : range.start_date;
  const end = span.today && span.today < range.end_date ? span.today : range.end_date;
  const rising = keptDays(risingOnly(dimensionFilter));
  const all = keptDays(dimensionFilter);
  return (period, values) => {
    const others = Object.entries(values).filter(([name]) => name !== calendar && DAY_VALUES[name]);
    if (!of || others.length === 0) return period.cut ? { cut: period.cut } : {};
    const own = (ms: number) =>
      of(ms) === period.value && others.every(([name, value]) => DAY_VALUES[name]?.(ms) === value);
    let [full, kept, running, days] = [0, 0, false, 0];
    for (let ms = period.first - YEAR_MS; ms <= period.first + YEAR_MS; ms += DAY_MS) {
      if (!own(ms)) continue;
      full += 1;
      const day = isoOf(ms);
      if (day >= start && day <= end && rising(ms)) kept += 1;
      if (day >= start && day <= end && all(ms)) days += 1;
      if (day === span.today && end === span.today) running = true;
    }
    // The row's own days, which the row before must match for counts to compare (review s30, finding 2: one
    // November day of week 202644 against week 202645's seven read +762.4 %; 5 Mondays against 4, +35.7 %).
    if (running) return { cut: "running", days };
    return kept < full ? { cut: "start", days } : { days };
  };
}

const YEAR_MS = 372 * DAY_MS;
