/**
 * Two periods by a dimension that holds an absolute date or time. Merging a two-range report's rows by
 * value (report-compare.ts) pairs what is the same in both periods; a day, an hour, a week, a month or a
 * year is never the same in two periods that do not overlap, so merging by date gave every row one period
 * only, "−100 %" or no change at all (trial 2026-12-03-s10, N57: "20251201 -686 (-100%)"). Such rows are
 * paired by their position in each period instead: day 1 with day 1, hour 14 of day 2 with hour 14 of day 2,
 * month 1 with month 1.
 *
 * Which dimensions, from Google's API schema (src/sandbox/google/data/api-schema.json):
 * - date (YYYYMMDD), dateHour (YYYYMMDDHH), dateHourMinute (YYYYMMDDHHMM): "the date of the event", with
 *   the hour and minute: a day of the period; the hour and minute pair by value within the paired day.
 * - yearMonth, yearWeek, isoYearIsoWeek: "the combined values of year and month / week": a month or week
 *   of one year, which no other year holds.
 * - year, isoYear: "the four-digit year of the event": two periods of different years never share it.
 * Not these: firstSessionDate is the date of a user's first session, which can lie before both periods (the
 * same users' first day, counted in each): its values do repeat, so they merge by value. The cyclical
 * dimensions (dayOfWeek, day, month, week, isoWeek, hour, minute) repeat in every period and merge by value,
 * and nthDay, nthWeek… ("since the start of the date range") already count positions, so equal values are
 * the pairs.
 *
 * A change is computed on a pair only when the two periods' positions hold the same number of days: for a
 * day or an hour, when the periods have the same length; for a week or month, when each period's weeks or
 * months cover as many of its days as the other's (1 – 30 Nov by month pairs with 1 – 30 Nov, not with
 * 28 Nov – 27 Dec). Else each period's values stand side by side, with no change per row.
 */
import type { StatedRange } from "./date-presets.js";
import { CALENDARS, dayOf, isoWeek } from "./report-calendar.js";

const DAY_MS = 86_400_000;

/** A period's first and last day (YYYY-MM-DD), as the answer states them. */
type Period = Pick<StatedRange, "start_date" | "end_date">;

interface Absolute {
  /** The dimension's value on a day, as GA writes it. */
  bucket: (ms: number) => string;
  /** How many digits after the day's part (hour, minute), which pair by value within a paired day. */
  suffix: number;
}

const calendar = (name: string) => (ms: number) => CALENDARS[name]?.value(ms) ?? "";

/** The dimensions that hold an absolute date or time (why each: the comment above). */
export const ABSOLUTE_TIME: Readonly<Record<string, Absolute>> = {
  date: { bucket: calendar("date"), suffix: 0 },
  dateHour: { bucket: calendar("date"), suffix: 2 },
  dateHourMinute: { bucket: calendar("date"), suffix: 4 },
  yearMonth: { bucket: calendar("yearMonth"), suffix: 0 },
  yearWeek: { bucket: calendar("yearWeek"), suffix: 0 },
  isoYearIsoWeek: { bucket: calendar("isoYearIsoWeek"), suffix: 0 },
  year: { bucket: calendar("year"), suffix: 0 },
  isoYear: { bucket: (ms) => isoWeek(ms).value.slice(0, 4), suffix: 0 },
};

/** The values a dimension takes over a period's days, in order, and how many days each covers. */
export interface Buckets {
  values: string[];
  days: number[];
}

export function bucketsOf(dimension: string, range: Period): Buckets {
  const absolute = ABSOLUTE_TIME[dimension];
  const out: Buckets = { values: [], days: [] };
  if (!absolute) return out;
  for (let ms = dayOf(range.start_date); ms <= dayOf(range.end_date); ms += DAY_MS) {
    const value = absolute.bucket(ms);
    if (out.values.at(-1) === value) out.days[out.days.length - 1]! += 1;
    else {
      out.values.push(value);
      out.days.push(1);
    }
  }
  return out;
}

/** The pairing of two periods' rows for the report's absolute-time dimensions. */
export interface Pairing {
  /** The report's dimensions paired by position (none: the rows merge by value, as before). */
  dimensions: string[];
  /** Each dimension's buckets in each period (the request's order). */
  buckets: Record<string, Buckets[]>;
  /** Whether each pair's positions cover the same days in both periods, so a change per row is meaningful. */
  changes: boolean;
}

export function pairing(dimensions: readonly string[], ranges: readonly Period[]): Pairing {
  const paired = dimensions.filter((name) => name in ABSOLUTE_TIME);
  const buckets = Object.fromEntries(paired.map((name) => [name, ranges.map((r) => bucketsOf(name, r))]));
  const same = (a: Buckets | undefined, b: Buckets | undefined) =>
    !!a && !!b && a.days.length === b.days.length && a.days.every((n, i) => n === b.days[i]);
  const changes = paired.every((name) => same(buckets[name]?.[0], buckets[name]?.[1]));
  return { dimensions: paired, buckets, changes };
}

/**
 * Without the periods' dates (an answer that does not state them: the chart of a bare one), each period's
 * positions are its values that have rows, in order.
 */
export function presentPairing(
  dimension: string,
  seen: readonly { value: string; range: number }[],
): Pairing {
  const suffix = ABSOLUTE_TIME[dimension]?.suffix ?? 0;
  const heads: Set<string>[] = [];
  for (const { value, range } of seen) {
    const at = Math.max(0, range);
    heads[at] ??= new Set();
    heads[at].add(suffix > 0 ? value.slice(0, -suffix) : value);
  }
  const buckets = [...heads].map((set) => {
    const values = [...(set ?? [])].sort();
    return { values, days: values.map(() => 1) };
  });
  return { dimensions: [dimension], buckets: { [dimension]: buckets }, changes: false };
}

/** A value's position in its period ("3" or "3:14" for hour 14 of day 4), or undefined when outside it. */
export function positionOf(p: Pairing, dimension: string, value: string, range: number): string | undefined {
  const suffix = ABSOLUTE_TIME[dimension]?.suffix ?? 0;
  const head = suffix > 0 ? value.slice(0, -suffix) : value;
  const index = p.buckets[dimension]?.[range]?.values.indexOf(head) ?? -1;
  if (index < 0) return undefined;
  return suffix > 0 ? `${index}:${value.slice(-suffix)}` : String(index);
}

/** The value at a position in a period (null when that period is shorter). */
export function valueAt(p: Pairing, dimension: string, position: string, range: number): string | null {
  const [index, tail] = position.split(":");
  const head = p.buckets[dimension]?.[range]?.values[Number(index)];
  return head === undefined ? null : `${head}${tail ?? ""}`;
}

/** The column of a paired dimension's value in one period: `date[<period>]`. */
export const pairedColumn = (dimension: string, label: string) => `${dimension}[${label}]`;

/** How long each period is, in positions of the dimension ("nov 30 days, oct 31 days"). */
function lengths(p: Pairing, dimension: string, labels: readonly string[]): string {
  const unit = dimension.startsWith("date")
    ? "days"
    : /Month$/.test(dimension)
      ? "months"
      : /Week$/.test(dimension)
        ? "weeks"
        : "years";
  return (p.buckets[dimension] ?? [])
    .map((x, i) => {
      const days = x.days.reduce((sum, n) => sum + n, 0);
      const own = unit === "days" ? "" : ` over ${days} days (${x.days.join(", ")})`;
      return `${labels[i]} ${unit === "days" ? days : x.values.length} ${unit}${own}`;
    })
    .join(", ");
}

/** What the answer says of the pairing, for an agent (the summary and the hints). */
export function pairingNote(p: Pairing, labels: readonly string[]): string | undefined {
  if (p.dimensions.length === 0) return undefined;
  const names = p.dimensions.join(", ");
  const columns = p.dimensions.flatMap((d) => labels.map((l) => pairedColumn(d, l))).join(", ");
  if (p.changes) {
    return (
      `Rows by ${names} pair the periods by position (day 1 with day 1: ${columns} hold each period's ` +
      "value), since a date never repeats across periods; each row's change is its pair's."
    );
  }
  const first = p.dimensions.find((d) => {
    const [a, b] = p.buckets[d] ?? [];
    return a?.days.join() !== b?.days.join();
  });
  return (
    `No change per row: by ${first ?? names} the periods do not line up (${lengths(p, first ?? names, labels)}), so ` +
    `a row's pair would not cover the same days; rows show each period's values side by side by position ` +
    `(${columns}), with their _change null, and the totals compare the whole periods.`
  );
}
