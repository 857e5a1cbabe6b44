/**
 * Marketo's daily API quota resets at 12:00 AM Central time
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits), so the
 * day used for counting calls is the America/Chicago calendar day, daylight saving time included.
 */

const TIME_ZONE = "America/Chicago";

/** Built on first use: a time-zone formatter takes tens of milliseconds to make, which start-up need not pay. */
let format: Intl.DateTimeFormat | undefined;

function formatter(): Intl.DateTimeFormat {
  format ??= new Intl.DateTimeFormat("en-US", {
    timeZone: TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  return format;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(at: number): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter().formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Offset of Chicago wall-clock time from UTC at `at`, in ms (negative: -5 h or -6 h). */
function offsetAt(at: number): number {
  const w = wallClock(at);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

interface Day {
  /** YYYY-MM-DD in Chicago. */
  day: string;
  /** The first instant this entry was computed for, and the next Chicago midnight after it. */
  from: number;
  until: number;
}

/**
 * The last day computed: every call of a day asks for it (several times per Marketo call), and the
 * formatting takes tens of microseconds, so it is done once per day, not once per question.
 */
let current: Day | undefined;

function dayOf(at: number): Day {
  if (current && at >= current.from && at < current.until) return current;
  const w = wallClock(at);
  // Date.UTC normalises day overflow (Jan 32 → Feb 1).
  const midnightAsUtc = Date.UTC(w.year, w.month - 1, w.day + 1);
  // Daylight saving changes at 2 AM, so the offset a few hours after the guess is the midnight's offset.
  let instant = midnightAsUtc - offsetAt(midnightAsUtc);
  instant = midnightAsUtc - offsetAt(instant);
  current = {
    day: `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`,
    from: at,
    until: instant,
  };
  return current;
}

/** The Chicago calendar day of `at` as YYYY-MM-DD (the key of the daily counter). */
export function chicagoDay(at: number): string {
  return dayOf(at).day;
}

/** The instant of the next midnight in America/Chicago after `at` (when Marketo's daily quota resets). */
export function nextChicagoMidnight(at: number): Date {
  return new Date(dayOf(at).until);
}
