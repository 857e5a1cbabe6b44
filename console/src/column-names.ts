/**
 * Lists of field names typed with the words the pickers show (trial 2026-12-02, finding 1: Sort by took
 * only "-screenPageViews", an export's columns only "firstName", a CSV header only "email"), turned into
 * the API names a step reads. The same rule as a filter's (console/src/filter-names.ts): a field's UI name
 * or its API name, in any case, spaces around it trimmed; a name no field has is refused with the nearest.
 */
// ".js", not the page's ".ts": the unit tests type-check this module under the package's settings.
import { parse } from "csv-parse/browser/esm/sync";
import { didYouMean, type NamedField, nearestNames } from "./filter-names.js";

export type Named<T> = { ok: true; value: T } | { ok: false; message: string };

/** The field `typed` names: its API name exactly, else its UI or API name in any case. */
export function fieldNamed(typed: string, fields: readonly NamedField[]): NamedField | undefined {
  const name = typed.trim();
  const wanted = name.toLowerCase();
  return (
    fields.find((field) => field.api === name) ??
    fields.find((field) => field.ui.toLowerCase() === wanted) ??
    fields.find((field) => field.api.toLowerCase() === wanted)
  );
}

/** `No field is named "X". Did you mean "Y"?` */
export function noField(typed: string, fields: readonly NamedField[], what = "field"): string {
  return `No ${what} is named "${typed}".${didYouMean(nearestNames(typed, fields))}`;
}

/**
 * A sort typed as "-Views, Page path" (a "-" in front for largest first) with the report's columns'
 * API names ("-screenPageViews,pagePath"), or the first name that is not a column of the report.
 */
export function sortInApiNames(typed: string, columns: readonly NamedField[]): Named<string> {
  const out: string[] = [];
  for (const part of typed.split(",")) {
    const item = part.trim();
    if (!item) continue;
    const desc = item.startsWith("-");
    const name = item.replace(/^-\s*/, "");
    const field = fieldNamed(name, columns);
    if (!field) {
      const all = columns.map((column) => `"${column.ui}"`).join(", ");
      return {
        ok: false,
        message: `"${name}" is not a column of this report.${didYouMean(nearestNames(name, columns))} Sort by one of its columns: ${all}.`,
      };
    }
    out.push(`${desc ? "-" : ""}${field.api}`);
  }
  return { ok: true, value: out.join(",") };
}

/**
 * Field names separated by commas ("First Name, Lead Score"), or by spaces when each word is a name on
 * its own ("id email firstName"), as API names; or the first part that names no field.
 */
export function fieldListInApiNames(typed: string, fields: readonly NamedField[]): Named<string[]> {
  const out: string[] = [];
  for (const part of typed.split(/[,;\n]+/)) {
    const name = part.trim();
    if (!name) continue;
    const whole = fieldNamed(name, fields);
    const words = whole ? [whole] : name.split(/\s+/).map((word) => fieldNamed(word, fields));
    if (words.some((word) => word === undefined)) return { ok: false, message: noField(name, fields) };
    out.push(...words.flatMap((word) => (word ? [word.api] : [])));
  }
  return { ok: true, value: out };
}

/**
 * The pasted CSV with its header line's names as API names ("Email, First Name" becomes
 * "email,firstName"), the rows below untouched; or the headers that name no field.
 */
export function csvHeaderInApiNames(csv: string, fields: readonly NamedField[]): Named<string> {
  const start = csv.length - csv.replace(/^(?:\uFEFF)?\s*/, "").length;
  const lineEnd = csv.indexOf("\n", start);
  // The line's end (a CRLF's "\r" included) stays with the rows.
  const end = lineEnd === -1 ? csv.length : csv[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
  const [cells = []] = parse(csv.slice(start, end), { trim: true }) as string[][];
  const unknown = cells.filter((cell) => cell !== "" && !fieldNamed(cell, fields));
  if (unknown.length > 0) {
    const first = unknown[0] ?? "";
    const others = unknown.slice(1).map((cell) => `"${cell}"`);
    const more = others.length > 0 ? ` Nor ${others.length === 1 ? "does" : "do"} ${others.join(", ")}.` : "";
    return {
      ok: false,
      message: `The header line's "${first}" names no field.${didYouMean(nearestNames(first, fields))}${more}`,
    };
  }
  const header = cells.map((cell) => fieldNamed(cell, fields)?.api ?? cell).join(",");
  return { ok: true, value: `${header}${csv.slice(end)}` };
}
