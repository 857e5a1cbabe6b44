/**
 * where, order_by and count_by over records already joined in memory (the ids of a fan-out read, the activity
 * type groups of activity-groups.ts), and `per` (records/per.ts): the matching records rolled up to one row per
 * value of a field, over which count_by, order_by, sum and limit then run (this file's rolledUp, which a paged
 * read calls too: compute-read.ts).
 */

import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { type Expression, expressionFields } from "../filter/ast.js";
import { n, plural } from "../numbers-in-words.js";
import { MAX_RESULT_BYTES } from "../output-cap.js";
import { BUCKET_UNITS, compareRows } from "../records/buckets.js";
import { type ComputeSpec, computeSpec, namedFields, RecordCompute } from "../records/compute.js";
import { sumOfSpec } from "../records/compute-spec.js";
import { checkFields } from "../records/fields.js";
import { listedCount, type PerGroups, perBuckets, perHead, perNamedField, SET_JOIN } from "../records/per.js";
import { keepCounted } from "../records/retained.js";
import { sumFields } from "../records/sum-difference.js";
import type { ToolContext } from "../types.js";
import { type Computed, computedAnswer } from "./compute-answer.js";
import { computedSummary, echoed } from "./compute-words.js";
import { type NameReader, nameCounted, namesCalls } from "./id-names.js";
import type { ReadAnswer, Shaped } from "./read-calls.js";

export interface ComputedParts {
  /**
   * The summary's head, given the calls spent in all: naming the ids counted spends calls after the head is
   * built (review s33: the head said 7 calls where calls_used was 8).
   */
  head: (calls: number) => string;
  base: Omit<Shaped, "result" | "complete">;
  /** What was left unread, when something was. */
  cut: string | undefined;
  /** max_items stopped the read (ids not read, records cut). */
  itemsCut: boolean;
  /** What reads the names of the ids counted (id-names.ts). */
  reader: NameReader;
  /** With `per`: the matching records are rolled up into it, and its rows answered. */
  per?: PerGroups | undefined;
  /** The unit the answer's words count: "row" for per's rows. */
  unit?: "record" | "row";
  /** With per's rows: the records read, of which they are the rows. */
  from?: number;
  /** The most bytes of results kept; else a kept result's, or an answer's. */
  keepBytes?: number;
  /** An export's rows: linked as a file and previewed beside it, as a plain export's are (trial s43, N598). */
  file?: boolean;
}

/**
 * where, order_by and count_by over joined records (no cursor: the read is the ids given, or the activity type
 * groups of activity-groups.ts).
 */
export async function computedJoined(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  compute: RecordCompute,
  records: Record<string, unknown>[],
  parts: ComputedParts,
): Promise<ReadAnswer> {
  if (parts.per) {
    for (const record of records) if (compute.see(record)) parts.per.add(record);
    return rolledUp(input, ctx, compute, parts.per, parts);
  }
  keepCounted(input.keep_counted, ctx, compute);
  const kept = records.filter((record) => compute.see(record));
  const names = await nameCounted(compute, parts.reader);
  const computed: Computed = {
    compute,
    kept,
    positions: [],
    next: undefined,
    ...(parts.itemsCut ? { stoppedBy: "items" as const } : {}),
    ...(parts.cut ? { cut: parts.cut } : {}),
    pages: parts.base.pages,
    calls: parts.base.calls_used + namesCalls(names),
    unit: parts.unit ?? "record",
    ...(parts.from !== undefined ? { from: parts.from } : {}),
    ...(parts.file ? { file: true } : {}),
    ...(names ? { names } : {}),
    // Every matching record is held already: the kept result's bytes, or the answer's (no sort needs more).
    keepBytes: parts.keepBytes ?? ctx.fullResults?.maxBytes ?? MAX_RESULT_BYTES,
  };
  const answer = computedAnswer(input, ctx, computed);
  // What a cut read kept is not all the call had: said with the link, refused as a list or a join (review s46, 1).
  const full = answer.full && parts.cut ? { ...answer.full, stopped: parts.cut } : answer.full;
  const data: Shaped = {
    ...answer.data,
    ...parts.base,
    // The answer's own warnings kept beside the read's (review s53, 2: keep_counted's were lost).
    warnings: [...parts.base.warnings, ...answer.data.warnings],
    calls_used: answer.data.calls_used,
    complete: answer.data.complete && !parts.cut && !computed.overflow,
  };
  // A cut is said before the figures, which cover only what was read (trial s8, N35).
  const said = parts.head(answer.data.calls_used);
  const head = parts.cut ? `${said}; ${parts.cut}; the figures below cover only the records read` : said;
  return {
    ...answer,
    data,
    ...(full ? { full } : {}),
    summary: computedSummary(input, computed, answer, head),
  };
}

/**
 * per's rows answered: `first` tested where over the records read (its fields are checked here), and count_by,
 * order_by, sum and limit run over the rows (their fields: the per field, records and types).
 */
export async function rolledUp(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  first: RecordCompute,
  per: PerGroups,
  parts: ComputedParts,
): Promise<ReadAnswer> {
  first.check();
  // No matching record with a value in the field: no row. A field no record has is refused with the fields they
  // have, as where's are; one they have but never filled, plainly.
  if (per.added === 0 && first.matched > 0) {
    checkFields(
      per.keys.map((key) => ({ ...perNamedField(key), throughLists: true })),
      first.fields,
      first.read,
    );
    throw new ValidationError(
      "per",
      `none of the ${plural(first.matched, "matching record")} has a value in ${per.field}.`,
      {
        hint: `Give per a field they fill, e.g. "leadId".`,
      },
    );
  }
  if (per.container) {
    const { field, what, example } = per.container;
    throw new ValidationError("per", `${field} holds ${what}: a row lists single values, not ${what}.`, {
      hint: example
        ? `Name a value inside it, e.g. per "${per.field},${example}".`
        : `Name a field of single values after ${per.field}.`,
    });
  }
  const { where: _where, per: _per, ...rest } = input;
  const second: MarketoApiCallInput = rest;
  const { keys, buckets } = perBuckets(input.per ?? "");
  // count_by's conditions with in result(…) are read with the values the call read for them (review s48, 1).
  const spec = {
    ...(computeSpec(second, "", first.spec.keptConditions) ?? {}),
    ...(buckets.length > 0 ? { labelled: buckets } : {}),
  };
  const rows = per.rows();
  // Rows by a bucket are in its order (days, Monday to Sunday, bands by their low end), not first seen (review
  // s40, 5), by each key in turn in a pair (review s50, 2); order_by still reorders them.
  if (buckets.length > 0)
    rows.sort(
      compareRows(
        keys.map((field) => ({ field, desc: false })),
        buckets,
      ),
    );
  const answer = await computedJoined(second, ctx, new RecordCompute(spec), rows, {
    ...parts,
    per: undefined,
    unit: "row",
    from: first.read,
    head: (calls) => `${parts.head(calls)}; ${perWords(input, first, per, parts.unit ?? "record")}`,
  });
  // The records read and matched, and the rows (review s32, 5: read and matched held the rows).
  const computed = { ...answer.data.computed, read: first.read, matched: first.matched, rows: per.size };
  return { ...answer, data: { ...answer.data, computed } };
}

/**
 * per's rows have only their field, records and (activities) types: count_by, order_by and sum naming another,
 * count_distinct, or a where naming records or types (where tests the records, before they are rolled up) are
 * refused before anything is read (review s32, findings 4, 5 and 9).
 */
export function checkPerFields(spec: ComputeSpec | undefined, per: PerGroups): void {
  const own = per.rowFields;
  // The listed fields are the records' own as well: where tests them before the roll-up.
  const onRows = spec?.where
    ? expressionFields(spec.where.expression).find(
        (field) =>
          own.slice(per.keys.length).includes(field) &&
          !per.keys.includes(field) &&
          field !== per.carry &&
          !per.listed.includes(field),
      )
    : undefined;
  if (onRows) {
    throw new ValidationError(
      "where",
      `where tests the records read, before per rolls them up into rows; ${onRows} is a field of the rows, which count_by, order_by and limit take.`,
      {
        hint: `E.g. count_by "${onRows === "types" ? 'types contains "Click Email"' : "records > 3"}" (each row true or false), or order_by "-records" with limit 10.`,
      },
    );
  }
  checkListedUse(spec, per);
  if (spec?.distinct !== undefined) {
    throw new ValidationError(
      "count_distinct",
      `per's rows are one per ${per.field} already: count_by counts them.`,
      {
        hint: `Leave count_distinct out: count_by "types" or "records" counts the rows (one per ${per.field}).`,
      },
    );
  }
  // where and join's fields are the records' (the first pass tests and joins them); the rest run over the rows.
  const { where: _where, join: _join, ...overRows } = spec ?? {};
  const rest = spec ? namedFields(overRows) : [];
  const carried = (field: string) => per.carry !== undefined && field.startsWith(`${per.carry}.`);
  const stray = rest.find(({ field }) => !own.includes(field) && !carried(field));
  if (stray) {
    // A row column per named with a bucket ("activityDate:day") is read as that bucket of a field unless quoted
    // (review s39, 4: refused as "activityDate is none of them" beside a list that names it).
    const column = own.find((name) => name.startsWith(`${stray.field}:`));
    throw new ValidationError(
      stray.input,
      `per's rows have only the fields ${own.join(", ")}: ${stray.field} is none of them (${stray.input} runs over the rows).`,
      {
        hint: column
          ? `Quote the rows' column to read it as is: ${stray.input} "\\"${column}\\"" (unquoted, ${column} is a bucket of ${stray.field}).`
          : `E.g. ${stray.input} "${own[1]}"; to ${stray.input} a field of the records, leave per out.`,
      },
    );
  }
}

/** The first listed field a condition compares with text holding " + ", or undefined. */
function joinedConditionField(expression: Expression, listed: readonly string[]): string | undefined {
  if (expression.kind === "and" || expression.kind === "or") {
    return expression.of.map((e) => joinedConditionField(e, listed)).find((f) => f !== undefined);
  }
  if (expression.kind === "not") return joinedConditionField(expression.of, listed);
  if (!listed.includes(expression.field)) return undefined;
  const texts =
    expression.kind === "compare"
      ? [expression.value]
      : expression.kind === "in"
        ? expression.values
        : expression.kind === "between"
          ? [expression.from, expression.to]
          : expression.kind === "match"
            ? [{ kind: "text" as const, value: expression.value }]
            : [];
  return texts.some((v) => v.kind === "text" && v.value.includes(SET_JOIN)) ? expression.field : undefined;
}

/**
 * A listed field's row value is its record values joined ("false + true"): where tests one record's value, before
 * the rows are made, so comparing it with a joined text matched nothing, silently (review s37, 5: "0 leads opened on
 * both" where 80 had); sum adds numbers, which joined text is not. Both refused before anything is read.
 */
function checkListedUse(spec: ComputeSpec | undefined, per: PerGroups): void {
  // A condition on a listed field whose text holds a joined value, in either quote (review s38, 9); a " + " in
  // another field's value ("Webinar + Demo") is no joined value (review s39, 7).
  const listed = spec?.where ? joinedConditionField(spec.where.expression, per.listed) : undefined;
  const joined = listed !== undefined;
  if (joined && listed) {
    throw new ValidationError(
      "where",
      `where tests each record's own value of ${listed}, before per lists the values of a row joined by "${SET_JOIN}": a joined value matches no record.`,
      {
        hint: `Count the rows by their values instead: count_by "${listed}" (a row per combination, e.g. "false + true").`,
      },
    );
  }
  // Each field a sum reads: a difference's two too (review s56, F2: "activityDate:day - lead.createdAt" read all first).
  const listedSum = spec ? sumFields(sumOfSpec(spec)).find((field) => per.listed.includes(field)) : undefined;
  if (listedSum !== undefined) {
    throw new ValidationError(
      "sum",
      `${listedSum} on per's rows is its values joined by "${SET_JOIN}", no one number or date.`,
      {
        hint: `Sum a number of the rows: "${listedCount(listedSum)}" (how many values) or "records"; to add ${listedSum} itself (or take a date's first and last), leave per out and count_by with sum.`,
      },
    );
  }
}

/** The clock per's date buckets are on, said as count_by's are (review s39, 3: neither zone nor UTC was said). */
function clockWords(input: MarketoApiCallInput, per: PerGroups): string {
  const dated = [...per.keys, ...per.listed].filter((name) => DATE_BUCKET.test(name));
  if (dated.length === 0) return "";
  return input.time_zone
    ? `; ${dated.join(", ")} on ${input.time_zone}'s clock`
    : `; ${dated.join(", ")} in UTC (time_zone names another zone)`;
}

/** A per name that is a date bucket ("activityDate:day"), not a band. */
const DATE_BUCKET = new RegExp(`:(?:${BUCKET_UNITS.join("|")})$`, "i");

/**
 * A listed field with many values on a row (a type's leads: 20,013 characters on one row; review s38, 14): said,
 * with the count that needs no list.
 */
function longLists(per: PerGroups): string {
  const most = per.mostListed;
  const long = per.listed.findIndex((_, i) => (most[i] ?? 0) > LONG_LIST);
  const name = per.listed[long];
  if (name === undefined) return "";
  const up = `; a row lists up to ${n(most[long] ?? 0)} values of ${name}`;
  // A bucket is no field count_distinct reads (review s39, 5): only said.
  if (perHead(name) !== name) return up;
  return `${up}: to count them without listing them, leave per out and count_by "${per.keys.join(",")}" with count_distinct "${name}"`;
}

/** More values than a row's list is read for: a count says more. */
const LONG_LIST = 100;

function perWords(input: MarketoApiCallInput, first: RecordCompute, per: PerGroups, noun: string): string {
  const where = first.spec.where
    ? `where ${echoed(input.where ?? "")}: ${n(first.matched)} of ${plural(first.read, noun)} match; `
    : "";
  const matching = first.spec.where ? "matching " : "";
  const without =
    per.without > 0
      ? `; ${plural(per.without, `${matching}${noun}`)} with no ${per.keys.join(" or no ")} ${per.without === 1 ? "is" : "are"} in none`
      : "";
  const fields = [
    `records (how many of the ${n(per.added)} ${matching}${noun}s have it)`,
    ...(per.listsTypes ? [`types (the activity types it has, joined by "${SET_JOIN}")`] : []),
    ...per.listed.map(
      (name) => `${name} (its distinct values, joined by "${SET_JOIN}"; ${listedCount(name)}, how many)`,
    ),
    ...(per.carry ? [`${per.carry} (its ${per.carry}'s fields)`] : []),
  ];
  const each = fields.length > 1 ? `${fields.slice(0, -1).join(", ")} and ${fields.at(-1)}` : fields[0];
  return `${where}per ${per.field}: ${plural(per.size, "row")}, one per ${per.field}, each with ${each}${without}${clockWords(input, per)}${longLists(per)}`;
}
