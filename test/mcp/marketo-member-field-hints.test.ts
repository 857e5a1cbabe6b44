import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s16, N150: writing program member fields, an agent met "(1006: Field 'progressionStatus' not found)"
 * sent to the leads' describe, and "…/members/customFields.json is no Marketo endpoint" with no better path.
 * Each hint now names the members' own describe or the real path above the made-up one, and doing what it
 * says works: the describe lists the member fields, and the named path writes one, read back.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("program member fields", () => {
  it("an unknown member field is sent to the members' describe, whose fields then read", async () => {
    const member = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1012.json",
      max_items: 1,
    });
    const lead = member.data.result[0] as { id: number; membership: { progressionStatus?: string } };
    expect(lead.membership.progressionStatus).toBeTruthy();
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: { filterType: "leadId", filterValues: String(lead.id), fields: "progressionStatus" },
    });
    expect(refused.first).toContain("GET /rest/v1/programs/members/describe.json lists them");
    expect(refused.first).not.toContain("/rest/v1/leads/describe.json");
    const described = await mkto.ok<{ result: { fields: { name: string }[] }[] }>({
      method: "GET",
      endpoint: "/rest/v1/programs/members/describe.json",
    });
    const names = described.data.result[0]?.fields.map((f) => f.name) ?? [];
    expect(names).toContain("statusName");
    const read = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: { filterType: "leadId", filterValues: String(lead.id), fields: "statusName" },
    });
    expect(read.data.result[0]?.statusName).toBeTruthy();
  });

  it("a made-up member path is offered the real one above it, which writes the field", async () => {
    const member = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1012.json",
      max_items: 1,
    });
    const leadId = (member.data.result[0] as { id: number }).id;
    const refused = await mkto.call({
      method: "POST",
      endpoint: "/rest/v1/programs/1012/members/customFields.json",
      body: { input: [{ leadId, myCustomField: "VIP" }] },
    });
    expect(refused.first).toContain("did you mean /rest/v1/programs/1012/members.json?");
    await mkto.ok({
      method: "POST",
      endpoint: "/rest/v1/programs/1012/members.json",
      body: { input: [{ leadId, myCustomField: "VIP" }] },
    });
    const back = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: { filterType: "leadId", filterValues: String(leadId), fields: "myCustomField" },
    });
    expect(back.data.result[0]?.myCustomField).toBe("VIP");
    // The recipes say so, with the body written above (trial s44, N614 guessed the made-up path first).
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const recipes = (contents[0] as { text: string }).text;
    expect(recipes).toContain("POST to that path with {input: [{leadId, myCustomField:");
  });

  it("a member field asked of the leads' listing is sent to the members' read, which gives it, hint once", async () => {
    for (const endpoint of [
      "/rest/v1/leads/programs/1012.json",
      "/rest/v1/leads/programs/{programId}.json",
    ]) {
      const refused = await mkto.call({
        method: "GET",
        endpoint,
        query_parameters: {
          fields: "myCustomField",
          ...(endpoint.includes("{") ? { programId: [1012] } : {}),
        },
      });
      expect(refused.first).toContain("is read from GET /rest/v1/programs/{programId}/members.json");
      expect(refused.first.split("A program member field").length).toBe(2);
    }
    const read = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/programs/1012/members.json",
      query_parameters: {
        filterType: "reachedSuccess",
        filterValues: "true,false",
        fields: "leadId,myCustomField",
      },
    });
    expect(read.data.result.length).toBeGreaterThan(0);
    expect(read.data.result.every((m) => "myCustomField" in m)).toBe(true);
  });

  it("an unknown lead field is still sent to the leads' describe", async () => {
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1", fields: "noSuchField" },
    });
    expect(refused.first).toContain("GET /rest/v1/leads/describe.json");
  });
});
