import type { z } from "zod";
import { DEFAULT_DEADLINE_MS, seconds, withDeadline } from "../deadline.js";
import { CancelledError, DeadlineExceededError, ValidationError } from "../errors.js";
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
 * How long past its deadline a step may take to report it itself: connectors end at the deadline with
 * an error that says what was under way; this is only the backstop for work that does not.
 */
const BACKSTOP_GRACE_MS = 1_000;

/**
 * Runs one tool step: validates the input against the step's schema (nothing is sent when it is
 * invalid), then calls its handler with connectors bound to the caller's workspace, under the call's
 * overall deadline (`context.deadlineMs`, default 120 s). The deadline travels on the signal the
 * handler passes to the connectors, so every adapter gets it; a call always ends, with a result or
 * a typed error.
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
  const deadlineMs = context.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = withDeadline(context.signal, deadlineMs);
  let backstop: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_resolve, reject) => {
    backstop = setTimeout(() => {
      const writes = !step.annotations.readOnlyHint;
      reject(
        new DeadlineExceededError(
          `${step.title} did not finish within its ${seconds(deadlineMs)} deadline.`,
          {
            writeMayHaveHappened: writes,
            deadlineMs,
            hint: writes
              ? "It may have made changes before it stopped answering: check before running it again."
              : "Nothing was changed; retry later, or raise MARTECH_STEPS_DEADLINE_MS.",
          },
        ),
      );
    }, deadlineMs + BACKSTOP_GRACE_MS);
  });
  try {
    return await Promise.race([step.handler(parsed.data, { ...context, signal: deadline.signal }), overdue]);
  } finally {
    clearTimeout(backstop);
    deadline.clear();
  }
}
