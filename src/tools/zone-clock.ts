/**
 * Wall clocks of an IANA time zone and the instants they name, with the zone's offset on each date
 * (daylight saving included), from the runtime's time zone data through Intl.DateTimeFormat
 * (https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/DateTimeFormat/DateTimeFormat#timezone).
 * A wall clock is kept as the milliseconds Date.UTC gives its fields, so day arithmetic is plain addition.
 * Marketo's date filters take instants only (ISO 8601 with an offset; bulk-lead-extract#filters): turning
 * "1 Nov in New York" into one is the caller's, and agents got the offset wrong across a DST change (agent
 * trial s6, N06: -05:00 on 1 Nov 2026, when New York was still on -04:00 until 02:00).
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter, or undefined for a name the runtime does not know. */
function formatter(zone: string): Intl.DateTimeFormat | undefined {
  const known = formatters.get(zone);
  if (known) return known;
  // IANA names only ("America/New_York", "UTC", "Etc/GMT+5"): no bare offsets, which have no DST to get right.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(zone)) return undefined;
  try {
    const made = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, made);
    return made;
  } catch {
    return undefined;
  }
}

export const isZone = (zone: string): boolean => formatter(zone) !== undefined;

/** The zone's clock at an instant, as Date.UTC of its fields (whole seconds). */
export function wallAt(zone: string, instant: number): number {
  const parts = (formatter(zone) as Intl.DateTimeFormat).formatToParts(new Date(instant));
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    field("year"),
    field("month") - 1,
    field("day"),
    field("hour") % 24,
    field("minute"),
    field("second"),
  );
}

/** The zone's offset from UTC at an instant, in milliseconds (-4 h for New York on 1 Nov 2026 at 04:00Z). */
export const offsetAt = (zone: string, instant: number): number =>
  wallAt(zone, instant) - Math.floor(instant / 1000) * 1000;

/**
 * The first instant at which the zone's clock reads `wall` or later: the earlier of the two when the clock
 * reads it twice (a DST fall-back), the end of the gap when it never does (a spring-forward, or a zone
 * whose clocks skip midnight, e.g. America/Santiago).
 */
export function instantOf(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - DAY_MS);
  const after = offsetAt(zone, wall + DAY_MS);
  const exact = [wall - before, wall - after]
    .filter((instant) => wallAt(zone, instant) === wall)
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return exact[0];
  // In a gap the clock jumps over `wall`: find the jump, to the second, between the readings either side.
  let low = Math.min(wall - before, wall - after);
  let high = Math.max(wall - before, wall - after);
  while (high - low > 1000) {
    const middle = low + Math.max(1000, Math.floor((high - low) / 2000) * 1000);
    if (wallAt(zone, middle) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/** The first instant of a calendar date (Date.UTC of the date) in the zone. */
export const startOfDate = (zone: string, date: number): number => instantOf(zone, date);

/** An offset as ISO 8601 writes it: "-04:00", "+05:30", "+00:00". */
export function offsetText(offset: number): string {
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${offset < 0 ? "-" : "+"}${hh}:${mm}`;
}

/** An instant as the zone's ISO 8601 local time with its offset: 2026-11-01T00:00:00-04:00. */
export function zonedIso(zone: string, instant: number): string {
  const offset = offsetAt(zone, instant);
  return `${new Date(wallAt(zone, instant)).toISOString().slice(0, 19)}${offsetText(offset)}`;
}

const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/** A wall clock in words: "1 Nov 2026 00:00" (seconds only when not 0). */
export function wallWords(wall: number): string {
  const d = new Date(wall);
  const hhmm = d.toISOString().slice(11, d.getUTCSeconds() === 0 ? 16 : 19);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${hhmm}`;
}

/** A calendar date (Date.UTC of it) in words: "30 Nov 2026". */
export const dateWords = (date: number): string => wallWords(date).slice(0, -6);
