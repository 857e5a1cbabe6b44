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
