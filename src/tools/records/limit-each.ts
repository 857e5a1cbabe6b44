/**
 * limit "n per field": the first n results of each value of some fields, in the answer's order (after its
 * filter, sort and counts). Agents ranked within groups by hand (trial s34: each group's busiest day from 409
 * count rows, each site's top pages, a day's top 10); ranked rows cut per group here answer in one call.
 */

import { ValidationError } from "../../errors.js";
import { splitFieldList, unquoteField } from "./field-list.js";
import { fieldReader, textOf } from "./values.js";

/** The parsed limit: n results of each value (a combination of values) of `fields`. */
export interface LimitEach {
  readonly n: number;
  readonly fields: readonly string[];
}

const EACH = /^(\d+)\s+per\s+(\S.*)$/i;
const MOST = 100_000;

/** limit written "n per field[,field]"; `example`, the hint's call over the caller's own fields. */
export function limitEach(text: string, example: string, most = MOST): LimitEach {
  const match = EACH.exec(text.trim());
  const n = Number(match?.[1]);
  // Split as count_by is: a band's edges keep their commas, "1 per leadScore:(0,50)" (review s60, F1).
  const listed = match?.[2] ?? "";
  const fields = (splitFieldList(listed) ?? listed.split(","))
    .map((field) => field.trim())
    .filter((field) => field !== "");
  if (!match || fields.length === 0) {
    throw new ValidationError(
      "limit",
      `"${text}" is not a limit: it takes a number (10: the first 10), or a number per field ("3 per <field>": the first 3 of each value).`,
      { hint: example },
    );
  }
  if (n < 1 || n > most) {
    throw new ValidationError(
      "limit",
      `${n} per ${fields.join(",")}: the number is from 1 to ${most.toLocaleString("en-US")}.`,
      { hint: example },
    );
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
  example: string,
): { limit?: number; each?: LimitEach } {
  if (limit === undefined) return {};
  if (typeof limit === "number") return { limit };
  if (/^\s*\d+\s*$/.test(limit)) return { limit: Number(limit) };
  const asked = limitEach(limit, example);
  if (!rowFields) return { each: asked };
  // A quoted name is the count row's column it names: '1 per "leadScore:(0,50)"' (review s60, F1).
  const column = (field: string) => {
    const bare = unquoteField(field);
    return bare !== undefined && !rowFields.includes(field) && rowFields.includes(bare) ? bare : field;
  };
  const each = { ...asked, fields: asked.fields.map(column) };
  checkEachOnRows(each, rowFields);
  return { each };
}

/**
 * Count rows' order for limit per without order_by: each group in turn, its rows most frequent first, so
 * "1 per activityDate:day" is each day's most frequent value whatever count_by's own order (a date's rows
 * came A to Z: review s43, 2).
 */
export const eachOrder = (each: LimitEach): { field: string; desc: boolean }[] => [
  ...each.fields.map((field) => ({ field, desc: false })),
  { field: "count", desc: true },
];

/** A limit refusal's example, over count_by's fields when it has them. */
export const limitExample = (countBy: readonly string[] | undefined): string =>
  countBy?.[0] === undefined
    ? 'E.g. limit 10 (the first 10), or limit "1 per <field>" (the first record of each value, in order_by\'s order).'
    : `E.g. limit 10 (the first 10 count rows), or limit "1 per ${countBy[0]}" (each ${countBy[0]}'s first count row, its most frequent${countBy[1] ? ` ${countBy[1]}` : ""}).`;

/**
 * The fields limit per's ties are judged on: the sort's, else a pivot row's total or a count row's count (a
 * pivot's rows have no count: review s43, 4); none for records in read order.
 */
export const tieKeys = (spec: {
  order?: readonly { field: string }[];
  columns?: string;
  countBy?: readonly string[];
}): string[] =>
  spec.order?.map(({ field }) => field) ?? (spec.columns ? ["total"] : spec.countBy ? ["count"] : []);

/** How the limit is written back in an answer: "1 per programId". */
export const limitEachText = (each: LimitEach): string => `${each.n} per ${each.fields.join(",")}`;

/**
 * With count_by, the results are count rows, whose fields are count_by's (a pivot's row fields): limit per
 * names one of them, else it is refused naming those it may take.
 */
export function checkEachOnRows(each: LimitEach, rowFields: readonly string[]): void {
  const stray = each.fields.find((field) => !rowFields.includes(field));
  if (stray === undefined && rowFields.every((field) => each.fields.includes(field))) {
    // Each group would be one count row: nothing would be cut (review s43, 7).
    throw new ValidationError(
      "limit",
      `limit "${limitEachText(each)}" names every count_by field, so each group is one count row and nothing is cut.`,
      {
        // With one count_by field, "per" has nothing fewer to name: a plain limit (review s52, 12: the hint was the text refused).
        hint:
          rowFields.length > 1
            ? `Name fewer: e.g. limit "${each.n} per ${rowFields[0]}", each ${rowFields[0]}'s first ${each.n} count rows.`
            : `With count_by "${rowFields[0]}" alone, give limit a number: e.g. limit ${each.n}, the first ${each.n} count rows; or count by one more field to take the first of each ${rowFields[0]}.`,
      },
    );
  }
  if (stray === undefined) return;
  throw new ValidationError(
    "limit",
    `with count_by, limit per takes a field of the count rows, and ${stray} is not one: ${rowFields.join(", ")}.`,
    {
      hint: `E.g. limit "${each.n} per ${rowFields[0]}" (each ${rowFields[0]}'s first ${each.n} count rows: without order_by, its most frequent).`,
    },
  );
}

type Row = Readonly<Record<string, unknown>>;

/** A record's group for `each`: its values of each.fields, as one text. */
const groupOf = (each: LimitEach) => {
  const readers = each.fields.map(fieldReader);
  return (row: Row) => JSON.stringify(readers.map((read) => textOf(read(row))));
};

/** The first n of each value of the fields, in the order given. */
export function firstOfEach<T extends Row>(rows: readonly T[], each: LimitEach): T[] {
  return firstOfEachBy(rows, each.n, groupOf(each));
}

/** The first n rows of each group, in the order given: a row's group is `keyOf`'s text. */
export function firstOfEachBy<T>(rows: readonly T[], n: number, keyOf: (row: T) => string): T[] {
  const taken = new Map<string, number>();
  return rows.filter((row) => {
    const key = keyOf(row);
    const had = taken.get(key) ?? 0;
    taken.set(key, had + 1);
    return had < n;
  });
}

/**
 * The groups where the first row left out equals the last one kept on `keys` (the fields the rows are sorted
 * by): which of them is kept is then the order's tie-break, not a rank, and the answer says so.
 */
export function tiedGroups(rows: readonly Row[], each: LimitEach, keys: readonly string[]): number {
  const readers = keys.map(fieldReader);
  return tiedGroupsBy(rows, each.n, groupOf(each), (row) =>
    JSON.stringify(readers.map((read) => textOf(read(row)))),
  );
}

/** tiedGroups over any rows: `keyOf` their group, `sortOf` what they are sorted by, as text. */
export function tiedGroupsBy<T>(
  rows: readonly T[],
  n: number,
  keyOf: (row: T) => string,
  sortOf: (row: T) => string,
): number {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key) ?? [];
    if (group.length <= n) group.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].filter((group) => {
    const [last, next] = [group[n - 1], group[n]];
    return last !== undefined && next !== undefined && sortOf(last) === sortOf(next);
  }).length;
}
