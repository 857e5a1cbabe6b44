/**
 * join: each record read gets `joined`, the row of a kept result whose columns equal the record's fields (or the
 * list of its rows, below), before where, order_by, count_by, per and limit see it. Trial s35 N522 ("our most active web visitors in each
 * program"): the agent read program members and each lead's visit count (per "leadId") as two kept results and
 * joined them in Python, 169,440 characters; with `join "<per's link> on id = leadId"` the members read is sorted
 * by `-joined.records` and cut with limit "2 per programId" in the step.
 *
 * The kept result is read whole (a cut one is refused, as where's in result(…) refuses it). When a key has several
 * rows (a lead on several lists), every record's joined is the list of its rows, which count_by counts row by row
 * (unnest.ts) and where tests for any: trial s36 N531 ("which email does each list's crowd open most", 69,816
 * characters joined by hand) is the opens read joined to the lists' members, count_by "joined.listId,
 * primaryAttributeValue".
 */
import { ValidationError } from "../../errors.js";
import { n, plural } from "../numbers-in-words.js";
import type { KeptResult } from "../types.js";
import { splitFieldList, unquoteField } from "./field-list.js";
import { isJoinedPath, JOINED, quotedField } from "./fields.js";
import { keptLinksIn, keptRows, type PathReader } from "./kept-lists.js";
import { type FieldReader, fieldReader, isEmpty, isObject, textOf } from "./values.js";

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

const EXAMPLE = 'join "martech-steps://results/<id>.json on id = leadId"';

/**
 * `<link> on <field>[ = <column>]`, the link bare or quoted, or inside result(…) as where writes it; quoted, it may
 * hold spaces, as a path's query does ("…activityTypeIds=Open Email", review s46, 6).
 */
const TERMS = /^\s*(?:result\s*\(\s*)?(?:(["'])([^"']+)\1|([^\s"')]+))\s*\)?\s+on\s+(.+?)\s*$/i;

export function joinTerms(text: string): JoinTerms {
  const match = TERMS.exec(text);
  const [fields = [], columns = fields, ...more] = (match?.[4] ?? "").split("=").map(names);
  if (!match || more.length > 0 || [...fields, ...columns].some((name) => name === "")) {
    throw new ValidationError(
      "join",
      `${JSON.stringify(text.slice(0, 80))} is not a kept result's link (or a GET path), "on", and a field.`,
      {
        hint: `Write the link of a Full result (or a GET path to read whole, quoted when it holds spaces), on, this read's field, = and its column: ${EXAMPLE}.`,
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
  return { link: (match[2] ?? match[3]) as string, fields, columns };
}

/** A side of "=": its comma-separated names, each bare or quoted. */
const names = (side: string): string[] =>
  (splitFieldList(side.trim()) ?? [""]).map((part) => unquoteField(part) ?? part);

/**
 * The key of a record's or row's values, or undefined when one is empty; `holdsObject` is told the first name
 * whose value is an object or list, which no single value equals (review s44, 6: it matched nothing, silently).
 */
function keyOf(
  readers: readonly FieldReader[],
  row: Readonly<Row>,
  holdsObject: (at: number) => never,
): string | undefined {
  const values = readers.map((read) => read(row));
  if (values.some(isEmpty)) return undefined;
  const at = values.findIndex((value) => typeof value === "object");
  if (at >= 0) holdsObject(at);
  return JSON.stringify(values.map(textOf));
}

/** Names as the summary writes them: "leadId, primaryAttributeValueId". */
const listed = (names: readonly string[]): string => names.map(quotedField).join(", ");

/** The kept rows by key; `several` when a key has more than one, so each record gets the list of its rows. */
interface KeptRows {
  byKey: Map<string, Row[]>;
  several: boolean;
  /** Rows with an empty value in a key column: no record's key equals them. */
  unkeyed: number;
  /** An object with every column the kept rows have: what paths under `joined` name (FieldsSeen). */
  shape: Row;
  /** What the words call the rows: "the kept result", or the path read for them and its count. */
  source: string;
  /** Calls spent reading a path for the rows (none for a kept result). */
  calls: number;
}

export class KeptJoin {
  readonly terms: JoinTerms;
  readonly rows: KeptRows;
  readonly #read: FieldReader[];
  readonly #done = new WeakSet<object>();
  /** Records joined, and those of them that had a row. */
  seen = 0;
  matched = 0;

  constructor(terms: JoinTerms, rows: KeptRows) {
    this.terms = terms;
    this.rows = rows;
    this.#read = terms.fields.map(fieldReader);
  }

  /** What the records' joined holds, as FieldsSeen learns it: a row, or a list of rows. */
  get shape(): Row {
    return { [JOINED]: this.rows.several ? [this.rows.shape] : this.rows.shape };
  }

  /** Adds the rows whose columns equal the record's fields, once however often the record is tested. */
  apply(record: Row): void {
    if (this.#done.has(record)) return;
    this.#done.add(record);
    this.seen += 1;
    const key = keyOf(this.#read, record, (at) => {
      const field = this.terms.fields[at] as string;
      throw new ValidationError(
        "join",
        `${field} holds objects or lists in the records read, which no value of ${this.rows.source} equals.`,
        {
          hint: `Name a field of single values, e.g. a path inside it: join "<link> on ${field}.<name> = ${this.terms.columns[at]}".`,
        },
      );
    });
    const rows = key === undefined ? undefined : this.rows.byKey.get(key);
    if (!rows) return;
    record[JOINED] = this.rows.several ? rows : rows[0];
    this.matched += 1;
  }

  /**
   * With a list of rows a record, a use that takes one value a record (order_by or limit per over records, per,
   * count_distinct) of a path in joined is refused for what it is (review s45, 4: "holds no object", and its hint
   * sorted by the lists' JSON text).
   */
  refuseOneValue(uses: readonly { input: string; field: string }[]): void {
    if (!this.rows.several) return;
    const use = uses.find(({ field }) => isJoinedPath(field));
    if (!use) return;
    const columns = listed(this.terms.columns);
    throw new ValidationError(
      use.input,
      `${use.field} is in joined, which holds a list of rows a record (${this.rows.source} has several rows for some ${columns}): ${use.input} takes one value a record.`,
      {
        hint: `Count each row with count_by "${use.field}" (where tests any row), or join a result with one row per ${columns} (per on the call that gave it).`,
      },
    );
  }

  /** The summary's sentence: how many records had a row, and what the others lack. */
  words(unit = "record"): string {
    const { fields, columns } = this.terms;
    const { byKey, several, unkeyed } = this.rows;
    const others = this.seen - this.matched;
    const kept = [...byKey.values()].reduce((sum, rows) => sum + rows.length, 0);
    const most = Math.max(0, ...[...byKey.values()].map((rows) => rows.length));
    return (
      `Joined on ${listed(fields)} = ${listed(columns)}: ${n(this.matched)} of ${plural(this.seen, unit)} read had a row of ${this.rows.source} (${plural(kept, "row")}${unkeyed > 0 ? `, and ${n(unkeyed)} with no value to join on` : ""})` +
      (several
        ? `; its ${listed(columns)} repeat, so ${JOINED} is the list of each one's rows (up to ${n(most)}): count_by "${JOINED}.<column>" counts each row; where keeps a record when one of its rows meets it (all its conditions on that row)`
        : "") +
      (others > 0
        ? `; the other ${n(others)} have no ${JOINED} (where "${JOINED} is empty" finds them).`
        : ".")
    );
  }
}

/**
 * The join of `text`: its kept result read whole (or, for a path, the read `readPath` makes of it), its rows by their
 * key columns' values.
 */
export async function keptJoin(
  text: string | undefined,
  kept: ((id: string) => Promise<KeptResult | undefined>) | undefined,
  readPath?: PathReader,
): Promise<KeptJoin | undefined> {
  if (text === undefined) return undefined;
  const terms = joinTerms(text);
  const { rows, shown, path } = await keptRows(terms.link, kept, "join", readPath);
  return joinOf(
    terms,
    rows,
    path
      ? { shown, source: shown, calls: path.calls }
      : { shown: `the kept result at ${shown}`, source: "the kept result", calls: 0 },
  );
}

/**
 * Every kept result a call's where, count_by and join name by link, looked up before any of their paths is read:
 * looking a link up costs no call, so one unknown, expired or cut is refused before calls are spent on a path
 * (review s48, 10: count_by's bad link was refused after where's path had taken 5 calls).
 */
export async function checkKeptLinks(
  texts: { where?: string | undefined; count_by?: string | undefined; join?: string | undefined },
  kept: ((id: string) => Promise<KeptResult | undefined>) | undefined,
): Promise<void> {
  for (const field of ["where", "count_by"] as const) {
    for (const link of keptLinksIn(texts[field])) await keptRows(link, kept, field);
  }
  const joined = texts.join === undefined ? undefined : joinTerms(texts.join).link;
  if (joined !== undefined && !joined.startsWith("/")) await keptRows(joined, kept, "join");
}

/** The rows by their key columns' values, refused when a key column has no values or holds objects. */
function joinOf(
  terms: JoinTerms,
  rows: readonly Row[],
  from: { shown: string; source: string; calls: number },
): KeptJoin {
  const { shown } = from;
  const read = terms.columns.map(fieldReader);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const single = columns.filter((column) =>
    rows.some((row) => !isEmpty(row[column]) && typeof row[column] !== "object"),
  );
  const missing = terms.columns.find((_, at) => !rows.some((row) => !isEmpty(read[at]?.(row))));
  if (missing !== undefined && rows.length > 0) {
    throw new ValidationError("join", `${shown} has no column ${missing} with values.`, {
      hint: `Name one of its columns in its place after "=": ${single.slice(0, 20).map(quotedField).join(", ")}.`,
    });
  }
  const byKey = new Map<string, Row[]>();
  let unkeyed = 0;
  for (const row of rows) {
    const key = keyOf(read, row, (at) => {
      const column = terms.columns[at] as string;
      throw new ValidationError(
        "join",
        `the column ${column} of ${from.source} holds objects or lists, not single values.`,
        {
          hint: `Name a column of single values after "=", e.g. a path inside it: ${column}.<name>; its columns of single values: ${single.slice(0, 20).map(quotedField).join(", ")}.`,
        },
      );
    });
    if (key === undefined) unkeyed += 1;
    else byKey.get(key)?.push(row) ?? byKey.set(key, [row]);
  }
  const several = [...byKey.values()].some((list) => list.length > 1);
  // Every column with a value it holds, so a path under joined is known before any record matched.
  const shape: Row = {};
  for (const row of rows)
    for (const [key, value] of Object.entries(row)) if (!(key in shape)) shape[key] = value;
  return new KeptJoin(terms, {
    byKey,
    several,
    unkeyed,
    shape,
    source: from.source,
    calls: from.calls,
  });
}

/**
 * A table's columns with joined after them when its rows have it: a file's columns are its own header (an export's
 * fields), which joined is not in, and its CSV left the join out while its JSON had it (review s44, 3).
 */
export function withJoinedColumn(
  columns: readonly string[] | undefined,
  items: readonly unknown[],
): readonly string[] | undefined {
  if (!columns || columns.includes(JOINED)) return columns;
  return items.some((item) => isObject(item) && Object.hasOwn(item, JOINED)) ? [...columns, JOINED] : columns;
}
