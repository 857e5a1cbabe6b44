/**
 * join: each record read gets `joined`, the row of a kept result whose column equals one of the record's fields,
 * before where, order_by, count_by and limit see it. Trial s35 N522 ("our most active web visitors in each
 * program"): the agent read program members and each lead's visit count (per "leadId") as two kept results and
 * joined them in Python, 169,440 characters; with `join "<per's link> on id = leadId"` the members read is sorted
 * by `-joined.records` and cut with limit "2 per programId" in the step.
 *
 * The kept result is read whole (a cut one is refused, as where's in result(…) refuses it) and must hold one row
 * per key: a record with several would have to be read several times, which no other input does.
 */
import { ValidationError } from "../../errors.js";
import { n, plural } from "../numbers-in-words.js";
import type { KeptResult } from "../types.js";
import { unquoteField } from "./field-list.js";
import { quotedField } from "./fields.js";
import { keptRows } from "./kept-lists.js";
import { type FieldReader, fieldReader, isEmpty, textOf } from "./values.js";

type Row = Record<string, unknown>;

/** What join's text names: the kept result's link, this read's field and the kept result's column. */
export interface JoinTerms {
  link: string;
  field: string;
  column: string;
}

/** The field records get. */
export const JOINED = "joined";

const EXAMPLE = 'join "martech-steps://results/<id>.json on id = leadId"';

/** `<link> on <field>[ = <column>]`, the link bare or quoted, or inside result(…) as where writes it. */
const TERMS = /^\s*(?:result\s*\(\s*)?(["']?)([^\s"')]+)\1\s*\)?\s+on\s+(.+?)\s*$/i;

export function joinTerms(text: string): JoinTerms {
  const match = TERMS.exec(text);
  const [field = "", column = field] = (match?.[3] ?? "")
    .split("=")
    .map((part) => unquoteField(part.trim()) ?? part.trim());
  if (!match || field === "" || column === "") {
    throw new ValidationError(
      "join",
      `${JSON.stringify(text.slice(0, 80))} is not a kept result's link, "on", and a field.`,
      {
        hint: `Write the link of a Full result, on, this read's field, = and its column: ${EXAMPLE}.`,
      },
    );
  }
  return { link: match[2] as string, field, column };
}

export class KeptJoin {
  readonly terms: JoinTerms;
  /** An object with every column the kept rows have: what paths under `joined` name (FieldsSeen). */
  readonly shape: Row;
  readonly #rows: Map<string, Row>;
  readonly #read: FieldReader;
  readonly #done = new WeakSet<object>();
  /** Records joined, and those of them that had a row. */
  seen = 0;
  matched = 0;

  constructor(terms: JoinTerms, rows: Map<string, Row>, shape: Row) {
    this.terms = terms;
    this.#rows = rows;
    this.shape = shape;
    this.#read = fieldReader(terms.field);
  }

  /** Adds the row whose column equals the record's field, once however often the record is tested. */
  apply(record: Row): void {
    if (this.#done.has(record)) return;
    this.#done.add(record);
    this.seen += 1;
    const key = this.#read(record);
    const row = isEmpty(key) ? undefined : this.#rows.get(textOf(key));
    if (!row) return;
    record[JOINED] = row;
    this.matched += 1;
  }

  /** The summary's sentence: how many records had a row, and what the others lack. */
  words(): string {
    const { field, column } = this.terms;
    const others = this.seen - this.matched;
    return (
      `Joined on ${quotedField(field)} = ${quotedField(column)}: ${n(this.matched)} of ${plural(this.seen, "record")} read had a row of the kept result (${plural(this.#rows.size, "row")})` +
      (others > 0
        ? `; the other ${n(others)} have no ${JOINED} (where "${JOINED} is empty" finds them).`
        : ".")
    );
  }
}

/** The join of `text`: its kept result read whole, one row per value of its column. */
export async function keptJoin(
  text: string | undefined,
  kept: ((id: string) => Promise<KeptResult | undefined>) | undefined,
): Promise<KeptJoin | undefined> {
  if (text === undefined) return undefined;
  const terms = joinTerms(text);
  const { rows, shown } = await keptRows(terms.link, kept, "join");
  const read = fieldReader(terms.column);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const byKey = new Map<string, Row>();
  const repeated = new Set<string>();
  for (const row of rows) {
    const key = read(row);
    if (isEmpty(key) || (typeof key === "object" && key !== null)) continue;
    if (byKey.has(textOf(key))) repeated.add(textOf(key));
    else byKey.set(textOf(key), row);
  }
  if (byKey.size === 0 && rows.length > 0) {
    throw new ValidationError(
      "join",
      `the kept result at ${shown} has no column ${terms.column} of single values.`,
      {
        hint: `Name one of its columns after "=": ${columns.slice(0, 20).map(quotedField).join(", ")}, e.g. join "${shown} on ${terms.field} = ${columns[0] ?? "id"}".`,
      },
    );
  }
  const [first] = repeated;
  if (first !== undefined) {
    throw new ValidationError(
      "join",
      `the kept result's column ${terms.column} repeats ${JSON.stringify(first)}${repeated.size > 1 ? ` and ${n(repeated.size - 1)} more values` : ""}: a record would have several rows.`,
      {
        hint: `Join a result with one row per ${terms.column}: run the call that gave it with per "${terms.column}" (or count_by "${terms.column}") and join its link.`,
      },
    );
  }
  // Every column with a value it holds, so a path under joined is known before any record matched.
  const shape: Row = {};
  for (const row of rows)
    for (const [key, value] of Object.entries(row)) if (!(key in shape)) shape[key] = value;
  return new KeptJoin(terms, byKey, shape);
}
