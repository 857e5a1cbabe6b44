import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { iso, marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by over campaignId or programId names each id beside it, in the same call (trial 2026-12-03 s9, N45:
 * Send Email counted per email and campaign, then a call of its own to GET /rest/v1/campaigns.json?id=… for
 * the campaigns' names). The names are those Marketo's own reads answer for the ids; an id Marketo has not
 * says so; a lookup that fails leaves the counts whole and the summary says which names are missing and why.
 */
interface Answer {
  result: Record<string, unknown>[];
  calls_used: number;
  extra?: { file_endpoint?: string };
  computed?: { read: number; matched: number };
}

const T0 = Date.UTC(2026, 11, 2, 12);
const DAY = 86_400_000;
const mkto = marketoOverMcp(
  {
    leadCount: 400,
    seed: 11,
    now: runningClock(T0),
    rateLimit: 1_000_000,
    bulkJobMs: 100,
  },
  undefined,
  NO_CALL_WINDOW,
);

/** The sandbox's activity types: a campaign's email sends, deliveries, opens and clicks carry its id; visits and forms none. */
const TYPES = [1, 2, 6, 7, 10, 11];

const campaignsPath = "/rest/v1/campaigns.json";
const requests = (path: string) => mkto.fixture.sandbox.stats().callsByPath[path] ?? 0;

/** Every campaign's name by id, as GET /rest/v1/campaigns.json answers. */
let truth: Map<string, string>;

beforeAll(async () => {
  // A program deleted takes its campaign with it; its activities keep the campaign's id (named "(not found)").
  const campaigns = (await mkto.ok<Answer>({ method: "GET", endpoint: campaignsPath })).data.result;
  const gone = campaigns.find((c) => c.id === 1003);
  await mkto.ok({ method: "POST", endpoint: `/rest/asset/v1/program/${gone?.programId}/delete.json` });
  const left = (await mkto.ok<Answer>({ method: "GET", endpoint: campaignsPath })).data.result;
  expect(left).toHaveLength(campaigns.length - 1);
  truth = new Map(left.map((c) => [String(c.id), String(c.name)]));
});

/** Each row's campaignName is what campaigns.json answers for its campaignId, "(not found)" where it answers none. */
function expectCampaignNames(rows: readonly Record<string, unknown>[]): void {
  for (const row of rows) {
    expect(Object.hasOwn(row, "campaignName"), JSON.stringify(row)).toBe(true);
    const id = row.campaignId;
    const expected = id === null ? null : (truth.get(String(id)) ?? "(not found)");
    expect(row.campaignName, JSON.stringify(row)).toBe(expected);
  }
}

describe("count_by over an id Marketo names", () => {
  // The tool list no longer says so (its words went to count_by's conditions, within the token budget): the
  // answers that name ids say which column names them and from which call (the cases below).
  it("an N45-style export counted per email and campaign carries campaign names, in one call", async () => {
    const before = requests(campaignsPath);
    const { data, first } = await mkto.ok<Answer>({
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: {
          createdAt: { startAt: iso(T0 - 20 * DAY), endAt: iso(T0) },
          activityTypeIds: ["Send Email", "Click Email"],
        },
      },
      run_to_completion: true,
      count_by: "primaryAttributeValue,campaignId,activityType:columns",
      order_by: "-Click Email",
    });
    expect(data.result.length).toBeGreaterThan(5);
    expectCampaignNames(data.result);
    expect(data.result.some((row) => row.campaignName === "(not found)")).toBe(true);
    expect(new Set(data.result.map((row) => row.campaignName)).size).toBeGreaterThan(3);
    // The name sits beside its id, before the columns.
    expect(Object.keys(data.result[0] ?? {}).slice(0, 3)).toEqual([
      "primaryAttributeValue",
      "campaignId",
      "campaignName",
    ]);
    // Every campaign in one request (ids batched), counted in calls_used.
    expect(requests(campaignsPath) - before).toBe(1);
    expect(first).toContain(
      "campaignName is each campaignId's smart campaign name from GET /rest/v1/campaigns.json (1 call",
    );
    expect(first).toMatch(
      /1 campaignId has no smart campaign there \(deleted.*\), campaignName "\(not found\)": 1003/,
    );

    // The export's file counted again (the agent's next call in N45) is named the same way.
    const file = String(data.extra?.file_endpoint);
    const again = await mkto.ok<Answer>({
      method: "GET",
      endpoint: file,
      where: 'activityType = "Send Email"',
      count_by: "primaryAttributeValueId,campaignId",
    });
    expect(again.data.result.length).toBeGreaterThan(5);
    expectCampaignNames(again.data.result);
    expect(again.first).toContain("campaignName is each campaignId's smart campaign name");
  });

  it("names the ids of an export answered from a recent run's rows, saying the calls that cost", async () => {
    const call = {
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: { createdAt: { startAt: iso(T0 - 10 * DAY), endAt: iso(T0 - DAY) }, activityTypeIds: [6] },
      },
      run_to_completion: true,
    };
    await mkto.ok({ ...call, count_by: "activityType" });
    const before = requests(campaignsPath);
    const { data, first } = await mkto.ok<Answer>({ ...call, count_by: "campaignId" });
    expect(first).toContain("answered from the same export run");
    expect(first).toContain("the only API calls now naming the ids counted (1)");
    expect(data.calls_used).toBe(1);
    expect(requests(campaignsPath) - before).toBe(1);
    expectCampaignNames(data.result);
  });

  it("with min_count, names only the ids kept: a dropped id Marketo lacks is not said", async () => {
    const call = {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - 10 * DAY), activityTypeIds: "6" },
      paginate: true,
      count_by: "campaignId",
    };
    const all = (await mkto.ok<Answer>(call)).data.result;
    const gone = Number(all.find((row) => row.campaignId === 1003)?.count);
    expect(all.some((row) => Number(row.count) > gone)).toBe(true);
    const { data, first } = await mkto.ok<Answer>({ ...call, min_count: gone + 1 });
    expect(data.result.length).toBeGreaterThan(0);
    expectCampaignNames(data.result);
    expect(first).not.toContain("no smart campaign there");
  });

  it("names match campaigns.json for generated activity reads and count_by forms", async () => {
    const request = fc.record({
      // Send Email, whose sends carry a campaignId (a field no record read has is refused), and others.
      types: fc.subarray(TYPES).map((others) => [...new Set([6, ...others])]),
      days: fc.integer({ min: 2, max: 10 }),
      countBy: fc.constantFrom(
        "campaignId",
        "campaignId,activityType",
        "primaryAttributeValue,campaignId",
        "campaignId,activityType:columns",
        "activityDate:day,campaignId",
      ),
      where: fc.option(fc.constantFrom("leadId > 200", 'activityType != "Send Email"'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ types, days, countBy, where }) => {
        const { data } = await mkto.ok<Answer>({
          method: "GET",
          endpoint: "/rest/v1/activities.json",
          query_parameters: { sinceDatetime: iso(T0 - days * DAY), activityTypeIds: types.join(",") },
          paginate: true,
          max_pages: 200,
          max_items: 100_000,
          count_by: countBy,
          ...(where ? { where } : {}),
        });
        expectCampaignNames(data.result);
      }),
      { numRuns: 12, seed: 4501 },
    );
  });

  it("names programs by programId as the programs' own records do", async () => {
    const records = (await mkto.ok<Answer>({ method: "GET", endpoint: campaignsPath })).data.result;
    const { data, first } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: campaignsPath,
      count_by: "programId",
    });
    expect(data.result).toHaveLength(records.length);
    for (const row of data.result) {
      const owner = records.find((c) => c.programId === row.programId);
      expect(row.programName, JSON.stringify(row)).toBe(owner?.programName);
    }
    expect(first).toContain(
      "programName is each programId's program name from GET /rest/asset/v1/programs.json",
    );
  });

  it("names each program of a per row's joined programIds, none said missing (trial s34, N505)", async () => {
    const programs = Array.from({ length: 12 }, (_, i) => 1001 + i);
    const named = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { filterType: "id", filterValues: programs.join(","), maxReturn: 200 },
    });
    const names = new Map(named.data.result.map((p) => [String(p.id), String(p.name)]));
    const { data, first } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: programs, fields: "id" },
      paginate: true,
      max_pages: 200,
      per: "id,programId",
      count_by: "programId",
    });
    const joined = data.result.filter((row) => String(row.programId).includes(" + "));
    expect(joined.length).toBeGreaterThan(0);
    for (const row of data.result) {
      const want = String(row.programId)
        .split(" + ")
        .map((id) => names.get(id))
        .join(" + ");
      expect(row.programName, JSON.stringify(row)).toBe(want);
    }
    expect(first).not.toMatch(/no program there/);
  });
});

/** A sandbox whose daily quota runs out exactly at the end of the count's own read. */
const spent = marketoOverMcp(
  {
    leadCount: 200,
    seed: 7,
    now: runningClock(T0),
    rateLimit: 1_000_000,
    dailyQuota: 60,
  },
  undefined,
  NO_CALL_WINDOW,
);

describe("a name lookup that fails", () => {
  it("still answers the counts, and the summary says which names are missing and why", async () => {
    const read = (countBy: string) =>
      spent.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: iso(T0 - 2 * DAY), activityTypeIds: "6,7" },
        paginate: true,
        max_pages: 200,
        count_by: countBy,
      });
    const calls = () => spent.fixture.sandbox.stats().apiCalls;
    await read("activityType");
    const start = calls();
    const probe = await read("activityType");
    const own = calls() - start;
    expect(probe.data.calls_used).toBe(own);
    // Calls that leave the quota with exactly the read's own calls.
    while (calls() < 60 - own) await spent.ok({ method: "GET", endpoint: "/rest/v1/activities/types.json" });
    const { data, first } = await read("campaignId");
    expect(data.computed?.matched).toBe(probe.data.computed?.matched);
    expect(data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(probe.data.computed?.matched);
    expect(data.result.length).toBeGreaterThan(1);
    for (const row of data.result) {
      expect(row.campaignName).toBe(row.campaignId === null ? null : "(name not read)");
    }
    expect(first).not.toContain("campaignName is each campaignId's");
    expect(first).toMatch(
      /campaignName not read for \d+ campaignIds \(100\d.*\), which read "\(name not read\)"; the counts are whole; GET \/rest\/v1\/campaigns\.json for their names failed: .*daily API quota is reached \(607\)/,
    );
  });
});

describe("count_by listId over several lists' members", () => {
  it("names each list as GET /rest/v1/lists.json does, in the same call; a list Marketo has not reads (not found)", async () => {
    const lists = (await mkto.ok<Answer>({ method: "GET", endpoint: "/rest/v1/lists.json" })).data.result;
    const names = new Map(lists.map((list) => [Number(list.id), String(list.name)]));
    const ids = [...names.keys()].slice(0, 4);
    const before = requests("/rest/v1/lists.json");
    const { data, first } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: [...ids, 999_999], fields: "id" },
      paginate: true,
      count_by: "listId",
    });
    expect(requests("/rest/v1/lists.json") - before).toBe(1);
    const counted = data.result.filter((row) => Number(row.count) > 0);
    expect(counted.length).toBeGreaterThan(0);
    for (const row of counted) expect(row.listName).toBe(names.get(Number(row.listId)));
    expect(first).toContain("listName is each listId's static list name from GET /rest/v1/lists.json");
  });
});
