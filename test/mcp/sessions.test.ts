import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

const newWorkspace = () =>
  new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });

async function openSession(url: string, id: number = 1): Promise<string> {
  const res = await raw(url, { body: { ...INIT, id } });
  expect(res.status).toBe(200);
  const sessionId = res.headers["mcp-session-id"];
  expect(typeof sessionId).toBe("string");
  await raw(url, {
    headers: { "mcp-session-id": sessionId as string, "mcp-protocol-version": "2025-11-25" },
    body: { jsonrpc: "2.0", method: "notifications/initialized" },
  });
  return sessionId as string;
}

const listen = (url: string, sessionId: string) =>
  raw(url, {
    method: "GET",
    headers: {
      "mcp-session-id": sessionId,
      accept: "text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    keepOpen: true,
  });

describe("2025-11-25 sessions release what they hold", () => {
  let http: HttpServerHandle | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it("thousands of sessions opened and deleted leave no listener, no session and no warning", async () => {
    const workspace = newWorkspace();
    http = await startHttpServer({ workspace: () => workspace });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      await openSession(http.url);
      const baseline = workspace.listenerCount("accountsChanged");
      for (let i = 0; i < 2_000; i++) {
        const sessionId = await openSession(http.url, i);
        const deleted = await raw(http.url, {
          method: "DELETE",
          headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
        });
        expect(deleted.status).toBe(200);
      }
      expect(workspace.listenerCount("accountsChanged")).toBe(baseline);
      expect(http.sessionCount()).toBe(1);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  }, 120_000);

  it("a session idle for longer than the idle time is closed; a deleted or expired id is unknown", async () => {
    http = await startHttpServer({ workspace: newWorkspace, sessionIdleMs: 200 });
    const ids = [await openSession(http.url), await openSession(http.url)];
    expect(http.sessionCount()).toBe(2);
    await new Promise((r) => setTimeout(r, 700));
    expect(http.sessionCount()).toBe(0);
    const late = await raw(http.url, {
      headers: { "mcp-session-id": ids[0]!, "mcp-protocol-version": "2025-11-25" },
      body: { jsonrpc: "2.0", id: 41, method: "tools/list" },
    });
    expect(late.status).toBe(404);
    expect(late.json()).toMatchObject({ id: 41, error: { code: -32001 } });
  });

  it("a session with an open stream is not idle", async () => {
    http = await startHttpServer({ workspace: newWorkspace, sessionIdleMs: 200 });
    const sessionId = await openSession(http.url);
    const stream = await listen(http.url, sessionId);
    expect(stream.status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect(http.sessionCount()).toBe(1);
    stream.abort();
    await new Promise((r) => setTimeout(r, 700));
    expect(http.sessionCount()).toBe(0);
  });

  it("at the cap the least recently used idle session makes room; when all are busy a new one is refused", async () => {
    http = await startHttpServer({ workspace: newWorkspace, maxSessions: 2 });
    const first = await openSession(http.url);
    const second = await openSession(http.url);
    const third = await openSession(http.url);
    expect(http.sessionCount()).toBe(2);
    const ask = (sessionId: string, id: number) =>
      raw(http!.url, {
        headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
        body: { jsonrpc: "2.0", id, method: "ping" },
      });
    expect((await ask(first, 7)).status).toBe(404);
    expect((await ask(second, 8)).status).toBe(200);

    // Both sessions busy (each holds its stream open): the next initialize is refused, saying why.
    const streams = [await listen(http.url, second), await listen(http.url, third)];
    const refused = await raw(http.url, { body: { ...INIT, id: 99 } });
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({
      id: 99,
      error: { message: expect.stringMatching(/MARTECH_STEPS_MAX_SESSIONS/) },
    });
    for (const stream of streams) stream.abort();
  });

  it("every session of a workspace hears that its tool list changed, through one listener", async () => {
    const workspace = newWorkspace();
    http = await startHttpServer({ workspace: () => workspace });
    const heard: number[] = [0, 0];
    const clients = await Promise.all(
      [0, 1].map(async (i) => {
        const client = new Client({ name: `c${i}`, version: "1" });
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
          heard[i]! += 1;
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(http!.url)));
        return client;
      }),
    );
    expect(workspace.listenerCount("accountsChanged")).toBe(1);
    // The client opens its notification stream (GET) just after connecting.
    await new Promise((r) => setTimeout(r, 200));
    workspace.accountsChanged();
    for (let i = 0; i < 50 && heard.some((n) => n === 0); i++) await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([1, 1]);
    for (const client of clients) await client.close();
  });
});

describe("a server instance lets go of its workspace when its connection ends", () => {
  it("closing the transport (not the handle) removes its accounts listener", async () => {
    const workspace = newWorkspace();
    for (let i = 0; i < 50; i++) {
      const handle = createMcpServer({ workspace });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await handle.server.connect(serverSide);
      const client = new Client({ name: "mem", version: "1" });
      await client.connect(clientSide as unknown as Transport);
      expect(workspace.listenerCount("accountsChanged")).toBe(1);
      await client.close();
    }
    expect(workspace.listenerCount("accountsChanged")).toBe(0);
  });
});
