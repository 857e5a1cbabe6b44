/**
 * `per`: the records that match where, rolled up to one row per value of a field (a lead), so that count_by,
 * order_by, sum and limit answer questions of leads rather than of records: how many leads got 1, 2 or 3
 * emails (count_by "records"), which leads only visited the site, only clicked an email, or did both
 * (count_by "types" over activities). Trials s27 and s28: an agent read whole activity logs back to work these
 * out itself. Each row holds the field's value, `records` (how many of the matching records have it) and, when
 * a set field is named (an activity's type), `types`: its distinct values, sorted, joined by " + ".
 * Fields named after the first ("leadId,attributes.Is Mobile Device") are listed likewise, each under its own name,
 * with `<field>_count`, how many distinct values: who opened on both phone and computer, who opened 3 emails or more
 * (trial s31 N455: an agent read 775,697 characters of opens to work it out per lead).
 */
import { type Bucket, type BucketUnit, bucketNamed, cycleRank, namedReader } from "./buckets.js";
import { bucketedField, type NamedField } from "./fields.js";
import { type FieldReader, isEmpty, isObject, textOf } from "./values.js";

type Row = Record<string, unknown>;

/** How a set's values are joined in one text, which count_by counts and where tests (contains). */
export const SET_JOIN = " + ";

interface Group {
  /** The row's value of each of per's fields. */
  values: unknown[];
  records: number;
  set: Set<string>;
  /** The distinct values of each listed field, in the order the fields are named. */
  listed: Set<string>[];
  carried?: unknown;
}

/**
 * per's text split: the rows' field, then the fields whose distinct values each row lists. The rows' field may be
 * several joined by "&" ("primaryAttributeValue & leadId": a row per page and lead, trial s41 N580, where an agent
 * read 729,000 characters of visits to count each visitor's days per page): `keys` are its fields, `field` its text.
 */
export function perFields(per: string): { field: string; keys: string[]; listed: string[] } {
  // A name in double quotes is taken whole and without its quotes, commas inside it too, as where's and count_by's
  // quoted names are (review s39, 6: the quotes were kept and the field "not found" beside the same name).
  const [head = "", ...rest] = perParts(per).map((part) => part.trim());
  const keys = (head.match(/(?:"[^"]*"|[^&])+|(?<=^|&)(?=&|$)/g) ?? [""]).map(unquoted);
  const field = keys.join(" & ");
  const listed = rest.map(unquoted).filter((name) => name !== "" && !keys.includes(name));
  return { field, keys, listed: [...new Set(listed)] };
}

/** per's text split at its commas outside double quotes, as written (empty parts too). */
export const perParts = (per: string): string[] => per.match(/(?:"[^"]*"|[^,])+|(?<=^|,)(?=,|$)/g) ?? [""];

const unquoted = (part: string) => part.trim().replace(/^"([^"]*)"$/, "$1");

/**
 * Every record field per names, as the checks before a read take them (lead.<field>, next_hours: review s37, 3
 * and 4): a bucketed name's field ("activityDate:day" reads activityDate).
 */
export function perNamed(per: string | undefined): { input: string; field: string }[] {
  if (per === undefined) return [];
  const { keys, listed } = perFields(per);
  return [...keys, ...listed].map(perNamedField);
}

/** A per name as the unknown-field check takes it (review s41, 10: "leadId,activityDat:day" was offered "activityDate"). */
export const perNamedField = (name: string): NamedField => bucketedField("per", name, perHead(name));

/**
 * per's keys that are buckets, whose rows' labels are of them ("leadScore:25", "activityDate:weekday"), each key too:
 * a pair's bucket sorts and orders as one alone does (review s50, 2: "activityDate:weekday & activityType" came in
 * first-seen order, and order_by sorted its days as text).
 */
export function perBuckets(per: string): { keys: string[]; buckets: Bucket[] } {
  const { keys } = perFields(per);
  return { keys, buckets: keys.flatMap((key) => bucketOf(key) ?? []) };
}

/** A per name as the bucket it is ("activityDate:day"), or undefined for a plain field. */
const bucketOf = (name: string): Bucket | undefined => bucketNamed(name, "per");

/** The record field a per name reads: a bucketed name's head ("activityDate:day": activityDate). */
export const perHead = (name: string): string => bucketOf(name)?.field ?? name;

/**
 * A per name's reader: a path as count_by reads it, or count_by's date bucket or band of it ("activityDate:day"), on
 * the zone's clock, its refusals said of per (review s39, 9): how many distinct days each lead visited (trial s33
 * N481: refused, so the agent read 1,052,221 characters of visits to count days itself).
 */
const perReader = (name: string, zone: string | undefined): FieldReader => namedReader(name, zone, "per");

/**
 * A listed field's values in order: as numbers when all are (lead ids: 109 after 1077 read as text; review s37, 8);
 * a band or a cycle's labels by their place.
 */
function sortedValues(values: ReadonlySet<string>, unit?: BucketUnit): string[] {
  const all = [...values];
  // Bands by their low end, weekdays and hours in their cycle (review s39, 12: "100 to <110" before "20 to <30").
  if (unit !== undefined && all.every((value) => cycleRank(unit, value) !== undefined)) {
    return all.sort((a, b) => (cycleRank(unit, a) ?? 0) - (cycleRank(unit, b) ?? 0));
  }
  const numeric = all.every((value) => /^-?\d+(\.\d+)?$/.test(value));
  return numeric ? all.sort((a, b) => Number(a) - Number(b)) : all.sort();
}

/**
 * A listed field that holds a list or an object is no value to list (review s37, 8: "attributes" listed whole JSON);
 * a path inside it is: a name/value list's first name (attributes.Platform), or an object's first key.
 */
function containerOf(field: string, value: object): NonNullable<PerGroups["container"]> {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  const key =
    isObject(first) && typeof first.name === "string"
      ? first.name
      : isObject(first)
        ? Object.keys(first)[0]
        : undefined;
  return {
    field,
    what: Array.isArray(value) ? "lists" : "objects",
    example: key === undefined ? undefined : `${field}.${key}`,
  };
}

/** The row field that counts a listed field's distinct values. */
export const listedCount = (field: string): string => `${field}_count`;

export class PerGroups {
  readonly field: string;
  /** The fields a row is for: per's first name, or its names joined by "&". */
  readonly keys: readonly string[];
  /** Fields whose distinct values each row lists (per's names after the first). */
  readonly listed: readonly string[];
  readonly #listedReads: readonly FieldReader[];
  /** A listed field's bucket unit, when it is one: its labels sort by their place. */
  readonly #listedUnits: readonly (BucketUnit | undefined)[];
  readonly #setField: string | undefined;
  /** A field the same on every record of a row (the caller knows which), kept on the row. */
  readonly carry: string | undefined;
  /** As count_by reads each key: a dotted path into objects, name/value lists and JSON text (review s32, 3). */
  readonly #reads: readonly FieldReader[];
  readonly #groups = new Map<string, Group>();
  /** Matching records with no value in the field: in no row. */
  without = 0;
  /** Matching records rolled up. */
  added = 0;
  /** A listed field that holds lists or objects (the first met), and a value inside it a row can list. */
  container?: { field: string; what: "lists" | "objects"; example: string | undefined };

  /**
   * `setField`: a field whose distinct values each row lists as `types` (an activity's type); `carry`: a field the
   * same on every record of a row, kept on it (a lead's own fields on a row per lead: trial s30 N426, N427); `zone`,
   * the clock a bucketed field's dates are read on.
   */
  constructor(per: string, setField?: string, carry?: string, zone?: string) {
    const { field, keys, listed } = perFields(per);
    this.field = field;
    this.keys = keys;
    this.listed = listed;
    this.#listedReads = listed.map((name) => perReader(name, zone));
    this.#listedUnits = listed.map((name) => bucketOf(name)?.unit);
    this.#setField = setField;
    this.carry = carry;
    this.#reads = keys.map((key) => perReader(key, zone));
  }

  add(record: Readonly<Row>): void {
    const values = this.#reads.map((read) => read(record));
    if (values.some(isEmpty)) {
      this.without += 1;
      return;
    }
    this.added += 1;
    // One field's text as it was; several, as one text that keeps them apart (per runs on every record read).
    const key = values.length === 1 ? textOf(values[0]) : JSON.stringify(values.map(textOf));
    let group = this.#groups.get(key);
    if (!group) {
      group = { values, records: 0, set: new Set(), listed: this.listed.map(() => new Set<string>()) };
      this.#groups.set(key, group);
    }
    group.records += 1;
    if (this.carry !== undefined && group.carried === undefined) group.carried = record[this.carry];
    const member = this.#setField === undefined ? undefined : record[this.#setField];
    if (!isEmpty(member)) group.set.add(textOf(member));
    this.#listedReads.forEach((read, i) => {
      const listed = read(record);
      const name = this.listed[i] as string;
      if (typeof listed === "object" && listed !== null) this.container ??= containerOf(name, listed);
      else if (!isEmpty(listed)) group?.listed[i]?.add(textOf(listed));
    });
  }

  /** The fields of every row: the per field, records, types, the listed fields and their counts, the carried. */
  get rowFields(): string[] {
    return [
      ...this.keys,
      "records",
      ...(this.listsTypes ? ["types"] : []),
      ...this.listed.flatMap((name) => [name, listedCount(name)]),
      ...(this.carry ? [this.carry] : []),
    ];
  }

  /** Whether each row lists `types`. */
  get listsTypes(): boolean {
    return this.#setField !== undefined;
  }

  get size(): number {
    return this.#groups.size;
  }

  /** The most distinct values a row lists of each listed field, in the order the fields are named. */
  get mostListed(): number[] {
    // A loop, not Math.max(...rows): past about 125,000 rows the spread overflows the stack (review s39, 8).
    return this.listed.map((_, i) => {
      let most = 0;
      for (const group of this.#groups.values()) most = Math.max(most, group.listed[i]?.size ?? 0);
      return most;
    });
  }

  /** One row per value, in the order first seen. */
  rows(): Row[] {
    return [...this.#groups.values()].map((group) => ({
      ...Object.fromEntries(this.keys.map((key, i) => [key, group.values[i]])),
      records: group.records,
      ...(this.#setField === undefined ? {} : { types: [...group.set].sort().join(SET_JOIN) }),
      ...Object.fromEntries(
        this.listed.flatMap((name, i) => {
          const values = sortedValues(group.listed[i] ?? new Set(), this.#listedUnits[i]);
          // No value in any record of the row: null, which count_by counts as its own row ("no value").
          return [
            [name, values.length === 0 ? null : values.join(SET_JOIN)],
            [listedCount(name), values.length],
          ];
        }),
      ),
      ...(this.carry === undefined ? {} : { [this.carry]: group.carried ?? null }),
    }));
  }
}
