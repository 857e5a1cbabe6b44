import { ValidationError } from "../../errors.js";
import { isEmpty, numberOf, textOf, timeOf } from "./values.js";

/** One key of an order_by: a field, ascending unless written "-field" (or "field desc"). */
export interface SortKey {
  field: string;
  desc: boolean;
}

const KEY = /^([+-]?)\s*([A-Za-z_][A-Za-z0-9_:.]*)(?:\s+(asc|desc))?$/i;

/** "-updatedAt", "-leadScore,email", "email asc": the keys, in order. */
export function parseSortKeys(text: string, input = "order_by"): SortKey[] {
  const parts = text.split(",").map((part) => part.trim());
  return parts.map((part) => {
    const match = KEY.exec(part);
    if (!match) {
      throw new ValidationError(input, `${JSON.stringify(part.slice(0, 60))} is not a field to sort by.`, {
        hint: 'Give field names separated by commas, "-" before a field for descending: e.g. "-leadScore,email".',
      });
    }
    const desc = match[1] === "-" || match[3]?.toLowerCase() === "desc";
    return { field: match[2] as string, desc };
  });
}

/** Kinds of value in the order they sort: numbers, then times, then text; an empty value sorts last. */
function rank(value: unknown): { rank: number; number?: number; text?: string } {
  if (isEmpty(value)) return { rank: 3 };
  const number = numberOf(value);
  if (number !== undefined) return { rank: 0, number };
  const time = timeOf(value);
  if (time !== undefined) return { rank: 1, number: time };
  return { rank: 2, text: textOf(value) };
}

/**
 * Ascending order of two values: numbers (and numeric text) by value, dates and datetimes by time, other
 * text by its lower case then as written; kinds in that order. Empty values compare equal to each other.
 */
export function compareValues(a: unknown, b: unknown): number {
  const x = rank(a);
  const y = rank(b);
  if (x.rank !== y.rank) return x.rank - y.rank;
  if (x.number !== undefined && y.number !== undefined) return x.number - y.number;
  if (x.text !== undefined && y.text !== undefined) {
    const lower = x.text.toLowerCase().localeCompare(y.text.toLowerCase(), "en");
    return lower !== 0 ? lower : x.text < y.text ? -1 : x.text > y.text ? 1 : 0;
  }
  return 0;
}

type Row = Readonly<Record<string, unknown>>;

/** A comparator of records by the keys, in turn; an empty value sorts last whichever the direction. */
export function compareBy(keys: readonly SortKey[]): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const { field, desc } of keys) {
      const x = Object.hasOwn(a, field) ? a[field] : undefined;
      const y = Object.hasOwn(b, field) ? b[field] : undefined;
      const ex = isEmpty(x);
      const ey = isEmpty(y);
      if (ex || ey) {
        if (ex !== ey) return ex ? 1 : -1;
        continue;
      }
      const c = compareValues(x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}

/** Sorts in place, stably: records equal on every key keep the order they were read in. */
export function sortRecords<T extends Row>(records: T[], keys: readonly SortKey[]): T[] {
  return records.sort(compareBy(keys));
}
