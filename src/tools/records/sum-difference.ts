/**
 * sum's difference of two fields of one record, "joined.min - membership.membershipDate": of dates, the days
 * between them (decimal); of numbers, their difference. Its mean, median and percentile are then "the typical days
 * from joining to the first form", which a fresh agent listed 30 rows for and worked out itself (trial s45, N621:
 * 12,640 characters), as sum read one field only. where already compares two fields (updatedAt > createdAt - 24h).
 * Parsed once (count-fields.ts) and carried in the spec beside sum's text, so a name holding " - " in quotes
 * ("Imported - Unprocessed") stays one field (review s56, F7).
 */
import { ValidationError } from "../../errors.js";
import { numberOf, textOf, timeOf } from "./values.js";

const DAY_MS = 86_400_000;

export interface Difference {
  minuend: string;
  subtrahend: string;
  /** As the answer names it: "a - b". */
  text: string;
}

/** What a sum reads: one field, or a difference of two. */
export type SumOf = string | Difference;

export const sumText = (sum: SumOf): string => (typeof sum === "string" ? sum : sum.text);

/** The fields a sum reads: its one field, or both of a difference's. */
export const sumFields = (sum: SumOf | undefined): string[] =>
  sum === undefined ? [] : typeof sum === "string" ? [sum] : [sum.minuend, sum.subtrahend];

/** Where a sum's text splits as "a - b": at a minus with a space each side, outside quotes; none if no such one. */
export function differenceSplit(text: string): [string, string] | undefined {
  let quote: string | undefined;
  const cuts: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quote) {
      if (char === "\\") i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "-" && /\s/.test(text[i - 1] ?? "") && /\s/.test(text[i + 1] ?? "")) cuts.push(i);
  }
  const [cut] = cuts;
  if (cut === undefined || cuts.length > 1) return undefined;
  return [text.slice(0, cut).trim(), text.slice(cut + 1).trim()];
}

/**
 * A sum written as a difference without the spaces the form needs ("updatedAt-createdAt", "a − b"): refused
 * offering the form, when both sides are names (review s56, F6: count_by's field-list hint named no difference).
 */
export function refuseUnspacedDifference(text: string): void {
  const m = /^([A-Za-z_][\w.]*)\s*[-−–]\s*([A-Za-z_][\w.]*)$/.exec(text.trim());
  if (!m) return;
  throw new ValidationError(
    "sum",
    `${JSON.stringify(text)} is no field name; a difference of two fields is written with a space each side of "-".`,
    { hint: `E.g. sum "${m[1]} - ${m[2]}" (of dates: the days from ${m[2]} to ${m[1]}).` },
  );
}

type Reader = (field: string) => unknown[];

/** Whether a date names no offset (read on the call's clock): its time then is the clock's own. */
const onClock = (value: unknown): boolean =>
  typeof value === "string" && !/(Z|[+-]\d{2}:?\d{2})$/.test(value);

/**
 * A record's difference as the one value a sum adds: none when either field is empty (the record is then one
 * "with no value", said in the summary). One value of each is taken; a list of several is refused, as no one
 * difference; a date beside a number too.
 */
export function differenceValues(read: Reader, difference: Difference, zone?: string): number[] {
  const [a, b] = [read(difference.minuend), read(difference.subtrahend)];
  if (a.length === 0 || b.length === 0) return [];
  const sum = difference.text;
  if (a.length > 1 || b.length > 1) {
    const field = a.length > 1 ? difference.minuend : difference.subtrahend;
    throw new ValidationError(
      "sum",
      `${field} holds ${a.length > 1 ? a.length : b.length} values in one record: "${sum}" takes one of each field.`,
      {
        hint: `Sum a field of one value per record, e.g. "joined.min - createdAt", or count by ${field} instead.`,
      },
    );
  }
  const [numberA, numberB] = [numberOf(a[0]), numberOf(b[0])];
  if (numberA !== undefined && numberB !== undefined) return [numberA - numberB];
  // Two dates on the call's clock (no offset: "2026-11-03", a day bucket) are that clock's days apart, whole days
  // for two days: read as UTC, a daylight-saving change between them adds no hour (review s56, F3).
  const clock = onClock(a[0]) && onClock(b[0]) ? undefined : zone;
  const [timeA, timeB] = [timeOf(a[0], clock), timeOf(b[0], clock)];
  if (numberA === undefined && numberB === undefined && timeA !== undefined && timeB !== undefined) {
    // In days to 4 decimals (8.64 seconds): 0.5 is twelve hours, and a figure reads 17.0207, not 17.0207060185185.
    return [Math.round(((timeA - timeB) / DAY_MS) * 10_000) / 10_000];
  }
  const odd = [a[0], b[0]].map((value) => JSON.stringify(textOf(value).slice(0, 40)));
  throw new ValidationError(
    "sum",
    `"${sum}" subtracts ${odd[1]} from ${odd[0]}: a difference is of two numbers, or of two dates (in days).`,
    { hint: "Subtract a date from a date (e.g. updatedAt - createdAt) or a number from a number." },
  );
}

/** How the words name what a difference adds. */
export const DIFFERENCE_SCOPE =
  " (the second subtracted from the first; of dates, the days between, to 4 decimals)";
