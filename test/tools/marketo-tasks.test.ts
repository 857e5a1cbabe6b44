/**
 * Marketo's tasks (src/tools/marketo/tasks.ts) as the console serves them (src/console/tasks.ts): each
 * found by a search in a marketer's words, its choices read from the instance by name, its values made
 * into a marketo_api_call input that runs on the sandbox, and each refusal naming one of its own fields
 * (so the form shows it under that field).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ALL_NAMED,
  namesWords,
  searchTasks,
  taskChoices,
  taskInput,
  taskInputNamed,
} from "../../src/console/tasks.js";
import { isMartechError } from "../../src/errors.js";
import { MARKETO_TASKS } from "../../src/tools/marketo/tasks.js";
import { runToolStep } from "../../src/tools/run.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

const STEP = "marketo_api_call";
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe("Marketo's tasks", () => {
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
    const result = await runToolStep(STEP, input, ctx);
    return { input, data: result.data as { result?: Record<string, unknown>[]; record_errors?: unknown[] } };
  };

  it("are found by a marketer's words, all listed for an empty search, none for the step's own words", () => {
    const found = (query: string) => searchTasks(query).map((task) => task.id);
    expect(found("find lead")).toEqual(["find_lead"]);
    expect(found("add to list")).toContain("list_members");
    expect(found("remove from list")).toContain("list_members");
    expect(found("trigger campaign")).toEqual(["trigger_campaign"]);
    expect(found("export activities")).toEqual(["export"]);
    expect(found("upsert")).toEqual(["upsert_leads"]);
    expect(found("import csv")).toEqual(["upsert_leads"]);
    expect(found("")).toEqual(MARKETO_TASKS.map((task) => task.id));
    // The bar's search for the step ("marketing automation", "analytics") still lists the steps first.
    expect(found("marketing automation")).toEqual([]);
    expect(found("analytics")).toEqual([]);
  });

  it("offer the instance's lists and campaigns by name, saying which campaigns can be requested", async () => {
    const lists = await taskChoices(fixture.workspace(), STEP, "list_members", "list");
    expect(lists.options.map((option) => option.label)).toEqual(
      expect.arrayContaining(["Trade Show Leads", "Newsletter Subscribers"]),
    );
    // Each with where it sits, as Get Lists says it (trial s8, finding 1: "every static list, with folder").
    const listed = await runToolStep(
      STEP,
      { method: "GET", endpoint: "/rest/v1/lists.json" },
      await fixture.workspace().toolContext({ progress: () => undefined }),
    );
    const where = new Map(
      ((listed.data as { result: { id: number; programName: string }[] }).result ?? []).map((list) => [
        String(list.id),
        `in ${list.programName}`,
      ]),
    );
    expect(lists.options.map((option) => option.detail)).toEqual(
      lists.options.map((option) => where.get(option.value)),
    );
    expect(new Set(lists.options.map((option) => option.detail)).size).toBeGreaterThan(1);
    const campaigns = await taskChoices(fixture.workspace(), STEP, "trigger_campaign", "campaign");
    const detail = (name: string) => campaigns.options.find((option) => option.label === name)?.detail;
    expect(detail("Send Welcome Email")).toBe("can be requested");
    expect(detail("Score Web Visits")).toBe("cannot be requested: no Campaign is Requested trigger");
    expect(detail("Lead Nurture Entry")).toBe("cannot be requested: not active");
    // Those that can be requested come first.
    expect(campaigns.options[0]?.group).toBe("Can be requested");
  });

  it("refuse a list or campaign name nobody has under its field, saying so and the names alike (trial s7, 1)", async () => {
    const refusal = (task: string, values: Record<string, string>) =>
      taskInputNamed(fixture.workspace(), STEP, task, { values }).then(
        () => undefined,
        (error: unknown) => (isMartechError(error) ? { ...error.toJSON(), hint: error.hint } : error),
      );
    const lists = await taskChoices(fixture.workspace(), STEP, "list_members", "list");
    const list = await refusal("list_members", { action: "add", list: "Trade Show Leads 2026", leads: "7" });
    expect(list).toMatchObject({ error: "invalid_input", field: "list" });
    expect((list as { message: string }).message).toMatch(
      /^Invalid list: no static list is named "Trade Show Leads 2026"\. Names alike: "Trade Show Leads"[,.]/,
    );
    expect((list as { hint: string }).hint).toMatch(/Database → New → New List/);
    const none = await refusal("list_members", {
      action: "add",
      list: "Console training – Dec 2026",
      leads: "7",
    });
    expect((none as { message: string }).message).toMatch(
      /^Invalid list: no static list is named "Console training – Dec 2026"\. (Names alike: "|None is alike; there are 10: ")/,
    );
    // Every list is named, not 5 of the "10 in all" (trial s8, finding 1), each once.
    const named = (text: string) => lists.options.filter((option) => text.includes(`"${option.label}"`));
    expect(lists.options.length).toBe(10);
    expect(named((none as { message: string }).message)).toEqual(lists.options);
    expect(named((list as { message: string }).message)).toEqual(lists.options);
    expect((list as { message: string }).message.match(/"Trade Show Leads"/g)).toHaveLength(1);
    const campaign = await refusal("trigger_campaign", { campaign: "Send Welcome Emails", leads: "7" });
    expect(campaign).toMatchObject({ field: "campaign" });
    expect((campaign as { message: string }).message).toMatch(
      /^Invalid campaign: no smart campaign is named "Send Welcome Emails"\. Names alike: "Send Welcome Email"/,
    );
    // An empty field is refused as before: "choose or type", with no names read for it.
    expect(await refusal("list_members", { action: "add", list: "", leads: "7" })).toMatchObject({
      message: "Invalid list: choose or type a static list.",
    });
    // An id picked from the list is no name: it is used as it is.
    const id = lists.options[0]?.value ?? "";
    await expect(
      taskInputNamed(fixture.workspace(), STEP, "list_members", {
        values: { action: "add", list: id, leads: "7" },
      }),
    ).resolves.toMatchObject({ input: { endpoint: `/rest/v1/lists/${id}/leads.json` } });
  });

  it("name every option a typed name is not, up to ALL_NAMED, else say how to see them all (trial s8, 1)", () => {
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ value: String(1001 + i), label: `Segment ${i + 1} Leads` }));
    // None alike: all of them, in the options' order.
    const few = options(ALL_NAMED);
    expect(namesWords("Console training", few, "List")).toBe(
      `None is alike; there are ${ALL_NAMED}: ${few.map((o) => `"${o.label}"`).join(", ")}.`,
    );
    const many = options(ALL_NAMED + 1);
    expect(namesWords("Console training", many, "List")).toBe(
      `None is alike. To see all ${ALL_NAMED + 1}, clear the List box.`,
    );
    // Alike: those first, then the others (at most ALL_NAMED in all), or how to see them all.
    const lists = [
      { value: "1", label: "Trade Show Leads" },
      { value: "2", label: "Beta Testers" },
      { value: "3", label: "Do Not Call" },
    ];
    expect(namesWords("Trade Show Leads 2026", lists, "List")).toBe(
      'Names alike: "Trade Show Leads". The other 2: "Beta Testers", "Do Not Call".',
    );
    expect(namesWords("Trade Show Leads 2026", lists.slice(0, 2), "List")).toBe(
      'Names alike: "Trade Show Leads". The other: "Beta Testers".',
    );
    expect(namesWords("Segment 3 Leads 2026", many, "Campaign")).toMatch(
      new RegExp(
        `^Names alike: "Segment 3 Leads"[^.]*\\. To see all ${ALL_NAMED + 1}, clear the Campaign box\\.$`,
      ),
    );
  });

  it("find a lead by email, and by first and last name in the leads created in a period", async () => {
    const byEmail = await run("find_lead", { by: "email", email: "lead7@example.com" });
    expect(byEmail.data.result?.map((lead) => lead.id)).toEqual([7]);
    // What the console's lead card shows (trial s5, finding 3): not only Marketo's default fields.
    expect(Object.keys(byEmail.data.result?.[0] ?? {})).toEqual(
      expect.arrayContaining(["company", "leadScore", "leadSource", "createdAt", "updatedAt"]),
    );
    const lead = byEmail.data.result?.[0] as { firstName: string; lastName: string; createdAt: string };
    const created = lead.createdAt.slice(0, 10);
    const byName = await run("find_lead", {
      by: "name",
      name: `${lead.firstName} ${lead.lastName}`,
      from: created,
      to: created,
    });
    expect(byName.input.where).toBe(`firstName = "${lead.firstName}" and lastName = "${lead.lastName}"`);
    const found = byName.data.result ?? [];
    expect(found.map((row) => String(row.id))).toContain("7");
    expect(found.every((row) => row.firstName === lead.firstName && row.lastName === lead.lastName)).toBe(
      true,
    );
  });

  it("add a lead to a list and remove it, and trigger a campaign for it", async () => {
    const added = await run("list_members", { action: "add", list: "1003", leads: "7" });
    expect(added.data.result).toEqual([{ id: 7, status: "added" }]);
    const removed = await run("list_members", { action: "remove", list: "1003", leads: "7" });
    expect(removed.input).toMatchObject({ method: "DELETE", query_parameters: { id: [7] } });
    expect(removed.data.result).toEqual([{ id: 7, status: "removed" }]);
    const triggered = await run("trigger_campaign", { campaign: "1001", leads: "7, 3" });
    expect(triggered.data.result).toEqual([{ id: 1001 }]);
  });

  it("export leads by default with fields named as Marketo shows them, sent by their REST names", async () => {
    // Trial s9, finding 8: the box read "id, email, firstName, …". Its first value as the form fills it.
    const fields = MARKETO_TASKS.find((one) => one.id === "export")
      ?.fields.find((one) => one.name === "fields")
      ?.initial?.(new Date());
    expect(fields).toBe(
      "Id, Email Address, First Name, Last Name, Company Name, Lead Score, Created At, Updated At",
    );
    const leads = await run("export", { what: "leads", from: day(30), to: day(0), fields: fields ?? "" });
    const rest = ["id", "email", "firstName", "lastName", "company", "leadScore", "createdAt", "updatedAt"];
    expect((leads.input.body as { fields?: unknown }).fields).toEqual(rest);
    expect(leads.data.result?.length).toBeGreaterThan(0);
    expect(Object.keys(leads.data.result?.[0] ?? {})).toEqual(rest);
  });

  it("export leads and activities of a period, kept by a filter", async () => {
    const leads = await run("export", { what: "leads", from: day(30), to: day(0), where: "leadScore > 100" });
    expect(leads.data.result?.length).toBeGreaterThan(0);
    expect(leads.data.result?.every((row) => Number(row.leadScore) > 100)).toBe(true);
    const activities = await run("export", { what: "activities", from: day(7), to: day(0) });
    expect(activities.input).toMatchObject({ endpoint: "/bulk/v1/activities/export/create.json" });
    expect(Array.isArray(activities.data.result)).toBe(true);
  });

  it("create or update leads from pasted CSV, matched on email", async () => {
    const csv = "email,firstName,lastName\nlead7@example.com,Ann,Kowalski\nnew.lead@example.com,Bo,Lind\n";
    const { data } = await run("upsert_leads", { csv, match: "email" });
    expect(data.result?.map((row) => row.status)).toEqual(["updated", "created"]);
    const again = await run("find_lead", { by: "email", email: "lead7@example.com" });
    expect(again.data.result?.[0]?.lastName).toBe("Kowalski");
  });

  it("sends only the CSV rows that have a value to match on (Marketo would refuse the others with 1003)", async () => {
    const csv = "email,firstName\nlead8@example.com,Ann\n,Cy\nnew.row@example.com,Bo\n";
    const { input, data } = await run("upsert_leads", { csv, match: "email" });
    expect((input.body as { input: unknown[] }).input).toEqual([
      { email: "lead8@example.com", firstName: "Ann" },
      { email: "new.row@example.com", firstName: "Bo" },
    ]);
    // Sync Leads answers one record per record received: the sandbox got two, and refused none.
    expect(data.result?.map((row) => row.status)).toEqual(["updated", "created"]);
  });

  it.each([
    ["upsert_leads", { csv: "email,firstName\n,Cy\n", match: "email" }, "csv"],
    ["find_lead", {}, "email"],
    ["find_lead", { by: "name", from: day(3), to: day(0) }, "name"],
    ["find_lead", { by: "name", name: "Ann", from: "yesterday", to: day(0) }, "from"],
    ["find_lead", { by: "name", name: "Ann", from: day(0), to: day(3) }, "to"],
    ["list_members", { action: "add", leads: "7" }, "list"],
    ["list_members", { action: "add", list: "Trade Show", leads: "7" }, "list"],
    ["trigger_campaign", { campaign: "Welcome", leads: "7" }, "campaign"],
    ["list_members", { action: "add", list: "1003", leads: "7, seven" }, "leads"],
    ["trigger_campaign", { campaign: "1001" }, "leads"],
    ["export", { what: "leads", from: day(3), to: day(0), fields: " , " }, "fields"],
    ["upsert_leads", { csv: "email\n", match: "email" }, "csv"],
    ["upsert_leads", { csv: 'email\n"unclosed', match: "email" }, "csv"],
    ["upsert_leads", { csv: "email,firstName\na@b.c,A\n", match: "id" }, "csv"],
  ] as const)("%s refuses %j under its field %s", (task, values, field) => {
    let thrown: unknown;
    try {
      taskInput(STEP, task, { values });
    } catch (error) {
      thrown = error;
    }
    expect(isMartechError(thrown) && thrown.code).toBe("invalid_input");
    expect((thrown as { field: string }).field).toBe(field);
    const own = MARKETO_TASKS.find((one) => one.id === task)?.fields.map((one) => one.name);
    expect(own).toContain(field);
  });
});
