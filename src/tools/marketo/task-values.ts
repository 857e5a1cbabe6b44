/**
 * The values of Marketo's task forms (tasks.ts) read and checked: lead ids, required fields, a period's day
 * bounds, a list or campaign picked by name; each refusal names its field and what it accepts.
 */
import { ValidationError } from "../../errors.js";
import type { TaskField } from "../tasks.js";
import { isZone, startOfDate } from "../zone-clock.js";
import { isoSecond } from "./export-windows.js";

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => (now: Date) => isoDay(new Date(now.getTime() - days * DAY_MS));
/** Sync Leads takes at most 300 records a call. */
export const SYNC_MAX = 300;

/**
 * Lead ids typed as "7, 3" or one a line: numbers, or a refusal naming the field. The console looks up
 * the emails a person types there first (console/src/marketo/lead-emails.ts) and sends their ids.
 */
export function leadIds(value: string | undefined, field: string): number[] {
  const parts = (value ?? "").split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0)
    throw new ValidationError(field, "give at least one lead's email address or ID.", { hint: HINT_IDS });
  const bad = parts.find((part) => !/^\d{1,12}$/.test(part));
  if (bad !== undefined)
    throw new ValidationError(field, `"${bad}" is neither an email address nor a lead ID (a number).`, {
      hint: HINT_IDS,
    });
  if (parts.length > SYNC_MAX) throw new ValidationError(field, `at most ${SYNC_MAX} leads at a time.`);
  return parts.map(Number);
}
const HINT_IDS = "Type each lead's email address, or its ID as Find a lead shows it.";

export function required(values: Readonly<Record<string, string>>, field: string, what: string): string {
  const value = values[field];
  if (!value) throw new ValidationError(field, `choose or type ${what}.`);
  return value;
}

/**
 * A period's day bounds as export filters take them, refused when they are not dates or are reversed:
 * each day from midnight to midnight in the form's zone (trial s8, finding 5: they were UTC's, unsaid, so
 * a US lead created on a Sunday evening was left out of that Sunday), UTC when none is named. Sent as UTC
 * instants, which the REST call shows as they go.
 */
export function period(values: Readonly<Record<string, string>>): { startAt: string; endAt: string } {
  const from = required(values, "from", "the first day");
  const to = required(values, "to", "the last day");
  for (const [field, day] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(day)))
      throw new ValidationError(field, `"${day}" is not a date (YYYY-MM-DD).`);
  }
  if (to < from) throw new ValidationError("to", "the last day comes before the first.");
  const zone = periodZone(values);
  const midnight = (day: string, after = 0) => startOfDate(zone, Date.parse(`${day}T00:00:00Z`) + after);
  // The last second of the last day: the next day's midnight less one (23:59:59 in the zone).
  return { startAt: isoSecond(midnight(from)), endAt: isoSecond(midnight(to, DAY_MS) - 1000) };
}

/** The zone a period's days are read in: the one named, else UTC; a name no zone has is refused. */
export function periodZone(values: Readonly<Record<string, string>>): string {
  const zone = values.zone?.trim() || "UTC";
  if (!isZone(zone))
    throw new ValidationError("zone", `"${zone}" is not a time zone.`, {
      hint: 'Name it as "America/New_York" or "Europe/Paris" (the zone\'s region and city), or leave UTC.',
    });
  return zone;
}

/**
 * A list or campaign picked holds its id: a name none has is refused, saying where one is `made` (Adobe,
 * "Understanding Static Lists": https://experienceleague.adobe.com/en/docs/marketo/using/product-docs/core-marketo-concepts/smart-lists-and-static-lists/static-lists/understanding-static-lists).
 */
export function picked(values: Readonly<Record<string, string>>, field: string, what: string): string {
  const value = required(values, field, `a ${what}`);
  const made =
    what === "static list" ? "Database → New → New List" : "Marketing Activities → New Smart Campaign";
  if (!/^\d{1,12}$/.test(value))
    throw new ValidationError(field, `no ${what} is named "${value}".`, {
      hint: `Pick one from the suggestions, or ask a Marketo admin to make the ${what} (${made}).`,
    });
  return value;
}

/**
 * A period's first and last day (a month until today to start with) and the zone they are read in, shown
 * only `when` given. The zone is UTC to start with: Marketo's API does not say an instance's own zone.
 */
export function periodFields(when?: TaskField["when"]): TaskField[] {
  return [
    { name: "from", title: "Created from", kind: "date", required: true, initial: daysAgo(30) },
    { name: "to", title: "Created until", kind: "date", required: true, initial: daysAgo(0) },
    {
      name: "zone",
      title: "Time zone of the days",
      kind: "text",
      help: 'Each day runs from midnight to midnight in this zone: UTC unless you name another, e.g. "America/New_York".',
      initial: () => "UTC",
    },
  ].map((field) => ({ ...(field as TaskField), ...(when ? { when } : {}) }));
}
