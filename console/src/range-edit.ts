/**
 * A custom period as the form edits it, one box at a time. A label the person did not type (an example's
 * "last 28 days") is dropped when the period's dates change: it named the dates it came with, and left on
 * others it headed a 7-day period "last 28 days" (newcomer trial 2026-12-02-s8, finding 3). The period then
 * reads by its dates; a label the person typed stays theirs.
 */

export type Range = Record<string, string | undefined>;

/** The keys of a period's days (the step's `start_date`, `end_date`). */
const isDay = (key: string) => key.endsWith("_date");

/**
 * The period with `key` set to `value` (an empty box: no value). `typedName` is the label the person last
 * typed in this period's Label box, if any: another label is one the form was given, and a change of
 * either day drops it.
 */
export function editedRange(range: Range, key: string, value: string, typedName?: string): Range {
  const next: Range = { ...range, [key]: value === "" ? undefined : value };
  const given = range.name !== undefined && range.name !== typedName;
  if (isDay(key) && given && next[key] !== range[key]) delete next.name;
  return next;
}

/** GA's relative days (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange). */
const RELATIVE = /^(?:(\d+)daysAgo|yesterday|today)$/;

/**
 * The period with GA's relative days (`56daysAgo`, `yesterday`) turned into the days they name for the
 * property, given its yesterday (YYYY-MM-DD, in its time zone: the days GA resolves them to), its label
 * kept (it names the same days); undefined when it has none. An example gives relative days because only the
 * page knows the property's zone: as UTC days they were a day off the preset beside them for hours after
 * midnight UTC (trial s9, finding 6).
 */
export function daysOfRelative(range: Range, yesterday: string): Range | undefined {
  const today = Date.parse(`${yesterday}T00:00:00Z`) + 86_400_000;
  if (Number.isNaN(today)) return undefined;
  let changed = false;
  const next: Range = { ...range };
  for (const [key, value] of Object.entries(range)) {
    const relative = isDay(key) && value ? RELATIVE.exec(value) : null;
    if (!relative) continue;
    const ago = relative[1] !== undefined ? Number(relative[1]) : value === "yesterday" ? 1 : 0;
    next[key] = new Date(today - ago * 86_400_000).toISOString().slice(0, 10);
    changed = true;
  }
  return changed ? next : undefined;
}
