import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { startOfDate } from "../../src/tools/zone-clock.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { iso, NO_CALL_WINDOW } from "../helpers/marketo-mcp.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Names where Marketo wants ids, and the tasks of issue 27 §3 done in one call (through MCP on the
 * sandbox): activityTypeIds by name, each activity naming its type, an unknown name refused with the
 * nearest names; and each recipe of martech-steps://recipes/marketo's `computed` list, its placeholders
 * filled in, run once and checked against the sandbox's own data set (same seed, same clock): a lead's
 * history, email performance per email, leads above a score as a CSV, leads by source.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  calls_used: number;
  computed?: { read: number; matched: number; groups?: number };
}
interface ComputeRecipe {
  task: string;
  call: Record<string, unknown>;
  note: string;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
let origin: number | undefined;
const clock = () => {
  origin ??= performance.now();
  return T0 + Math.floor(performance.now() - origin);
};
const SEED = 11;
const LEADS = 2_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const typeName = new Map(world.activityTypes.map((t) => [t.id, t.name]));
const typeId = new Map(world.activityTypes.map((t) => [t.name, t.id]));

let fixture: MarketoFixture;
let session: McpSession;

async function run(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const links = result.content.filter((c) => c.type === "resource_link") as {
    uri: string;
    mimeType: string;
  }[];
  return { result, text, links, data: result.structuredContent as unknown as Answer };
}

async function ok(args: Record<string, unknown>) {
  const answer = await run(args);
  expect(answer.result.isError, answer.text).toBeFalsy();
  return answer;
}

/** The recipe's call with its placeholders filled in. */
function filled(call: Record<string, unknown>, values: Record<string, string>): Record<string, unknown> {
  const text = JSON.stringify(call).replace(/<(from|to|leadId)>/g, (_, name: string) => values[name] ?? "");
  return JSON.parse(text) as Record<string, unknown>;
}

let recipes: ComputeRecipe[] = [];
beforeAll(async () => {
  fixture = await marketoFixture(
    {
      leadCount: LEADS,
      seed: SEED,
      now: clock,
      bulkJobMs: 50,
      rateLimit: 1_000_000,
    },
    NO_CALL_WINDOW,
  );
  session = await mcpSession(fixture.workspace);
  const { contents } = await session.client.readResource({ uri: "martech-steps://recipes/marketo" });
  const resource = JSON.parse((contents[0] as { text: string }).text) as {
    computed: ComputeRecipe[];
    not_in_the_rest_api: string[];
  };
  recipes = resource.computed;
  expect(resource.not_in_the_rest_api.join(" ")).toContain("Email Performance");
  notInTheApi = resource.not_in_the_rest_api;
});
let notInTheApi: string[] = [];
afterAll(async () => {
  await session.close();
  await fixture.close();
});

const recipe = (task: string): Record<string, unknown> => {
  const found = recipes.find((r) => r.task.startsWith(task));
  expect(found, `recipe "${task}" in ${recipes.map((r) => r.task).join(" | ")}`).toBeDefined();
  return found?.call ?? {};
};

describe("activity types by name", () => {
  it("takes names and ids in activityTypeIds, and names every activity's type", async () => {
    const since = T0 - 3 * DAY;
    const { data } = await ok({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(since), activityTypeIds: ["open email", 11] },
      paginate: true,
      max_pages: 200,
      max_items: 100_000,
      count_by: "activityType",
    });
    const want = new Map<string, number>();
    for (const a of world.activities.filter(
      (a) => a.at >= since && (a.activityTypeId === 10 || a.activityTypeId === 11),
    )) {
      const name = typeName.get(a.activityTypeId) ?? "";
      want.set(name, (want.get(name) ?? 0) + 1);
    }
    expect(want.size).toBe(2);
    expect(new Map(data.result.map((row) => [String(row.activityType), Number(row.count)]))).toEqual(want);
  });

  it("refuses an unknown name with the nearest names, sending no activity read", async () => {
    fixture.sandbox.resetStats();
    const { result, text } = await run({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - DAY), activityTypeIds: "Opne Email" },
    });
    expect(result.isError).toBe(true);
    expect(text).toContain('"Opne Email" is not an activity type of this Marketo instance');
    expect(text).toMatch(/Closest: "Open Email"/);
    expect(fixture.sandbox.stats().callsByPath["/rest/v1/activities.json"]).toBeUndefined();
  });
});

describe("an activity type named like none", () => {
  it("says no type is named like it, offers none, and the call it names lists every type", async () => {
    const { result, text } = await run({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - DAY), activityTypeIds: "Xyzzy Plugh" },
    });
    expect(result.isError).toBe(true);
    expect(text).toContain("No activity type is named like that");
    expect(text).not.toContain("Closest:");
    const path = /GET (\S+) lists every type/.exec(text)?.[1];
    const { data } = await ok({ method: "GET", endpoint: path });
    expect(data.result.map((t) => t.name).sort()).toEqual([...typeId.keys()].sort());
  });
});

describe("the recipes resource's tasks, each in one call", () => {
  it("a lead's history since a date: every activity of the lead, newest first, in one call", async () => {
    const since = T0 - 30 * DAY;
    const call = recipe("a lead's history");
    // "all": every type, more than Marketo's 10 a read (read in groups by the step).
    expect((call.query_parameters as Record<string, unknown>).activityTypeIds).toBe("all");
    const types = world.activityTypes.map((t) => t.id);
    expect(types.length).toBeGreaterThan(10);
    const recent = world.activities.filter((a) => a.at >= since && types.includes(a.activityTypeId));
    const busiest = new Map<number, number>();
    for (const a of recent) busiest.set(a.leadId, (busiest.get(a.leadId) ?? 0) + 1);
    const leadId = [...busiest].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
    const { data, text } = await ok(filled(call, { from: iso(since), leadId: String(leadId) }));
    const want = recent.filter((a) => a.leadId === leadId).sort((a, b) => b.at - a.at || a.id - b.id);
    expect(want.length).toBeGreaterThan(1);
    expect(data.complete, text).toBe(true);
    expect(data.next_cursor).toBeUndefined();
    expect(data.result.map((r) => [r.id, r.activityType])).toEqual(
      want.map((a) => [a.id, typeName.get(a.activityTypeId)]),
    );
  });

  it("email performance per email over any span: one row per email, its unique leads per type as columns", async () => {
    const from = T0 - 45 * DAY;
    const to = T0 - 60_000;
    const { data, text } = await ok(filled(recipe("email performance"), { from: iso(from), to: iso(to) }));
    const names = ["Send Email", "Email Delivered", "Open Email", "Click Email"];
    const ids = names.map((name) => typeId.get(name));
    const want = new Map<string, Map<string, Set<number>>>();
    let records = 0;
    let repeats = 0;
    for (const a of world.activities) {
      if (a.at < Date.parse(iso(from)) || a.at > Date.parse(iso(to)) || !ids.includes(a.activityTypeId))
        continue;
      const email = want.get(String(a.primaryAttributeValue)) ?? new Map<string, Set<number>>();
      const type = String(typeName.get(a.activityTypeId));
      const leads = email.get(type) ?? new Set<number>();
      if (leads.has(a.leadId)) repeats += 1;
      leads.add(a.leadId);
      email.set(type, leads);
      want.set(String(a.primaryAttributeValue), email);
      records += 1;
    }
    expect(want.size).toBeGreaterThan(5);
    // A lead opened an email twice somewhere, so a unique count differs from the activities', or the test shows nothing.
    expect(repeats).toBeGreaterThan(0);
    const got = new Map(
      data.result.map((row) => [String(row.primaryAttributeValue), names.map((type) => row[type])]),
    );
    const wanted = [...want].map(([email, types]) => [email, names.map((t) => types.get(t)?.size ?? 0)]);
    expect(got).toEqual(new Map(wanted as [string, number[]][]));
    expect(data.computed?.matched).toBe(records);
    expect(text).toContain("counted distinct leadId");
    expect(text).toContain("columns: activityType values");
  });

  it("email opens by weekday and hour: 168 cells in New York, each open in its cell by Intl's clock", async () => {
    // With time_zone the recipe's dates are New York's days: from its midnight on `from` to the end of `to`.
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const [fromDate, toDate] = [date(T0 - 28 * DAY), date(T0 - 2 * DAY)];
    const from = startOfDate("America/New_York", Date.parse(fromDate));
    const to = startOfDate("America/New_York", Date.parse(toDate) + DAY) - 1;
    const call = recipe("email opens by weekday and hour");
    const { data } = await ok(filled(call, { from: fromDate, to: toDate }));
    const open = typeId.get("Open Email");
    const want = new Map<string, number>();
    const part = (at: number, key: "weekday" | "hour") =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "America/New_York",
        hourCycle: "h23",
        [key]: key === "hour" ? "2-digit" : "long",
      }).format(at);
    for (const a of world.activities) {
      if (a.activityTypeId !== open || a.at < from || a.at > to) continue;
      const cell = `${part(a.at, "weekday")} ${part(a.at, "hour")}`;
      want.set(cell, (want.get(cell) ?? 0) + 1);
    }
    expect(want.size).toBeGreaterThan(5);
    expect(data.result).toHaveLength(168);
    const got = data.result.filter((r) => Number(r.count) > 0);
    expect(
      new Map(got.map((r) => [`${r["activityDate:weekday"]} ${r["activityDate:hour"]}`, Number(r.count)])),
    ).toEqual(want);
  });

  it("leads with a score above 50, as a CSV: every such lead of the span, once, in one file", async () => {
    const from = T0 - 100 * DAY;
    const to = T0 - 60_000;
    const { links, data } = await ok(
      filled(recipe("leads with a score above 50"), { from: iso(from), to: iso(to) }),
    );
    const want = [...world.leads.values()]
      .filter(
        (l) => Number(l.createdAt) >= Date.parse(iso(from)) && Number(l.createdAt) <= Date.parse(iso(to)),
      )
      .filter((l) => Number(l.leadScore) > 50);
    expect(data.computed?.matched).toBe(want.length);
    const csvLink = links.find((l) => l.mimeType === "text/csv");
    const { contents } = await session.client.readResource({ uri: csvLink?.uri ?? "" });
    const lines = (contents[0] as { text: string }).text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,email,firstName,lastName,leadScore");
    const ids = lines.slice(1).map((line) => Number(line.split(",")[0]));
    expect([...ids].sort((a, b) => a - b)).toEqual(want.map((l) => l.id).sort((a, b) => a - b));
  });

  it("leads by source: the count per source, adding up to the leads created in the span", async () => {
    const from = T0 - 90 * DAY;
    const to = T0 - 60_000;
    const { data } = await ok(filled(recipe("leads by source"), { from: iso(from), to: iso(to) }));
    const want = new Map<string, number>();
    for (const l of world.leads.values()) {
      if (Number(l.createdAt) < Date.parse(iso(from)) || Number(l.createdAt) > Date.parse(iso(to))) continue;
      want.set(String(l.leadSource), (want.get(String(l.leadSource)) ?? 0) + 1);
    }
    expect(new Map(data.result.map((r) => [String(r.leadSource), Number(r.count)]))).toEqual(want);
  });

  it("the email_performance prompt's call gives what the recipe gives", async () => {
    const from = "2026-10-20";
    const to = "2026-11-30";
    const prompt = await session.client.getPrompt({ name: "email_performance", arguments: { from, to } });
    const text = prompt.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
    const endpoint = /endpoint "([^"]+)"/.exec(text)?.[1];
    const countBy = /count_by "([^"]+)"/.exec(text)?.[1];
    const countDistinct = /count_distinct "([^"]+)"/.exec(text)?.[1];
    const body = JSON.parse(/body (\{.*\})\.$/m.exec(text)?.[1] ?? "null") as Record<string, unknown>;
    const byPrompt = await ok({
      method: "POST",
      endpoint,
      body,
      run_to_completion: true,
      count_by: countBy,
      count_distinct: countDistinct,
    });
    const byRecipe = await ok(
      filled(recipe("email performance"), { from: `${from}T00:00:00Z`, to: `${to}T23:59:59Z` }),
    );
    // One row per email, a column per type (count_by "…,activityType:columns").
    expect(byPrompt.data.result.length).toBeGreaterThan(10);
    expect(Object.keys(byPrompt.data.result[0] ?? {})).toContain("Email Delivered");
    expect(byPrompt.data.result).toEqual(byRecipe.data.result);
  });

  it("leads that share an email: the emails on two or more leads ignoring case, each with its leads", async () => {
    // Two leads of the span written again, one email in other cases: now three spellings of one, two of another.
    const from = T0 - 60 * DAY;
    const inSpan = [...world.leads.values()].filter((l) => Number(l.createdAt) >= from);
    const [first, second] = inSpan;
    const twins = [
      String(first?.email).toUpperCase(),
      String(second?.email),
      String(first?.email).replace(/^l/, "L"),
    ];
    await ok({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "createDuplicate", input: twins.map((email) => ({ email })) },
    });
    const to = clock() + 60_000;
    const { data, text } = await ok(
      filled(recipe("leads that share an email"), { from: iso(from), to: iso(to) }),
    );
    expect(data.result).toEqual([
      { email: first?.email, count: 3, percent: expect.any(Number), spellings: 3 },
      { email: second?.email, count: 2, percent: expect.any(Number), spellings: 1 },
    ]);
    expect(data.computed?.groups).toBe(inSpan.length);
    expect(text).toContain("2 values appear on 2 or more rows (5 rows)");
    // The note's next step: one email's leads, with where (text compares ignoring case).
    const note = recipes.find((r) => r.task.startsWith("leads that share an email"))?.note ?? "";
    expect(note).toContain("where 'email = \"…\"'");
    const {
      count_by: _c,
      count_by_ignore_case: _i,
      min_count: _m,
      ...call
    } = filled(recipe("leads that share an email"), { from: iso(from), to: iso(to) });
    const leads = await ok({ ...call, where: `email = "${String(first?.email).toUpperCase()}"` });
    expect(leads.data.result).toHaveLength(3);
  });
});

describe("what the REST API does not offer", () => {
  it("says a campaign's flow cannot be read, and the smart list call it names instead reads the rules", async () => {
    const said = notInTheApi.find((line) => line.startsWith("No smart campaign flow steps"));
    const endpoint =
      /GET (\/rest\/asset\/v1\/smartCampaign\/\{id\}\/smartList\.json) with includeRules=true/.exec(
        said ?? "",
      )?.[1];
    expect(endpoint, said).toBeDefined();
    const campaigns = await ok({ method: "GET", endpoint: "/rest/asset/v1/smartCampaigns.json" });
    const id = campaigns.data.result[0]?.id;
    expect(id).toBeGreaterThan(0);
    const rules = await ok({
      method: "GET",
      endpoint: (endpoint ?? "").replace("{id}", String(id)),
      query_parameters: { includeRules: true },
    });
    expect(Object.keys(rules.data.result[0] ?? {})).toContain("rules");
  });
});
