import { ValidationError } from "../../errors.js";
import { namedReader } from "./buckets.js";
import { percentOf } from "./count-fields.js";
import { type CounterOptions, countReader } from "./count-readers.js";
import { dateAtPercentile, medianOf, percentileOf, type RankedDate } from "./middles.js";
import { DIFFERENCE_DIGITS, rankOf, recordSummed, type SumKind, type Summed, tidySum } from "./sum.js";
import { type SumOf, sumText } from "./sum-difference.js";
import { type FieldReader, isEmpty, textOf } from "./values.js";

/**
 * The most distinct values (or combinations) count_by keeps: it holds one counter per value, so this is
 * what bounds its memory however many records it sees (a field with a value per record, such as email,
 * is refused past it). Grouped ignoring case, it also bounds the distinct spellings held, so such a count is
 * refused exactly where the same count without it would be.
 */
export const MAX_GROUPS = 100_000;

/**
 * The most distinct values count_distinct holds over all groups (one per group and value, e.g. per email
 * and lead): what bounds its memory, as MAX_GROUPS bounds count_by's.
 */
export const MAX_DISTINCT = 1_000_000;

export interface Group {
  values: unknown[];
  /** The records counted, or with count_distinct the distinct values among them. */
  count: number;
  /** The records in the group. */
  records: number;
  /** With count_distinct: the distinct values seen in the group. */
  distinct?: Set<string>;
  /** Distinct spellings merged into the group (ignoring case): 1 when every record wrote it alike. */
  spellings: number;
  /** With sum: its field's values added over the group's records. */
  sum: number;
  /** With sum: the sum of each of the group's records that have a value of its field (the mean's and median's). */
  sums?: number[];
  /** With sum: the least and greatest value of the group's records (dates: the first and last). */
  min?: number | string;
  max?: number | string;
  /** With a sum of dates: every date read, for the median and a percentile. */
  dates?: RankedDate[];
}

/** Called with a count_by field whose value is an object or a list, which is no one value to count. */
export type RefuseContainer = (field: string, value: object) => never;

/** How a value reads for grouping ignoring case: outer spaces trimmed, lower case (locale-independent). */
export function foldedText(text: string): string {
  return text.trim().toLowerCase();
}

/** Counts records (or distinct values of a field) per value of one or more fields, one counter per value. */
export class Counter {
  readonly fields: readonly string[];
  /** Whether values are grouped ignoring case and outer spaces, each group shown as first read. */
  readonly ignoreCase: boolean;
  readonly #readers: FieldReader[];
  readonly #distinct: FieldReader | undefined;
  readonly #refuse: RefuseContainer;
  readonly #sum: SumOf | undefined;
  readonly #sumItems: CounterOptions["sumItems"];
  readonly #percentile: number | undefined;
  readonly #zone: string | undefined;
  readonly #groups = new Map<string, Group>();
  /** The fields that are conditions, by their place: each row has both true and false (#conditionZeros). */
  readonly #conditionAt: number[];
  /** Every distinct spelling seen (ignoring case only), to count what each group merges. */
  readonly #spellings = new Set<string>();
  #total = 0;
  #held = 0;
  /** With distinct: records whose field was empty, in no group's distinct count. */
  distinctEmpty = 0;
  /** With distinct: its values over every group, and by two or more fields, per each field's value (fieldTotals). */
  readonly #allDistinct = new Set<string>();
  readonly #fieldDistinct: Map<string, { value: unknown; seen: Set<string> }>[] = [];
  /** With sum: what its field holds, numbers or dates (dates are not added: their min and max are read). */
  sumKind: SumKind | undefined;

  constructor(fields: readonly string[], refuse: RefuseContainer, options: CounterOptions = {}) {
    this.fields = fields;
    this.ignoreCase = options.ignoreCase === true;
    this.#readers = fields.map((field) => countReader(field, options));
    // A bucket or band too: the distinct days a program's people joined on ("membership.membershipDate:day"; trial
    // s34 N510 was refused, and an agent read 63,564 characters for it).
    this.#distinct =
      options.distinct === undefined
        ? undefined
        : namedReader(options.distinct, options.zone, "count_distinct");
    this.#refuse = refuse;
    this.#sum = options.sum;
    this.#sumItems = options.sumItems;
    this.#percentile = options.percentile;
    this.#zone = options.zone;
    this.#conditionAt = fields.flatMap((field, i) =>
      options.conditions?.some((condition) => condition.column === field) ? [i] : [],
    );
  }

  get total(): number {
    return this.#total;
  }

  get size(): number {
    return this.#groups.size;
  }

  /** Distinct spellings counted (ignoring case; without it, each value is its one spelling). */
  get spellings(): number {
    return this.ignoreCase ? this.#spellings.size : this.#groups.size;
  }

  /**
   * Numbers and their text (51 and "51") count as one value; an empty value (null, missing, "") as null, and
   * ignoring case, text of spaces only too (a spelling of its own, merged into the empty group).
   */
  add(record: Readonly<Record<string, unknown>>): void {
    const values = this.#readers.map((read, i) => {
      const value = read(record);
      if (isEmpty(value)) return null;
      // Grouping by a whole object's JSON gives about one group per record: refused with the paths inside it.
      if (typeof value === "object" && value !== null) this.#refuse(this.fields[i] as string, value);
      return value;
    });
    const texts = values.map((value) => (value === null ? null : textOf(value)));
    const spelling = JSON.stringify(texts);
    const folded = this.ignoreCase
      ? texts.map((text) => (text === null ? null : foldedText(text) || null))
      : texts;
    const key = this.ignoreCase ? JSON.stringify(folded) : spelling;
    const group = this.#groups.get(key);
    const newSpelling = this.ignoreCase && !this.#spellings.has(spelling);
    if (!group) this.#checkRoom(this.#groups.size, "distinct values");
    if (newSpelling) this.#checkRoom(this.#spellings.size, "distinct spellings");
    if (newSpelling) this.#spellings.add(spelling);
    // Summed before it is counted: a value that is no number refuses the call, and counts nothing.
    const summed =
      this.#sum === undefined ? undefined : recordSummed(record, this.#sum, this.#sumItems, this.#zone);
    if (summed) this.#checkKind(summed);
    const sum = summed?.sum ?? 0;
    const valued = summed !== undefined && summed.values > 0;
    this.#total += 1;
    const distinct = this.#distinctText(record);
    if (group) {
      group.records += 1;
      group.sum += sum;
      if (valued) {
        group.sums ??= [];
        group.sums.push(sum);
        if (summed.dates) {
          group.dates ??= [];
          group.dates.push(...summed.dates);
        }
        extend(group, summed, this.#zone);
      }
      if (newSpelling) group.spellings += 1;
      this.#countIn(group, distinct);
      this.#countOver(group, distinct);
      return;
    }
    // Ignoring case, text of spaces only is empty: its group shows null, as "" does.
    const shown = values.map((value, i) => (folded[i] === null ? null : value));
    const added: Group = {
      values: shown,
      count: 0,
      records: 1,
      spellings: 1,
      sum,
      ...(valued ? { sums: [sum], min: summed.min, max: summed.max } : {}),
      ...(summed?.dates ? { dates: [...summed.dates] } : {}),
    };
    if (this.#distinct) added.distinct = new Set();
    this.#countIn(added, distinct);
    this.#countOver(added, distinct);
    this.#groups.set(key, added);
  }

  /**
   * With distinct: the value over all groups and, by two or more fields, in each field's value's own set, so the
   * summary gives the distinct leads of each industry and of all (trial s42, N590: two calls more for them, which
   * the rows cannot add up to, a lead being in several).
   */
  #countOver(group: Group, distinct: string | null | undefined): void {
    if (distinct === undefined || distinct === null) return;
    this.#allDistinct.add(distinct);
    if (this.fields.length < 2) return;
    this.fields.forEach((_, at) => {
      const byValue = this.#fieldDistinct[at] ?? new Map<string, { value: unknown; seen: Set<string> }>();
      this.#fieldDistinct[at] = byValue;
      const key = this.#valueKey(group, at);
      const entry = byValue.get(key) ?? { value: group.values[at], seen: new Set<string>() };
      entry.seen.add(distinct);
      byValue.set(key, entry);
    });
  }

  /** With distinct: its different values over every group (the groups' counts overlap and add to no whole). */
  get distinctOverall(): number | undefined {
    return this.#distinct ? this.#allDistinct.size : undefined;
  }

  /** With sum: numbers or dates, as its first value read; a field of both is refused, as no one sum or range. */
  #checkKind(summed: Summed): void {
    if (summed.kind === undefined) return;
    if (this.sumKind === undefined) this.sumKind = summed.kind;
    if (summed.kind === this.sumKind) return;
    throw new ValidationError(
      "sum",
      `${sumText(this.#sum ?? "")} holds both numbers and dates (${JSON.stringify(summed.min)}): sum takes a field of one kind.`,
      {
        hint: `Sum a field whose values are all numbers or all dates, or count by ${sumText(this.#sum ?? "")} instead.`,
      },
    );
  }

  /** With sum: the least and greatest value over every group. */
  range(): { min: unknown; max: unknown } {
    const all: Group = { values: [], count: 0, records: 0, spellings: 0, sum: 0 };
    for (const group of this.#groups.values()) extend(all, group, this.#zone);
    return { min: all.min ?? null, max: all.max ?? null };
  }

  /** The count_distinct field's value as compared (undefined without count_distinct, null when empty). */
  #distinctText(record: Readonly<Record<string, unknown>>): string | null | undefined {
    if (!this.#distinct) return undefined;
    const value = this.#distinct(record);
    if (isEmpty(value)) return null;
    const text = textOf(value);
    return this.ignoreCase ? foldedText(text) || null : text;
  }

  #countIn(group: Group, distinct: string | null | undefined): void {
    if (distinct === undefined || !group.distinct) {
      group.count += 1;
      return;
    }
    if (distinct === null) {
      this.distinctEmpty += 1;
      return;
    }
    if (group.distinct.has(distinct)) return;
    if (this.#held >= MAX_DISTINCT) {
      throw new ValidationError(
        "count_distinct",
        `more than ${MAX_DISTINCT.toLocaleString("en-US")} distinct values over all groups: counting distinct values is for fields that repeat within a group.`,
        { hint: "Narrow the records with where (or a shorter date range), or count by fewer fields." },
      );
    }
    this.#held += 1;
    group.distinct.add(distinct);
    group.count = group.distinct.size;
  }

  #checkRoom(held: number, what: string): void {
    if (held < MAX_GROUPS) return;
    throw new ValidationError(
      "count_by",
      `${this.fields.join(", ")} took more than ${MAX_GROUPS.toLocaleString("en-US")} ${what}: counting is for fields whose values repeat.`,
      {
        hint: "Count by a field with fewer values (a source, a type, a status), or narrow the records with where.",
      },
    );
  }

  /** How a group's value of field `at` is keyed among that field's totals (as the groups merge it). */
  #valueKey(group: Group, at: number): string {
    const value = group.values[at];
    if (value === null || value === undefined) return "";
    const text = textOf(value);
    return `=${this.ignoreCase ? foldedText(text) : text}`;
  }

  /** By two or more fields (not distinct): the records of each first value, over every group. */
  #firstValueTotals(): Map<string, number> | undefined {
    const totals = this.#distinct ? undefined : this.fieldTotals(0);
    return totals && new Map(totals.map((total) => [total.key, total.count]));
  }

  /**
   * By two or more fields (not distinct): each value of field `at` (as first read) and its records over every
   * group, in order read; the first field's are what percent_in_ divides by.
   */
  fieldTotals(at: number): { key: string; value: unknown; count: number }[] | undefined {
    if (this.fields.length < 2 || at >= this.fields.length) return undefined;
    // With distinct: each value's distinct values over every group, which its rows cannot add up to.
    if (this.#distinct)
      return [...(this.#fieldDistinct[at] ?? new Map()).entries()].map(([key, entry]) => ({
        key,
        value: entry.value,
        count: entry.seen.size,
      }));
    const totals = new Map<string, { key: string; value: unknown; count: number }>();
    for (const group of this.#groups.values()) {
      const key = this.#valueKey(group, at);
      const total = totals.get(key) ?? { key, value: group.values[at], count: 0 };
      total.count += group.count;
      totals.set(key, total);
    }
    return [...totals.values()];
  }

  /** A group's key as add() makes it, from its values. */
  #keyOf(values: readonly unknown[]): string {
    const texts = values.map((value) => (value === null || value === undefined ? null : textOf(value)));
    const folded = texts.map((text) => (text === null ? null : foldedText(text) || null));
    return JSON.stringify(this.ignoreCase ? folded : texts);
  }

  /**
   * With a condition among the fields: beside each group, the group with the condition's other value, counted
   * 0, where no record had it, so "how many are X, how many not" never loses its 0 (review s25, finding 5).
   */
  #conditionZeros(): Group[] {
    const zeros = new Map<string, Group>();
    // Each flip of each condition, of the groups counted and of those added (two conditions: all four pairs).
    const queue = [...this.#groups.values()];
    for (let at = 0; at < queue.length; at += 1) {
      const next = queue[at] as Group;
      for (const place of this.#conditionAt) {
        const values = next.values.map((value, i) => (i === place ? value !== true : value));
        const key = this.#keyOf(values);
        if (this.#groups.has(key) || zeros.has(key)) continue;
        const zero = { values, count: 0, records: 0, spellings: 0, sum: 0 };
        zeros.set(key, zero);
        queue.push(zero);
      }
    }
    return [...zeros.values()];
  }

  /** The groups counted at least `least` times, in the order first read. */
  groups(least?: number): Group[] {
    const all = [...this.#groups.values()];
    return least === undefined ? all : all.filter((group) => group.count >= least);
  }

  /** One row per value counted at least `least` times: the count_by fields and countColumnNames' columns. */
  rows(least?: number): Record<string, unknown>[] {
    const first = this.#firstValueTotals();
    const groups = least === undefined ? [...this.groups(), ...this.#conditionZeros()] : this.groups(least);
    return groups.map((group) => {
      const row: Record<string, unknown> = {};
      this.fields.forEach((field, i) => {
        row[field] = group.values[i];
      });
      row.count = group.count;
      if (!this.#distinct) row.percent = percentOf(group.count, this.#total);
      if (first)
        row[`percent_in_${this.fields[0]}`] = percentOf(
          group.count,
          first.get(this.#valueKey(group, 0)) ?? 0,
        );
      if (this.#sum !== undefined) {
        row.sum = tidySum(group.sum, typeof this.#sum === "string" ? undefined : DIFFERENCE_DIGITS);
        // "Average lead score by source": the sum over the records that have a value (trial s24, N299).
        const valued = group.sums?.length ?? 0;
        row.mean = valued ? Math.round((group.sum / valued) * 100) / 100 : null;
        // "Median order value by channel": a model sorted 31,000 characters of per-value counts (trial s26, N352).
        row.median = medianOf(group.sums ?? []);
        const p = this.#percentile;
        if (p !== undefined) row[`p${p}`] = percentileOf(group.sums ?? [], p);
        if (this.sumKind === "date") {
          // Dates are not added; their median and percentile are the dates at those ranks (middles.ts).
          Object.assign(row, { sum: null, mean: null, median: dateAtPercentile(group.dates ?? [], 50) });
          if (p !== undefined) row[`p${p}`] = dateAtPercentile(group.dates ?? [], p);
        }
        row.min = group.min ?? null;
        row.max = group.max ?? null;
      }
      if (this.#distinct) row.records = group.records;
      if (this.ignoreCase) row.spellings = group.spellings;
      return row;
    });
  }
}

/** A group's min and max widened by a record's. */
function extend(group: Group, summed: Pick<Summed, "min" | "max">, zone: string | undefined): void {
  const rank = (value: number | string) => rankOf(value, zone);
  if (summed.min !== undefined && (group.min === undefined || rank(summed.min) < rank(group.min)))
    group.min = summed.min;
  if (summed.max !== undefined && (group.max === undefined || rank(summed.max) > rank(group.max)))
    group.max = summed.max;
}
