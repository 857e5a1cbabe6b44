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
 * with its strings redacted.
 */
export function toPages(
  items: readonly unknown[],
  pageBytes = PAGE_BYTES,
): { json: string; items: number }[] {
  const pages: { json: string; items: number }[] = [];
  let current: unknown[] = [];
  let size = 2;
  const flush = () => {
    let json = JSON.stringify(current);
    if (processRedactor.leaks(json)) json = JSON.stringify(processRedactor.value(current));
    pages.push({ json, items: current.length });
    current = [];
    size = 2;
  };
  for (const item of items) {
    const bytes = itemBytes(item);
    if (current.length > 0 && size + bytes > pageBytes) flush();
    current.push(item);
    size += bytes;
  }
  if (current.length > 0 || pages.length === 0) flush();
  return pages;
}

/** The given columns, or the keys of the items in first-seen order. */
export function columnsOf(items: readonly unknown[], given?: readonly string[]): string[] {
  if (given && given.length > 0) return [...given];
  const seen = new Set<string>();
  for (const item of items) {
    if (item && typeof item === "object" && !Array.isArray(item))
      for (const key of Object.keys(item)) seen.add(key);
  }
  return seen.size > 0 || items.length === 0 ? [...seen] : ["value"];
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
    return columns.map((column) => cell(record[column]));
  });
  // A line break of either kind inside a value is quoted too, as RFC 4180 asks (not only the delimiter in use).
  return csvStringify()(header ? [columns.map(text), ...rows] : rows, {
    record_delimiter: "\r\n",
    quoted_match: /[\r\n]/,
  });
}
