/**
 * sum's difference of two fields of one record, "joined.min - membership.membershipDate": of dates, the days
 * between them (decimal); of numbers, their difference. Its mean, median and percentile are then "the typical days
 * from joining to the first form", which a fresh agent listed 30 rows for and worked out itself (trial s45, N621:
 * 12,640 characters), as sum read one field only. where already compares two fields (updatedAt > createdAt - 24h).
 */
import { ValidationError } from "../../errors.js";
import { numberOf, textOf, timeOf } from "./values.js";

/** "a - b", spaces around the minus: a field name has none there (Marketo's names are camelCase or "A B"). */
const DIFFERENCE = /^(.+?)\s+-\s+(.+)$/;

const DAY_MS = 86_400_000;

export interface Difference {
  minuend: string;
  subtrahend: string;
}

/** The two fields of a sum written "a - b", or none. */
export function differenceOf(sum: string | undefined): Difference | undefined {
  const m = sum === undefined ? null : DIFFERENCE.exec(sum.trim());
  return m ? { minuend: (m[1] as string).trim(), subtrahend: (m[2] as string).trim() } : undefined;
}

/** The fields a sum reads: its one field, or both of a difference's. */
export const sumFields = (sum: string): string[] => {
  const difference = differenceOf(sum);
  return difference ? [difference.minuend, difference.subtrahend] : [sum];
};

type Reader = (field: string) => unknown[];

/**
 * A record's difference as the one value a sum adds: none when either field is empty (the record is then one
 * "with no value", said in the summary). One value of each is taken; a list of several is refused, as no one
 * difference; a date beside a number too.
 */
export function differenceValues(read: Reader, difference: Difference, sum: string, zone?: string): number[] {
  const [a, b] = [read(difference.minuend), read(difference.subtrahend)];
  if (a.length === 0 || b.length === 0) return [];
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
  const [timeA, timeB] = [timeOf(a[0], zone), timeOf(b[0], zone)];
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
export const differenceScope = (sum: string): string =>
  differenceOf(sum) ? " (of dates, the days from the second to the first, to 4 decimals)" : "";
