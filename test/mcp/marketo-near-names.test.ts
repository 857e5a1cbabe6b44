/**
 * Issue 27 §4 (trial T12, T20): an exact-name lookup that finds nothing says so and names the nearest
 * existing names, read with one more call, instead of a bare 0. Through MCP on the sandbox, each suggestion
 * followed: looked up by the name suggested, the record is found.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

let fixture: MarketoFixture;
let session: McpSession;

async function call(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  expect(result.isError, text).toBeFalsy();
  return {
    text,
    data: result.structuredContent as { result: Record<string, unknown>[]; calls_used: number },
  };
}

beforeAll(async () => {
  fixture = await marketoFixture();
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

/** Each lookup, a real name of its kind (read from the list of all), and that name with one letter off. */
const LOOKUPS = [
  { endpoint: "/rest/v1/lists.json", all: "/rest/v1/lists.json" },
  { endpoint: "/rest/v1/campaigns.json", all: "/rest/v1/campaigns.json" },
  { endpoint: "/rest/asset/v1/smartCampaign/byName.json", all: "/rest/asset/v1/smartCampaigns.json" },
  { endpoint: "/rest/asset/v1/staticList/byName.json", all: "/rest/asset/v1/staticLists.json" },
  { endpoint: "/rest/asset/v1/smartList/byName.json", all: "/rest/asset/v1/smartLists.json" },
  { endpoint: "/rest/asset/v1/program/byName.json", all: "/rest/asset/v1/programs.json" },
  { endpoint: "/rest/asset/v1/email/byName.json", all: "/rest/asset/v1/emails.json" },
  { endpoint: "/rest/asset/v1/emailTemplate/byName.json", all: "/rest/asset/v1/emailTemplates.json" },
  { endpoint: "/rest/asset/v1/landingPage/byName.json", all: "/rest/asset/v1/landingPages.json" },
  { endpoint: "/rest/asset/v1/form/byName.json", all: "/rest/asset/v1/forms.json" },
];

describe("exact-name lookups that find nothing name the nearest names", () => {
  for (const { endpoint, all } of LOOKUPS) {
    it(`GET ${endpoint}?name=… with a typo suggests the real name, which then finds the record`, async () => {
      const names = (await call({ method: "GET", endpoint: all })).data.result.map((r) => String(r.name));
      const real = names[names.length - 1]!;
      const typo = `${real.slice(0, -1)}#`;
      const { text, data } = await call({ method: "GET", endpoint, query_parameters: { name: typo } });
      expect(data.result).toHaveLength(0);
      expect(text).toContain(`No record is named exactly "${typo}" (the name must match exactly)`);
      expect(text).toMatch(/read with 1 more call/);
      const nearest = /the nearest names of the [^:]+, with their ids: (.+)\.$/m.exec(text)?.[1] ?? "";
      const suggested = [...nearest.matchAll(/"([^"]+)" \(id (\d+)\)/g)].map((m) => ({
        name: m[1]!,
        id: m[2]!,
      }));
      expect(suggested[0]?.name, text).toBe(real);
      const found = await call({ method: "GET", endpoint, query_parameters: { name: suggested[0]?.name } });
      expect(found.data.result.map((r) => r.name)).toContain(real);
      expect(found.text).not.toContain("No record is named exactly");
      // The id given beside the name is the record's: no lookup by name is needed.
      expect(found.data.result.map((r) => String(r.id))).toContain(suggested[0]?.id);
    });
  }

  it("T07: Q1 Webinar Invitees offers Webinar Registrants Q3 first and no unrelated list", async () => {
    for (const endpoint of ["/rest/v1/lists.json", "/rest/asset/v1/staticList/byName.json"]) {
      const { text } = await call({
        method: "GET",
        endpoint,
        query_parameters: { name: "Q1 Webinar Invitees" },
      });
      const nearest = /with their ids: (.+)\.$/m.exec(text)?.[1] ?? "";
      expect(nearest, text).toMatch(/^"Webinar Registrants Q3" \(id \d+\)/);
      expect(nearest).not.toContain("Beta Testers");
    }
  });

  it("T19: a name like no campaign says so and lists the campaigns, each found by the name listed", async () => {
    const { text } = await call({
      method: "GET",
      endpoint: "/rest/v1/campaigns.json",
      query_parameters: { name: "Sales Alert - Hot Lead" },
    });
    expect(text).toContain('No smart campaign is named like "Sales Alert - Hot Lead"');
    const listed = [
      ...(/read with 1 more call: (.+)\.$/m.exec(text)?.[1] ?? "").matchAll(/"([^"]+)" \(id (\d+)\)/g),
    ];
    const all = (await call({ method: "GET", endpoint: "/rest/v1/campaigns.json" })).data.result;
    expect(listed.map((m) => m[1]).sort(), text).toEqual(all.map((r) => String(r.name)).sort());
    const [, name, id] = listed[0]!;
    const found = await call({
      method: "GET",
      endpoint: "/rest/v1/campaigns.json",
      query_parameters: { name },
    });
    expect(found.data.result.map((r) => String(r.id))).toEqual([id]);
  });

  it("T10: Product Launch Webinar offers webinar programs only, or says none is like it", async () => {
    const { text } = await call({
      method: "GET",
      endpoint: "/rest/asset/v1/program/byName.json",
      query_parameters: { name: "Product Launch Webinar" },
    });
    const nearest = /with their ids: (.+)\.$/m.exec(text)?.[1];
    if (nearest === undefined) expect(text).toContain('No program is named like "Product Launch Webinar"');
    else for (const [, name] of nearest.matchAll(/"([^"]+)"/g)) expect(name, text).toMatch(/Webinar/);
  });

  it("N67 (trial s10): a new name like no program lists first the programs that share a word with it, and says so", async () => {
    const asked = "2027-01 Webinar – Product Update";
    const { text } = await call({
      method: "GET",
      endpoint: "/rest/asset/v1/program/byName.json",
      query_parameters: { name: asked },
    });
    expect(text).not.toContain("no name shares its words");
    const all = (
      await call({
        method: "GET",
        endpoint: "/rest/asset/v1/programs.json",
        query_parameters: { maxReturn: 200 },
      })
    ).data.result.map((r) => String(r.name));
    const sharing = all.filter((name) => /\b(webinar|product|update)\b/i.test(name));
    expect(sharing.length, "the sandbox has programs named with Webinar").toBeGreaterThan(1);
    const said = new RegExp(
      `\\(none is spelled like it or shares a third of its words; the ${sharing.length} names sharing a word come first\\)`,
    );
    expect(text).toMatch(said);
    const listed = [
      ...(/read with 1 more call: (.+)\.$/m.exec(text)?.[1] ?? "").matchAll(/"([^"]+)" \(id \d+\)/g),
    ].map((m) => m[1]);
    expect(listed.slice(0, sharing.length).sort()).toEqual(sharing.slice(0, 20).sort());
  });

  it("T05: an invalid filterType names the searchable fields like it first, and the first named works", async () => {
    const refused = (await session.client.callTool({
      name: "marketo_api_call",
      arguments: {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "emailAddress", filterValues: "lead5@example.com" },
      },
    })) as CallToolResult;
    const first = refused.content[0];
    const text = first?.type === "text" ? first.text : "";
    expect(refused.isError, text).toBe(true);
    const named = /searchable lead fields named like "emailAddress", nearest first: (\w+)/.exec(text)?.[1];
    expect(named, text).toBe("email");
    const found = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: named, filterValues: "lead5@example.com" },
    });
    expect(found.data.result).toHaveLength(1);
  });

  it("a filterType lookup that finds nothing says it matches exactly, and the export it names matches a part", async () => {
    const { text, data } = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: "example.com" },
    });
    expect(data.result).toHaveLength(0);
    expect(text).toContain("filterType email matches whole values exactly");
    const said = /POST (\S+) with run_to_completion, body (\{.+\}) and where (.+)\.$/m.exec(text);
    expect(said, text).not.toBeNull();
    const to = new Date();
    const from = new Date(to.getTime() - 30 * 86_400_000);
    const body = said![2]!
      .replace("<from>", `${from.toISOString().slice(0, 19)}Z`)
      .replace("<to>", `${to.toISOString().slice(0, 19)}Z`);
    const followed = await call({
      method: "POST",
      endpoint: said![1],
      body: JSON.parse(body),
      run_to_completion: true,
      where: said![3],
    });
    const computed = (followed.data as unknown as { computed: { matched: number } }).computed;
    expect(computed.matched, followed.text).toBeGreaterThan(0);
    // An id has no part to match: no export with where id contains (review s31, finding 5).
    const none = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "999999" },
    });
    expect(none.data.result).toHaveLength(0);
    expect(none.text).not.toContain("To match a part");
  });

  it("a read without a name adds no suggestion", async () => {
    const plain = await call({ method: "GET", endpoint: "/rest/v1/campaigns.json" });
    expect(plain.text).not.toContain("No record is named exactly");
  });
});
