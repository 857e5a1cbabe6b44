import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * A lead's memberships come with names (issue 27: membership reads gave ids, and "which lists is she on" took a
 * second call). Invariant, over generated leads through MCP on the sandbox: each list, program and smart
 * campaign membership record carries, beside its id, the name Marketo's own reads answer for that id
 * (lists.json, programs.json, campaigns.json), in the same call, whose calls_used counts the lookup; a read
 * once per lead ({id} with a list of ids) is named too; other reads are untouched.
 */
interface Answer {
  result: Record<string, unknown>[];
  calls_used: number;
}

const mkto = marketoOverMcp({ leadCount: 400, seed: 5, rateLimit: 1_000_000 });
const names = {
  list: new Map<string, string>(),
  program: new Map<string, string>(),
  campaign: new Map<string, string>(),
};

async function byId(endpoint: string, query: Record<string, unknown>, into: Map<string, string>) {
  const { data } = await mkto.ok<Answer>({
    method: "GET",
    endpoint,
    query_parameters: query,
    paginate: true,
  });
  for (const row of data.result) into.set(String(row.id), String(row.name));
}

beforeAll(async () => {
  await byId("/rest/v1/lists.json", {}, names.list);
  await byId("/rest/asset/v1/programs.json", { maxReturn: 200 }, names.program);
  await byId("/rest/v1/campaigns.json", {}, names.campaign);
});

const READS = [
  { what: "listMembership", field: "listId", column: "listName", truth: () => names.list },
  { what: "programMembership", field: "id", column: "programName", truth: () => names.program },
  {
    what: "smartCampaignMembership",
    field: "smartCampaignId",
    column: "campaignName",
    truth: () => names.campaign,
  },
] as const;

describe("a lead's memberships", () => {
  it("name each list, program and smart campaign beside its id, in the same call (property)", async () => {
    let named = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), fc.constantFrom(...READS), async (lead, read) => {
        const endpoint = `/rest/v1/leads/${lead}/${read.what}.json`;
        const plain = mkto.fixture.sandbox.stats().apiCalls;
        const { data, first } = await mkto.ok<Answer>({ method: "GET", endpoint, paginate: true });
        const spent = mkto.fixture.sandbox.stats().apiCalls - plain;
        expect(data.calls_used).toBe(spent);
        for (const row of data.result) {
          const keys = Object.keys(row);
          expect(keys[keys.indexOf(read.field) + 1]).toBe(read.column);
          expect(row[read.column]).toBe(read.truth().get(String(row[read.field])) ?? "(not found)");
        }
        if (data.result.length > 0) {
          named += 1;
          expect(first).toContain(`${read.column} is each ${read.field}'s`);
        }
      }),
      { numRuns: 25 },
    );
    expect(named).toBeGreaterThan(0);
  }, 120_000);

  it("are named in a read once per lead too", async () => {
    const { data } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/{id}/listMembership.json",
      query_parameters: { id: [1, 2, 3, 4, 5, 6, 7, 8] },
    });
    expect(data.result.length).toBeGreaterThan(0);
    for (const row of data.result) expect(row.listName).toBe(names.list.get(String(row.listId)));
    // Programs per lead: each record keeps its program's id and name, and says its lead as Marketo does, leadId.
    const programs = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/{id}/programMembership.json",
      query_parameters: { id: [4, 15, 32] },
    });
    expect(programs.data.result.length).toBeGreaterThan(0);
    for (const row of programs.data.result) {
      expect([4, 15, 32]).toContain(Number(row.leadId));
      expect(row.programName).toBe(names.program.get(String(row.id)));
      expect(Object.hasOwn(row, "leadsId")).toBe(false);
    }
  });

  it("are looked up once when count_by names them already (review s23, finding 5)", async () => {
    const before = mkto.fixture.sandbox.stats().callsByPath["/rest/v1/lists.json"] ?? 0;
    const { data, first } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/5/listMembership.json",
      count_by: "listId",
    });
    expect((mkto.fixture.sandbox.stats().callsByPath["/rest/v1/lists.json"] ?? 0) - before).toBe(1);
    expect(first.split("listName is each listId's").length - 1).toBe(1);
    for (const row of data.result) expect(row.listName).toBe(names.list.get(String(row.listId)));
  });

  it("take where, order_by and count_by on the names (review s23, finding 1)", async () => {
    const lead = 5;
    const all = (
      await mkto.ok<Answer>({ method: "GET", endpoint: `/rest/v1/leads/${lead}/listMembership.json` })
    ).data.result;
    expect(all.length).toBeGreaterThan(1);
    const [first] = all;
    const picked = await mkto.ok<Answer>({
      method: "GET",
      endpoint: `/rest/v1/leads/${lead}/listMembership.json`,
      where: `listName == "${first?.listName}"`,
    });
    expect(picked.data.result.map((r) => r.listId)).toEqual([first?.listId]);
    const sorted = await mkto.ok<Answer>({
      method: "GET",
      endpoint: `/rest/v1/leads/${lead}/listMembership.json`,
      order_by: "listName",
    });
    expect(sorted.data.result.map((r) => r.listName)).toEqual(
      all.map((r) => r.listName).sort((a, b) => String(a).localeCompare(String(b))),
    );
    const counted = await mkto.ok<Answer>({
      method: "GET",
      endpoint: `/rest/v1/leads/${lead}/programMembership.json`,
      count_by: "programName",
    });
    const programs = (
      await mkto.ok<Answer>({ method: "GET", endpoint: `/rest/v1/leads/${lead}/programMembership.json` })
    ).data.result;
    expect(counted.data.result.map((r) => r.programName).sort()).toEqual(
      programs.map((r) => r.programName).sort(),
    );
    expect(counted.first.split("programName is each id's").length - 1).toBe(1);
  });

  it("leave other reads as Marketo answers them", async () => {
    const { data } = await mkto.ok<Answer>({ method: "GET", endpoint: "/rest/v1/lists/1001/leads.json" });
    for (const row of data.result) expect(Object.hasOwn(row, "listName")).toBe(false);
  });
});
