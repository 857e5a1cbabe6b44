/**
 * where's `<field> [not] in result("<a kept result's link>"[, "<column>"])`: the values of a column of a result kept
 * earlier (default: the field's own name), so that a set question is answered without reading the set back. Trial
 * s32 N458 ("people on no static list and in no program"): both agents read the members of 10 lists and 30
 * programs whole (89,000 and 213,000 characters) to compare ids in Python; with the lists' and the programs' rows
 * kept, a lead export with where `id not in result(…) and id not in result(…)` answers in one call.
 *
 * The reference is replaced by the literal list before where is parsed; the answer's words keep the text as given.
 */
import { ValidationError } from "../../errors.js";
import { parseExpression, RECORDS_DIALECT } from "../filter/parser.js";
import type { KeptResult } from "../types.js";
import { splitFieldList } from "./field-list.js";
import { SET_JOIN } from "./per.js";
import { fieldReader, isObject } from "./values.js";

/** Where a reference starts: a field (bare or double-quoted), "not"?, "in result(", in any case. */
const OPENING = /([A-Za-z_][\w.]*|"[^"]+")(\s+not)?\s+in\s+result\s*\(/i;

/**
 * A whole reference: its opening, the link and a column, each in either quote and holding no quote or ")": a slip
 * (a stray comma, a missing ")", quotes that do not pair) ran on to the next reference and read the two as one,
 * answering another set with its "not" lost (review s39, 1: 22 of 220 where 55 matched).
 */
const REFERENCE = new RegExp(
  `${OPENING.source}\\s*(["'])([^"')]+)\\3\\s*(?:,\\s*(["'])([^"')]+)\\5\\s*)?\\)`,
  "gi",
);

/**
 * A kept result's id in its link: martech-steps://results/<id>.json, .csv, ?page=…; the console's
 * …/console/api/results/<id>/pages/<n> and …/download/<format> (src/console/result-files.ts; review s38, 10).
 */
const RESULT_ID = /results\/([A-Za-z0-9_-]+)(?:\.(?:json|csv)|\/pages\/\d+|\/download\/\w+)?(?:\?\S*)?$/;

type KeptItems = (id: string) => Promise<KeptResult | undefined>;

/**
 * A read made for where's result(…) or join when its text names a GET path of the same service instead of a kept
 * result's link: the rows, what the words call them ("GET /rest/v1/…, read whole in 1 call") and the calls it
 * spent. Trial s37 N546: an agent printed 198 members whole (43,000 characters), a call of its own, only to have
 * a link to join; the service's own step reads the path whole and hands its rows here.
 */
export interface PathRead {
  rows: Record<string, unknown>[];
  source: string;
  calls: number;
}

export type PathReader = (path: string) => Promise<PathRead>;

/**
 * count_by's conditions that hold `in result(…)` ("id in result(\"<link>\")" counts true and false in one call: trial
 * s39 N558 counted the quiet members and the returners of each list in two calls, the first refused): each such
 * part as written, without a ":columns" mark, beside its text with the values in place. The part as written names
 * its column (shortened: conditionColumn), which the values, thousands of ids, would not fit.
 */
export async function keptConditions(
  countBy: string | undefined,
  kept: KeptItems | undefined,
  readPath?: PathReader,
): Promise<Map<string, string> | undefined> {
  if (countBy === undefined || !/result\s*\(/i.test(countBy)) return undefined;
  const expanded = new Map<string, string>();
  for (const part of splitFieldList(countBy) ?? []) {
    const bare = part.replace(COLUMNS_MARK, "");
    const values = await keptLists(bare, kept, readPath, "count_by");
    if (values !== undefined) expanded.set(bare, values);
  }
  return expanded.size > 0 ? expanded : undefined;
}

/**
 * count_by's parts that hold `in result(…)`, each as written beside its text held (heldPlaces), for the check before
 * anything is read: a syntax error is then placed and quoted in the part as given (review s48, 9: the held list's
 * zeros were quoted, "near "> 5 and id in (00000"").
 */
export function heldConditions(countBy: string | undefined): Map<string, string> | undefined {
  if (countBy === undefined || !/result\s*\(/i.test(countBy)) return undefined;
  const held = new Map<string, string>();
  for (const part of splitFieldList(countBy) ?? []) {
    const bare = part.replace(COLUMNS_MARK, "");
    const places = heldPlaces(bare, "count_by");
    if (places !== undefined) held.set(bare, places);
  }
  return held.size > 0 ? held : undefined;
}

/** A pivot's mark after a count_by part (pivot.ts's COLUMNS). */
const COLUMNS_MARK = /\s*:\s*columns$/i;

/**
 * where with each `in result(…)` held by a list of the same length (`id in (0000…)`), so that where is parsed, and
 * its syntax errors placed, as given: the expanded text put them thousands of characters on (review s38, 7:
 * "position 12916" in a where of 94). Undefined when where has none.
 */
export function heldPlaces(where: string | undefined, input = "where"): string | undefined {
  if (where === undefined) return undefined;
  let held = "";
  let from = 0;
  for (const reference of referencesIn(where)) {
    const [whole, field = "", not = ""] = reference;
    const opening = `${field}${not} in (`;
    held += `${where.slice(from, reference.index)}${opening}${"0".repeat(Math.max(1, whole.length - opening.length - 1))})`;
    from = reference.index + whole.length;
  }
  held += where.slice(from);
  // An opening no whole reference follows, outside quoted values: said where it is, in the where as given (review
  // s39, 10).
  const inside = quotedAt(held);
  const open = [...held.matchAll(new RegExp(OPENING.source, "gi"))].find((match) => !inside[match.index]);
  if (open) {
    const at = slipAt(where, open.index + open[0].length);
    throw new ValidationError(
      input,
      `in result( is not followed by "<link>") or "<link>", "<column>") at position ${at + 1} (near ${JSON.stringify(where.slice(at, at + 20))}).`,
      {
        hint: 'Write it as id in result("martech-steps://results/<id>.json"), or with the column: id in result("<link>", "id").',
      },
    );
  }
  return held === where ? undefined : held;
}

/**
 * Where a reference opened at `start` (just after "result(") first leaves its shape, a quoted link, then a comma and a
 * quoted column or nothing, then ")": the slip itself, not the link's start (review s40, 6).
 */
function slipAt(where: string, start: number): number {
  let at = start;
  const space = () => {
    while (/\s/.test(where[at] ?? "")) at += 1;
  };
  for (const part of ["link", "column"]) {
    space();
    const quote = where[at];
    if (quote !== '"' && quote !== "'") return at;
    const end = where.slice(at + 1).search(/["')]/);
    if (end < 0 || where[at + 1 + end] !== quote) return end < 0 ? where.length : at + 1 + end;
    at += end + 2;
    space();
    if (where[at] !== "," || part === "column") return at;
    at += 1;
  }
  return at;
}

/**
 * where parsed with its references held (heldPlaces), before any kept result is read: a syntax error is placed and
 * quoted in the where as given (review s39, 11: the held list's zeros were quoted).
 */
export function checkHeldWhere(where: string | undefined, hint: string): void {
  const held = heldPlaces(where);
  if (held !== undefined) parseExpression(held, { field: "where", hint, written: where }, RECORDS_DIALECT);
}

/** where (or a count_by condition) with each `in result(…)` replaced by its values, or undefined when it has none. */
export async function keptLists(
  where: string | undefined,
  kept: KeptItems | undefined,
  readPath?: PathReader,
  input = "where",
): Promise<string | undefined> {
  if (where === undefined || !/result\s*\(/i.test(where)) return undefined;
  const references = referencesIn(where);
  if (references.length === 0) return undefined;
  let out = "";
  let from = 0;
  for (const reference of references) {
    const [whole, field = "", not = "", , link = "", , column] = reference;
    const name = column ?? field.replace(/^"|"$/g, "");
    const values = await columnValues(link, name, kept, readPath, input);
    // No value: nothing is in it ("in" keeps no record, "not in" every one), said as a condition that holds so.
    const condition =
      values.length > 0
        ? `${field}${not} in (${values.join(", ")})`
        : not
          ? `(${field} is empty or ${field} is not empty)`
          : `(${field} is empty and ${field} is not empty)`;
    // Spliced at the reference's own place: not the same text earlier inside a quoted value, and no "$" pattern
    // of String.replace (review s38, 2: "US$$5" became "US$5").
    out += where.slice(from, reference.index) + condition;
    from = reference.index + whole.length;
  }
  return out + where.slice(from);
}

/**
 * Where a where's text is inside a quoted value, index by index: a reference there is the value's text, not a
 * reference (review s40, 3: email contains "x in result(" was refused, or read a link made of the where's words).
 */
function quotedAt(where: string): boolean[] {
  const inside: boolean[] = [];
  let quote: string | undefined;
  for (let i = 0; i < where.length; i += 1) {
    inside.push(quote !== undefined);
    const c = where[i];
    if (quote !== undefined && c === "\\") {
      inside.push(true);
      i += 1;
    } else if (quote !== undefined && c === quote) quote = undefined;
    else if (quote === undefined && (c === '"' || c === "'")) quote = c;
  }
  return inside;
}

/** The references of a where that are not inside a quoted value (a quoted field name opens one: it is outside). */
function referencesIn(where: string): RegExpExecArray[] {
  const inside = quotedAt(where);
  return [...where.matchAll(REFERENCE)].filter((match) => !inside[match.index]);
}

/** The links (not paths) a where's or count_by's `in result(…)` references name, in order. */
export function keptLinksIn(text: string | undefined): string[] {
  if (text === undefined) return [];
  return referencesIn(text)
    .map((reference) => reference[4] ?? "")
    .filter((link) => link !== "" && !link.startsWith("/"));
}

/**
 * A kept result's rows by its link, for `field` (where's in result(…), join): refused when this client keeps no
 * result, when the link is unknown or expired, and when the result is cut (as a list or a table it would leave
 * the rest out).
 */
export async function keptRows(
  link: string,
  kept: KeptItems | undefined,
  field: string,
  readPath?: PathReader,
): Promise<{ result: KeptResult; rows: Record<string, unknown>[]; shown: string; path?: PathRead }> {
  // where's and count_by's `in result(…)` take it as a list; join, as a table.
  const asList = field !== "join";
  const name = asList ? "in result(…)" : field;
  // A path is read whole by the service's step (PathRead); a step that reads none takes only links.
  if (link.startsWith("/") && readPath) {
    const path = await readPath(link);
    return { result: { items: path.rows }, rows: path.rows, shown: path.source, path };
  }
  if (!kept) {
    throw new ValidationError(field, `${name} reads a kept result, which this client does not keep.`, {
      hint: asList
        ? 'Give the values as a list, e.g. id in (1, 2, 3), or the GET path of the read instead of its link (read whole, e.g. id in result("<path>?fields=id")), or make both calls over MCP or in the console.'
        : 'Give the GET path of the read instead of its link (read whole, e.g. "<path>?fields=id on leadId = id"), or make both calls over MCP or in the console, which keep results.',
    });
  }
  const shown = link.slice(0, 200);
  const id = RESULT_ID.exec(link)?.[1];
  const result = id === undefined ? undefined : await kept(id);
  if (!result) {
    throw new ValidationError(
      field,
      `no kept result at ${shown}: it has expired, or is another workspace's.`,
      {
        hint: `Run the call that gave it again and put the link of its Full result (resource_link) in ${asList ? "result(…)" : field}.`,
      },
    );
  }
  // A result cut at the most one keeps is not the whole set: as a list it would leave the rest out (review s38, 4).
  if (result.cut) {
    throw new ValidationError(
      field,
      `the kept result at ${shown} ${result.cut}: as ${asList ? "a list" : "a table"} it would leave the rest out.`,
      {
        // A read that stopped is read on by paginate and the caps; one past the bytes kept, by narrowing (review s44, 4).
        hint: "Run the call that gave it again so that its Full result holds every row (paginate true, max_pages and max_items high enough; or narrowed by where, a shorter range, per), then use that link.",
      },
    );
  }
  return { result, rows: result.items.filter(isObject), shown };
}

async function columnValues(
  link: string,
  column: string,
  kept: KeptItems | undefined,
  readPath: PathReader | undefined,
  input: string,
): Promise<string[]> {
  const { result, rows, shown, path } = await keptRows(link, kept, input, readPath);
  const at = path ? shown : `the kept result at ${shown}`;
  const given = link.slice(0, 200);
  const read = fieldReader(column);
  const present = rows.map(read).filter((v) => v !== undefined);
  if (present.length === 0 && rows.length > 0) {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, 20);
    throw new ValidationError(input, `${at} has no column ${column}.`, {
      hint: `Name its column after the link, e.g. result("${given}", "${columns[0] ?? "id"}"); its columns: ${columns.join(", ")}.`,
    });
  }
  // Objects and lists are no value a record's field equals (review s38, 3: 0 of 383 matched, silently).
  if (present.some((v) => typeof v === "object" && v !== null)) {
    throw new ValidationError(
      input,
      `the column ${column} of ${at} holds objects or lists, not single values.`,
      {
        hint: `Name a column of single values after the link, e.g. result("${given}", "${column}.<a field inside it>").`,
      },
    );
  }
  // per's rows list a field's values joined (records/per.ts): each is a value of the list (review s38, 3).
  const spread = result.rows
    ? present.flatMap((v) => (typeof v === "string" ? v.split(SET_JOIN) : [v]))
    : present;
  const values = [...new Set(spread.filter((v) => v !== null && v !== ""))];
  return values.map(literalOf);
}

/**
 * A value as where writes it: a number as a number when it prints back the same (a safe integer, a plain decimal);
 * all else, text as text. Text that looks like a number stays text, which equals a number field's same digits but
 * not "007" to 7 (review s38, 1: a kept "007" matched 7 and 7.0; two 16-digit ids read as one).
 */
function literalOf(value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value) && !/e/i.test(String(value))) {
    if (Number.isSafeInteger(value) || !Number.isInteger(value)) return String(value);
  }
  return JSON.stringify(String(value));
}
