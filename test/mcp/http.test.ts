import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, parseApiKeys, startHttpServer } from "../../src/mcp/http.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A raw POST with chosen Host/Origin headers (fetch does not let a caller set Host). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("Streamable HTTP server", () => {
  let fixture: MarketoFixture;
  let http: HttpServerHandle;

  beforeAll(async () => {
    fixture = await marketoFixture();
    http = await startHttpServer({ workspace: () => fixture.workspace });
  });
  afterAll(async () => {
    await http.close();
    await fixture.close();
  });

  it("binds to 127.0.0.1 by default and serves an SDK client end to end", async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "http-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("marketo_api_call");
    const result = (await client.callTool({
      name: "marketo_api_call",
      arguments: {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "id", filterValues: "1,2,3" },
      },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { result: unknown[] }).result).toHaveLength(3);
    expect(JSON.stringify(result)).not.toContain(CANARY_SECRET);
    await client.close();
  });

  it("refuses a foreign Host header (DNS rebinding)", async () => {
    const res = await rawPost(http.url, { host: "evil.example:80" }, INIT);
    expect(res.status).toBe(403);
  });

  it("refuses a foreign Origin, accepts a loopback one", async () => {
    const port = new URL(http.url).port;
    const evil = await rawPost(http.url, { origin: "http://evil.example" }, INIT);
    expect(evil.status).toBe(403);
    const ok = await rawPost(http.url, { origin: `http://localhost:${port}` }, INIT);
    expect(ok.status).toBe(200);
  });

  it("answers 404 off /mcp and 400 for a request without a session", async () => {
    expect((await fetch(http.url.replace("/mcp", "/other"), { method: "POST" })).status).toBe(404);
    const res = await rawPost(http.url, {}, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(res.status).toBe(400);
  });
});

describe("HTTP server exposure rules", () => {
  it("refuses to bind a non-loopback interface without API keys", async () => {
    await expect(
      startHttpServer({ host: "0.0.0.0", workspace: () => new Workspace({ env: {} }) }),
    ).rejects.toThrow(/without API keys/);
  });

  it("refuses short API keys", () => {
    expect(() => parseApiKeys("team:short")).toThrow(/24 characters/);
  });

  it("with API keys: 401 without a key; each key reaches only its own workspace; sessions don't cross", async () => {
    const keyA = "a".repeat(32);
    const keyB = "b".repeat(32);
    const store = new MemoryCredentialStore();
    const state = new MemoryState();
    const seen: string[] = [];
    const http = await startHttpServer({
      apiKeys: parseApiKeys(`alpha:${keyA},beta:${keyB}`),
      workspace: (name) => {
        seen.push(name);
        return new Workspace({ name, env: {}, store, state });
      },
    });
    try {
      expect((await rawPost(http.url, {}, INIT)).status).toBe(401);
      expect((await rawPost(http.url, { authorization: `Bearer ${"c".repeat(32)}` }, INIT)).status).toBe(401);
      const client = new Client({ name: "a", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${keyA}` } },
      });
      await client.connect(transport);
      expect([...new Set(seen)]).toEqual(["alpha"]);
      // Beta's key cannot use alpha's session.
      const hijack = await rawPost(
        http.url,
        { authorization: `Bearer ${keyB}`, "mcp-session-id": transport.sessionId ?? "" },
        { jsonrpc: "2.0", id: 3, method: "tools/list" },
      );
      expect(hijack.status).toBe(404);
      await client.close();
    } finally {
      await http.close();
    }
  });
});

describe("HTTP server start-up errors", () => {
  it("says which port is taken and how to choose another", async () => {
    const first = await startHttpServer({ workspace: () => new Workspace({ env: {} }) });
    try {
      await expect(
        startHttpServer({ port: first.port, workspace: () => new Workspace({ env: {} }) }),
      ).rejects.toThrow(/already in use.*--port/);
    } finally {
      await first.close();
    }
  });
});
