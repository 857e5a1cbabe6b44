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
/** The sandbox's default world (the CLI's), in which some leads are in no program. */
const sparse = marketoOverMcp({ rateLimit: 1_000_000 });
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

  it("take where and count_by on the names in a read once per lead too (review s54, P1)", async () => {
    const ids = [1, 2, 3, 4, 5, 6, 7, 8];
    const read = (endpoint: string, extra: Record<string, unknown>) =>
      mkto.ok<Answer>({ method: "GET", endpoint, query_parameters: { id: ids }, paginate: true, ...extra });
    const lists = "/rest/v1/leads/{id}/listMembership.json";
    const all = (await read(lists, {})).data.result;
    const name = String(all[0]?.listName);
    const picked = await read(lists, { where: `listName == "${name}"` });
    expect(picked.data.result).toEqual(all.filter((row) => row.listName === name));
    for (const [endpoint, column] of [
      ["/rest/v1/leads/{id}/programMembership.json", "programName"],
      ["/rest/v1/leads/{id}/smartCampaignMembership.json", "campaignName"],
    ] as const) {
      const plain = (await read(endpoint, {})).data.result;
      const counted = (await read(endpoint, { count_by: column })).data.result;
      const want = new Map<string, number>();
      for (const row of plain) want.set(String(row[column]), (want.get(String(row[column])) ?? 0) + 1);
      expect(new Map(counted.map((row) => [String(row[column]), row.count]))).toEqual(want);
    }
  });

  it("count a lead's programs by their own id, with no zero rows of the leads' ids (review s54, P2)", async () => {
    const ids = [1, 2, 3, 4, 5, 6];
    const read = (extra: Record<string, unknown>) =>
      mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/leads/{id}/programMembership.json",
        query_parameters: { id: ids },
        paginate: true,
        ...extra,
      });
    const plain = (await read({})).data.result;
    expect(plain.every((row) => ids.includes(Number(row.leadId)))).toBe(true);
    const counted = (await read({ count_by: "id" })).data.result;
    expect(counted.filter((row) => row.count === 0)).toEqual([]);
    expect(counted.reduce((sum, row) => sum + Number(row.count), 0)).toBe(plain.length);
    // By lead: each lead asked for has its row, 0 for one in no program.
    const byLead = (await read({ count_by: "leadId" })).data.result;
    expect(byLead.map((row) => Number(row.leadId)).sort((a, b) => a - b)).toEqual(ids);
  });

  it("count leads in no program by leadId, not as program ids, when no lead read has one (review s55, F4)", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const some = await sparse.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/{id}/programMembership.json",
      query_parameters: { id: ids },
      paginate: true,
    });
    const members = new Set((await sparse.results(some)).map((row) => Number(row.leadId)));
    const none = ids.filter((lead) => !members.has(lead)).slice(0, 3);
    expect(none).toHaveLength(3);
    const read = (extra: Record<string, unknown>) =>
      sparse.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/leads/{id}/programMembership.json",
        query_parameters: { id: none },
        paginate: true,
        ...extra,
      });
    expect((await read({})).data.result).toEqual([]);
    expect((await read({ count_by: "id" })).data.result).toEqual([]);
    const byLead = (await read({ count_by: "leadId" })).data.result;
    expect(byLead.map((row) => [Number(row.leadId), row.count])).toEqual(none.map((lead) => [lead, 0]));
  });

  it("leave other reads as Marketo answers them", async () => {
    const { data } = await mkto.ok<Answer>({ method: "GET", endpoint: "/rest/v1/lists/1001/leads.json" });
    for (const row of data.result) expect(Object.hasOwn(row, "listName")).toBe(false);
  });
});
