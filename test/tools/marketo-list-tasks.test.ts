/**
 * Show list members (src/tools/marketo/list-tasks.ts, trial s9, finding 3: no task showed a list's members,
 * so an add could not be checked): found by "list members", its list picked by name, its members read by
 * Get Leads By List page after page on the sandbox, a list longer than the read said to have more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchTasks, taskChoices, taskInput } from "../../src/console/tasks.js";
import { MEMBERS_SHOWN } from "../../src/tools/marketo/list-tasks.js";
import { runToolStep } from "../../src/tools/run.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

const STEP = "marketo_api_call";

describe("Show list members", () => {
  let fixture: ConsoleFixture;
  beforeAll(async () => {
    fixture = await startConsoleFixture();
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });
  const run = async (task: string, values: Record<string, string>) => {
    const { input } = taskInput(STEP, task, { values });
    const ctx = await fixture.workspace().toolContext({ progress: () => undefined });
    // As the console runs it: the whole read kept, beyond what one answer shows (src/console/steps.ts).
    const result = await runToolStep(STEP, input, { ...ctx, fullResults: { maxBytes: 50_000_000 } });
    const data = result.data as { result: Record<string, unknown>[]; pages: number };
    const read = (result.full?.items ?? data.result) as Record<string, unknown>[];
    return { input, data, read, more: typeof result.full?.nextCursor === "string" };
  };
  const listId = async (name: string) => {
    const lists = await taskChoices(fixture.workspace(), STEP, "show_members", "list");
    return lists.options.find((option) => option.label === name)?.value ?? "";
  };

  it("is found by a marketer's words for it", () => {
    const found = (query: string) => searchTasks(query).map((task) => task.id);
    for (const query of ["list members", "show list members", "who is on a list", "static list"])
      expect({ query, found: found(query) }).toEqual({
        query,
        found: expect.arrayContaining(["show_members"]),
      });
  });

  it("reads every member of a list, and a lead just added is among them", async () => {
    const list = await listId("Trade Show Leads");
    const before = await run("show_members", { list });
    expect(before.input).toMatchObject({ method: "GET", endpoint: `/rest/v1/lists/${list}/leads.json` });
    expect(before.more).toBe(false);
    expect(before.read.length).toBeGreaterThan(0);
    const ids = before.read.map((lead) => lead.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(before.read[0]).toEqual(
      expect.objectContaining({ id: expect.any(Number), email: expect.stringMatching(/@/) }),
    );
    const outside = [7, 8, 9, 10, 11, 12].find((id) => !ids.includes(id)) ?? 0;
    await run("list_members", { action: "add", list, leads: String(outside) });
    const after = await run("show_members", { list });
    expect(after.read.map((lead) => lead.id).sort()).toEqual([...ids, outside].sort());
  });

  it("says a list longer than it reads has more", async () => {
    const longest = await run("show_members", { list: await listId("Newsletter Subscribers") });
    expect(longest.data.pages).toBeGreaterThan(1);
    expect(longest.read.length).toBe(MEMBERS_SHOWN);
    expect(longest.more).toBe(true);
  });
});
