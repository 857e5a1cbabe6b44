import { ValidationError } from "../../errors.js";
import { readPath, splitFieldList, unquoteField } from "./field-list.js";
import { fieldReader, isEmpty, numberOf, textOf, timeOf } from "./values.js";

/** One key of an order_by: a field, ascending unless written "-field" (or "field desc"). */
export interface SortKey {
  field: string;
  desc: boolean;
}

// A band column between edges too, "-leadScore:(0,50)", as count_by names it (review s60, F2).
const KEY =
  /^([+-]?)\s*([A-Za-z_][A-Za-z0-9_:.]*(?::\([-\d., ]*\))?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(?:\s+(asc|desc))?$/i;

/** "-updatedAt", "-leadScore,email", "email asc", '-"Lead Score"': the keys, in order. */
export function parseSortKeys(text: string, input = "order_by"): SortKey[] {
  const parts = splitFieldList(text) ?? [text];
  return parts.map((part) => {
    const match = KEY.exec(part) ?? quotedPathKey(part);
    const written = match?.[2] as string;
    const field = match && (/^["']/.test(written) ? unquoteField(written) : written);
    if (!match || !field) {
      throw new ValidationError(input, `${JSON.stringify(part.slice(0, 60))} is not a field to sort by.`, {
        hint:
          'Give field names separated by commas, "-" before a field for descending: e.g. "-leadScore,email"; ' +
          "a dotted path reaches into an object (membership.updatedAt); double-quote a name with other characters.",
      });
    }
    const desc = match[1] === "-" || match[3]?.toLowerCase() === "desc";
    return { field, desc };
  });
}

/** A key whose path has a quoted part (-attributes."Campaign Run ID" desc), in KEY's groups: sign, field, direction. */
function quotedPathKey(part: string): string[] | undefined {
  const sign = /^[+-]?\s*/.exec(part)?.[0] ?? "";
  const path = readPath(part.slice(sign.length));
  const direction = path && /^(?:\s+(asc|desc))?$/i.exec(path.rest);
  if (!path || !direction) return undefined;
  return [part, sign.trim(), path.field, direction[1] as string];
}

/**
 * Kinds of value in the order they sort: numbers, then times (one without an offset on `zone`'s clock, as where
 * reads it: review s41, 1), then text; an empty value sorts last.
 */
function rank(value: unknown, zone?: string): { rank: number; number?: number; text?: string } {
  if (isEmpty(value)) return { rank: 3 };
  const number = numberOf(value);
  if (number !== undefined) return { rank: 0, number };
  const time = timeOf(value, zone);
  if (time !== undefined) return { rank: 1, number: time };
  return { rank: 2, text: textOf(value) };
}

/**
 * Ascending order of two values: numbers (and numeric text) by value, dates and datetimes by time, other
 * text by its lower case then as written; kinds in that order. Empty values compare equal to each other.
 */
export function compareValues(a: unknown, b: unknown, zone?: string): number {
  const x = rank(a, zone);
  const y = rank(b, zone);
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
export function compareBy(keys: readonly SortKey[], zone?: string): (a: Row, b: Row) => number {
  const readers = keys.map(({ field, desc }) => ({ read: fieldReader(field), desc }));
  return (a, b) => {
    for (const { read, desc } of readers) {
      const x = read(a);
      const y = read(b);
      const ex = isEmpty(x);
      const ey = isEmpty(y);
      if (ex || ey) {
        if (ex !== ey) return ex ? 1 : -1;
        continue;
      }
      const c = compareValues(x, y, zone);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}

/** Sorts in place, stably: records equal on every key keep the order they were read in. */
export function sortRecords<T extends Row>(records: T[], keys: readonly SortKey[]): T[] {
  return records.sort(compareBy(keys));
}
