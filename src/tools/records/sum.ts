/**
 * count_by's `sum`: a number per record added per group, e.g. a program's period costs, `costs.cost`, whose
 * path runs through a list (Get Program by Id's `costs: [{startDate, cost, note}]`, Adobe's Programs page,
 * "Costs": https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs), so
 * every item's value is added. Left to the model, "spend per program" was its own arithmetic (issue 27).
 */
import { ValidationError } from "../../errors.js";
import { type Expression, expressionFields } from "../filter/ast.js";
import type { RankedDate } from "./middles.js";
import { DIFFERENCE_SCOPE, differenceValues, type SumOf, sumText } from "./sum-difference.js";
import { innerObject, isEmpty, isObject, itemView, numberOf, textOf, timeOf } from "./values.js";

/** A sum without floating-point noise: 0.3 + 0.6 + … read 6.6499999999999995 (review s30, finding 14). */
export const tidySum = (sum: number, digits = 15): number =>
  // A whole number is exact as it is: 15 digits would round a sum past 10^15.
  Number.isInteger(sum) ? sum : Number(sum.toPrecision(digits));

/**
 * Digits a sum of "a - b" keeps: differences of dates are days to 4 decimals, whose sum at 15 digits showed the
 * floating point's noise, 80917.9414000001 (review s59).
 */
export const DIFFERENCE_DIGITS = 12;

/** The values a path reads in a record, through objects, name/value lists and lists of objects. */
export function valuesAt(record: Readonly<Record<string, unknown>>, field: string): unknown[] {
  // An empty value is no value, at the top as inside (review s28, finding 7: one lead without a score refused a
  // whole export's sum, whose mean leaves empty ones out).
  if (Object.hasOwn(record, field)) return spread([record[field]]).filter((value) => !isEmpty(value));
  const parts = field.split(".");
  let at: unknown[] = [record];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    at = at.flatMap((container) => {
      if (!isObject(container) || !Object.hasOwn(container, part)) return [];
      // A name/value list or JSON text is entered as an object (an activity's attributes); a list item by item,
      // and so a name/value list whose items have the next name as a key (a token's "value": unnest.ts).
      const inner = last ? undefined : innerObject(container, part);
      const list = container[part];
      const next = parts[i + 1] as string;
      const byItem =
        Array.isArray(list) &&
        !Object.hasOwn(inner ?? {}, next) &&
        list.some((item) => isObject(item) && Object.hasOwn(item, next));
      return inner && !byItem ? [inner] : spread([list]);
    });
  });
  return at.filter((value) => !isEmpty(value));
}

const spread = (values: unknown[]): unknown[] => values.flatMap((v) => (Array.isArray(v) ? v : [v]));

type Record_ = Readonly<Record<string, unknown>>;

/**
 * The list a sum's path runs through at the record's top level ("costs" of "costs.cost"), when `where` names a
 * path inside it too ("costs.startDate"): then the sum adds only the items `where` holds for, each tested as if
 * it were the list's only item. "Spend this year" added every period's cost of a program with one cost this
 * year (trial s14, N107), as `where` kept the record and the sum took all of its list.
 */
export function sumList(sum: SumOf | undefined, where: Expression | undefined): string | undefined {
  // A difference reads one value of each of its two fields, no list's items (sum-difference.ts).
  if (typeof sum !== "string") return undefined;
  const head = sum.split(".")[0];
  if (!sum.includes(".") || !head || !where) return undefined;
  return expressionFields(where).some((field) => field.startsWith(`${head}.`)) ? head : undefined;
}

/** Counter's sumItems option for a sum and a where (none unless sumList names a list). */
export function sumItems(
  sum: SumOf | undefined,
  where: Expression | undefined,
  test: ((record: Record_) => boolean) | undefined,
) {
  const list = sumList(sum, where);
  return list && test ? { sumItems: { list, test } } : {};
}

/** How a sum's words name what it adds: every item of its list, or the items where holds for. */
export function sumScope(sum: SumOf, list: string | undefined, objects: readonly string[] = []): string {
  if (list) return ` (only the items of ${list} that meet where)`;
  if (typeof sum !== "string") return DIFFERENCE_SCOPE;
  // A path through one object (the caller names those its records have) adds one value, not a list's.
  if (objects.some((object) => sum.startsWith(`${object}.`))) return "";
  return sum.includes(".") ? " (every item of a list)" : "";
}

/** The values a sum adds in a record: with a list and an item test, only the items the test holds for. */
function summedValues(
  record: Record_,
  field: SumOf,
  items?: { list: string; test: (r: Record_) => boolean },
  zone?: string,
): unknown[] {
  if (typeof field !== "string") return differenceValues((side) => valuesAt(record, side), field, zone);
  const list = items ? record[items.list] : undefined;
  if (!items || !Array.isArray(list)) return valuesAt(record, field);
  return list.flatMap((item) => {
    const alone = itemView(record, items.list, item);
    return items.test(alone) ? valuesAt(alone, field) : [];
  });
}

/** The sum of a record's values at `field` (0 when it has none, or dates); a value that is no number or date is refused. */
export function recordSum(
  record: Record_,
  field: SumOf,
  items?: { list: string; test: (r: Record_) => boolean },
  zone?: string,
): number {
  return recordSummed(record, field, items, zone).sum;
}

/** What a sum reads: numbers, or dates (an activity's activityDate, a lead's createdAt). */
export type SumKind = "number" | "date";

/** One record's values at a sum's field: their sum, how many, the least and the greatest, and what they are. */
export interface Summed {
  sum: number;
  values: number;
  /** The least and greatest value: a number, or a date's text as read (its instant orders it). */
  min?: number | string;
  max?: number | string;
  kind?: SumKind;
  /** Dates: each one read, for the median and a percentile (middles.ts dateAtPercentile). */
  dates?: RankedDate[];
}

/**
 * The sum of a record's values at `field`, how many it has (none: the record has no value to average), and the
 * least and greatest. Dates are not added: their min and max are the earliest and latest, each group's first and
 * last (trial s33, N496: "each UTM campaign's first lead" had no call, and a model read 149,471 characters of
 * leads to find them; an agent tried sum on dates and was refused).
 */
export function recordSummed(
  record: Record_,
  field: SumOf,
  items?: { list: string; test: (r: Record_) => boolean },
  zone?: string,
): Summed {
  const summed: Summed = { sum: 0, values: 0 };
  let least: number | undefined;
  let most: number | undefined;
  for (const value of summedValues(record, field, items, zone)) {
    const number = numberOf(value);
    // A date without an offset is on the call's clock, as where and the buckets read it (review s41, 1).
    const time = number === undefined ? timeOf(value, zone) : undefined;
    const kind: SumKind | undefined =
      number !== undefined ? "number" : time !== undefined ? "date" : undefined;
    if (kind === undefined || (summed.kind !== undefined && summed.kind !== kind)) {
      throw new ValidationError(
        "sum",
        `${sumText(field)} holds ${JSON.stringify(textOf(value).slice(0, 60))}, which is ${kind ? "not of the kind of its other values" : "no number or date"}: sum adds numbers and takes the first and last of dates.`,
        {
          hint: `Sum a numeric field (e.g. costs.cost) or a date (createdAt), or count by ${sumText(field)} instead.`,
        },
      );
    }
    summed.kind = kind;
    summed.values += 1;
    const order = number ?? (time as number);
    if (number !== undefined) summed.sum += number;
    else {
      summed.dates ??= [];
      summed.dates.push({ rank: order, value: value as string });
    }
    if (least === undefined || order < least) [least, summed.min] = [order, number ?? (value as string)];
    if (most === undefined || order > most) [most, summed.max] = [order, number ?? (value as string)];
  }
  // A record's numbers count as their sum, as its mean and median take it (a program's costs.cost); dates one by one.
  if (summed.kind === "number") summed.min = summed.max = tidySum(summed.sum);
  return summed;
}

/** The instant or number a min or max orders by (a date without an offset on `zone`'s clock). */
export const rankOf = (value: number | string, zone?: string): number =>
  typeof value === "number" ? value : (timeOf(value, zone) ?? Number.NaN);

/**
 * Refused: an order by sum or mean of dates, which are null on every row (review s41, 2: "sorted by sum
 * descending" gave three groups in the order of their names as a top 3). A median of dates is a date, and sorts.
 */
export function refuseDateOrder(sum: string, keys: readonly { field: string; desc: boolean }[]): void {
  const key = keys.find(({ field }) => ["sum", "mean"].includes(field));
  if (!key) return;
  throw new ValidationError(
    "order_by",
    `${sum} holds dates, which are not added: each row's ${key.field} is empty.`,
    {
      hint: `Order by their first, last or middle date, e.g. order_by "${key.desc ? "-" : ""}${key.desc ? "max" : "min"}" or "${key.desc ? "-" : ""}median".`,
    },
  );
}
