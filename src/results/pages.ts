import { createRequire } from "node:module";
import { itemBytes } from "../json-size.js";
import { processRedactor } from "../redact.js";

const require = createRequire(import.meta.url);
/** csv-stringify, loaded when a CSV page is first read (start-up does not pay for it). */
const csvStringify = (): typeof import("csv-stringify/sync").stringify =>
  (require("csv-stringify/sync") as typeof import("csv-stringify/sync")).stringify;

/** A page of a kept result stays within what a client reads at once (as a tool answer's cap). */
export const PAGE_BYTES = 45_000;

/**
 * The items as pages of JSON text, each an array of whole items within `pageBytes` (an item larger
 * than that is a page of its own). A last check before anything is kept: a page whose text holds a
 * credential this process has sent (connectors redact what they read; this is the backstop) is kept
 * with its strings redacted. With `firstPage`, page 1 holds that many items (what the answer showed).
 */
export function toPages(
  items: readonly unknown[],
  pageBytes = PAGE_BYTES,
  firstPage?: number,
): { json: string; items: number }[] {
  const pages: { json: string; items: number }[] = [];
  let current: unknown[] = [];
  // Measured as the answer's cap measures (json-size.ts: each item and a separator), so an answer that shows part
  // shows page 1 to the record (trial s36, N531: page 2 began with the last record shown, read twice).
  let size = 0;
  const flush = () => {
    let json = JSON.stringify(current);
    if (processRedactor.leaks(json)) json = JSON.stringify(processRedactor.value(current));
    pages.push({ json, items: current.length });
    current = [];
    size = 0;
  };
  for (const item of items) {
    const bytes = itemBytes(item);
    // Page 1 ends where the answer's shown items end, when the step said so (FullResult.shown).
    const shownEnd = pages.length === 0 && current.length === firstPage && firstPage < items.length;
    if (current.length > 0 && (shownEnd || size + bytes > pageBytes)) flush();
    current.push(item);
    size += bytes;
  }
  if (current.length > 0 || pages.length === 0) flush();
  return pages;
}

/** The given columns, then the keys of the items they leave out, in first-seen order. */
export function columnsOf(items: readonly unknown[], given?: readonly string[]): string[] {
  // The given order first, then any key it leaves out: a column is never lost for an order (review s55, F1).
  const seen = new Set<string>(given ?? []);
  for (const item of items) {
    if (item && typeof item === "object" && !Array.isArray(item))
      for (const key of Object.keys(item)) seen.add(key);
  }
  return seen.size > 0 || items.length === 0 ? [...seen] : ["value"];
}

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The most columns one column is spread into: past it, its values stay JSON cells. */
const MAX_SPREAD = 100;

/**
 * An object's keys and values, or a name/value list's names and values; undefined for anything else. A list is a
 * name/value list only when each entry has both and each name is once: a list of names alone (a GA response's
 * dimensionHeaders) is an ordered list, and spread it lost its order and its names (review s40, 1).
 */
function entriesOf(value: unknown): [string, unknown][] | undefined {
  if (isPlain(value)) return Object.entries(value);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const pairs = value.every(
    (e) =>
      isPlain(e) && typeof e.name === "string" && Object.hasOwn(e, "value") && Object.keys(e).length === 2,
  );
  const names = pairs ? value.map((e) => (e as { name: string }).name) : [];
  if (!pairs || new Set(names).size !== names.length) return undefined;
  return (value as { name: string; value: unknown }[]).map((e) => [e.name, e.value]);
}

/**
 * The CSV's columns: a column whose every value is an object or a name/value list (a lead's joined fields, an
 * activity's attributes) spread into one column per key or name, "attributes.Webpage URL", so that a spreadsheet
 * shows them as columns and not as escaped JSON (an activity's attributes were 300 of a row's 423 characters;
 * trial s33 N481 read 1,052,221 characters of it). Undefined when no column spreads.
 */
export function csvColumns(items: readonly unknown[], columns: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const column of columns) {
    const keys = new Set<string>();
    let spread = true;
    let any = false;
    for (const item of items) {
      const value = isPlain(item) ? item[column] : undefined;
      if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      const entries = entriesOf(value);
      if (!entries) {
        spread = false;
        break;
      }
      any = true;
      for (const [key] of entries) keys.add(key);
    }
    // A spread name that is already a column of its own (per's "lead.leadSource" beside its row's lead) is not repeated.
    if (spread && any && keys.size > 0 && keys.size <= MAX_SPREAD)
      out.push(...[...keys].map((key) => `${column}.${key}`).filter((name) => !columns.includes(name)));
    else out.push(column);
  }
  return out.length === columns.length && out.every((c, i) => c === columns[i]) ? undefined : out;
}

/** A record's cell of a CSV column: its own key, else a key or name inside the column it was spread from. */
function valueAt(record: Plain, column: string): unknown {
  if (Object.hasOwn(record, column)) return record[column];
  for (let dot = column.indexOf("."); dot > 0; dot = column.indexOf(".", dot + 1)) {
    const entries = entriesOf(record[column.slice(0, dot)]);
    if (entries) return entries.find(([key]) => key === column.slice(dot + 1))?.[1];
  }
  return undefined;
}

/**
 * A spreadsheet runs a cell that starts with = + - @, a tab or a carriage return as a formula (CSV
 * injection, https://owasp.org/www-community/attacks/CSV_Injection). Marketo and GA4 text holds whatever
 * a web form or a tracked page took, so such text gets a leading apostrophe, which spreadsheets show as
 * text. Numbers, and text that is a plain negative number, are written as they are; the JSON format keeps every
 * value exact.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Text that is a plain negative number ("-5", "-2.5E-3"): a spreadsheet reads it as that number, never
 * as a formula, so it stays as it is (a bulk export file's values, a lead score among them, are all
 * text). "+" and digits stays defused: it is most often a phone number, whose "+" a spreadsheet drops.
 */
const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function text(value: string): string {
  return FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
}

/** A cell as CSV shows it: text (formulas defused), numbers and booleans as written, nested values as JSON, null empty. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return text(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * One page of a kept table as CSV (RFC 4180, via csv-stringify). Only the first page has the header
 * row, so the pages read in order and joined are the whole CSV file.
 */
export function csvPage(json: string, columns: readonly string[], header: boolean): string {
  const items = JSON.parse(json) as unknown[];
  const rows = items.map((item) => {
    const record =
      item && typeof item === "object" && !Array.isArray(item)
        ? (item as Record<string, unknown>)
        : { value: item };
    return columns.map((column) => cell(valueAt(record, column)));
  });
  // A line break of either kind inside a value is quoted too, as RFC 4180 asks (not only the delimiter in use).
  return csvStringify()(header ? [columns.map(text), ...rows] : rows, {
    record_delimiter: "\r\n",
    quoted_match: /[\r\n]/,
  });
}
