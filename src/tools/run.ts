import type { z } from "zod";
import { CancelledError, type ValidationError } from "../errors.js";
import { issuePath } from "../schemas/json-schema.js";
import { acceptedSuffix, inputValidationError } from "./input-issues.js";
import { getToolStep } from "./registry.js";
import type { SchemaContext, ToolContext, ToolResult } from "./types.js";

/** Turns zod's issues into one ValidationError that names the field and what is accepted. */
export function validationErrorFrom(error: z.ZodError): ValidationError {
  return inputValidationError(
    error.issues.map((issue) => ({
      field: issuePath(issue.path),
      message: `${issue.message}${issue.code === "invalid_value" ? acceptedSuffix(issue.values) : ""}`,
    })),
  );
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
