/**
 * A step's tasks (src/tools/tasks.ts) for the console: found by the tool-step bar's search, their choices
 * read with the step itself, and their values turned into the step's input, which the page shows as the
 * REST call and runs through the ordinary run route. Nothing here names a service: what a task knows
 * lives in its step's files.
 */
import { NotFoundError, ValidationError } from "../errors.js";
import { alikeFirst } from "../tools/records/similar-names.js";
import { getToolStep, TOOL_STEPS } from "../tools/registry.js";
import { runToolStep } from "../tools/run.js";
import {
  type AnswerView,
  answerMatches,
  answerView,
  type StepTask,
  type TaskOption,
  type TaskView,
  taskMatches,
  taskView,
} from "../tools/tasks.js";
import type { Workspace } from "../workspace.js";

/** The tasks a search finds (all of them for an empty query, as the bar lists every step), in the registry's order. */
export function searchTasks(query: string, now = new Date()): TaskView[] {
  const all = !query.trim();
  return TOOL_STEPS.flatMap((step) =>
    (step.tasks ?? [])
      .filter((task) => all || taskMatches(task, query))
      .map((task) => taskView(step, task, now)),
  );
}

/** The answers of the steps whose questions the query asks (none for an empty query), in the registry's order. */
export function searchAnswers(query: string): AnswerView[] {
  if (!query.trim()) return [];
  return TOOL_STEPS.flatMap((step) =>
    (step.answers ?? [])
      .filter((answer) => answerMatches(answer, query))
      .map((answer) => answerView(step, answer)),
  );
}

function findTask(stepId: string, taskId: string): StepTask {
  const task = getToolStep(stepId).tasks?.find((one) => one.id === taskId);
  if (!task) throw new NotFoundError(`The step ${stepId} has no task ${taskId}.`);
  return task;
}

/** GET …/tasks/:task/choices/:field: the options of a choice field, read with the step (at most 1,000). */
export async function taskChoices(
  workspace: Workspace,
  stepId: string,
  taskId: string,
  field: string,
  signal?: AbortSignal,
): Promise<{ options: TaskOption[] }> {
  const choices = findTask(stepId, taskId).choices?.[field];
  if (!choices) throw new NotFoundError(`The task ${taskId} has no field ${field} with choices.`);
  const result = await runToolStep(stepId, choices.input, await workspace.toolContext({ signal }));
  const records = (result.data as { result?: unknown }).result;
  const options = (Array.isArray(records) ? records : []).flatMap((record) => {
    const option =
      typeof record === "object" && record !== null
        ? choices.option(record as Record<string, unknown>)
        : undefined;
    return option ? [option] : [];
  });
  // By group ("Can be requested" before "Cannot be requested"), then by name.
  const byName = (a: TaskOption, b: TaskOption) =>
    (a.group ?? "").localeCompare(b.group ?? "") || a.label.localeCompare(b.label);
  return { options: options.sort(byName) };
}

/** POST …/tasks/:task/input with {values}: the step's input for them, or a refusal naming the field. */
export function taskInput(stepId: string, taskId: string, body: Record<string, unknown>) {
  const task = findTask(stepId, taskId);
  const given = body.values;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw new ValidationError("values", "send the task's values as an object of texts.");
  const values: Record<string, string> = {};
  for (const field of task.fields) {
    const value = (given as Record<string, unknown>)[field.name];
    if (typeof value === "string" && value.trim() !== "") values[field.name] = value.trim();
  }
  return { input: task.input(values, new Date()) };
}

/** How many names alike a refusal of a typed name offers. */
const ALIKE_SHOWN = 5;
/**
 * Up to this many options, a refusal names every one (trial s8, finding 1: "10 in all" named 5, and a
 * person had no way to see the others); past it, it says how to see them all in the box.
 */
export const ALL_NAMED = 20;

/**
 * POST …/tasks/:task/input for the page: a name typed in a choice field that no option has (trial s7,
 * finding 1: a list nobody made) is refused by the task under that field, and here the names alike
 * among the field's options are added, and the others or how to see them (namesWords).
 */
export async function taskInputNamed(
  workspace: Workspace,
  stepId: string,
  taskId: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
) {
  try {
    return taskInput(stepId, taskId, body);
  } catch (error) {
    const typed = (body.values as Record<string, unknown> | undefined)?.[(error as ValidationError).field];
    const choices = findTask(stepId, taskId).choices;
    // An empty field is refused as it is: only a typed name is worth a read of the options.
    if (
      !(error instanceof ValidationError) ||
      !choices?.[error.field] ||
      typeof typed !== "string" ||
      !typed.trim()
    )
      throw error;
    const { options } = await taskChoices(workspace, stepId, taskId, error.field, signal).catch(() => ({
      options: [] as TaskOption[],
    }));
    if (options.some((option) => option.value === typed.trim()) || options.length === 0) throw error;
    const words = error.message.slice(
      `Invalid ${error.field}: `.length,
      error.hint ? -error.hint.length - 1 : undefined,
    );
    const title = findTask(stepId, taskId).fields.find((field) => field.name === error.field)?.title;
    throw new ValidationError(error.field, `${words} ${namesWords(typed, options, title ?? error.field)}`, {
      ...(error.hint ? { hint: error.hint } : {}),
    });
  }
}

/**
 * The names a refusal of `typed` offers, for a person (the console's own route: an agent's by-name
 * lookups word theirs in src/tools/marketo/near-names.ts): the names alike first, then, when there are
 * at most ALL_NAMED options, every other one; past that, how to see them all in the field's box.
 */
export function namesWords(typed: string, options: readonly TaskOption[], fieldTitle: string): string {
  const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");
  const labels = options.map((option) => option.label);
  const alike = alikeFirst(typed.trim(), labels).slice(0, ALIKE_SHOWN);
  const others = labels.filter((label) => !alike.includes(label));
  const seeAll = `To see all ${options.length}, clear the ${fieldTitle} box.`;
  if (alike.length === 0)
    return options.length <= ALL_NAMED
      ? `None is alike; there are ${options.length}: ${quoted(labels)}.`
      : `None is alike. ${seeAll}`;
  const said = `Names alike: ${quoted(alike)}.`;
  if (others.length === 0) return said;
  return options.length <= ALL_NAMED
    ? `${said} The ${others.length === 1 ? "other" : `other ${others.length}`}: ${quoted(others)}.`
    : `${said} ${seeAll}`;
}
