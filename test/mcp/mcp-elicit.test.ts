import { Client as ModernClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { GOOGLE_SIGN_IN } from "../../src/connections/google/sign-in.js";
import { startHttpServer } from "../../src/host/http.js";
import {
  type GoogleSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
} from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { mcpSession, modernMcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("no Google account connected", () => {
  let sandbox: GoogleSandbox;
  beforeAll(async () => {
    sandbox = await startGoogleSandbox();
  });
  afterAll(async () => sandbox.close());

  const newWorkspace = () =>
    new Workspace({
      env: sandboxEnv({ google: sandbox }),
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });

  it("tells a client without URL elicitation how to connect one", async () => {
    const { client, close } = await mcpSession(newWorkspace());
    const result = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/No Google account is connected.*accounts connect/s);
    await close();
  });

  it("sends the sign-in URL to a client with URL elicitation; after consent the tool list changes and calls work", async () => {
    const workspace = newWorkspace();
    const { client, close } = await mcpSession(workspace, { capabilities: { elicitation: { url: {} } } });
    const elicited: { mode?: string; url?: string; message?: string }[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicited.push(request.params as { mode?: string; url?: string; message?: string });
      return { action: "accept" };
    });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
    });
    const first = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    })) as CallToolResult;
    expect(first.isError).toBe(true);
    expect(text(first)).toMatch(/sign-in link was sent/);
    // The room's words (src/connections/<service>/sign-in.ts): the MCP layer names no service.
    expect(text(first).startsWith(GOOGLE_SIGN_IN.notConnected)).toBe(true);
    expect(first._meta?.["martech-steps/error"]).toMatchObject({ connection: "google", elicitation: "sent" });
    await new Promise((r) => setTimeout(r, 50));
    expect(elicited).toHaveLength(1);
    expect(elicited[0]?.mode).toBe("url");
    expect(elicited[0]?.message).toBe(GOOGLE_SIGN_IN.message);
    const url = elicited[0]!.url!;
    expect(url.startsWith(sandbox.authorizeUrl)).toBe(true);
    expect(url).toMatch(/code_challenge_method=S256/);

    // The user's browser: consent redirects to the loopback receiver, which finishes the connection.
    const consent = await fetch(url, { redirect: "manual" });
    const callback = consent.headers.get("location")!;
    expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect((await fetch(callback)).status).toBe(200);
    for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(changed).toBeGreaterThan(0);

    const { tools } = await client.listTools();
    expect(JSON.stringify(tools[1]?.inputSchema)).toContain("analyst");
    const second = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    })) as CallToolResult;
    expect(second.isError, text(second)).toBeFalsy();
    await close();
  });

  it("does not offer the link where the user's browser is elsewhere (HTTP not on loopback)", async () => {
    const { client, close } = await mcpSession(newWorkspace(), {
      capabilities: { elicitation: { url: {} } },
      offerSignIn: false,
    });
    let elicited = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      elicited += 1;
      return { action: "accept" };
    });
    const result = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    })) as CallToolResult;
    expect(text(result)).toMatch(/accounts connect/);
    expect(elicited).toBe(0);
    await close();
  });

  it("stops listening for the redirect when the user declines the link", async () => {
    const { client, close } = await mcpSession(newWorkspace(), {
      capabilities: { elicitation: { url: {} } },
    });
    const urls: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      urls.push((request.params as { url: string }).url);
      return { action: "decline" };
    });
    await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    });
    await new Promise((r) => setTimeout(r, 100));
    const consent = await fetch(urls[0]!, { redirect: "manual" });
    const callback = consent.headers.get("location")!;
    await expect(fetch(callback)).rejects.toThrow();
    await close();
  });

  // 2026-07-28 has no server-to-client requests: the link comes as an input-required result.
  const summaries = {
    name: "google_analytics_api_call",
    arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
  };

  it("the client shows the link, the user signs in, and the retried call runs with the new account", async () => {
    const workspace = newWorkspace();
    const { client, close } = await modernMcpSession(workspace, {
      capabilities: { elicitation: { url: {} } },
    });
    const asked: { mode?: string; url?: string }[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { mode?: string; url?: string };
      asked.push(params);
      // The user's browser: consent redirects to the loopback receiver, which finishes the connection.
      const consent = await fetch(params.url!, { redirect: "manual" });
      await fetch(consent.headers.get("location")!);
      return { action: "accept" };
    });
    try {
      const result = await client.callTool(summaries);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.mode).toBe("url");
      expect(asked[0]?.url?.startsWith(sandbox.authorizeUrl)).toBe(true);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect((await workspace.accounts.list()).length).toBe(1);
    } finally {
      await close();
    }
  });

  it("over HTTP: the retried call waits for the sign-in the user finishes after accepting the link", async () => {
    const workspace = newWorkspace();
    const http = await startHttpServer({ workspace: () => workspace });
    const client = new ModernClient(
      { name: "v2-http", version: "1" },
      {
        capabilities: { elicitation: { url: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      // The user opens the link in the browser a little later; the client answers at once.
      setTimeout(async () => {
        const consent = await fetch(url, { redirect: "manual" });
        await fetch(consent.headers.get("location")!);
      }, 300);
      return { action: "accept" };
    });
    const progress: (string | undefined)[] = [];
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const result = await client.callTool(summaries, {
        onprogress: (update: { message?: string }) => progress.push(update.message),
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      // While the retried call waits for the sign-in, it says so in the room's words.
      expect(progress).toContain(GOOGLE_SIGN_IN.waiting);
      expect((await workspace.accounts.list()).map((a) => a.email)).toEqual([SANDBOX_GOOGLE_USER]);
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("a declined link ends with the error, without asking again", async () => {
    const { client, close } = await modernMcpSession(newWorkspace(), {
      capabilities: { elicitation: { url: {} } },
    });
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => {
      asked += 1;
      return { action: "decline" };
    });
    try {
      const result = await client.callTool(summaries);
      expect(asked).toBe(1);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/No Google account is connected/);
    } finally {
      await close();
    }
  });

  it("a client without URL elicitation gets the error that says how to connect an account", async () => {
    const { client, close } = await modernMcpSession(newWorkspace());
    try {
      const result = await client.callTool(summaries);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/accounts connect/);
    } finally {
      await close();
    }
  });
});
