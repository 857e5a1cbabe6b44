import { ValidationError } from "../errors.js";

/** One problem of a tool step's input, in the caller's terms: `date_ranges[0].start_date`, and why. */
export interface InputIssue {
  field: string;
  message: string;
}

/** How many problems one error lists; the rest are counted. */
export const MAX_LISTED_ISSUES = 5;

/** The " (accepted: …)" suffix of a value outside an enum or literal: what the field accepts. */
export function acceptedSuffix(values: readonly unknown[]): string {
  return ` (accepted: ${values.map((v) => JSON.stringify(v)).join(", ")})`;
}

/**
 * The one ValidationError of an invalid input: the same wording wherever the input was checked
 * (runToolStep on the server, the console's form in the browser), so a person reads the same text.
 */
export function inputValidationError(all: readonly InputIssue[]): ValidationError {
  const issues = all.slice(0, MAX_LISTED_ISSUES);
  const more = all.length - issues.length;
  if (more > 0) issues.push({ field: "input", message: `${more} more problem(s)` });
  return ValidationError.fromIssues(issues, {
    hint: "Fix the input and call again; nothing was sent.",
    details: { issues },
  });
}
