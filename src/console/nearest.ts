/**
 * What the tool-step bar offers when a query's words find no step, no task and no answer (trial s13,
 * finding 1: "beta testers", "integrations" said "No tool step matches."): the tasks that come closest,
 * and for words nothing knows, the tasks that pick a thing by its name, since such words are most
 * often a list's or a campaign's name. Nothing here names a service: the words are the tasks' own.
 */
import { TOOL_STEPS } from "../tools/registry.js";
import { type AnswerView, type StepTask, type TaskView, taskCloseness, taskView } from "../tools/tasks.js";

/** The console's own pages a search may ask for, answered with a link (no step is about them). */
const PAGE_ANSWERS: readonly (AnswerView & { patterns: readonly RegExp[] })[] = [
  {
    step: "",
    service: "",
    id: "integrations",
    title: "Integrations",
    patterns: [/\b(?:integ|connect|credential|api key)/i],
    words:
      "What is connected (the accounts, whether they work, which property reports open on) is on the Integrations page.",
    link: { href: "#/integrations", text: "Open Integrations" },
  },
];

/** The answers about the console's own pages that the query asks for. */
export function pageAnswers(query: string): AnswerView[] {
  if (!query.trim()) return [];
  return PAGE_ANSWERS.filter((answer) => answer.patterns.some((pattern) => pattern.test(query))).map(
    ({ patterns: _patterns, ...answer }) => answer,
  );
}

/** Every task with its step, in the registry's order. */
const allTasks = () => TOOL_STEPS.flatMap((step) => (step.tasks ?? []).map((task) => ({ step, task })));

/** A task that picks something by its name (a list, a campaign): a field read from the service. */
const picksByName = (task: StepTask) => task.fields.some((field) => field.kind === "choice");

/**
 * The tasks nearest a query that found nothing: those matching the most of its words (at least one);
 * when none matches any, the tasks that pick a thing by its name, with an answer saying why they are offered.
 */
export function nearestTasks(query: string, now = new Date()): { tasks: TaskView[]; answers: AnswerView[] } {
  const scored = allTasks()
    .map((one) => ({ ...one, close: taskCloseness(one.task, query) }))
    .filter((one) => one.close > 0);
  if (scored.length > 0) {
    const best = scored.sort((a, b) => b.close - a.close);
    return { tasks: best.map(({ step, task }) => taskView(step, task, now)), answers: [] };
  }
  const pickers = allTasks().filter(({ task }) => picksByName(task));
  if (pickers.length === 0) return { tasks: [], answers: [] };
  const plurals = [
    ...new Set(pickers.flatMap(({ task }) => task.fields.flatMap((field) => field.plural ?? []))),
  ];
  const things = plurals.length > 1 ? `${plurals.slice(0, -1).join(", ")} or ${plurals.at(-1)}` : plurals[0];
  const typed = query.trim().slice(0, 60);
  const answer: AnswerView = {
    step: "",
    service: "",
    id: "name",
    title: `"${typed}" may be a name`,
    words: `No step or task is called "${typed}". If it is one of your ${things}, choose a form below and pick it there by its name.`,
  };
  return { tasks: pickers.map(({ step, task }) => taskView(step, task, now)), answers: [answer] };
}
