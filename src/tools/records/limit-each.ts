/**
 * limit "3 per programId": the first n results of each value of some fields, in the answer's order (after
 * where, order_by and count_by). Agents ranked within groups by hand (trial s34: each program's busiest day
 * from 409 count rows, each site's top pages); with count_by "programId,activityDate:day" and limit
 * "1 per programId", the step keeps each program's most frequent day (count rows come most frequent first).
 */
import { ValidationError } from "../../errors.js";
import { fieldReader, textOf } from "./values.js";

/** The parsed limit: n results of each value (a combination of values) of `fields`. */
export interface LimitEach {
  readonly n: number;
  readonly fields: readonly string[];
}

const EACH = /^(\d+)\s+per\s+(\S.*)$/i;
const MOST = 100_000;
const EXAMPLE =
  'E.g. limit 10 (the first 10), or limit "1 per programId" with count_by "programId,activityDate:day" (each program\'s busiest day).';

/** limit written "n per field[,field]". */
export function limitEach(text: string): LimitEach {
  const match = EACH.exec(text.trim());
  const n = Number(match?.[1]);
  const fields = (match?.[2] ?? "")
    .split(",")
    .map((field) => field.trim())
    .filter((field) => field !== "");
  if (!match || fields.length === 0) {
    throw new ValidationError(
      "limit",
      `"${text}" is not a limit: it takes a number of results (10), or a number per field ("3 per programId": the first 3 of each programId).`,
      { hint: EXAMPLE },
    );
  }
  if (n < 1 || n > MOST) {
    throw new ValidationError("limit", `${n} per ${fields.join(",")}: the number is from 1 to 100,000.`, {
      hint: EXAMPLE,
    });
  }
  return { n, fields };
}

/**
 * limit as a number (spec.limit) or per field (spec.each); "10" is the number 10, as it was when limit took
 * numbers only. `rowFields`: count_by's row fields, when the results are count rows.
 */
export function limitParts(
  limit: number | string | undefined,
  rowFields: readonly string[] | undefined,
): { limit?: number; each?: LimitEach } {
  if (limit === undefined) return {};
  if (typeof limit === "number") return { limit };
  if (/^\s*\d+\s*$/.test(limit)) return { limit: Number(limit) };
  const each = limitEach(limit);
  if (rowFields) checkEachOnRows(each, rowFields);
  return { each };
}

/** How the limit is written back in an answer: "1 per programId". */
export const limitEachText = (each: LimitEach): string => `${each.n} per ${each.fields.join(",")}`;

/**
 * With count_by, the results are count rows, whose fields are count_by's (a pivot's row fields): limit per
 * names one of them, else it is refused naming those it may take.
 */
export function checkEachOnRows(each: LimitEach, rowFields: readonly string[]): void {
  const stray = each.fields.find((field) => !rowFields.includes(field));
  if (stray === undefined) return;
  throw new ValidationError(
    "limit",
    `with count_by, limit per takes a field of the count rows, and ${stray} is not one: ${rowFields.join(", ")}.`,
    {
      hint: `E.g. limit "${each.n} per ${rowFields[0]}" (the first ${each.n} of each ${rowFields[0]}, in order_by's order).`,
    },
  );
}

/**
 * The groups where the first row left out equals the last one kept on `keys` (the fields the rows are sorted
 * by): which of them is kept is then the order's tie-break, not a rank, and the answer says so.
 */
export function tiedGroups(
  rows: readonly Readonly<Record<string, unknown>>[],
  each: LimitEach,
  keys: readonly string[],
): number {
  const readers = each.fields.map(fieldReader);
  const sortReaders = keys.map(fieldReader);
  const groups = new Map<string, Readonly<Record<string, unknown>>[]>();
  for (const row of rows) {
    const key = JSON.stringify(readers.map((read) => textOf(read(row))));
    const group = groups.get(key) ?? [];
    if (group.length <= each.n) group.push(row);
    groups.set(key, group);
  }
  const same = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
    sortReaders.every((read) => textOf(read(a)) === textOf(read(b)));
  return [...groups.values()].filter((group) => {
    const [last, next] = [group[each.n - 1], group[each.n]];
    return last !== undefined && next !== undefined && same(last, next);
  }).length;
}

/** The first n of each value of the fields, in the order given. */
export function firstOfEach<T extends Readonly<Record<string, unknown>>>(
  rows: readonly T[],
  each: LimitEach,
): T[] {
  const readers = each.fields.map(fieldReader);
  const taken = new Map<string, number>();
  return rows.filter((row) => {
    const key = JSON.stringify(readers.map((read) => textOf(read(row))));
    const had = taken.get(key) ?? 0;
    taken.set(key, had + 1);
    return had < each.n;
  });
}
