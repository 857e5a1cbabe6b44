/**
 * where, order_by and count_by over records as they are read: each record is seen once (`see`), tested and
 * counted on the spot, and only what the answer needs is kept — the matching records for where and
 * order_by (order_by sorts them at the end), nothing for count_by (one counter per value). So where and
 * count_by run in flat memory over any number of records; order_by holds the matching records, and its
 * caller bounds them (tools/marketo/compute-read.ts).
 */

import { expressionFields } from "../filter/ast.js";
import type { FilterSource } from "../filter/lexer.js";
import { parseExpression, RECORDS_DIALECT } from "../filter/parser.js";
import { type Bucket, bucketNamed, compareRows, gapRows, refuseBucketInWhere } from "./buckets.js";
import { type ComputeInput, type ComputeSpec, sumOfSpec } from "./compute-spec.js";
import { Counter } from "./count.js";
import {
  type CountCondition,
  countedFields,
  countFields,
  countOptions,
  refuseContainer,
  refuseStrayOrder,
  zeroColumns,
} from "./count-fields.js";
import {
  bucketedField,
  checkFields,
  expressionNamed,
  FieldsSeen,
  type NamedField,
  quotedField,
} from "./fields.js";
import { type Label, labelled } from "./labels.js";
import { eachOrder, limitExample, limitParts } from "./limit-each.js";
import { itemWise, type RecordTest, recordTest } from "./match.js";
import { parseSortKeys, type SortKey } from "./order.js";
import {
  columnsPart,
  type Pivot,
  pivotSortKeys,
  pivotTable,
  refusePivotOptions,
  rowsAtLeast,
} from "./pivot.js";
import { sumBesideDistinct } from "./pivot-refusals.js";
import type { Retained } from "./retained.js";
import { DIFFERENCE_DIGITS, refuseDateOrder, sumItems, tidySum } from "./sum.js";
import { sumFields } from "./sum-difference.js";
import { type Unnest, unnestFor } from "./unnest.js";
import { isEmpty, textOf } from "./values.js";

export type { ComputeInput, ComputeSpec };

/** Parses the three inputs (undefined when none is given); `hint` shows the where syntax with the records' names. */
export function computeSpec(
  input: ComputeInput,
  hint: string,
  /** count_by's conditions holding `in result(…)`, by their text as written: that text with the values in place. */
  expanded?: ReadonlyMap<string, string>,
): ComputeSpec | undefined {
  const spec: ComputeSpec = {};
  if (input.where !== undefined) {
    const at: FilterSource = { field: "where", hint };
    spec.where = { text: input.where, expression: parseExpression(input.where, at, RECORDS_DIALECT) };
    refuseBucketInWhere(spec.where.expression);
  }
  if (input.count_by !== undefined) {
    const pivot = columnsPart(input.count_by);
    const [buckets, conditions]: [Bucket[], CountCondition[]] = [[], []];
    spec.countBy = countFields(pivot.text, "count_by", buckets, conditions, expanded);
    if (buckets.length > 0) spec.buckets = buckets;
    // The columns' field goes last: the rows' first field is the one a date fill lists (gapRows).
    const columns =
      pivot.part === undefined ? undefined : countFields(pivot.part, "count_by", [], conditions, expanded)[0];
    if (conditions.length > 0) spec.conditions = conditions;
    if (expanded && expanded.size > 0) spec.keptConditions = expanded;
    if (columns !== undefined) spec.countBy = [...spec.countBy.filter((f) => f !== columns), columns];
    if (columns !== undefined) spec.columns = columns;
  }
  if (input.order_by !== undefined) {
    spec.order = spec.columns ? pivotSortKeys(input.order_by) : parseSortKeys(input.order_by);
  }
  Object.assign(spec, countOptions(input, spec.countBy));
  Object.assign(
    spec,
    limitParts(
      input.limit,
      spec.countBy?.filter((field) => field !== spec.columns),
      limitExample(spec.countBy),
    ),
  );
  refusePivotOptions(spec);
  if (spec.each && spec.countBy && !spec.order && !spec.columns) spec.order = eachOrder(spec.each);
  refuseStrayOrder(spec);
  if (Object.keys(spec).length === 0) return undefined;
  if (input.time_zone !== undefined) spec.zone = input.time_zone;
  return spec;
}

/** The fields the spec names, with the input each came in (for the unknown-field check). */
export function namedFields(spec: ComputeSpec): NamedField[] {
  return [
    // A path into a list's objects (costs.startDate) holds for a record when it holds for one item.
    ...(spec.where ? expressionNamed("where", spec.where.expression) : []),
    ...(spec.countBy ?? []).flatMap((column) => countedFields(spec, column)),
    ...(spec.distinct ? [distinctField(spec.distinct)] : []),
    // A sum's path may run through a list (costs.cost): it is checked against the paths into lists' objects too.
    ...sumFields(sumOfSpec(spec)).map((field) => ({ input: "sum", field, throughLists: true })),
    // With count_by, order_by sorts the counts (computeSpec checked its fields).
    ...(spec.countBy ? [] : (spec.order ?? []).map(({ field }) => ({ input: "order_by", field }))),
    ...(spec.countBy ? [] : (spec.each?.fields ?? []).map((field) => ({ input: "limit", field }))),
    ...(spec.reads ?? []),
    ...(spec.join?.terms.fields ?? []).map((field) => ({ input: "join", field })),
  ];
}

/** count_distinct's field as checked: a bucket's field, its suffix offered back on a misspelt one. */
const distinctField = (name: string): NamedField =>
  bucketedField("count_distinct", name, bucketNamed(name, "count_distinct")?.field ?? name);

type Row = Record<string, unknown>;

/** A row's count_by values as one key (an empty one as null). */
const valuesKey = (values: readonly unknown[]): string => JSON.stringify(values.map((v) => v ?? null));

export class RecordCompute {
  readonly spec: ComputeSpec;
  readonly fields = new FieldsSeen();
  readonly #test: RecordTest | undefined;
  readonly #counter: Counter | undefined;
  /** count_by through a list each record holds: its items are counted (unnest.ts). */
  readonly unnest: Unnest;
  readonly #expected: Row[] = [];
  /** The count rows' places in the answer, by their values (valuesKey), set by finish. */
  #rowOrder = new Map<string, number>();
  /** The names a dotted path reads inside: their name/value lists and JSON text are opened for the names seen. */
  readonly #enters: ReadonlySet<string>;
  /** Records seen. */
  read = 0;
  /** Records that match where (all of them without where). */
  matched = 0;
  /** Rows count_by added for expected values no record had (set by finish). */
  zeros = 0;
  /** Those values, as text ("Unsubscribe Email"; several fields joined by " / "), in the order asked for. */
  zeroValues: string[] = [];
  /** The count_by fields those values are of ("activityType"; "programId" for ids read in the path). */
  zeroFields: string[] = [];
  /** Date buckets between the first and last seen where no record fell, listed with 0 (set by finish). */
  gaps = 0;
  /** Set by finish when the buckets between the first and last seen were too many to list them all. */
  unfilled?: number;
  /** With a ":columns" field, the rows laid out (set by finish). */
  pivot?: Pivot;
  /** Columns finish adds beside count_by fields (label). */
  readonly labels: Label[] = [];

  constructor(spec: ComputeSpec) {
    this.spec = spec;
    this.#test = spec.where
      ? itemWise(recordTest(spec.where.expression, spec.zone), expressionFields(spec.where.expression))
      : undefined;
    this.#counter = spec.countBy
      ? new Counter(spec.countBy, (field, value) => this.#refuseContainer(field, value), {
          ignoreCase: spec.ignoreCase === true,
          ...(spec.distinct ? { distinct: spec.distinct } : {}),
          ...(spec.sum ? { sum: sumOfSpec(spec) } : {}),
          ...(spec.percentile !== undefined ? { percentile: spec.percentile } : {}),
          ...sumItems(sumOfSpec(spec), spec.where?.expression, this.#test),
          ...(spec.buckets ? { buckets: spec.buckets } : {}),
          ...(spec.conditions ? { conditions: spec.conditions } : {}),
          ...(spec.zone ? { zone: spec.zone } : {}),
        })
      : undefined;
    this.unnest = unnestFor(spec, this.#test);
    if (spec.join) this.fields.add(spec.join.shape);
    this.#enters = new Set(
      namedFields(spec).flatMap(({ field }) => {
        const parts = field.split(".");
        return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("."));
      }),
    );
  }

  /**
   * Values the caller asked for by name (a filter's list): with count_by over their field, each value no
   * record had still gets its row, with count 0, so a value asked for and never seen reads "0", not nothing.
   * Each is a partial row, e.g. { activityTypeId: 46, activityType: "Unsubscribe Email" }.
   */
  expectValues(values: readonly Row[]): void {
    this.#expected.push(...values);
  }

  /**
   * The distinct values of a count_by row field (not the columns' field) in the answer's rows: those counted
   * (at least min_count times) and those asked for, empty ones left out, as text. What a label is asked to read.
   */
  countedValues(field: string): string[] {
    const at = this.#counter?.fields.indexOf(field) ?? -1;
    if (at < 0 || field === this.spec.columns) return [];
    const values = [
      // With min_count, only the values kept are rows to label; a pivot keeps rows by their total, which its
      // cells under min_count make up (review s54, F1: a kept row's name went blank).
      ...(this.#counter?.groups(this.spec.columns ? undefined : this.spec.minCount) ?? []).map(
        (group) => group.values[at],
      ),
      ...this.#expected.map((row) => row[field]),
    ];
    return [...new Set(values.filter((v) => !isEmpty(v)).map(textOf))];
  }

  /** Adds a column beside a count_by row field to every count row (before finish). */
  label(label: Label): void {
    this.labels.push(label);
  }

  /** Sees one record read: true when the caller keeps it (it matches where, and nothing is counted instead). */
  see(record: Readonly<Row>): boolean {
    this.spec.join?.apply(record as Row);
    this.read += 1;
    this.fields.add(record, this.#enters);
    if (this.#test && !this.#test(record)) return false;
    this.matched += 1;
    if (this.#counter) {
      for (const counted of this.unnest.records(record)) this.#counter.add(counted);
      this.retained?.add(record);
      return false;
    }
    return true;
  }
  /** keep_counted: the records count_by counts, kept up to a size (retained.ts), set by the read before it runs. */
  retained: Retained | undefined;

  /** Whether `see` would keep the record (a file reader asks before it makes room for it); it adds only join's row. */
  keeps(record: Readonly<Row>): boolean {
    this.spec.join?.apply(record as Row);
    return !this.#counter && (!this.#test || this.#test(record));
  }

  /** Refuses a field no record read has, after the read. */
  check(): void {
    checkFields(namedFields(this.spec), this.fields, this.read);
  }

  /** A file's columns, known before its first row: a field none of them names is refused at once. */
  knowColumns(columns: readonly string[]): void {
    this.fields.addNames(columns);
    checkFields(namedFields(this.spec), this.fields, this.read, "record", true);
  }

  /** The answer's records: the kept ones sorted by order_by, or one row per value with its count. */
  finish(kept: Row[]): Row[] {
    this.check();
    if (this.#counter) {
      this.unnest.finish((record) => this.#counter?.add(record));
      // A value asked for and never seen reads 0, unless min_count keeps only values counted at least once.
      const zeros = this.spec.minCount === undefined ? this.#zeroRows(this.#counter.fields) : [];
      this.zeros = zeros.length;
      // Named, so nobody has to find the all-zero column to learn which value it was (trial s10, N58).
      const fields = this.#counter.fields;
      const filled = (row: Row) => fields.filter((field) => row[field] !== null && row[field] !== undefined);
      this.zeroValues = zeros.map((row) =>
        filled(row)
          .map((field) => textOf(row[field]))
          .join(" / "),
      );
      this.zeroFields = fields.filter((field) => zeros.some((row) => filled(row).includes(field)));
      const least = this.spec.columns ? undefined : this.spec.minCount;
      const counted = this.#counter.rows(least);
      if (this.spec.columns && this.spec.minCount !== undefined)
        this.#pivotKept = rowsAtLeast(this.spec, counted, this.spec.minCount);
      // Counted by date first: the buckets in date order, a gap listed with 0 (it is information).
      const first = this.spec.buckets?.find((bucket) => bucket.column === this.#counter?.fields[0]);
      const gaps = first && this.spec.minCount === undefined ? this.#gaps(counted) : [];
      this.gaps = gaps.length;
      const rows = [...counted, ...zeros, ...gaps];
      const dates = this.#counter.sumKind === "date";
      zeroColumns([...zeros, ...gaps], this.spec, dates);
      if (this.spec.ignoreCase) for (const row of gaps) row.spellings = 0;
      if (this.spec.columns) {
        if (!dates && this.spec.distinct && this.spec.sum) throw sumBesideDistinct(this.spec);
        const span = dates ? { dates: { zone: this.spec.zone } } : {};
        this.pivot = pivotTable(this.spec, counted, [...zeros, ...gaps], this.#pivotKept?.keep, span.dates);
        this.pivot.rows = this.pivot.rows.map((row) => labelled(row, this.labels));
        return this.pivot.rows;
      }
      const keys: SortKey[] = this.spec.order ?? (first ? [] : [{ field: "count", desc: true }]);
      if (dates) refuseDateOrder(this.spec.sum as string, keys);
      // Ties are ordered by the values, so the same counts always read the same way.
      const byValues = this.#counter.fields.map((field) => ({ field, desc: false }));
      rows.sort(compareRows([...keys, ...byValues], this.spec.buckets, this.spec.zone));
      this.#rowOrder = new Map(
        rows.map((row, i) => [valuesKey(this.#counter?.fields.map((f) => row[f]) ?? []), i]),
      );
      return this.labels.length > 0 ? rows.map((row) => labelled(row, this.labels)) : rows;
    }
    // Band and weekday labels by their place (review s39, 2: "75 to <100" sorted above "100 to <125" as text).
    return this.spec.order
      ? kept.sort(compareRows(this.spec.order, this.spec.labelled, this.spec.zone))
      : kept;
  }

  /** gapRows of the counted rows (none said when a span cannot be filled: unfilled). */
  #gaps(counted: readonly Row[]): Row[] {
    const gaps = gapRows(this.#counter?.fields ?? [], this.spec.buckets, counted);
    if (Array.isArray(gaps)) return gaps;
    this.unfilled = gaps.unfilled;
    return [];
  }

  /** A row of count 0 for each expected value that no counted row has (in the count_by fields it names). */
  #zeroRows(fields: readonly string[]): Row[] {
    const counted = this.#counter?.rows() ?? [];
    const zeros: Row[] = [];
    for (const expected of this.#expected) {
      const named = fields.filter((field) => Object.hasOwn(expected, field));
      if (named.length === 0) continue;
      const same = (row: Row) => named.every((field) => textOf(row[field]) === textOf(expected[field]));
      if (counted.some(same) || zeros.some(same)) continue;
      zeros.push({
        ...Object.fromEntries(fields.map((field) => [field, expected[field] ?? null])),
        count: 0,
      });
    }
    return zeros;
  }

  /** count_by on a field holding objects or lists: the paths inside it are what can be counted. */
  #refuseContainer(field: string, value: object): never {
    refuseContainer(field, value, this.fields.under(field).map(quotedField), this.fields.itemPaths(field));
  }

  /** Distinct values counted (count_by). */
  get groups(): number | undefined {
    return this.#counter?.size;
  }

  /** A pivot's min_count: its rows of that many records or more, which of the count rows are theirs. */
  #pivotKept: ReturnType<typeof rowsAtLeast> | undefined;

  /** With min_count: the values counted at least that often (a pivot's rows), and the records they hold. */
  get kept(): { groups: number; records: number } | undefined {
    const least = this.spec.minCount;
    if (this.spec.columns)
      return this.#pivotKept && { groups: this.#pivotKept.groups, records: this.#pivotKept.records };
    if (!this.#counter || least === undefined) return undefined;
    const groups = this.#counter.groups(least);
    return { groups: groups.length, records: groups.reduce((sum, group) => sum + group.records, 0) };
  }
  /** With sum: its field's values added over every record counted (none for dates, which are not added). */
  get sumTotal(): number | undefined {
    if (!this.spec.sum || this.#counter?.sumKind === "date") return undefined;
    const total = this.#counter?.groups().reduce((sum, group) => sum + group.sum, 0);
    if (total === undefined) return undefined;
    return tidySum(total, this.spec.difference ? DIFFERENCE_DIGITS : undefined);
  }
  /** With sum: each group's values and its records without a value of the sum's field (none: left out of its mean). */
  get sumEmpty(): { values: unknown[]; empty: number }[] | undefined {
    if (!this.spec.sum) return undefined;
    // In the table's order (review s54, F6: read order said "Open Email 757, Visit Webpage 2,586"); rows limit cut last.
    // Rows min_count left out after, most records first, as the table would have them (review s57, F9).
    const at = (values: unknown[]) => this.#rowOrder.get(valuesKey(values)) ?? Number.MAX_SAFE_INTEGER;
    return this.#counter
      ?.groups()
      .map((g) => ({ values: g.values, empty: g.records - (g.sums?.length ?? 0), records: g.records }))
      .sort((a, b) => at(a.values) - at(b.values) || b.records - a.records);
  }
  /** With sum of dates: the earliest and latest over every record counted. */
  get sumRange(): { min: unknown; max: unknown } | undefined {
    return this.#counter?.sumKind === "date" ? this.#counter.range() : undefined;
  }
  /** Counted through a list with a sum outside it: the records' own total, each record once (computed.records_sum). */
  get recordsSum(): number {
    return tidySum(this.unnest.recordsSum);
  }
  /** With count_distinct: the records counted whose field was empty (no value to count). */
  get distinctEmpty(): number | undefined {
    return this.spec.distinct ? (this.#counter?.distinctEmpty ?? 0) : undefined;
  }
  /** With count_distinct: its different values over every group. */
  get distinctOverall(): number | undefined {
    return this.#counter?.distinctOverall;
  }
  /** By two or more fields: each value of field `at` and its records (the first's: percent_in_'s), or distinct values. */
  fieldTotals(at: number): { value: unknown; count: number }[] | undefined {
    return this.#counter?.fieldTotals(at);
  }
  /** Ignoring case: the distinct spellings the values merge. */
  get spellings(): number | undefined {
    return this.#counter?.ignoreCase ? this.#counter.spellings : undefined;
  }
}
