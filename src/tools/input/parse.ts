import type { z } from "zod";
import { describeIssues, inputError } from "./errors.js";
import { type InputAliases, normaliseInput } from "./normalise.js";

/** "a" and "a.b" or "a[0]" are about the same value; so are two equal paths. */
const related = (a: string, b: string) =>
  a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`) || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);

/**
 * A step's input in its schema's form: other accepted spellings normalised first, then the strict schema
 * (an unknown field is an error, never dropped). Every problem is reported at once, as one ValidationError;
 * nothing is sent when there is any.
 */
export function parseToolInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  aliases?: InputAliases,
): z.output<S> {
  const normalised = normaliseInput(schema, input, aliases);
  const parsed = schema.safeParse(normalised.value, { reportInput: true });
  if (parsed.success && normalised.issues.length === 0) return parsed.data;
  const reported = normalised.issues.map((issue) => issue.field);
  const more = parsed.success ? [] : describeIssues(parsed.error, schema);
  throw inputError([
    ...normalised.issues,
    ...more.filter((problem) => !reported.some((field) => related(field, problem.field))),
  ]);
}
