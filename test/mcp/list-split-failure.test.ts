import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture, marketoWorkspace } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Issue 27 (trial s4, item 7): adding more than 300 leads to a list is sent as calls of 300; when a later
 * call fails (here the daily quota, set to one call for this workspace), the error says which ids were
 * applied and which were not, and sending only the rest as it says (from a workspace with quota left) adds
 * exactly those.
 */
let fixture: MarketoFixture;
let session: McpSession;
let spare: McpSession;

async function call(on: McpSession, args: Record<string, unknown>) {
  const result = (await on.client.callTool({ name: "marketo_api_call", arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return {
    isError: result.isError === true,
    text,
    data: result.structuredContent as { result: { id?: number }[] },
  };
}

beforeAll(async () => {
  fixture = await marketoFixture();
  session = await mcpSession(marketoWorkspace(fixture.sandbox, {}, { MARKETO_DAILY_QUOTA: "1" }));
  spare = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await spare.close();
  await fixture.close();
});

describe("a list add split into calls of 300, failing part way", () => {
  it("says which ids were applied and which not, and how to send only the rest", async () => {
    const members = async () => {
      const read = await call(spare, {
        method: "GET",
        endpoint: "/rest/v1/lists/1001/leads.json",
        query_parameters: { fields: "id" },
        paginate: true,
      });
      expect(read.isError, read.text).toBe(false);
      return new Set(read.data.result.map((lead) => Number(lead.id)));
    };
    // 450 leads not on the list yet.
    const seeded = await members();
    const ids = Array.from({ length: 2_000 }, (_, i) => 2_000 + i)
      .filter((id) => !seeded.has(id))
      .slice(0, 450);
    expect(ids).toHaveLength(450);
    const failed = await call(session, {
      method: "POST",
      endpoint: "/rest/v1/lists/1001/leads.json",
      body: { input: ids.map((id) => ({ id })) },
    });
    expect(failed.isError, failed.text).toBe(true);
    expect(failed.text).toContain(
      `Sent as 2 calls of at most 300 ids: calls 1–1 were applied (the first 300 ids: ${ids.slice(0, 300).join(",")})`,
    );
    const rest =
      /these 150 ids were not applied: ([\d,]+)\. To send only the rest, call again with body\.input holding the ids from position 301/.exec(
        failed.text,
      );
    expect(rest, failed.text).not.toBeNull();
    expect(rest?.[1]?.split(",").map(Number)).toEqual(ids.slice(300));
    const before = await members();
    expect(ids.slice(0, 300).every((id) => before.has(id))).toBe(true);
    expect(ids.slice(300).some((id) => before.has(id))).toBe(false);
    // Done as it says: the ids from position 301 on, sent alone, complete the list.
    const sent = await call(spare, {
      method: "POST",
      endpoint: "/rest/v1/lists/1001/leads.json",
      body: { input: ids.slice(300).map((id) => ({ id })) },
    });
    expect(sent.isError, sent.text).toBe(false);
    const after = await members();
    expect(ids.every((id) => after.has(id))).toBe(true);
  });
});
