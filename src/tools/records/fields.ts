import { distance } from "fastest-levenshtein";
import { ValidationError } from "../../errors.js";
import { isObject } from "./values.js";

/** How deep the dotted paths into a record's objects go (describe's rest.name is two; members' membership.x too). */
const MAX_DEPTH = 4;

/**
 * The field names records have, as they are read (first seen first): each key, and the dotted path of each
 * key inside the records' objects ("membership.progressionStatus"), which where, order_by and count_by read.
 */
export class FieldsSeen {
  readonly #names = new Set<string>();
  /** The names whose values are objects: the paths inside them are what a test or a count reads. */
  readonly #objects = new Set<string>();

  add(record: Readonly<Record<string, unknown>>, prefix = "", depth = 1): void {
    for (const [key, value] of Object.entries(record)) {
      const name = prefix + key;
      this.#names.add(name);
      if (!isObject(value)) continue;
      this.#objects.add(name);
      if (depth < MAX_DEPTH) this.add(value, `${name}.`, depth + 1);
    }
  }

  /** Whether a name's values were objects. */
  holdsObjects(name: string): boolean {
    return this.#objects.has(name);
  }

  /** The dotted paths seen inside a field (its object's keys, and theirs). */
  under(name: string): string[] {
    return this.names.filter((candidate) => candidate.startsWith(`${name}.`));
  }

  addNames(names: readonly string[]): void {
    for (const name of names) this.#names.add(name);
  }

  has(name: string): boolean {
    return this.#names.has(name);
  }

  get names(): string[] {
    return [...this.#names];
  }
}

/** The candidates ordered by closeness to `name`: same letters first, then containing it, then by edit distance. */
export function closestFirst(name: string, candidates: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const score = (candidate: string) => {
    const lower = candidate.toLowerCase();
    if (lower === wanted) return -2;
    if (lower.includes(wanted) || wanted.includes(lower)) return -1 + distance(wanted, lower) / 1000;
    return distance(wanted, lower);
  };
  return [...candidates].sort((a, b) => score(a) - score(b) || a.localeCompare(b));
}

/** What names a field: the input it came in (where, order_by, count_by) and the name. */
export interface NamedField {
  input: string;
  field: string;
}

const SHOWN = 12;

/**
 * Refuses the first named field no record read has, with the fields they have (closest first). Nothing is
 * refused when no record was read, unless `columns` says the names are a file's columns, known before any row.
 */
export function checkFields(
  named: readonly NamedField[],
  seen: FieldsSeen,
  records: number,
  noun = "record",
  columns = false,
): void {
  if (records === 0 && !columns) return;
  const unknown = named.find(({ field }) => !seen.has(field));
  if (!unknown) return;
  // Fields holding objects go last: the paths inside them are what can be tested, sorted or counted.
  const closest = closestFirst(unknown.field, seen.names);
  const ranked = [
    ...closest.filter((name) => !seen.holdsObjects(name)),
    ...closest.filter((name) => seen.holdsObjects(name)),
  ].map(quotedField);
  const list = ranked.slice(0, SHOWN).join(", ");
  const more = ranked.length > SHOWN ? ` and ${ranked.length - SHOWN} more` : "";
  const which = columns
    ? `the file has no column named ${unknown.field}; its columns are ${list}${more}`
    : records === 1
      ? `the one ${noun} read has no field named ${unknown.field}; it has ${list}${more}`
      : `none of the ${records.toLocaleString("en-US")} ${noun}s read has a field named ${unknown.field}; they have ${list}${more}`;
  throw new ValidationError(unknown.input, `${which} (closest first).`, {
    hint: `Use one of those names as written (names are case-sensitive; a dotted path reaches into a record's objects; quote a name that has spaces), e.g. ${ranked[0]}.`,
    details: { field: unknown.input, unknown_field: unknown.field, fields: ranked.slice(0, 50) },
  });
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_:.]*$/;

/** A field name as where, order_by and count_by read it: as it is, or double-quoted when it has spaces or other characters. */
export function quotedField(name: string): string {
  return PLAIN.test(name) ? name : JSON.stringify(name);
}
