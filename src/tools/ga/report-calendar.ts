/**
 * The calendar dimensions whose values a range's days determine, one value per day, as GA writes them (the
 * API schema's descriptions, src/sandbox/google/data/api-schema.json): the days, weeks, months… a range
 * covers. report-no-rows.ts names those without a row; report-pairs.ts pairs two periods' days, weeks and
 * months by their position in each period; report-per-day.ts counts the days each row of a report covers.
 */
import type { StatedRange } from "./date-presets.js";
import { dates } from "./period-words.js";
import { isoWeekMonday } from "./report-weeks.js";

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const pad = (n: number) => String(n).padStart(2, "0");
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A day (YYYY-MM-DD) as UTC midnight in ms, the calendars' day. */
export const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** GA's `week`: "Each week starts on Sunday. January 1st is always in week 01" (the API schema). */
function gaWeek(ms: number): { year: number; week: number; from: number; to: number } {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  const week = Math.floor((ms - jan1) / DAY_MS / 7 + new Date(jan1).getUTCDay() / 7) + 1;
  const sunday = ms - d.getUTCDay() * DAY_MS;
  return {
    year,
    week,
    from: Math.max(sunday, jan1),
    to: Math.min(sunday + 6 * DAY_MS, Date.UTC(year, 11, 31)),
  };
}

/** ISO 8601's week of a day: the week of its Thursday. */
export function isoWeek(ms: number): { value: string; monday: number } {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  const year = new Date(ms + (3 - weekday) * DAY_MS).getUTCFullYear();
  const monday = ms - weekday * DAY_MS;
  const week = Math.round((monday - isoWeekMonday(year, 1)) / DAY_MS / 7) + 1;
  return { value: `${year}${pad(week)}`, monday };
}

export interface Calendar {
  /** The dimension's value on a day (UTC midnight, ms), as GA writes it. */
  value(ms: number): string;
  /** How the answer names that value. */
  label(ms: number): string;
  unit: string;
}

/** The calendar dimensions whose values a range determines, one value per day. */
export const CALENDARS: Record<string, Calendar> = {
  date: {
    value: (ms) => isoOf(ms).replaceAll("-", ""),
    label: (ms) => dates(isoOf(ms), isoOf(ms)),
    unit: "days",
  },
  yearMonth: {
    value: (ms) => isoOf(ms).slice(0, 7).replace("-", ""),
    label: (ms) => `${MONTHS[new Date(ms).getUTCMonth()]} ${new Date(ms).getUTCFullYear()}`,
    unit: "months",
  },
  isoYearIsoWeek: {
    value: (ms) => isoWeek(ms).value,
    label: (ms) => {
      const { value, monday } = isoWeek(ms);
      return `week ${value} (${dates(isoOf(monday), isoOf(monday + 6 * DAY_MS))})`;
    },
    unit: "weeks",
  },
  yearWeek: {
    value: (ms) => `${gaWeek(ms).year}${pad(gaWeek(ms).week)}`,
    label: (ms) => {
      const { year, week, from, to } = gaWeek(ms);
      return `week ${year}${pad(week)} (${dates(isoOf(from), isoOf(to))})`;
    },
    unit: "weeks",
  },
  year: { value: (ms) => isoOf(ms).slice(0, 4), label: (ms) => isoOf(ms).slice(0, 4), unit: "years" },
  dayOfWeek: {
    value: (ms) => String(new Date(ms).getUTCDay()),
    label: (ms) => WEEKDAYS[new Date(ms).getUTCDay()] ?? "",
    unit: "weekdays",
  },
  dayOfWeekName: {
    value: (ms) => WEEKDAYS[new Date(ms).getUTCDay()] ?? "",
    label: (ms) => WEEKDAYS[new Date(ms).getUTCDay()] ?? "",
    unit: "weekdays",
  },
};

/** Each calendar dimension a day determines, and its value on a day (UTC midnight, ms) as GA writes it. */
export const DAY_VALUES: Record<string, (ms: number) => string> = {
  ...Object.fromEntries(Object.entries(CALENDARS).map(([name, calendar]) => [name, calendar.value])),
  month: (ms) => pad(new Date(ms).getUTCMonth() + 1),
  day: (ms) => pad(new Date(ms).getUTCDate()),
  week: (ms) => pad(gaWeek(ms).week),
  isoWeek: (ms) => isoWeek(ms).value.slice(4),
  isoYear: (ms) => isoWeek(ms).value.slice(0, 4),
};

/** The days of `range` (UTC midnight, ms) on which every given calendar value holds. */
export function daysMatching(
  range: StatedRange,
  values: Record<string, string>,
  extra?: (ms: number) => boolean,
) {
  const found: number[] = [];
  const checks = Object.entries(values).flatMap(([name, value]) => {
    const of = DAY_VALUES[name];
    return of ? [(ms: number) => of(ms) === value] : [];
  });
  for (let ms = dayOf(range.start_date); ms <= dayOf(range.end_date); ms += DAY_MS) {
    if (checks.every((check) => check(ms)) && (!extra || extra(ms))) found.push(ms);
  }
  return found;
}

/**
 * The days a report's means a day count (report-per-day.ts): each range by GA's key for it (its name or
 * date_range_N), how the answer names it, and its days that can have data (none: undefined); and the days the
 * filter keeps.
 */
export interface CountedDays {
  ranges: { key: string; label: string; counted: StatedRange | undefined }[];
  /** The days the filter keeps for a row with these dimension values (none for the totals). */
  keep: (known?: Readonly<Record<string, string>>) => (ms: number) => boolean;
  /** Today in the property's zone, which GA is still collecting. */
  today?: string | undefined;
}

/** A range of a report by GA's key for it (its name or date_range_N); the only range when rows carry none. */
export const rangeByKey = (
  days: CountedDays,
  key: string | undefined,
): CountedDays["ranges"][number] | undefined =>
  key === undefined ? days.ranges[0] : days.ranges.find((range) => range.key === key);
