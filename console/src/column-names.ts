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
    // "Views desc" / "Page path asc" as the step takes them (review s58, F8), unless a column is named so.
    const worded = fieldNamed(item.replace(/^-\s*/, ""), columns) ? null : /^(.+?)\s+(asc|desc)$/i.exec(item);
    const desc = item.startsWith("-") || worded?.[2]?.toLowerCase() === "desc";
    const name = (worded?.[1] ?? item).replace(/^-\s*/, "");
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
 * its own ("id email firstName"), each with the field it names; or the first part that names no field.
 */
export function fieldListNamed(
  typed: string,
  fields: readonly NamedField[],
): Named<{ typed: string; field: NamedField }[]> {
  const out: { typed: string; field: NamedField }[] = [];
  for (const part of typed.split(/[,;\n]+/)) {
    const name = part.trim();
    if (!name) continue;
    const whole = fieldNamed(name, fields);
    const words = whole ? [name] : name.split(/\s+/);
    const named = words.map((word) => ({ typed: word, field: whole ?? fieldNamed(word, fields) }));
    if (named.some((one) => one.field === undefined)) return { ok: false, message: noField(name, fields) };
    out.push(...named.flatMap((one) => (one.field ? [{ typed: one.typed, field: one.field }] : [])));
  }
  return { ok: true, value: out };
}

/** The list's names as API names ("First Name, Lead Score" → firstName, leadScore), or the first unknown. */
export function fieldListInApiNames(typed: string, fields: readonly NamedField[]): Named<string[]> {
  const named = fieldListNamed(typed, fields);
  return named.ok ? { ok: true, value: named.value.map((one) => one.field.api) } : named;
}

const squashed = (name: string) => name.replace(/\s+/g, "").toLowerCase();

/**
 * The name a column is headed by: the one the person typed, in the field's own spelling. A field may have
 * several UI names (its own and a familiar one: `fields` lists each as an entry of its API name). A UI
 * name typed in any case is that name ("lead score" → "Lead Score"); an API name typed is the UI name that
 * spells it in words ("leadSource" → "Lead Source" where the field also reads "Person Source"), else the
 * field's first UI name ("email" → "Email Address").
 */
export function headingFor(typed: string, api: string, fields: readonly NamedField[]): string {
  const names = fields.filter((field) => field.api === api).map((field) => field.ui);
  const wanted = typed.trim().toLowerCase();
  return (
    names.find((name) => name.toLowerCase() === wanted) ??
    names.find((name) => squashed(name) === squashed(api) && squashed(typed) === squashed(api)) ??
    names[0] ??
    typed.trim()
  );
}

/** The columns of a list of names typed, by API name, each headed by the name typed (`headingFor`). */
export function typedHeadings(typed: string, fields: readonly NamedField[]): Map<string, string> {
  const named = fieldListNamed(typed, fields);
  const headings = new Map<string, string>();
  if (!named.ok) return headings;
  for (const one of named.value)
    if (!headings.has(one.field.api))
      headings.set(one.field.api, headingFor(one.typed, one.field.api, fields));
  return headings;
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
