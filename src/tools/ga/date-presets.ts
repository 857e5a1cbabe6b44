import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { CancelledError, ValidationError } from "../../errors.js";
import type { DatePreset, RunReportsFields } from "../../schemas/google-analytics.js";

/** A Data API DateRange (REAL-API B2). */
export interface DateRange {
  startDate: string;
  endDate: string;
  name?: string;
}

export interface ResolvedDates {
  dateRanges: DateRange[];
  /** A calendar preset (thisMonth…) was turned into dates without the property's time zone (UTC was used). */
  calendarInUtc: boolean;
  /** A calendar preset was turned into dates (in `timeZone` when given). */
  calendar: boolean;
  /** Some range ends within the last 48 hours, where GA may still be processing data. */
  includesRecent: boolean;
}

const DAY_MS = 86_400_000;

function utcDay(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** Today in an IANA time zone, as a UTC-midnight day number (date arithmetic stays on whole days). */
function zonedDay(now: Date, timeZone: string | undefined): number {
  if (!timeZone) return utcDay(now);
  const local = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  return Date.parse(`${local}T00:00:00Z`);
}

function iso(dayMs: number): string {
  return new Date(dayMs).toISOString().slice(0, 10);
}

/** The lastNdays preset: the N days before today, as GA's UI has "Last N days". */
export function lastDays(n: number | string): DateRange {
  return { startDate: `${n}daysAgo`, endDate: "yesterday" };
}

/** GA UI conventions: "Last N days" ends yesterday; weeks start on Sunday; calendar periods end today. */
function presetRange(preset: DatePreset, today: number): { range: DateRange; calendar: boolean } {
  const last = /^last(\d+)days$/.exec(preset);
  if (last?.[1]) return { range: lastDays(last[1]), calendar: false };
  if (preset === "today" || preset === "yesterday") {
    return { range: { startDate: preset, endDate: preset }, calendar: false };
  }
  const d = new Date(today);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const quarter = Math.floor(month / 3) * 3;
  const span = (start: number, end: number) => ({
    range: { startDate: iso(start), endDate: iso(end) },
    calendar: true,
  });
  switch (preset) {
    case "thisWeek":
      return span(today - d.getUTCDay() * DAY_MS, today);
    case "lastWeek": {
      const sunday = today - (d.getUTCDay() + 7) * DAY_MS;
      return span(sunday, sunday + 6 * DAY_MS);
    }
    case "thisMonth":
      return span(Date.UTC(year, month, 1), today);
    case "lastMonth":
      return span(Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1) - DAY_MS);
    case "thisQuarter":
      return span(Date.UTC(year, quarter, 1), today);
    case "lastQuarter":
      return span(Date.UTC(year, quarter - 3, 1), Date.UTC(year, quarter, 1) - DAY_MS);
    case "thisYear":
      return span(Date.UTC(year, 0, 1), today);
    default:
      return span(Date.UTC(year - 1, 0, 1), Date.UTC(year, 0, 1) - DAY_MS);
  }
}

/** A date value as a day number (relative values counted from `today`), or an error for impossible dates. */
function dayOf(value: string, today: number, field: string): number {
  if (value === "today") return today;
  if (value === "yesterday") return today - DAY_MS;
  const ago = /^(\d+)daysAgo$/.exec(value);
  if (ago?.[1]) return today - Number(ago[1]) * DAY_MS;
  const day = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(day) || iso(day) !== value) {
    throw new ValidationError(field, `${value} is not a real calendar date.`, { hint: "Use YYYY-MM-DD." });
  }
  return day;
}

const isAbsolute = (value: string) => /^\d{4}-/.test(value);

/**
 * Turns the step's date_ranges (presets or {start_date, end_date, name}) into Data API dateRanges.
 * Relative values stay relative so GA evaluates them in the property's time zone; calendar presets
 * (thisMonth…) become dates of the property's calendar when its `timeZone` is given, else of UTC.
 */
export function resolveDateRanges(
  input: RunReportsFields["date_ranges"],
  now: Date,
  timeZone?: string,
): ResolvedDates {
  const items = input ?? ["last7days"];
  const today = zonedDay(now, timeZone);
  const names = new Set<string>();
  let calendar = false;
  let includesRecent = false;
  const dateRanges = items.map((item, index): DateRange => {
    const field = `date_ranges[${index}]`;
    let range: DateRange;
    if (typeof item === "string") {
      const resolved = presetRange(item, today);
      calendar ||= resolved.calendar;
      // Named after the preset so rows of several ranges say which period they belong to.
      range =
        items.length > 1 && !items.slice(0, index).includes(item)
          ? { ...resolved.range, name: item }
          : resolved.range;
    } else {
      range = {
        startDate: item.start_date,
        endDate: item.end_date,
        ...(item.name ? { name: item.name } : {}),
      };
    }
    const start = dayOf(range.startDate, today, `${field}.start_date`);
    const end = dayOf(range.endDate, today, `${field}.end_date`);
    if (isAbsolute(range.startDate) === isAbsolute(range.endDate) && start > end) {
      throw new ValidationError(field, `it starts (${range.startDate}) after it ends (${range.endDate}).`, {
        hint: "Swap start_date and end_date.",
      });
    }
    if (range.name) {
      if (names.has(range.name)) throw new ValidationError(`${field}.name`, `"${range.name}" is used twice.`);
      names.add(range.name);
    }
    includesRecent ||= end >= today - 2 * DAY_MS;
    return range;
  });
  return { dateRanges, calendar, calendarInUtc: calendar && !timeZone, includesRecent };
}

/**
 * The property's reporting time zone (Admin API, readable with analytics.readonly), so that "this
 * month" means the property's month. Undefined when it cannot be read: the caller falls back to UTC
 * and says so in a hint.
 */
export async function propertyTimeZone(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  try {
    return await ga.timeZone(propertyId, signal);
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return undefined;
  }
}

/** A date range as real dates, as the answer states it. */
export type StatedRange = {
  name?: string;
  start_date: string;
  end_date: string;
};

/**
 * The request's date ranges as real YYYY-MM-DD dates of `timeZone` (UTC when unknown): GA evaluates relative
 * dates ("7daysAgo", "yesterday") in the property's reporting time zone
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange), so an answer
 * can say which days it covers without the reader counting.
 */
export function statedRanges(
  ranges: readonly DateRange[],
  now: Date,
  timeZone: string | undefined,
): StatedRange[] {
  const today = zonedDay(now, timeZone);
  return ranges.map((range, index) => ({
    ...(range.name ? { name: range.name } : {}),
    start_date: iso(dayOf(range.startDate, today, `date_ranges[${index}].start_date`)),
    end_date: iso(dayOf(range.endDate, today, `date_ranges[${index}].end_date`)),
  }));
}

/** Today in the property's zone (UTC when unknown), as YYYY-MM-DD: what "today" means in a date range. */
export function todayIn(now: Date, timeZone: string | undefined): string {
  return iso(zonedDay(now, timeZone));
}

// A period as an agent's answer writes it (browser-shared with the console's words for periods).
export { rangeText } from "./period-words.js";
