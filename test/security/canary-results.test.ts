import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryResultStore } from "../../src/results/memory.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture, marketoWorkspace } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Kept results never hold or serve a credential: a Marketo record that repeats the client secret (a lead
 * whose company is the secret) is read through a capped answer, kept, and read back in every page as
 * JSON and CSV; the secret is in none of them, nor in what the store holds, nor on the wire.
 */
describe("kept results and the canary secret", () => {
  let fixture: MarketoFixture;
  let session: McpSession;
  const wire: JSONRPCMessage[] = [];
  const results = new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 50_000_000 });
  const call = async (args: Record<string, unknown>) =>
    (await session.client.callTool({ name: "marketo_api_call", arguments: args })) as CallToolResult;

  beforeAll(async () => {
    fixture = await marketoFixture();
    const workspace = marketoWorkspace(fixture.sandbox, { results });
    session = await mcpSession(workspace, { record: wire });
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("keeps and serves a record that repeats the secret with the secret redacted", async () => {
    const synced = await call({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "createOrUpdate", input: [{ email: "canary@example.com", company: CANARY_SECRET }] },
    });
    const leadId = (synced.structuredContent as { result: { id: number }[] }).result[0]?.id;
    await call({
      method: "POST",
      endpoint: "/rest/v1/lists/1001/leads.json",
      body: { input: [{ id: leadId }] },
    });
    const read = await call({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: ["id", "email", "company"] },
      paginate: true,
    });
    const links = read.content.filter((block) => block.type === "resource_link") as { uri: string }[];
    expect(links).toHaveLength(2);
    const served: string[] = [];
    for (const link of links) {
      let uri: string | undefined = link.uri;
      while (uri) {
        const { contents } = await session.client.readResource({ uri });
        const content = contents[0] as { text: string; _meta?: Record<string, { next?: string }> };
        served.push(content.text);
        uri = content._meta?.["martech-steps/page"]?.next;
      }
    }
    const all = served.join("\n");
    expect(all).toContain("canary@example.com");
    expect(all).not.toContain(CANARY_SECRET);
    expect(all).toMatch(/redacted/);
    const meta = await results.meta("default", links[0]?.uri.match(/results\/([^.]+)\./)?.[1] ?? "");
    const kept: string[] = [];
    for (let i = 0; i < (meta?.pageItems.length ?? 0); i += 1)
      kept.push((await results.page("default", meta?.id ?? "", i)) ?? "");
    expect(kept.join("")).not.toContain(CANARY_SECRET);
    expect(JSON.stringify(wire)).not.toContain(CANARY_SECRET);
  });
});
