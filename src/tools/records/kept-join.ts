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
import { splitFieldList, unquoteField } from "./field-list.js";
import { quotedField } from "./fields.js";
import { keptRows } from "./kept-lists.js";
import { type FieldReader, fieldReader, isEmpty, textOf } from "./values.js";

type Row = Record<string, unknown>;

/**
 * What join's text names: the kept result's link, this read's fields and the kept result's columns, as many (one
 * key, or several: "leadId,next.primaryAttributeValueId = leadId,primaryAttributeValueId", whether the next email
 * a lead was sent is one it opened, trial s35 N520).
 */
export interface JoinTerms {
  link: string;
  fields: string[];
  columns: string[];
}

/** The field records get. */
export const JOINED = "joined";

const EXAMPLE = 'join "martech-steps://results/<id>.json on id = leadId"';

/** `<link> on <field>[ = <column>]`, the link bare or quoted, or inside result(…) as where writes it. */
const TERMS = /^\s*(?:result\s*\(\s*)?(["']?)([^\s"')]+)\1\s*\)?\s+on\s+(.+?)\s*$/i;

export function joinTerms(text: string): JoinTerms {
  const match = TERMS.exec(text);
  const [fields = [], columns = fields, ...more] = (match?.[3] ?? "").split("=").map(names);
  if (!match || more.length > 0 || [...fields, ...columns].some((name) => name === "")) {
    throw new ValidationError(
      "join",
      `${JSON.stringify(text.slice(0, 80))} is not a kept result's link, "on", and a field.`,
      {
        hint: `Write the link of a Full result, on, this read's field, = and its column: ${EXAMPLE}.`,
      },
    );
  }
  if (fields.length !== columns.length) {
    throw new ValidationError(
      "join",
      `it names ${plural(fields.length, "field")} before "=" and ${plural(columns.length, "column")} after: each field is matched to the column in its place.`,
      {
        hint: 'Name as many on each side, e.g. "<link> on leadId,primaryAttributeValueId = leadId,primaryAttributeValueId".',
      },
    );
  }
  return { link: match[2] as string, fields, columns };
}

/** A side of "=": its comma-separated names, each bare or quoted. */
const names = (side: string): string[] =>
  (splitFieldList(side.trim()) ?? [""]).map((part) => unquoteField(part) ?? part);

/** The key of a record's or row's values, or undefined when one is empty or holds an object or list. */
function keyOf(readers: readonly FieldReader[], row: Readonly<Row>): string | undefined {
  const values = readers.map((read) => read(row));
  if (values.some((value) => isEmpty(value) || typeof value === "object")) return undefined;
  return JSON.stringify(values.map(textOf));
}

/** Names as the summary writes them: "leadId, primaryAttributeValueId". */
const listed = (names: readonly string[]): string => names.map(quotedField).join(", ");

export class KeptJoin {
  readonly terms: JoinTerms;
  /** An object with every column the kept rows have: what paths under `joined` name (FieldsSeen). */
  readonly shape: Row;
  readonly #rows: Map<string, Row>;
  readonly #read: FieldReader[];
  readonly #done = new WeakSet<object>();
  /** Records joined, and those of them that had a row. */
  seen = 0;
  matched = 0;

  constructor(terms: JoinTerms, rows: Map<string, Row>, shape: Row) {
    this.terms = terms;
    this.#rows = rows;
    this.shape = shape;
    this.#read = terms.fields.map(fieldReader);
  }

  /** Adds the row whose column equals the record's field, once however often the record is tested. */
  apply(record: Row): void {
    if (this.#done.has(record)) return;
    this.#done.add(record);
    this.seen += 1;
    const key = keyOf(this.#read, record);
    const row = key === undefined ? undefined : this.#rows.get(key);
    if (!row) return;
    record[JOINED] = row;
    this.matched += 1;
  }

  /** The summary's sentence: how many records had a row, and what the others lack. */
  words(): string {
    const { fields, columns } = this.terms;
    const others = this.seen - this.matched;
    return (
      `Joined on ${listed(fields)} = ${listed(columns)}: ${n(this.matched)} of ${plural(this.seen, "record")} read had a row of the kept result (${plural(this.#rows.size, "row")})` +
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
  const read = terms.columns.map(fieldReader);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const byKey = new Map<string, Row>();
  const repeated = new Set<string>();
  for (const row of rows) {
    const key = keyOf(read, row);
    if (key === undefined) continue;
    if (byKey.has(key)) repeated.add(key);
    else byKey.set(key, row);
  }
  const missing = terms.columns.find((_, at) => !rows.some((row) => keyOf([read[at] as FieldReader], row)));
  if (missing !== undefined && rows.length > 0) {
    throw new ValidationError(
      "join",
      `the kept result at ${shown} has no column ${missing} of single values.`,
      {
        hint: `Name one of its columns in its place after "=": ${columns.slice(0, 20).map(quotedField).join(", ")}.`,
      },
    );
  }
  const [first] = repeated;
  if (first !== undefined) {
    const values = (JSON.parse(first) as string[]).map(
      (value, at) => `${terms.columns[at]} ${JSON.stringify(value)}`,
    );
    const per = terms.columns.join(",");
    throw new ValidationError(
      "join",
      `the kept result has several rows of ${values.join(", ")}${repeated.size > 1 ? ` (and ${plural(repeated.size - 1, "more key")})` : ""}: a record would have several rows.`,
      {
        hint: `Join a result with one row per ${listed(terms.columns)}: run the call that gave it with ${terms.columns.length > 1 ? `count_by "${per}"` : `per "${per}" (or count_by "${per}")`} and join its link.`,
      },
    );
  }
  // Every column with a value it holds, so a path under joined is known before any record matched.
  const shape: Row = {};
  for (const row of rows)
    for (const [key, value] of Object.entries(row)) if (!(key in shape)) shape[key] = value;
  return new KeptJoin(terms, byKey, shape);
}
