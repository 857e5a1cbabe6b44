/**
 * How a record's value reads when where, order_by and count_by compare it. Records come as JSON (numbers,
 * booleans, null) or as a bulk file's CSV (every value text, `null` for empty): a value is a number when it is
 * one or when its text is exactly a decimal number, and a time when its text is an ISO 8601 date or
 * datetime, so "51" in an export and 51 from the REST API compare alike.
 */

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * ISO 8601 dates and datetimes as Marketo writes them: "2024-01-31", "2021-11-23T22:57:08Z",
 * "2018-03-28T18:05:00+0000", and the Asset API's "2015-11-18T15:25:35Z+0000" (REAL-API A7). A date alone,
 * or a time without a zone, is read as UTC.
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

export function timeOf(value: unknown): number | undefined {
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
  const zone = m[8];
  if (!zone || zone.startsWith("Z")) return utc;
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
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
 * "membership.progressionStatus", describe's "rest.name". A path does not enter lists.
 */
export function fieldReader(field: string): FieldReader {
  const parts = field.split(".");
  if (parts.length === 1 || parts.some((part) => part === "")) {
    return (record) => (Object.hasOwn(record, field) ? record[field] : undefined);
  }
  return (record) => {
    if (Object.hasOwn(record, field)) return record[field];
    let at: unknown = record;
    for (const part of parts) {
      if (!isObject(at) || !Object.hasOwn(at, part)) return undefined;
      at = at[part];
    }
    return at;
  };
}

/** A JSON object (not a list, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
