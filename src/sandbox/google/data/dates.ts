/**
 * Calendar arithmetic in the property's time zone. A "day" is an integer: days since 1970-01-01 of a
 * calendar date (not an instant), so ranges and the data set never depend on the host's zone.
 * Date forms accepted by the real API: YYYY-MM-DD, NdaysAgo, yesterday, today
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange).
 */
import { invalidArgument } from "./rpc.js";

const DAY_MS = 86_400_000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

interface ZonedParts {
  day: number;
  /** Fraction of the local day already elapsed, in [0, 1). */
  elapsed: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local calendar day and time of `nowMs` in `timeZone` (UTC when the zone is unknown to ICU). */
export function zonedNow(nowMs: number, timeZone: string): ZonedParts {
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = formatterFor(timeZone);
  } catch {
    formatter = formatterFor("UTC");
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(nowMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const day = Math.floor(Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1) / DAY_MS);
  return { day, elapsed: ((parts.hour ?? 0) * 60 + (parts.minute ?? 0)) / 1440 };
}

function parseIsoDay(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return Math.floor(ms / DAY_MS);
}

/** Resolves one date of a DateRange; `where` names the field for the error message. */
export function parseDate(value: unknown, today: number, where: string): number {
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(`${where} is required. Use YYYY-MM-DD, NdaysAgo, yesterday or today.`);
  }
  if (value === "today") return today;
  if (value === "yesterday") return today - 1;
  const ago = /^(\d{1,5})daysAgo$/.exec(value);
  if (ago) return today - Number(ago[1]);
  const day = parseIsoDay(value);
  if (day === undefined) {
    throw invalidArgument(
      `Invalid date '${value}' in ${where}. Dates must be YYYY-MM-DD, NdaysAgo, yesterday or today.`,
    );
  }
  return day;
}

function utc(day: number): Date {
  return new Date(day * DAY_MS);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** `date` dimension format: YYYYMMDD. */
export function formatDay(day: number): string {
  const d = utc(day);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

export function isoDay(day: number): string {
  const d = utc(day);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const calendarCache = new Map<number, Map<string, string | undefined>>();

/** Values of the calendar dimensions of the API schema for one day (memoised: called per fact). */
export function calendarDimension(name: string, day: number): string | undefined {
  let values = calendarCache.get(day);
  if (!values) {
    if (calendarCache.size > 5_000) calendarCache.clear();
    values = new Map();
    calendarCache.set(day, values);
  }
  if (values.has(name)) return values.get(name);
  const value = computeCalendar(name, day);
  values.set(name, value);
  return value;
}

function computeCalendar(name: string, day: number): string | undefined {
  const d = utc(day);
  const year = d.getUTCFullYear();
  switch (name) {
    case "date":
      return formatDay(day);
    case "year":
      return String(year);
    case "month":
      return pad(d.getUTCMonth() + 1);
    case "day":
      return pad(d.getUTCDate());
    case "yearMonth":
      return `${year}${pad(d.getUTCMonth() + 1)}`;
    case "dayOfWeek":
      return String(d.getUTCDay());
    case "dayOfWeekName":
      return WEEKDAYS[d.getUTCDay()];
    case "week": {
      // GA's `week`: weeks start on Sunday and January 1st is always in week 01.
      const jan1 = Math.floor(Date.UTC(year, 0, 1) / DAY_MS);
      return pad(Math.floor((day - jan1 + utc(jan1).getUTCDay()) / 7) + 1);
    }
    default:
      return undefined;
  }
}

export const CALENDAR_DIMENSIONS = [
  "date",
  "year",
  "month",
  "day",
  "yearMonth",
  "dayOfWeek",
  "dayOfWeekName",
  "week",
];
