/**
 * Every example a Marketo task form shows in an empty box (`example`, src/tools/tasks.ts) finds something
 * in the embedded sandbox when run with the form's starting values (trial s9, finding 4: the name search's
 * own example, "Ann Kowalski", found nobody). The sandbox's seed may change: each example is run, not
 * compared with a name written here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withApiNames } from "../../console/src/filter-names.js";
import { taskInput } from "../../src/console/tasks.js";
import { LEAD_FIELDS } from "../../src/sandbox/marketo/lead-db/fields.js";
import { MARKETO_TASKS } from "../../src/tools/marketo/tasks.js";
import { runToolStep } from "../../src/tools/run.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

const STEP = "marketo_api_call";
const NOW = new Date();

/** The form's starting values, as the page fills them. */
const initial = (task: string) =>
  Object.fromEntries(
    (MARKETO_TASKS.find((one) => one.id === task)?.fields ?? []).flatMap((field) =>
      field.initial ? [[field.name, field.initial(NOW)]] : [],
    ),
  );

/**
 * How each example is tried: the values it is typed into (with the form's others), the page's own
 * rewriting of display names where it makes one (console/src/marketo/task-prepare.ts).
 */
const TRIES: Record<string, (example: string) => Record<string, string>> = {
  "find_lead.email": (email) => ({ ...initial("find_lead"), by: "email", email }),
  "find_lead.name": (name) => ({ ...initial("find_lead"), by: "name", name }),
  "export.types": (types) => ({ ...initial("export"), what: "activities", types }),
  "export.where": (where) => {
    const named = withApiNames(
      where,
      LEAD_FIELDS.map((field) => ({ api: field.name, ui: field.displayName })),
    );
    if (!named.ok) throw new Error(`the example "${where}" is refused: ${named.message}`);
    return { ...initial("export"), where: named.filter };
  },
};

const examples: [string, string][] = MARKETO_TASKS.flatMap((task) =>
  task.fields.flatMap((field): [string, string][] =>
    field.example ? [[`${task.id}.${field.name}`, field.example]] : [],
  ),
);

describe("the examples Marketo's task forms show", () => {
  let fixture: ConsoleFixture;
  beforeAll(async () => {
    fixture = await startConsoleFixture();
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  it("are there for the name search, the filter and the activity types, each with a way to try it", () => {
    expect(examples.map(([at]) => at)).toEqual(
      expect.arrayContaining(["find_lead.name", "export.where", "export.types"]),
    );
    expect(examples.map(([at]) => at).filter((at) => !(at in TRIES))).toEqual([]);
  });

  it.each(examples)(
    "%s: %s finds something in the sandbox",
    async (at, example) => {
      const [task = ""] = at.split(".");
      const values = TRIES[at]?.(example) ?? {};
      const { input } = taskInput(STEP, task, { values });
      const ctx = await fixture.workspace().toolContext({ progress: () => undefined });
      const result = await runToolStep(STEP, input, ctx);
      const rows = (result.data as { result?: unknown[] }).result ?? [];
      expect(rows.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
