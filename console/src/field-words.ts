/**
 * Field help in a marketer's words (issue 28 §5), where a person fills a form. The tool schemas' own
 * descriptions are written for agents ("metric API names", "{start_date, end_date, name?}") and stay so:
 * their length counts against a model's context. The page shows these instead, by step (or task) and by
 * field name; a field not listed keeps its schema's words.
 */
import type { UiSchema } from "@rjsf/utils";

/** By step id, then by field name (a nested field by its path: "funnel.open"). */
const STEP_WORDS: Record<string, Record<string, string>> = {
  google_analytics_run_reports: {
    account: "The Google account the report reads with (as connected under Integrations).",
    property: "The Google Analytics property to report on: pick it from the list.",
    metrics: 'What to count: type part of a name as Google Analytics shows it ("Sessions", "Total users").',
    dimensions: 'How to split the counts, optional: "Country", "Session default channel group", "Date".',
    date_ranges:
      "The period to report on: the last 7 days unless you choose one. Add a second period to compare the two.",
    filter:
      "Optional: which rows to keep, with the names the lists show, e.g. Country = France and Sessions > 10, or Page path contains /pricing. Add a condition, below, builds one from lists.",
    order_by: "Optional: a column of the report to sort by, largest or smallest first.",
    limit: "How many rows to show at most (up to 10,000). 100 unless you say.",
    offset: "Rows to skip from the top: to see the rows after those shown.",
    realtime: "Report on the last 30 minutes instead of a period.",
    chart:
      "The page draws the chart either way. Ticked: an app that runs this report for you also gets the chart as a PNG picture, to show or save.",
    minute_ranges: "With the last 30 minutes: up to two stretches of minutes to compare.",
    funnel:
      "A funnel instead: how many users went through two to ten events in order, and where they dropped off.",
    // A nested field by its path (trial s5, finding 5: "Open funnel" and "Next action" had no explanation).
    "funnel.open":
      "Ticked: people may join at any step. Unticked: only people who did step 1 are counted, step by step.",
    "funnel.next_action":
      "Optional: also show what people did right after each step: the next event or page.",
  },
};

/** By step id: the fields only an API user needs, in the order they show under More options (MoreOptions.tsx). */
const MORE_OPTIONS: Record<string, readonly string[]> = {
  google_analytics_run_reports: ["realtime", "minute_ranges", "offset", "chart"],
};

/** The step's technical fields, shown closed under More options (trial s9, finding 8); none for most steps. */
export const moreOptions = (step: string): readonly string[] => MORE_OPTIONS[step] ?? [];

/**
 * A text box's example where the schema's is an agent's: the filter's help says "Country = France", its
 * example said `country == "France"` (trial s9, finding 7). By step, then by field name.
 */
const STEP_PLACEHOLDERS: Record<string, Record<string, string>> = {
  google_analytics_run_reports: { filter: "e.g. Country = France" },
};

const PICK_A_LIST = "Pick a list from the box, or type part of its name to narrow it (static lists only).";

/** By task id, then by field name (src/tools/marketo/tasks.ts names the fields). */
const TASK_WORDS: Record<string, Record<string, string>> = {
  list_members: { list: PICK_A_LIST },
  show_members: { list: PICK_A_LIST },
  export: {
    fields:
      'The columns of the file, in order: type part of each lead field\'s name as Marketo shows it or in one word ("First Name" or "firstName"), in any case, and pick it; "Lead Source" also names Person Source. Remove one with its ×. Each column is headed by the name picked.',
  },
};

/**
 * A step's description as the page shows it, where the schema's speaks to an agent ("runReport", "quota",
 * paths): a step not listed keeps its own.
 */
const STEP_INTROS: Record<string, string> = {
  google_analytics_run_reports:
    "Reports on a Google Analytics 4 property: metrics split by dimensions over a period, two periods side by side with the change, a funnel of events in order, or the last 30 minutes. Names are checked against the property before the report runs.",
};

/** The step's description in the page's words. */
export const stepIntro = (step: { id: string; description: string }) =>
  STEP_INTROS[step.id] ?? step.description;

/** A task field's help as the page shows it. */
export const taskFieldHelp = (task: string, field: string, fallback: string | undefined) =>
  TASK_WORDS[task]?.[field] ?? fallback;

/** The step's uiSchema with each listed field's words as its description. */
export function withFieldWords(ui: UiSchema, step: string): UiSchema {
  const words = STEP_WORDS[step];
  if (!words) return ui;
  const out: UiSchema = { ...ui };
  for (const [path, text] of Object.entries(words)) {
    // "funnel.open": the uiSchema of `open` inside `funnel`, each level copied, not changed in place.
    const keys = path.split(".");
    let at = out;
    keys.forEach((key, index) => {
      const next: UiSchema = { ...((at[key] ?? {}) as UiSchema) };
      if (index === keys.length - 1) next["ui:description"] = text;
      const placeholder = STEP_PLACEHOLDERS[step]?.[path];
      if (index === keys.length - 1 && placeholder) next["ui:placeholder"] = placeholder;
      at[key] = next;
      at = next;
    });
  }
  return out;
}

/** A field's description: the page's words when it has some, else the schema's. */
export const describedAs = (props: { uiSchema?: UiSchema | undefined; schema: { description?: string } }) =>
  (props.uiSchema?.["ui:description"] as string | undefined) ?? props.schema.description;
