/**
 * Issue 27 §4: a write's answer says what Marketo did, never "records read" (an upsert read "3 records
 * read in 1 page"), and a campaign schedule says what it runs on, when, and what can be checked (the
 * schedule answer said "1 record read"). Through MCP on the sandbox, each claim followed.
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
  return { text, data: result.structuredContent as { result: Record<string, unknown>[] } };
}

beforeAll(async () => {
  fixture = await marketoFixture();
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

describe("Marketo writes in words that are true", () => {
  it("an upsert with a record Marketo skipped (no id) lists no ids, which would pair wrongly (review s23)", async () => {
    const { text, data } = await call({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: {
        action: "createOrUpdate",
        lookupField: "email",
        input: [{ email: "lead6@example.com" }, { email: "" }],
      },
    });
    expect(data.result).toHaveLength(2);
    expect(data.result.some((record) => record.id === undefined)).toBe(true);
    expect(text).not.toContain("in input order)");
  });

  it("an upsert says created and updated per record, with the ids in input order, and no 'read'", async () => {
    const emails = ["new.person@northwind.test", "lead5@example.com"];
    const { text, data } = await call({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "createOrUpdate", lookupField: "email", input: emails.map((email) => ({ email })) },
    });
    expect(text).not.toMatch(/read/);
    expect(text).toMatch(/Marketo answered 2 results: (created 1, updated 1|updated 1, created 1)/);
    const ids = data.result.map((record) => String(record.id));
    expect(text).toContain(`(ids ${ids.join(", ")}, in input order)`);
    // In input order: looking each id up gives the email sent at its position.
    const looked = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: ids.join(",") },
    });
    const byId = new Map(looked.data.result.map((lead) => [String(lead.id), lead.email]));
    expect(ids.map((id) => byId.get(id))).toEqual(emails);
  });

  it("a schedule says when, that it runs on the campaign's own smart list, and where that list is", async () => {
    const campaigns = await call({
      method: "GET",
      endpoint: "/rest/v1/campaigns.json",
      query_parameters: { batchSize: 200 },
    });
    const batch = campaigns.data.result.find((campaign) => campaign.type === "batch");
    expect(batch).toBeDefined();
    const runAt = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const { text } = await call({
      method: "POST",
      endpoint: `/rest/v1/campaigns/${batch?.id}/schedule.json`,
      body: { input: { runAt } },
    });
    expect(text).not.toMatch(/read in|records? read/);
    expect(text).toContain(`Marketo accepted the schedule of batch campaign ${batch?.id} to run at ${runAt}`);
    expect(text).toContain(
      "A schedule takes no leads: the run acts on the leads the campaign's own smart list selects",
    );
    const named =
      /GET (\/rest\/asset\/v1\/smartCampaign\/\d+\.json) shows that smart list \(smartListId\)/.exec(text);
    expect(named, text).not.toBeNull();
    const asset = await call({ method: "GET", endpoint: named?.[1] });
    const smartListId = asset.data.result[0]?.smartListId;
    expect(asset.data.result[0]?.isActive).toBeDefined();
    // The answer already names that smart list and what it selects, read with one more call.
    expect(text).toMatch(
      new RegExp(
        `targets its smart list "[^"]+" \\(id ${String(smartListId)}\\): triggers none; its filters \\(all must match\\): .+\\. The scheduled run`,
      ),
    );
    expect(text).toContain(
      "The scheduled run acts on the leads this smart list selects (a schedule takes no leads)",
    );
    // Agent trial s4, T09: a schedule's answer talks of schedules, never of requesting or trigger.json.
    expect(text).not.toMatch(/trigger\.json|requested by API|leads you give/);
  });
});
