/**
 * The fields count_by, count_distinct and sum name, and the options that shape what count_by counts
 * (min_count, count_by_ignore_case, count_distinct, sum): parsed and refused here, before any record is read.
 */
import { ValidationError } from "../../errors.js";
import type { Expression } from "../filter/ast.js";
import { parseExpression, RECORDS_DIALECT } from "../filter/parser.js";
import { type Bucket, bucketSuffix } from "./buckets.js";
import { readPath, splitFieldList, unquoteField } from "./field-list.js";
import { bucketedField, expressionNamed, type NamedField, quotedField } from "./fields.js";
import { type Difference, differenceSplit, refuseUnspacedDifference } from "./sum-difference.js";
import { sumPercentile } from "./sum-percentile.js";

/** The inputs countOptions reads (ComputeInput's of the same names). */
export interface CountInput {
  min_count?: number | undefined;
  count_by_ignore_case?: boolean | undefined;
  count_distinct?: string | undefined;
  sum?: string | undefined;
  keep_counted?: boolean | undefined;
  limit?: number | string | undefined;
}

/** What countOptions gives the spec (ComputeSpec's fields of the same names). */
export interface CountOptions {
  minCount?: number;
  ignoreCase?: boolean;
  distinct?: string;
  sum?: string;
  /** With sum written "a - b": its two fields (sum is then that text, as the answer names it). */
  difference?: Difference;
  /** With sum: a percentile of each group's values beside its median ("next_hours:p90": p90), 1 to 99. */
  percentile?: number;
}

/** The sum's percentile column, "p90", or none. */
export const percentileColumn = (spec: { percentile?: number | undefined }): string[] =>
  spec.percentile === undefined ? [] : [`p${spec.percentile}`];

/** A count_by field: a name, spaces inside allowed (an import's failures file has "Import Failure Reason"). */
const FIELD = /^[A-Za-z_](?:[A-Za-z0-9_:. ]*[A-Za-z0-9_:.])?$/;

/** A field as count_by and count_distinct name it: a name, a dotted path (parts may be quoted) or a quoted name. */
function fieldOf(part: string): string | undefined {
  const path = /["']/.test(part) ? readPath(part) : undefined;
  return unquoteField(part) ?? (FIELD.test(part) ? part : path?.rest === "" ? path.field : undefined);
}

/**
 * A count_by condition: a where expression ("leadScore > 50", 'utmMedium in ("cpc","ppc")') whose column holds
 * true or false for each record, so "how many are X, how many not" is one count (trial s20, N218: the agent
 * added up the years before 2026 itself). Its column is the condition as written (conditionColumn).
 */
export interface CountCondition {
  column: string;
  expression: Expression;
  /** The condition as written. */
  text?: string;
}

/** The most characters of a condition its column is named by. */
const COLUMN_CHARS = 80;

/**
 * A condition's column: the condition as written, or a long one (another read's id list) by its start and length,
 * since the column names each count row's cell: 3,000 ids written into every row left room for one row in an
 * answer (review s27, finding 2).
 */
export function conditionColumn(part: string): string {
  if (part.length <= COLUMN_CHARS) return part;
  return `${part.slice(0, COLUMN_CHARS - 20).trimEnd()}… (${part.length.toLocaleString("en-US")} characters)`;
}

/** A part written as a condition: an operator, or a word of where's language between others. */
const CONDITION_LIKE =
  /[=<>!~]|\s(?:in|contains|between|is|begins_with|starts_with|ends_with|matches|and|or)\s|^not\s/i;

/**
 * The part as a condition when it is one (a name alone, even with spaces, is a field's). A part written as a
 * condition that does not parse gets where's own message, not "not a field name" (review s25, finding 7).
 */
function conditionOf(
  part: string,
  named: string | undefined,
  expanded: string | undefined,
): CountCondition | undefined {
  if (named !== undefined && !/\s/.test(named)) return undefined;
  const at = {
    field: "count_by",
    hint: 'A condition is written as in where: quote text and dates, e.g. leadSource == "Webinar" or createdAt >= "2026-01-01".',
  };
  try {
    // Held in place before the read (the same length): its errors quote the part as written (review s48, 9).
    const written = expanded !== undefined && expanded.length === part.length ? { written: part } : {};
    const expression = parseExpression(expanded ?? part, { ...at, ...written }, RECORDS_DIALECT);
    return { column: conditionColumn(part), expression };
  } catch (error) {
    if (named === undefined && CONDITION_LIKE.test(part)) throw error;
    return undefined;
  }
}

export function countFields(
  text: string,
  input = "count_by",
  buckets: Bucket[] = [],
  conditions: CountCondition[] = [],
  /** Conditions holding `in result(…)`, by their text as written: that text with the kept values in place. */
  expanded?: ReadonlyMap<string, string>,
): string[] {
  const parts = splitFieldList(text) ?? [text];
  const fields = parts.map((part) => {
    const suffix = input === "count_by" ? bucketSuffix(part) : undefined;
    const named = suffix ? undefined : fieldOf(part);
    const condition =
      input === "count_by" && !suffix ? conditionOf(part, named, expanded?.get(part)) : undefined;
    if (condition) {
      // Two long conditions alike in start and length get columns of their own.
      // Only shortened ones: a short condition's column is itself (review s29, finding 10: "leadScore > 5 #2").
      const shortened = condition.column !== part;
      const same = shortened
        ? conditions.filter((c) => c.column.startsWith(condition.column) && c.text !== part).length
        : 0;
      const column = same > 0 ? `${condition.column} #${same + 1}` : condition.column;
      if (!conditions.some((c) => c.text === part)) conditions.push({ ...condition, column, text: part });
      return conditions.find((c) => c.text === part)?.column;
    }
    if (!suffix) return named;
    const field = fieldOf(suffix.head);
    if (field === undefined) return undefined;
    const column = `${field}:${suffix.written ?? suffix.unit}`;
    const band = suffix.edges ? { edges: suffix.edges } : suffix.width ? { width: suffix.width } : {};
    buckets.push({ column, field, unit: suffix.unit, ...band });
    return column;
  });
  const bad = parts.find((_, i) => fields[i] === undefined);
  if (bad !== undefined) {
    throw new ValidationError(input, `${JSON.stringify(bad.slice(0, 60))} is not a field name.`, {
      hint:
        'Give field names separated by commas, e.g. "leadSource" or "primaryAttributeValue,activityType"; a dotted ' +
        "path reaches into an object (membership.progressionStatus); double-quote a name with other characters; " +
        ':day, :week, :month, :quarter or :year after a date field counts per date ("createdAt:day"), and a width ' +
        'above 0 after a number field per band ("leadScore:25"); a ' +
        'condition counts true and false ("leadScore > 50").',
    });
  }
  return [...new Set(fields as string[])];
}

/** sum's field, or a difference's two ("a - b", sum-difference.ts), each checked as a field name. */
function sumFieldOf(text: string | undefined): { fields: string[]; difference?: Difference } {
  if (text === undefined) return { fields: [] };
  const split = differenceSplit(text);
  if (!split) {
    refuseUnspacedDifference(text);
    return { fields: countFields(text, "sum") };
  }
  const [a, b] = split.map((side) => countFields(side, "sum"));
  if (a?.length !== 1 || b?.length !== 1) return { fields: [...(a ?? []), ...(b ?? [])] };
  const written = `${split[0]} - ${split[1]}`;
  return {
    fields: [written],
    difference: { minuend: a[0] as string, subtrahend: b[0] as string, text: written },
  };
}

/** min_count and count_by_ignore_case, which shape what count_by counts: refused without it. */
export function countOptions(input: CountInput, countBy: string[] | undefined): CountOptions {
  const stray =
    input.min_count !== undefined
      ? "min_count"
      : input.count_by_ignore_case
        ? "count_by_ignore_case"
        : input.count_distinct !== undefined
          ? "count_distinct"
          : input.sum !== undefined
            ? "sum"
            : input.keep_counted
              ? "keep_counted"
              : undefined;
  if (stray && !countBy) {
    throw new ValidationError(
      stray,
      `it applies to count_by's counts: give count_by too (a field name), or leave ${stray} out.`,
      {
        hint:
          stray === "min_count"
            ? 'E.g. count_by "email", min_count 2: the emails on two or more records.'
            : stray === "count_distinct"
              ? 'E.g. count_by "primaryAttributeValue", count_distinct "leadId": the distinct leads per email.'
              : stray === "sum"
                ? 'E.g. count_by "name", sum "costs.cost": each program\'s costs added.'
                : stray === "keep_counted"
                  ? "Leave keep_counted out: a read without count_by links its records itself."
                  : 'E.g. count_by "email", count_by_ignore_case true: "A@x.com" and "a@x.com " counted as one.',
      },
    );
  }
  // Every record counted is linked: rows min_count or limit leave out would not be (review s53, 3).
  if (input.keep_counted && (input.min_count !== undefined || input.limit !== undefined))
    throw new ValidationError(
      "keep_counted",
      `it links every record counted, and ${input.min_count !== undefined ? "min_count" : "limit"} leaves some count rows out: the records would not be theirs.`,
      {
        hint: "Leave keep_counted out, or narrow the records with where (e.g. a condition on the field counted) and count without it.",
      },
    );
  const distinct =
    input.count_distinct === undefined ? [] : countFields(input.count_distinct, "count_distinct");
  const { sumText, percentile } = sumPercentile(input.sum);
  const { fields: sum, difference } = sumFieldOf(sumText);
  if (sum.length > 1) {
    throw new ValidationError("sum", "it takes one numeric field, which each group adds.", {
      hint: "E.g. sum \"costs.cost\": each row's sum is its records' costs added.",
    });
  }
  if (distinct.length > 1) {
    throw new ValidationError(
      "count_distinct",
      "it takes one field, whose distinct values each group counts.",
      {
        hint: 'E.g. count_distinct "leadId": each row\'s count is its distinct leads.',
      },
    );
  }
  return {
    ...(input.min_count !== undefined ? { minCount: input.min_count } : {}),
    ...(input.count_by_ignore_case ? { ignoreCase: true } : {}),
    ...(distinct[0] !== undefined ? { distinct: distinct[0] } : {}),
    ...(sum[0] !== undefined ? { sum: sum[0] } : {}),
    ...(difference ? { difference } : {}),
    ...(percentile !== undefined ? { percentile } : {}),
  };
}

/**
 * The columns a count row has after its count_by fields: `count`, then, unless it counts distinct values
 * (whose counts overlap and add to no whole), `percent` of the records counted, and the options' own.
 * Agents worked shares out by hand in 8 of 20 tasks (trial s13), and a model divides badly.
 */
export function countColumnNames(spec: CountOptions & CountShape): string[] {
  const inGroup = groupShareColumn(spec);
  return [
    "count",
    ...(spec.distinct ? [] : ["percent"]),
    ...(inGroup ? [inGroup] : []),
    ...(spec.sum ? ["sum", "mean", "median", ...percentileColumn(spec), "min", "max"] : []),
    ...(spec.distinct ? ["records"] : []),
    ...(spec.ignoreCase ? ["spellings"] : []),
  ];
}

/** With count_by, order_by sorts the count rows: a field they lack is refused with those they have. */
export function refuseStrayOrder(
  spec: CountOptions & CountShape & { order?: readonly { field: string }[] | undefined },
): void {
  const countBy = spec.countBy;
  const own = countColumnNames(spec);
  // A pivot's order_by names its columns, known once counted (pivot.ts checks it then).
  const stray =
    countBy &&
    !spec.columns &&
    spec.order?.find(({ field }) => !own.includes(field) && !countBy.includes(field));
  if (!countBy || !stray) return;
  throw new ValidationError(
    "order_by",
    `with count_by, order_by sorts the counts, which have no field ${stray.field}: only ${[...own, ...countBy].join(", ")}.`,
    {
      // Those columns come with sum (review s31, finding 10: "-median" without it).
      hint: ["sum", "mean", "median", "min", "max"].includes(stray.field.replace(/^[+-]/, ""))
        ? `Add sum (e.g. sum: "leadScore"): each row then has sum, mean, median, min and max to sort by.`
        : `E.g. order_by "-count" (most frequent first, the default) or "${countBy[0]}".`,
    },
  );
}

/** What decides a count row's columns besides the options: its count_by fields, and whether it pivots. */
export interface CountShape {
  countBy?: readonly string[] | undefined;
  columns?: unknown;
}

/**
 * By two or more fields, each row's percent of the records with its first field's value: a month's share of
 * each source, counted by "createdAt:month,utmMedium". Agents divided each row by its month's sum by hand
 * (trial s20, N219). Not for distinct counts (they add to no whole) or a pivot (its rows are the groups).
 */
export function groupShareColumn(spec: CountOptions & CountShape): string | undefined {
  const first = spec.countBy?.[0];
  if (!first || (spec.countBy?.length ?? 0) < 2 || spec.distinct || spec.columns) return undefined;
  return `percent_in_${first}`;
}

/** Rows added with no record counted: shares 0, distinct records 0, and a sum's columns 0 or none (dates: none). */
export function zeroColumns(
  rows: readonly Record<string, unknown>[],
  spec: CountOptions & CountShape,
  dates: boolean,
): void {
  for (const row of rows) {
    zeroShares(row, spec);
    if (spec.distinct) row.records = 0;
    if (!spec.sum) continue;
    Object.assign(row, {
      sum: dates ? null : 0,
      mean: null,
      median: null,
      ...Object.fromEntries(percentileColumn(spec).map((column) => [column, null])),
      min: null,
      max: null,
    });
  }
}

/** A row added with no record counted (a value asked for, a date without any): every share 0. */
export function zeroShares(row: Record<string, unknown>, spec: CountOptions & CountShape): void {
  if (spec.distinct) return;
  row.percent = 0;
  const inGroup = groupShareColumn(spec);
  if (inGroup) row[inGroup] = 0;
}

/** A row's count as a percent of the records counted, to 0.1 (0 when nothing was counted). */
export function percentOf(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 1000) / 10;
}

/** count_by on a field holding objects or lists: the paths inside it (`paths`, quoted) are what can be counted. */
export function refuseContainer(
  field: string,
  value: object,
  paths: readonly string[],
  itemPaths: readonly string[] = [],
): never {
  const what = Array.isArray(value) ? "lists" : "objects";
  const all = [...itemPaths.map(quotedField), ...paths];
  const inside = all.length > 0 ? `; the fields inside it are ${all.slice(0, 20).join(", ")}` : "";
  // A list of objects: each item can be counted by a key of it (tokens.type), or, a name/value list, a value
  // by its name read (tokens.Headline) (review s26, finding 16).
  const byItem = itemPaths[0]
    ? `Count by a key of its items, e.g. ${quotedField(itemPaths[0])}: each item is counted in its record's place` +
      `${paths[0] ? `; or by a value by its name, e.g. ${paths[0]}` : ""}.`
    : undefined;
  throw new ValidationError(
    "count_by",
    `${quotedField(field)} holds ${what}, not one value a record can be counted by${inside}.`,
    {
      hint:
        byItem ??
        (paths.length > 0
          ? `Count by a field inside it, e.g. ${paths[0]} (a dotted path reaches into a record's objects).`
          : `Count by another field, or keep the records whose ${quotedField(field)} holds an item with where (e.g. ${quotedField(field)} contains "…").`),
      details: { field: "count_by", container_field: field, fields: all.slice(0, 50) },
    },
  );
}

/**
 * The fields a count_by column reads, as the read checks them: its own name, a date bucket's field, or a
 * condition's fields, which like where's may run through a list of objects (costs.cost > 1000: review s25,
 * finding 4).
 */
export function countedFields(
  spec: { buckets?: readonly Bucket[] | undefined; conditions?: readonly CountCondition[] | undefined },
  column: string,
): NamedField[] {
  const condition = spec.conditions?.find((candidate) => candidate.column === column);
  if (condition) {
    return expressionNamed("count_by", condition.expression);
  }
  // A path may run through a list of objects each record holds: its items are counted (unnest.ts).
  const bucket = spec.buckets?.find((candidate) => candidate.column === column);
  const field = bucket?.field ?? column;
  // A misspelt bucketed name is offered back bucketed (review s39, 14: "activityDat:day" offered "activityDate").
  return [{ ...bucketedField("count_by", column, field), throughLists: field.includes(".") }];
}
