/**
 * Filters and lists typed with the names a person sees (console/src/filter-names.ts), turned into a step's
 * API names before a run, and the refusal of a name no field has, under the filter's own field. Each
 * service's side is in its room: Run Reports' filter and sort by the property's metadata in
 * console/src/google/report-names.ts, a lead field's display names in console/src/marketo/lead-fields.ts.
 */
import type { ErrorInfo } from "./api.ts";
import { type NamedField, withApiNames } from "./filter-names.ts";

type Input = Record<string, unknown>;
export type Named = { input: Input; problem?: undefined } | { input?: undefined; problem: ErrorInfo };

/** The refusal of a name, under `field` (titled `title` above Run). */
export function nameProblem(field: string, title: string, message: string): ErrorInfo {
  return {
    error: "invalid_input",
    message: `${title}: ${message}`,
    field,
    issues: [{ field, message }],
    // What a task's field shows under it (TaskFields.tsx).
    fieldWords: message,
  };
}

/** `text` with API names, or the problem to show under `field`. */
export function inApiNames(text: string, fields: readonly NamedField[], field: string, title: string) {
  const words = withApiNames(text, fields);
  return words.ok ? { text: words.filter } : { problem: nameProblem(field, title, words.message) };
}
