import { hostname, networkInterfaces } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, parseApiKeys, startHttpServer } from "../../src/host/http.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { INIT, raw } from "../helpers/raw-http.js";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A raw POST with chosen headers (fetch does not let a caller set Host). */
const rawPost = (url: string, headers: Record<string, string>, body: unknown) => raw(url, { headers, body });

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

describe("refusals answer the request they refuse", () => {
  it("401, 403 (Host, Origin), 400 (no session) and 404 (unknown session) carry the request's id", async () => {
    const key = "k".repeat(32);
    const http = await startHttpServer({
      apiKeys: parseApiKeys(`team:${key}`),
      workspace: (name) => new Workspace({ name, env: {} }),
    });
    const port = new URL(http.url).port;
    const call = (id: number, headers: Record<string, string>) =>
      raw(http.url, { headers, body: { jsonrpc: "2.0", id, method: "tools/list" } });
    try {
      const cases: [number, Record<string, string>, number][] = [
        [11, {}, 401],
        [12, { host: `evil.example:${port}`, authorization: `Bearer ${key}` }, 403],
        [13, { origin: "http://evil.example", authorization: `Bearer ${key}` }, 403],
        [14, { authorization: `Bearer ${key}` }, 400],
        [15, { authorization: `Bearer ${key}`, "mcp-session-id": "no-such-session" }, 404],
      ];
      for (const [id, headers, status] of cases) {
        const res = await call(id, headers);
        expect(res.status, JSON.stringify(headers)).toBe(status);
        expect(res.json()?.id, `${status} answers id ${id}`).toBe(id);
      }
      const garbled = await raw(http.url, { body: undefined, headers: { authorization: `Bearer ${key}` } });
      expect(garbled.json()).toMatchObject({ id: null, error: { code: -32700 } });
    } finally {
      await http.close();
    }
  });

  it("an unknown tool is JSON-RPC error -32602 with the request's id, in both revisions", async () => {
    const http = await startHttpServer({ workspace: () => new Workspace({ env: {} }) });
    try {
      const legacy = new Client({ name: "v1", version: "1" });
      await legacy.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await expect(legacy.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
      await legacy.close();
      const modern = await raw(http.url, {
        headers: {
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "no_such_tool",
        },
        body: {
          jsonrpc: "2.0",
          id: "call-7",
          method: "tools/call",
          params: { name: "no_such_tool", arguments: {}, _meta: MODERN_META },
        },
      });
      expect(modern.json()).toMatchObject({ id: "call-7", error: { code: -32602 } });
    } finally {
      await http.close();
    }
  });
});

describe("bound to every interface", () => {
  it("answers to this machine's own addresses and name, and says which setting adds others", async () => {
    const key = "z".repeat(32);
    const http = await startHttpServer({
      host: "0.0.0.0",
      apiKeys: parseApiKeys(`team:${key}`),
      workspace: (name) => new Workspace({ name, env: {} }),
    });
    const port = http.port;
    const target = `http://127.0.0.1:${port}/mcp`;
    const auth = { authorization: `Bearer ${key}` };
    try {
      const lan = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
      for (const host of ["127.0.0.1", "localhost", hostname(), ...(lan ? [lan] : [])]) {
        const res = await raw(target, { headers: { ...auth, host: `${host}:${port}` }, body: INIT });
        expect(res.status, host).toBe(200);
      }
      const refused = await raw(target, { headers: { ...auth, host: `0.0.0.0.nip.io:${port}` }, body: INIT });
      expect(refused.status).toBe(403);
      expect(refused.json()?.error?.message).toMatch(/MARTECH_STEPS_ALLOWED_HOSTS/);
    } finally {
      await http.close();
    }
  });
});
