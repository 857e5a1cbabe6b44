/**
 * A step's common tasks as forms of their own (issue 28 §2): fields a person knows ("List", "Email"), each
 * task turning its values into the step's input, which runs through the registry like any other call.
 * The shapes here name no service: a step's own file (src/tools/marketo/tasks.ts) holds what a task
 * knows of its service (paths, field names), and adapters render tasks without knowing which step they
 * belong to.
 */

/** How a field is typed: one line, a date, several lines (CSV), one of fixed options, or one read from the service. */
export type TaskFieldKind = "text" | "date" | "lines" | "options" | "choice";

export interface TaskOption {
  value: string;
  label: string;
  /** A fact that helps choose (a campaign "can be requested"), shown beside the label. */
  detail?: string;
  /** The heading it is listed under ("Can be requested"); options without one are listed together. */
  group?: string;
}

export interface TaskField {
  name: string;
  title: string;
  kind: TaskFieldKind;
  /** One sentence under the field: what to type and where to find it. */
  help?: string;
  /**
   * A value to type, shown in the empty box ("e.g. Grace Tanaka"). It names what the embedded sandbox has,
   * so a newcomer trying it finds something: test/tools/marketo-task-examples.test.ts runs each one.
   */
  example?: string;
  required?: boolean;
  /** What several of a `choice` field's options are called ("lists"), in the page's "see all 10 lists". */
  plural?: string;
  /** The options of an `options` field. */
  options?: readonly TaskOption[];
  /** The value a form starts with (dates relative to `now`). */
  initial?: (now: Date) => string;
  /** Shown only when another field holds one of these values (the export's field list, for leads only). */
  when?: { field: string; values: readonly string[] };
}

/** Where a `choice` field's options come from: one read with the same step, each record an option. */
export interface TaskChoices {
  input: Record<string, unknown>;
  option(record: Record<string, unknown>): TaskOption | undefined;
}

export interface StepTask {
  id: string;
  title: string;
  /** One sentence: what it does, in the words of the person doing it. */
  summary: string;
  /** Words a search for the task may use (the title and summary count too). */
  keywords: readonly string[];
  fields: readonly TaskField[];
  /** The options of each `choice` field, by field name. */
  choices?: Readonly<Record<string, TaskChoices>>;
  /**
   * The step's input for the values typed (each trimmed text; an empty field is absent). Throws a
   * ValidationError naming the task's field (its `name`) when a value cannot be used.
   */
  input(values: Readonly<Record<string, string>>, now: Date): Record<string, unknown>;
}

/** A task as a page gets it: its fields with their starting values, never its functions. */
export interface TaskView {
  step: string;
  /** The step's service (the page names it as it names the step's). */
  service: string;
  id: string;
  title: string;
  summary: string;
  fields: (Omit<TaskField, "initial"> & { initial?: string })[];
}

export function taskView(step: { id: string; service: string }, task: StepTask, now: Date): TaskView {
  return {
    step: step.id,
    service: step.service,
    id: task.id,
    title: task.title,
    summary: task.summary,
    fields: task.fields.map(({ initial, ...field }) => ({
      ...field,
      ...(initial ? { initial: initial(now) } : {}),
    })),
  };
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/**
 * Whether a search finds the task: every word of the query begins a word of its title, summary or
 * keywords ("add to list", "campaign", "export csv"); "to", "a" and the like are not needed.
 */
export function taskMatches(task: StepTask, query: string): boolean {
  const own = words([task.title, task.summary, ...task.keywords].join(" "));
  const wanted = words(query).filter((word) => !STOP.has(word));
  return wanted.length > 0 && wanted.every((word) => own.some((mine) => mine.startsWith(word)));
}

/**
 * How many of the query's words begin a word of the task's own: the bar's nearest tasks when no task has
 * them all ("send newsletter" comes closest to the task that sends).
 */
export function taskCloseness(task: StepTask, query: string): number {
  const own = words([task.title, task.summary, ...task.keywords].join(" "));
  const wanted = words(query).filter((word) => !STOP.has(word));
  return wanted.filter((word) => own.some((mine) => mine.startsWith(word))).length;
}

const STOP = new Set(["a", "an", "the", "to", "on", "of", "for", "in", "from", "by", "my", "and", "or"]);

/**
 * A question a search asks that the step cannot do, answered in words (trial C12: "schedule" found
 * nothing; s5, finding 9: "edit email subject" found only the REST form). The words are the step's:
 * shared code only matches and shows them.
 */
export interface StepAnswer {
  id: string;
  /** The card's heading. */
  title: string;
  /** A query that matches any of these is answered. */
  patterns: readonly RegExp[];
  /** What to do instead, in a person's words. */
  words: string;
  /** What the bar searches for instead (the step that comes nearest), when not the query itself. */
  search?: string;
}

/** An answer as a page gets it: its words, never its patterns. */
export interface AnswerView {
  step: string;
  service: string;
  id: string;
  title: string;
  words: string;
  search?: string;
  /** Where the answer leads in the console (its Integrations page), as a link. */
  link?: { href: string; text: string };
}

export const answerMatches = (answer: StepAnswer, query: string): boolean =>
  answer.patterns.some((pattern) => pattern.test(query));

export function answerView(step: { id: string; service: string }, answer: StepAnswer): AnswerView {
  const { patterns: _patterns, ...words } = answer;
  return { step: step.id, service: step.service, ...words };
}
