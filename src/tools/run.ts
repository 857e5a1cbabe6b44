import type { z } from "zod";
import { CancelledError, ValidationError } from "../errors.js";
import { issuePath } from "../schemas/json-schema.js";
import { getToolStep } from "./registry.js";
import type { SchemaContext, ToolContext, ToolResult } from "./types.js";

/** The accepted values of a zod issue, when zod knows them (enums, literals). */
function acceptedOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "invalid_value") return issue.values.map((v) => JSON.stringify(v)).join(", ");
  return undefined;
}

/** Turns zod's issues into one ValidationError that names the field and what is accepted. */
export function validationErrorFrom(error: z.ZodError): ValidationError {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const accepted = acceptedOf(issue);
    return {
      field: issuePath(issue.path),
      message: `${issue.message}${accepted ? ` (accepted: ${accepted})` : ""}`,
    };
  });
  const more = error.issues.length - issues.length;
  if (more > 0) issues.push({ field: "input", message: `${more} more problem(s)` });
  return ValidationError.fromIssues(issues, {
    hint: "Fix the input and call again; nothing was sent.",
    details: { issues },
  });
}

/**
 * Runs one tool step: validates the input against the step's schema (nothing is sent when it is
 * invalid), then calls its handler with connectors bound to the caller's workspace.
 */
export async function runToolStep(
  id: string,
  input: unknown,
  context: ToolContext & { schemaContext?: SchemaContext },
): Promise<ToolResult<unknown>> {
  const step = getToolStep(id);
  const schema = step.input(context.schemaContext ?? { accounts: [] });
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  if (context.signal?.aborted) throw new CancelledError(`${step.title} was cancelled before it started.`);
  return step.handler(parsed.data, context);
}
