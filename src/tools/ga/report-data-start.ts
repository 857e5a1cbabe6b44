/**
 * A range that starts before the property's data does. A property holds no data from before it was
 * created: its Admin API `createTime` ("Output only. Time when the entity was originally created.",
 * analyticsadmin v1beta discovery document, Property; /work/shared/spec/REAL-API.md B3), read with the time
 * zone a report already needs (one cached properties.get). A range reaching before that day sums fewer days
 * than it names: Q4 to date against the same days of last year, with data from 29 October last year only,
 * read +84 % where the days with data in both years read +7.7 % (agent trial s5, T15). The answer says the
 * day data starts, how many days of each range have none, and the comparison to run instead (alignedRanges).
 */
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { CancelledError } from "../../errors.js";
import { rangeText, type StatedRange, todayIn } from "./date-presets.js";

const DAY_MS = 86_400_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const length = (range: StatedRange) => Math.round((day(range.end_date) - day(range.start_date)) / DAY_MS) + 1;
const plainDays = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

/** The property's reporting time zone and the first day it can have data (YYYY-MM-DD in that zone). */
export interface PropertyStart {
  timeZone?: string;
  firstDay?: string;
}

/**
 * The property's time zone and first day, or what of them is known: a report runs without them (its dates
 * then stated in UTC, no data-start note) when the property cannot be read.
 */
export async function propertyStart(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  signal: AbortSignal | undefined,
): Promise<PropertyStart> {
  try {
    const { timeZone, createTime } = await ga.propertyFacts(propertyId, signal);
    const created = createTime ? Date.parse(createTime) : Number.NaN;
    return {
      ...(timeZone ? { timeZone } : {}),
      ...(Number.isFinite(created) ? { firstDay: todayIn(new Date(created), timeZone) } : {}),
    };
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return {};
  }
}

/** Days of `range` before `firstDay` (all of them when it ends before it). */
function daysBefore(range: StatedRange, firstDay: string): number {
  if (range.start_date >= firstDay) return 0;
  return Math.min(length(range), Math.round((day(firstDay) - day(range.start_date)) / DAY_MS));
}

/**
 * The ranges to compare instead, each of the same length and only of days that can have data (from `firstDay`
 * to `today`); undefined when none pair up. Ranges of one length (a quarter against the same days a year
 * before) pair day for day, so each loses the same days from its start and its end. Ranges of different
 * lengths pair from their starts, as the same-days offer of report-periods.ts does: each starts on its first
 * day with data and keeps as many days as the shorter has (review s27, finding 8: 2025-10-25…2025-12-31
 * against 2026-11-01…11-10 was offered two ways, one keeping days before the data, one dropping 7 days with
 * data).
 */
export function alignedRanges(
  ranges: readonly StatedRange[],
  firstDay: string,
  today?: string,
): StatedRange[] | undefined {
  // Today is still being collected: the days with data in both end yesterday (review s29, finding 6).
  const after = (range: StatedRange) =>
    today && range.end_date >= today
      ? Math.min(length(range), Math.round((day(range.end_date) - day(today)) / DAY_MS) + 1)
      : 0;
  const sameLength = ranges.every((range) => length(range) === length(ranges[0] ?? range));
  if (sameLength) {
    const [head, tail] = [
      Math.max(0, ...ranges.map((r) => daysBefore(r, firstDay))),
      Math.max(0, ...ranges.map(after)),
    ];
    const aligned = ranges.map((range) => ({
      start_date: iso(day(range.start_date) + head * DAY_MS),
      end_date: iso(day(range.end_date) - tail * DAY_MS),
    }));
    return aligned.every((range) => range.start_date <= range.end_date) ? aligned : undefined;
  }
  const withData = ranges.map((range) => ({
    start_date: iso(day(range.start_date) + daysBefore(range, firstDay) * DAY_MS),
    end_date: iso(day(range.end_date) - after(range) * DAY_MS),
  }));
  const kept = Math.min(...withData.map((range) => (range.start_date <= range.end_date ? length(range) : 0)));
  if (kept <= 0) return undefined;
  return withData.map((range) => ({
    start_date: range.start_date,
    end_date: iso(day(range.start_date) + (kept - 1) * DAY_MS),
  }));
}

/**
 * The note on ranges starting before `firstDay`, for the summary and the hints; undefined when every range
 * starts on or after it. `compared`: the ranges are compared row by row (two ranges merged), so the note
 * names the aligned comparison; else it names each range cut to the days with data.
 */
export function dataStartNote(
  ranges: readonly StatedRange[],
  firstDay: string,
  compared: boolean,
  today?: string,
): string | undefined {
  const cuts = ranges.map((range) => daysBefore(range, firstDay));
  const cut = Math.max(0, ...cuts);
  if (cut === 0) return undefined;
  const said = ranges.flatMap((range, i) => {
    const n = cuts[i] ?? 0;
    if (n === 0) return [];
    return n === length(range)
      ? [`${rangeText(range)} ends before it: none of its ${plainDays(n)} has data`]
      : [`${rangeText(range)} has ${n} of its ${plainDays(length(range))} before it, with no data`];
  });
  const head =
    `Data starts on ${firstDay} (the property was created then; it has no data before): ` +
    `${said.join("; ")}.`;
  if (compared) {
    const aligned = alignedRanges(ranges, firstDay, today);
    return aligned
      ? `${head} The comparison is not like for like; compare only the days with data in both: ` +
          `date_ranges ${JSON.stringify(aligned)}.`
      : `${head} No days of the ranges pair up with data in both: compare ranges from ${firstDay} on.`;
  }
  const withData = ranges.flatMap((range, i) =>
    (cuts[i] ?? 0) > 0 && (cuts[i] ?? 0) < length(range)
      ? // The data also ends today (review s26, finding 12: a range past today read "…2027-01-31").
        [{ start_date: firstDay, end_date: today && range.end_date > today ? today : range.end_date }]
      : [],
  );
  return withData.length > 0
    ? `${head} Its figures cover only the days with data: ${withData.map(rangeText).join(", ")}.`
    : head;
}
