/**
 * Every time the console shows, in one style with its zone named (trial 2026-12-02-s7, finding 14: the
 * Integrations cards said "12/2/2026, 6:04:53 PM", no zone, the lead cards "27 Nov 2026, 11:07 UTC").
 * UTC unless the data is in a zone of its own (a property's, an instance's), which is then named.
 */

// The months spelled out here, as the report's periods are (src/tools/ga/period-words.ts): ICU's en-GB
// short month is "Sept" in some versions.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let known = formats.get(zone);
  if (!known) {
    known = new Intl.DateTimeFormat("en-US", {
      day: "numeric",
      month: "numeric",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: zone,
    });
    formats.set(zone, known);
  }
  return known;
}

/** "2 Dec 2026, 18:04 UTC" (or "…, 13:04 America/New_York"); a value that is no time, as it is. */
export function timeWords(value: string | number | Date, zone = "UTC"): string {
  const time = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(time.getTime())) return String(value);
  const parts = Object.fromEntries(
    format(zone)
      .formatToParts(time)
      .map((part) => [part.type, part.value]),
  );
  const month = MONTHS[Number(parts.month) - 1];
  return `${parts.day} ${month} ${parts.year}, ${parts.hour}:${parts.minute} ${zone}`;
}

/** A day as the console says it, "23 Nov 2026", from YYYY-MM-DD; anything else as it is. */
export function dayWords(day: string): string {
  const [, year, month, date] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) ?? [];
  const name = MONTHS[Number(month) - 1];
  return year && name ? `${Number(date)} ${name} ${year}` : day;
}
