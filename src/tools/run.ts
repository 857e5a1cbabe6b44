import { CancelledError } from "../errors.js";
import { parseToolInput } from "./input/parse.js";
import { getToolStep } from "./registry.js";
import type { SchemaContext, ToolContext, ToolResult } from "./types.js";

/**
 * Runs one tool step: turns accepted other spellings of the input into the schema's form, validates it
 * against the step's strict schema (nothing is sent when it is invalid: an unknown field is an error, never
 * dropped), then calls its handler with connectors bound to the caller's workspace.
 */
export async function runToolStep(
  id: string,
  input: unknown,
  context: ToolContext & { schemaContext?: SchemaContext },
): Promise<ToolResult<unknown>> {
  const step = getToolStep(id);
  const schema = step.input(context.schemaContext ?? { accounts: [] });
  const fields = parseToolInput(schema, input ?? {}, step.aliases);
  if (context.signal?.aborted) throw new CancelledError(`${step.title} was cancelled before it started.`);
  return step.handler(fields, context);
}
