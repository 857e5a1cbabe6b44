import { distance } from "fastest-levenshtein";
import { ValidationError } from "../../errors.js";
import { comparedFields, type Expression, expressionFields, testedFields } from "../filter/ast.js";
import { operandField } from "../filter/print.js";
import { BUCKET_UNITS } from "./buckets.js";
import { innerObject, isObject } from "./values.js";

/** The field a join gives each record (kept-join.ts). */
export const JOINED = "joined";

/** Whether a field is joined or a path inside it: added by the step, no field of the service's records. */
export const isJoinedPath = (field: string): boolean => field === JOINED || field.startsWith(`${JOINED}.`);

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
  /** Paths into the objects of a list ("costs.cost" of costs: [{cost}]): only sum reads through a list. */
  readonly #inLists = new Set<string>();
  /** The names whose values are lists (a REST activity's attributes): count_by takes no list. */
  readonly #lists = new Set<string>();

  /**
   * Adds a record's names. Objects are walked always; a list of name/value pairs or JSON text only when
   * `enters` says a path reads inside that name (so a file's JSON text is parsed only when a path asks).
   */
  add(record: Readonly<Record<string, unknown>>, enters?: ReadonlySet<string>, prefix = "", depth = 1): void {
    for (const [key, value] of Object.entries(record)) {
      const name = prefix + key;
      this.#names.add(name);
      if (Array.isArray(value)) {
        this.#lists.add(name);
        this.#addListItems(name, value);
      }
      const inner = isObject(value) ? value : enters?.has(name) ? innerObject(record, key) : undefined;
      if (!inner) continue;
      this.#objects.add(name);
      if (depth < MAX_DEPTH) this.add(inner, enters, `${name}.`, depth + 1);
    }
  }

  /**
   * The keys of a list's first objects, as paths under the list's name (a few items tell its shape), and the paths
   * inside their objects: a join's rows of program members hold membership.id (joined.membership.id).
   */
  #addListItems(name: string, items: readonly unknown[]): void {
    for (const item of items.slice(0, 5)) if (isObject(item)) this.#addItemPaths(name, item, 1);
  }

  #addItemPaths(prefix: string, item: Readonly<Record<string, unknown>>, depth: number): void {
    for (const [key, value] of Object.entries(item)) {
      const path = `${prefix}.${key}`;
      this.#inLists.add(path);
      if (isObject(value) && depth < MAX_DEPTH) this.#addItemPaths(path, value, depth + 1);
    }
  }

  /** Whether a path was seen, counting the paths into lists' objects. */
  hasThroughLists(name: string): boolean {
    return this.#names.has(name) || this.#inLists.has(name);
  }

  /** The paths into lists' objects seen. */
  get listPaths(): string[] {
    return [...this.#inLists];
  }

  /** The paths into lists' objects that hold values, not objects (joined.membership.id, not joined.membership). */
  get listLeaves(): string[] {
    const paths = this.listPaths;
    return paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)));
  }

  /** Whether a name's values were lists. */
  holdsLists(name: string): boolean {
    return this.#lists.has(name);
  }

  /** Whether a name's values were objects. */
  holdsObjects(name: string): boolean {
    return this.#objects.has(name);
  }

  /** The dotted paths seen inside a field (its object's keys, and theirs). */
  under(name: string): string[] {
    return this.names.filter((candidate) => candidate.startsWith(`${name}.`));
  }

  /** The paths into the items of a list a field holds (count_by counts each item: unnest.ts). */
  itemPaths(name: string): string[] {
    return this.listPaths.filter((path) => path.startsWith(`${name}.`));
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
  /** The path may run through a list of objects (sum's costs.cost). */
  throughLists?: boolean;
  /** A date bucket or band the name was written with (":day" of "activityDate:day"), kept on the name offered. */
  suffix?: string;
  /** The name came after an operator, compared with this field's value (a text meant unquoted reads as one). */
  comparedWith?: { field: string; op: string };
}

/** The fields an expression names, each once, as the unknown-field check takes them (paths may run through lists). */
export function expressionNamed(input: string, expression: Expression): NamedField[] {
  const compared = comparedFields(expression);
  const tested = new Set(testedFields(expression));
  return [...new Set(expressionFields(expression))].map((field) => {
    const pair = tested.has(field) ? undefined : compared.find(({ other }) => other === field);
    return {
      input,
      field,
      throughLists: true,
      ...(pair ? { comparedWith: { field: pair.field, op: pair.op } } : {}),
    };
  });
}

/**
 * A name as the unknown-field check takes it: the field it reads, and when it is a bucket or band of it
 * ("activityDate:day"), the suffix offered back on the name suggested (review s39, 14; review s41, 10).
 */
export function bucketedField(input: string, name: string, field: string): NamedField {
  return field === name ? { input, field } : { input, field, suffix: name.slice(name.lastIndexOf(":")) };
}

const SHOWN = 12;

/** The longest name seen that a dotted path starts with ("attributes" of "attributes.Choice Number"). */
export function pathHead(field: string, seen: FieldsSeen): string | undefined {
  const parts = field.split(".");
  for (let end = parts.length - 1; end > 0; end -= 1) {
    const head = parts.slice(0, end).join(".");
    if (seen.has(head)) return head;
  }
  return undefined;
}

/**
 * Refuses the first named field no record read has, with the fields they have (closest first). Nothing is
 * refused when no record was read, unless `columns` says the names are a file's columns, known before any row
 * (a dotted path into a column waits for the rows: its column may hold JSON text).
 */
export function checkFields(
  named: readonly NamedField[],
  seen: FieldsSeen,
  records: number,
  noun = "record",
  columns = false,
): void {
  if (records === 0 && !columns) return;
  const unknown = named.find(
    ({ field, throughLists }) =>
      !(throughLists ? seen.hasThroughLists(field) : seen.has(field)) &&
      !(columns && records === 0 && pathHead(field, seen)),
  );
  if (!unknown) return;
  const head = pathHead(unknown.field, seen);
  const listed = unknown.throughLists && seen.listPaths.some((path) => path.startsWith(`${head}.`));
  if (head && !seen.holdsObjects(head) && !listed) refuseOpaque(unknown, head, records, noun);
  // Fields holding objects go last: the paths inside them are what can be tested, sorted or counted.
  const closest = closestFirst(
    unknown.field,
    // A list of objects is no number to add: the paths into its items are offered instead. A name count_by
    // misspells is offered among the record's names (a name/value list's names among them, "attributes.Nope":
    // the closest is an attribute, not attributes.name).
    unknown.throughLists && unknown.input !== "count_by"
      ? [
          ...seen.names.filter((name) => !seen.listPaths.some((path) => path.startsWith(`${name}.`))),
          ...seen.listPaths,
        ]
      : // join's own field is read before joined is added (records/kept-join.ts): none of joined's is one.
        seen.names.filter((name) => unknown.input !== "join" || !isJoinedPath(name)),
  );
  // After an operator a quoted name is a text: a name with spaces is offered as a path with a quoted part there
  // (attributes."New Value"), which is read as the field (review s48, 2: "attributes.New Value" compared as text).
  const ranked = [
    ...closest.filter((name) => !seen.holdsObjects(name)),
    ...closest.filter((name) => seen.holdsObjects(name)),
  ].map(unknown.comparedWith ? operandField : quotedField);
  const list = ranked.slice(0, SHOWN).join(", ");
  const more = ranked.length > SHOWN ? ` and ${ranked.length - SHOWN} more` : "";
  const which = columns
    ? `the file has no column named ${unknown.field}; its columns are ${list}${more}`
    : records === 1
      ? `the one ${noun} read has no field named ${unknown.field}; it has ${list}${more}`
      : `none of the ${records.toLocaleString("en-US")} ${noun}s read has a field named ${unknown.field}; they have ${list}${more}`;
  // A text written without quotes after an operator (status == Open) is read as a field name: say so first.
  const unquoted =
    unknown.comparedWith && !unknown.field.includes(".")
      ? `${unknown.field} came after an operator, where a name is another field to compare with; a text or date is written in double quotes, e.g. ${operandField(unknown.comparedWith.field)} ${unknown.comparedWith.op} ${JSON.stringify(unknown.field)}. Or `
      : "";
  throw new ValidationError(unknown.input, `${which} (closest first).`, {
    hint: `${unquoted}${unquoted ? "u" : "U"}se one of those names as written (names are case-sensitive; a dotted path reaches into objects, name/value lists and JSON text; quote a name that has spaces), e.g. ${spacedBucket(unknown, seen) ?? `${ranked[0]}${unknown.suffix ?? ""}`}.`,
    details: { field: unknown.input, unknown_field: unknown.field, fields: ranked.slice(0, 50) },
  });
}

/** A path into a field that held no object, name/value list or JSON text in any record read: why, and what works. */
function refuseOpaque(unknown: NamedField, head: string, records: number, noun: string): never {
  const read =
    records === 1 ? `the one ${noun} read` : `the ${records.toLocaleString("en-US")} ${noun}s read`;
  throw new ValidationError(
    unknown.input,
    `${unknown.field} reads inside ${quotedField(head)}, which in ${read} holds no object, list of name/value pairs or JSON text to read it from.`,
    {
      hint: `Test ${quotedField(head)} as text instead, e.g. where ${quotedField(head)} contains "…", or ${unknown.input} ${quotedField(head)} itself.`,
      details: { field: unknown.input, unknown_field: unknown.field, container_field: head },
    },
  );
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_:.]*$/;

/** A field name as where, order_by and count_by read it: as it is, or double-quoted when it has spaces or other characters. */
export function quotedField(name: string): string {
  return PLAIN.test(name) ? name : JSON.stringify(name);
}

/**
 * A bucket written with a space after its colon ("activityDate: day"), which is read as one name: the bucket as
 * count_by and per take it, when the records have the field (review s39, 14).
 */
function spacedBucket(unknown: NamedField, seen: FieldsSeen): string | undefined {
  // Only count_by, per and count_distinct take a bucket (review s41, 4: where and sum were offered one they refuse).
  if (!["count_by", "per", "count_distinct"].includes(unknown.input)) return undefined;
  const [, head = "", unit = ""] = /^(.*[^:\s]):\s+([A-Za-z]+|\d+(?:\.\d+)?)$/.exec(unknown.field) ?? [];
  const bucket = /^\d/.test(unit) || (BUCKET_UNITS as readonly string[]).includes(unit.toLowerCase());
  return bucket && seen.names.includes(head) ? `${head}:${unit} (no space after the colon)` : undefined;
}
