import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { ConfigurationError } from "../../src/errors.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

interface Lead {
  id: number;
  email: string;
}

describe("MCP server over the Marketo sandbox (in-memory transport)", () => {
  let fixture: MarketoFixture;
  let client: Client;
  const wire: JSONRPCMessage[] = [];
  let closeSession: () => Promise<void>;

  beforeAll(async () => {
    fixture = await marketoFixture();
    ({ client, close: closeSession } = await mcpSession(fixture.workspace, { record: wire }));
  });

  afterAll(async () => {
    await closeSession();
    await fixture.close();
  });

  const call = async (args: Record<string, unknown>, onprogress?: (p: { progress: number }) => void) =>
    (await client.callTool(
      { name: "marketo_api_call", arguments: args },
      undefined,
      onprogress ? { onprogress, resetTimeoutOnProgress: true } : undefined,
    )) as CallToolResult;

  it("lists marketo_api_call with its schemas and annotations", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "marketo_api_call");
    expect(tool?.title).toBe("Marketo API Call");
    expect(tool?.inputSchema.required).toEqual(expect.arrayContaining(["method", "endpoint"]));
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["method", "endpoint", "query_parameters", "body", "paginate"]),
    );
    expect(tool?.outputSchema?.properties).toHaveProperty("result");
    expect(tool?.annotations?.openWorldHint).toBe(true);
  });

  it("reads leads by email", async () => {
    const result = await call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: ["lead1@example.com", "lead2@example.com"] },
    });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { result: Lead[]; calls_used: number };
    expect(data.result.map((l) => l.email).sort()).toEqual(["lead1@example.com", "lead2@example.com"]);
    expect(data.calls_used).toBe(1);
    expect((result.content[0] as { text: string }).text).toMatch(/^GET \/rest\/v1\/leads.json: 2 records/);
  });

  it("pages through a list's members with progress notifications", async () => {
    const lists = await call({ method: "GET", endpoint: "/rest/v1/lists.json", paginate: true });
    const all = (lists.structuredContent as { result: { id: number; name: string }[] }).result;
    expect(all.length).toBeGreaterThan(0);
    // The biggest list needs several pages of 300.
    let biggest = { id: 0, size: 0 };
    for (const list of all) {
      const r = await call({
        method: "GET",
        endpoint: `/rest/v1/lists/${list.id}/leads.json`,
        query_parameters: { fields: "id", batchSize: 300 },
        paginate: true,
        max_items: 100_000,
        max_pages: 50,
      });
      const size = (r.structuredContent as { result: unknown[] }).result.length;
      if (size > biggest.size) biggest = { id: list.id, size };
    }
    expect(biggest.size).toBeGreaterThan(300);
    const progress: number[] = [];
    const paged = await call(
      {
        method: "GET",
        endpoint: `/rest/v1/lists/${biggest.id}/leads.json`,
        query_parameters: { fields: ["id"], batchSize: 300 },
        paginate: true,
        max_items: 100_000,
        max_pages: 50,
      },
      (p) => progress.push(p.progress),
    );
    const data = paged.structuredContent as { result: Lead[]; pages: number; complete: boolean };
    expect(data.result).toHaveLength(biggest.size);
    expect(new Set(data.result.map((l) => l.id)).size).toBe(biggest.size);
    expect(data.pages).toBe(Math.ceil(biggest.size / 300));
    expect(data.complete).toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(data.pages);
  });

  it("adds leads to a list and triggers a campaign", async () => {
    const lists = (await call({ method: "GET", endpoint: "/rest/v1/lists.json" })).structuredContent as {
      result: { id: number }[];
    };
    const listId = lists.result[0]!.id;
    const added = await call({
      method: "POST",
      endpoint: `/rest/v1/lists/${listId}/leads.json`,
      body: { input: [{ id: 1 }, { id: 2 }, { id: 999_999_999 }] },
    });
    const addedData = added.structuredContent as {
      result: { id: number; status: string }[];
      record_errors: { index: number; reasons: { code: string }[] }[];
    };
    expect(added.isError).toBeFalsy();
    expect(
      addedData.result.filter((r) => r.status === "added" || r.status === "skipped").length,
    ).toBeGreaterThan(0);
    expect(addedData.record_errors.map((e) => e.reasons[0]?.code)).toContain("1004");

    const campaigns = (await call({ method: "GET", endpoint: "/rest/v1/campaigns.json", paginate: true }))
      .structuredContent as {
      result: { id: number; type: string; isRequestable?: boolean; active?: boolean }[];
    };
    const trigger = campaigns.result.find((c) => c.type === "trigger" && c.active !== false);
    expect(trigger).toBeDefined();
    const run = await call({
      method: "POST",
      endpoint: `/rest/v1/campaigns/${trigger!.id}/trigger.json`,
      body: { input: { leads: [{ id: 1 }] } },
    });
    expect(run.isError).toBeFalsy();
    expect((run.structuredContent as { result: { id: number }[] }).result[0]?.id).toBe(trigger!.id);
  });

  it("refuses a dangerous endpoint before any request, naming the field", async () => {
    const before = fixture.sandbox.stats().apiCalls;
    for (const endpoint of [
      "https://evil.example/rest/v1/leads.json",
      "//evil.example/rest",
      "/rest/../identity/oauth/token",
    ]) {
      const result = await call({ method: "GET", endpoint });
      expect(result.isError).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/Invalid endpoint/);
    }
    expect(fixture.sandbox.stats().apiCalls).toBe(before);
  });

  it("explains bad input and Marketo errors in a way a model can act on", async () => {
    const bad = await call({ method: "PUT", endpoint: "/rest/v1/leads.json" });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/method.*GET.*POST.*DELETE/);
    const body = await call({ method: "GET", endpoint: "/rest/v1/leads.json", body: { a: 1 } });
    expect((body.content[0] as { text: string }).text).toMatch(/body/);
    const missing = await call({ method: "GET", endpoint: "/rest/v1/nothing-here.json" });
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toMatch(/610/);
    const stats = await call({ method: "GET", endpoint: "/rest/asset/v1/program/1001/stats.json" });
    expect((stats.content[0] as { text: string }).text).toMatch(/activities/);
  });

  it("never sends the client secret or a token in any MCP message", async () => {
    const text = JSON.stringify(wire);
    expect(wire.length).toBeGreaterThan(10);
    expect(text).not.toContain(CANARY_SECRET);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:sbx/);
  });
});

describe("MCP server without a Marketo connection", () => {
  it("answers with isError saying how to configure Marketo", async () => {
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const { client, close } = await mcpSession(workspace);
    const result = (await client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint: "/rest/v1/lists.json" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/not configured.*marketo configure/s);
    await close();
  });
});

describe("MCP server when the credential store cannot be read", () => {
  it("answers with an isError result naming the problem, not a protocol error", async () => {
    const broken = {
      read: async () => {
        throw new ConfigurationError('The credential store of workspace "default" cannot be decrypted.');
      },
      update: async () => {
        throw new Error("unused");
      },
    };
    const workspace = new Workspace({ env: {}, store: broken, state: new MemoryState() });
    const { client, close } = await mcpSession(workspace);
    const result = (await client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint: "/rest/v1/lists.json" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/cannot be decrypted/);
    await close();
  });
});
