import { distance } from "fastest-levenshtein";
import { ValidationError } from "../../errors.js";

/** The field names records have, as they are read (first seen first). */
export class FieldsSeen {
  readonly #names = new Set<string>();

  add(record: Readonly<Record<string, unknown>>): void {
    for (const key of Object.keys(record)) this.#names.add(key);
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
  const ranked = closestFirst(unknown.field, seen.names);
  const list = ranked.slice(0, SHOWN).join(", ");
  const more = ranked.length > SHOWN ? ` and ${ranked.length - SHOWN} more` : "";
  const which = columns
    ? `the file has no column named ${unknown.field}; its columns are ${list}${more}`
    : records === 1
      ? `the one ${noun} read has no field named ${unknown.field}; it has ${list}${more}`
      : `none of the ${records.toLocaleString("en-US")} ${noun}s read has a field named ${unknown.field}; they have ${list}${more}`;
  throw new ValidationError(unknown.input, `${which} (closest first).`, {
    hint: `Use one of those names as written (names are case-sensitive), e.g. ${ranked[0]}.`,
    details: { field: unknown.input, unknown_field: unknown.field, fields: ranked.slice(0, 50) },
  });
}
