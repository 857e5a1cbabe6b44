import type { z } from "zod";
import { ValidationError } from "../../errors.js";
import { checkInputDepth } from "./depth.js";
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
  checkInputDepth(input);
  try {
    return parseBounded(schema, input, aliases);
  } catch (error) {
    // The depth bound keeps every recursive check within the stack; should one still overflow, the caller
    // gets a typed refusal, not an internal error.
    if (!(error instanceof RangeError)) throw error;
    throw new ValidationError("input", "it is too large or too deeply nested to check.", {
      hint: "Fix the input and call again; nothing was sent.",
    });
  }
}

function parseBounded<S extends z.ZodType>(schema: S, input: unknown, aliases?: InputAliases): z.output<S> {
  const normalised = normaliseInput(schema, input, aliases);
  const parsed = schema.safeParse(normalised.value, { reportInput: true });
  if (parsed.success && normalised.issues.length === 0 && normalised.omitted === 0) return parsed.data;
  // Both lists are bounded (the first few dozen problems; the rest are counted), so this stays cheap.
  const reported = normalised.issues.map((issue) => issue.field);
  const { problems, more } = parsed.success
    ? { problems: [], more: 0 }
    : describeIssues(parsed.error, schema);
  throw inputError(
    [
      ...normalised.issues,
      ...problems.filter((problem) => !reported.some((field) => related(field, problem.field))),
    ],
    normalised.omitted + more,
  );
}
