import { describe, expect, it } from "vitest";
import { MEMBERS_FILTER_TYPE_HINT } from "../../src/connectors/marketo/service-codes.js";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Program members read without a filter (701 "filterType cannot be blank") were told how GET /rest/v1/leads.json
 * looks leads up: another endpoint's advice. The hint is now the members endpoint's own, and doing what it
 * says works: its describe lists leadId as searchable, a leadId filter finds that member, and the listing it
 * names gives every member as a lead whose id is the lead's.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("program members without a filter", () => {
  it("get the members endpoint's hint, and each step it names works", async () => {
    const refused = await mkto.call({ method: "GET", endpoint: "/rest/v1/programs/1012/members.json" });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain(MEMBERS_FILTER_TYPE_HINT);
    expect(refused.first).not.toContain("GET /rest/v1/leads.json looks leads up");
    const described = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/members/describe.json",
    });
    expect(JSON.stringify(described.data.result[0]?.searchableFields)).toContain('"leadId"');
    const all = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1012.json",
      query_parameters: { fields: "id" },
      paginate: true,
      max_pages: 50,
    });
    expect(all.data.result.length).toBeGreaterThan(0);
    expect((all.data as { complete?: boolean }).complete).toBe(true);
    const lead = all.data.result[0] as { id: number; membership?: { id?: number } };
    expect(lead.membership?.id).toBe(1012);
    const one = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: { filterType: "leadId", filterValues: String(lead.id) },
    });
    expect(one.data.result.map((m) => m.leadId)).toEqual([lead.id]);
    // The hint's way to read every member with its member fields finds every member the listing has.
    const every = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: {
        filterType: "reachedSuccess",
        filterValues: "true,false",
        fields: "leadId,statusName",
      },
      paginate: true,
      max_pages: 50,
    });
    expect(every.data.result.map((m) => m.leadId).sort()).toEqual(all.data.result.map((l) => l.id).sort());
    expect(every.data.result.every((m) => typeof m.statusName === "string")).toBe(true);
  });
});
