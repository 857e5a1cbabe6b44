/**
 * How a record's value reads when where, order_by and count_by compare it. Records come as JSON (numbers,
 * booleans, null) or as a bulk file's CSV (every value text, `null` for empty): a value is a number when it is
 * one or when its text is exactly a decimal number, and a time when its text is an ISO 8601 date or
 * datetime, so "51" in an export and 51 from the REST API compare alike.
 */
import { instantOf } from "../zone-clock.js";

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * ISO 8601 dates and datetimes as Marketo writes them: "2024-01-31", "2021-11-23T22:57:08Z",
 * "2018-03-28T18:05:00+0000", and the Asset API's "2015-11-18T15:25:35Z+0000" (REAL-API A7). A date alone,
 * or a time without a zone, is read on the clock of the call's time_zone when it names one, else as UTC.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z(?:\+0000)?|[+-]\d{2}:?\d{2})?$/;

export function isEmpty(value: unknown): boolean {
  return (
    value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)
  );
}

export function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || !NUMERIC.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** A date alone, "2026-11-30": where reads it as that whole day. */
export const DATE_ALONE = /^\d{4}-\d{2}-\d{2}$/;

/** The instant a value names; one without an offset on `zone`'s clock (an IANA name) when given, else UTC. */
export function timeOf(value: unknown, zone?: string): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = ISO.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2024-02-30 over into March: such a date is no date.
  if (new Date(utc).getUTCDate() !== day) return undefined;
  const given = m[8];
  if (!given) return zone === undefined ? utc : instantOf(zone, utc);
  if (given.startsWith("Z")) return utc;
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(given);
  if (!offset) return undefined;
  const minutes = Number(offset[2]) * 60 + Number(offset[3]);
  return utc - (offset[1] === "-" ? -1 : 1) * minutes * 60_000;
}

/** A value as text: strings as they are, nested values as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Reads one field of a record: its own key of that name, else a dotted path into its objects. */
export type FieldReader = (record: Readonly<Record<string, unknown>>) => unknown;

/**
 * The reader of a field name. A name is a key of the record as written ("Import Failure Reason", a CSV
 * column) or, when the record has no such key, a dotted path into its objects: program members'
 * "membership.progressionStatus", describe's "rest.name", and an activity's "attributes.Choice Number",
 * whose attributes are a list of name/value pairs on the REST API and JSON text in an export's file
 * (innerObject). A path enters no other list.
 */
export function fieldReader(field: string): FieldReader {
  const parts = field.split(".");
  if (parts.length === 1 || parts.some((part) => part === "")) {
    return (record) => (Object.hasOwn(record, field) ? record[field] : undefined);
  }
  return (record) => {
    if (Object.hasOwn(record, field)) return record[field];
    let at: Readonly<Record<string, unknown>> = record;
    const last = parts.length - 1;
    for (let i = 0; i < last; i += 1) {
      const inner = innerObject(at, parts[i] as string);
      if (!inner) return undefined;
      at = inner;
    }
    const key = parts[last] as string;
    return Object.hasOwn(at, key) ? at[key] : undefined;
  };
}

/** The objects read from JSON text, per record and key: a text is parsed once however many paths read it. */
const parsed = new WeakMap<object, Map<string, Record<string, unknown> | undefined>>();
/** The object view of each name/value list, built once. */
const pairs = new WeakMap<readonly unknown[], Record<string, unknown> | undefined>();

/**
 * What a dotted path enters at `container[key]`: an object as it is; a list of {name, value} items as the
 * object of name → value (Marketo's REST activities write `attributes` so, REAL-API A7); JSON text of either
 * (an activity export's `attributes` column: Adobe's bulk activity extract page shows a JSON object of
 * name → value, the Swagger's file example a JSON list of {name, value},
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-activity-extract).
 * Anything else, undefined.
 */
export function innerObject(
  container: Readonly<Record<string, unknown>>,
  key: string,
): Record<string, unknown> | undefined {
  if (!Object.hasOwn(container, key)) return undefined;
  const value = container[key];
  if (isObject(value)) return value;
  if (Array.isArray(value)) return pairObject(value);
  if (typeof value !== "string" || !/^\s*[[{]/.test(value)) return undefined;
  let texts = parsed.get(container);
  if (texts?.has(key)) return texts.get(key);
  let inner: Record<string, unknown> | undefined;
  try {
    const json = JSON.parse(value) as unknown;
    inner = isObject(json) ? json : Array.isArray(json) ? pairObject(json) : undefined;
  } catch {
    inner = undefined;
  }
  if (!texts) {
    texts = new Map();
    parsed.set(container, texts);
  }
  texts.set(key, inner);
  return inner;
}

/** A list whose every item is {name: text, value}, as an object of name → value; else undefined. */
function pairObject(list: readonly unknown[]): Record<string, unknown> | undefined {
  if (list.length === 0) return undefined;
  if (pairs.has(list)) return pairs.get(list);
  const named = list.every(
    (item) => isObject(item) && typeof item.name === "string" && Object.hasOwn(item, "value"),
  );
  const object = named
    ? Object.fromEntries(
        list.map((item) => [(item as { name: string }).name, (item as { value: unknown }).value]),
      )
    : undefined;
  pairs.set(list, object);
  return object;
}

/** A JSON object (not a list, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The list a path reads the items of: "tokens" for "tokens.type" when the record's `tokens` is a list of objects
 * of which one has the key `type`. Not for a name/value list read by a name ("tokens.Headline": unnest.ts).
 */
export function itemListOf(record: Readonly<Record<string, unknown>>, field: string): string | undefined {
  const [head, key] = field.split(".");
  if (!head || !key) return undefined;
  const list = record[head];
  return Array.isArray(list) && list.some((item) => isObject(item) && Object.hasOwn(item, key))
    ? head
    : undefined;
}

/**
 * The record an item view is of. An item is tested as its record with the list cut to that item; a condition that
 * reads a value by its name in the list ("tokens.Headline") is read on this whole record, and one on a key of the
 * items ("tokens.type") on the item, so `tokens.Headline contains "Webinar" and tokens.type != "date"` holds for
 * the webinar programs' other tokens (review s28, finding 1).
 */
const WHOLE = Symbol("whole record");

type Row = Readonly<Record<string, unknown>>;

/** The record with its list `head` cut to `item`, for a test item by item. */
export const itemView = (record: Row, head: string, item: unknown): Row =>
  Object.assign({ ...record, [head]: [item] }, { [WHOLE]: (record as { [WHOLE]?: Row })[WHOLE] ?? record });

/** Where a condition on `field` reads: the whole record, unless the field is a key of an item's list. */
export function readOn(record: Row, field: string): Row {
  const whole = (record as { [WHOLE]?: Row })[WHOLE];
  return whole && itemListOf(whole, field) === undefined ? whole : record;
}
