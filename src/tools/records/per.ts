/**
 * `per`: the records that match where, rolled up to one row per value of a field (a lead), so that count_by,
 * order_by, sum and limit answer questions of leads rather than of records: how many leads got 1, 2 or 3
 * emails (count_by "records"), which leads only visited the site, only clicked an email, or did both
 * (count_by "types" over activities). Trials s27 and s28: an agent read whole activity logs back to work these
 * out itself. Each row holds the field's value, `records` (how many of the matching records have it) and, when
 * a set field is named (an activity's type), `types`: its distinct values, sorted, joined by " + ".
 */
import { type FieldReader, fieldReader, isEmpty, textOf } from "./values.js";

type Row = Record<string, unknown>;

/** How a set's values are joined in one text, which count_by counts and where tests (contains). */
export const SET_JOIN = " + ";

interface Group {
  value: unknown;
  records: number;
  set: Set<string>;
  carried?: unknown;
}

export class PerGroups {
  readonly field: string;
  readonly #setField: string | undefined;
  /** A field the same on every record of a row (the caller knows which), kept on the row. */
  readonly carry: string | undefined;
  /** As count_by reads the field: a dotted path into objects, name/value lists and JSON text (review s32, 3). */
  readonly #read: FieldReader;
  readonly #groups = new Map<string, Group>();
  /** Matching records with no value in the field: in no row. */
  without = 0;
  /** Matching records rolled up. */
  added = 0;

  /**
   * `setField`: a field whose distinct values each row lists as `types` (an activity's type); `carry`: a field the
   * same on every record of a row, kept on it (a lead's own fields on a row per lead: trial s30 N426, N427).
   */
  constructor(field: string, setField?: string, carry?: string) {
    this.field = field;
    this.#setField = setField;
    this.carry = carry;
    this.#read = fieldReader(field);
  }

  add(record: Readonly<Row>): void {
    const value = this.#read(record);
    if (isEmpty(value)) {
      this.without += 1;
      return;
    }
    this.added += 1;
    const key = textOf(value);
    let group = this.#groups.get(key);
    if (!group) {
      group = { value, records: 0, set: new Set() };
      this.#groups.set(key, group);
    }
    group.records += 1;
    if (this.carry !== undefined && group.carried === undefined) group.carried = record[this.carry];
    const member = this.#setField === undefined ? undefined : record[this.#setField];
    if (!isEmpty(member)) group.set.add(textOf(member));
  }

  /** Whether each row lists `types`. */
  get listsTypes(): boolean {
    return this.#setField !== undefined;
  }

  get size(): number {
    return this.#groups.size;
  }

  /** One row per value, in the order first seen. */
  rows(): Row[] {
    return [...this.#groups.values()].map((group) => ({
      [this.field]: group.value,
      records: group.records,
      ...(this.#setField === undefined ? {} : { types: [...group.set].sort().join(SET_JOIN) }),
      ...(this.carry === undefined ? {} : { [this.carry]: group.carried ?? null }),
    }));
  }
}
