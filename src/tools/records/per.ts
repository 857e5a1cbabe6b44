/**
 * `per`: the records that match where, rolled up to one row per value of a field (a lead), so that count_by,
 * order_by, sum and limit answer questions of leads rather than of records: how many leads got 1, 2 or 3
 * emails (count_by "records"), which leads only visited the site, only clicked an email, or did both
 * (count_by "types" over activities). Trials s27 and s28: an agent read whole activity logs back to work these
 * out itself. Each row holds the field's value, `records` (how many of the matching records have it) and, when
 * a set field is named (an activity's type), `types`: its distinct values, sorted, joined by " + ".
 */
import { isEmpty, textOf } from "./values.js";

type Row = Record<string, unknown>;

/** How a set's values are joined in one text, which count_by counts and where tests (contains). */
export const SET_JOIN = " + ";

interface Group {
  value: unknown;
  records: number;
  set: Set<string>;
}

export class PerGroups {
  readonly field: string;
  readonly #setField: string | undefined;
  readonly #groups = new Map<string, Group>();
  /** Matching records with no value in the field: in no row. */
  without = 0;
  /** Matching records rolled up. */
  added = 0;

  /** `setField`: a field whose distinct values each row lists as `types` (an activity's type). */
  constructor(field: string, setField?: string) {
    this.field = field;
    this.#setField = setField;
  }

  add(record: Readonly<Row>): void {
    const value = valueAt(record, this.field);
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
    }));
  }
}

/** A dotted path's value (membership.progressionStatus), as where and count_by read it. */
function valueAt(record: Readonly<Row>, path: string): unknown {
  if (Object.hasOwn(record, path)) return record[path];
  let at: unknown = record;
  for (const part of path.split(".")) {
    if (!at || typeof at !== "object") return undefined;
    at = (at as Row)[part];
  }
  return at;
}
