import { DEFAULT_DEADLINE_MS, seconds, timerMs, withDeadline } from "../deadline.js";
import { CancelledError, DeadlineExceededError, isMartechError } from "../errors.js";
import { telemetry } from "../telemetry.js";
import { parseToolInput } from "./input/parse.js";
import { getToolStep, TOOL_STEPS } from "./registry.js";
import type { SchemaContext, ToolContext, ToolResult } from "./types.js";

/**
 * How long past its deadline a step may take to report it itself: connectors end at the deadline with
 * an error that says what was under way; this is only the backstop for work that does not.
 */
const BACKSTOP_GRACE_MS = 1_000;

/**
 * Runs one tool step: turns accepted other spellings of the input into the schema's form, validates it
 * against the step's strict schema (nothing is sent when it is invalid: an unknown field is an error, never
 * dropped), then calls its handler with connectors bound to the caller's workspace, under the call's
 * overall deadline (`context.deadlineMs`, default 120 s). The deadline travels on the signal the
 * handler passes to the connectors, so every adapter gets it; a call always ends, with a result or
 * a typed error.
 */
export async function runToolStep(
  id: string,
  input: unknown,
  context: ToolContext & { schemaContext?: SchemaContext | (() => Promise<SchemaContext>) },
): Promise<ToolResult<unknown>> {
  const started = performance.now();
  try {
    const result = await run(id, input, context);
    telemetry.stepCall(id, "ok", (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    // Metric labels are fixed values: a registered step id (else "unknown") and an error kind.
    const step = TOOL_STEPS.some((s) => s.id === id) ? id : "unknown";
    const outcome = isMartechError(error) ? error.code : "internal_error";
    telemetry.stepCall(step, outcome, (performance.now() - started) / 1000);
    throw error;
  }
}

const NO_CONTEXT: SchemaContext = { accounts: [] };

/**
 * The context the step's input schema is built with. A step whose `input()` takes no argument cannot
 * read one, so a context given as a function (the workspace's, which reads the credential store for the
 * connected accounts) is only called for the steps whose schema lists them.
 */
async function schemaContextFor(
  step: { input: (context: SchemaContext) => unknown },
  given: SchemaContext | (() => Promise<SchemaContext>) | undefined,
): Promise<SchemaContext> {
  if (given === undefined || step.input.length === 0) return NO_CONTEXT;
  return typeof given === "function" ? given() : given;
}

async function run(
  id: string,
  input: unknown,
  context: ToolContext & { schemaContext?: SchemaContext | (() => Promise<SchemaContext>) },
): Promise<ToolResult<unknown>> {
  const step = getToolStep(id);
  const schema = step.input(await schemaContextFor(step, context.schemaContext));
  const fields = parseToolInput(schema, input ?? {}, step.aliases);
  if (context.signal?.aborted) throw new CancelledError(`${step.title} was cancelled before it started.`);
  const deadlineMs = context.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = withDeadline(context.signal, deadlineMs);
  let backstop: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_resolve, reject) => {
    backstop = setTimeout(
      () => {
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
      },
      timerMs(deadlineMs + BACKSTOP_GRACE_MS),
    );
  });
  try {
    return await Promise.race([step.handler(fields, { ...context, signal: deadline.signal }), overdue]);
  } finally {
    clearTimeout(backstop);
    deadline.clear();
  }
}
