import { ValidationError } from "../../errors.js";
import { type FieldReader, fieldReader, isEmpty, textOf } from "./values.js";

/**
 * The most distinct values (or combinations) count_by keeps: it holds one counter per value, so this is
 * what bounds its memory however many records it sees (a field with a value per record, such as email,
 * is refused past it).
 */
export const MAX_GROUPS = 100_000;

export interface Group {
  values: unknown[];
  count: number;
}

/** Counts records per value of one or more fields, in flat memory (one counter per distinct value). */
/** Called with a count_by field whose value is an object or a list, which is no one value to count. */
export type RefuseContainer = (field: string, value: object) => never;

export class Counter {
  readonly fields: readonly string[];
  readonly #readers: FieldReader[];
  readonly #refuse: RefuseContainer;
  readonly #groups = new Map<string, Group>();
  #total = 0;

  constructor(fields: readonly string[], refuse: RefuseContainer) {
    this.fields = fields;
    this.#readers = fields.map(fieldReader);
    this.#refuse = refuse;
  }

  get total(): number {
    return this.#total;
  }

  get size(): number {
    return this.#groups.size;
  }

  /** Numbers and their text (51 and "51") count as one value; an empty value (null, missing, "") as null. */
  add(record: Readonly<Record<string, unknown>>): void {
    const values = this.#readers.map((read, i) => {
      const value = read(record);
      if (isEmpty(value)) return null;
      // Grouping by a whole object's JSON gives about one group per record: refused with the paths inside it.
      if (typeof value === "object" && value !== null) this.#refuse(this.fields[i] as string, value);
      return value;
    });
    const key = JSON.stringify(values.map((value) => (value === null ? null : textOf(value))));
    const group = this.#groups.get(key);
    this.#total += 1;
    if (group) {
      group.count += 1;
      return;
    }
    if (this.#groups.size >= MAX_GROUPS) {
      throw new ValidationError(
        "count_by",
        `${this.fields.join(", ")} took more than ${MAX_GROUPS.toLocaleString("en-US")} distinct values: counting is for fields whose values repeat.`,
        {
          hint: "Count by a field with fewer values (a source, a type, a status), or narrow the records with where.",
        },
      );
    }
    this.#groups.set(key, { values, count: 1 });
  }

  /** One row per value: the count_by fields, then `count`. */
  rows(): Record<string, unknown>[] {
    return [...this.#groups.values()].map((group) => {
      const row: Record<string, unknown> = {};
      this.fields.forEach((field, i) => {
        row[field] = group.values[i];
      });
      row.count = group.count;
      return row;
    });
  }
}
