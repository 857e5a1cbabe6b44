import { Client as ModernClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/mcp/http.js";
import { resultLogEntries } from "../../src/mcp/logging.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { modernMcpSession } from "../helpers/mcp.js";
import { raw } from "./support/raw-http.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One 2026-07-28 request over HTTP, with the headers SEP-2243 requires. */
const modern = (url: string, id: number, method: string, params: Record<string, unknown> = {}) =>
  raw(url, {
    headers: {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof (params.name ?? params.uri) === "string"
        ? { "mcp-name": String(params.name ?? params.uri) }
        : {}),
    },
    body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...(params._meta ?? {}) } } },
  });

/** Every JSON-RPC message of an SSE (or plain JSON) body. */
function messages(text: string): { method?: string; params?: Record<string, unknown>; result?: unknown }[] {
  const lines = text.split("\n").filter((l) => l.startsWith("data:"));
  return lines.length > 0 ? lines.map((l) => JSON.parse(l.slice(5))) : [JSON.parse(text)];
}

describe("2026-07-28 over HTTP", () => {
  let fixture: MarketoFixture;
  let http: HttpServerHandle;

  beforeAll(async () => {
    // A small window share (2 calls per 3 s) so that a paged read waits; a daily quota nearly spent.
    fixture = await marketoFixture(
      {},
      { MARKETO_CALLS_PER_WINDOW: "2", MARKETO_WINDOW_MS: "3000", MARKETO_DAILY_QUOTA: "8" },
    );
    http = await startHttpServer({ workspace: () => fixture.workspace });
  });
  afterAll(async () => {
    await http.close();
    await fixture.close();
  });

  it("lists carry caching hints: the tool list private and short, the package's own lists public", async () => {
    const tools = (await modern(http.url, 1, "tools/list")).json()?.result as Record<string, unknown>;
    expect(tools).toMatchObject({ ttlMs: 60_000, cacheScope: "private" });
    expect((tools.tools as { name: string }[]).map((t) => t.name)[0]).toBe("marketo_api_call");
    const prompts = (await modern(http.url, 2, "prompts/list")).json()?.result;
    expect(prompts).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    const resources = (await modern(http.url, 3, "resources/list")).json()?.result as {
      resources: { uri: string }[];
    };
    expect(resources.resources.map((r) => r.uri)).toContain("martech-steps://manifest");
    const manifest = (await modern(http.url, 4, "resources/read", { uri: "martech-steps://manifest" })).json()
      ?.result as { contents: { text: string }[] };
    expect(JSON.parse(manifest.contents[0]!.text).steps).toHaveLength(5);
  });

  it("sends progress that strictly increases, and log lines only at the level the request asks", async () => {
    const call = (id: number, logLevel?: string) =>
      modern(http.url, id, "tools/call", {
        name: "marketo_api_call",
        arguments: {
          method: "GET",
          endpoint: "/rest/v1/lists/1001/leads.json",
          query_parameters: { batchSize: 100, fields: "id" },
          paginate: true,
          max_pages: 4,
        },
        _meta: {
          progressToken: `p${id}`,
          ...(logLevel ? { "io.modelcontextprotocol/logLevel": logLevel } : {}),
        },
      });
    const quiet = messages((await call(10)).text);
    expect(quiet.filter((m) => m.method === "notifications/message")).toEqual([]);
    const progress = quiet
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params!.progress as number);
    expect(progress.length).toBeGreaterThan(2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!);

    const logged = messages((await call(11, "info")).text)
      .filter((m) => m.method === "notifications/message")
      .map((m) => m.params as { level: string; data: { message: string } });
    expect(
      logged.some(
        (l) => l.level === "info" && /Waiting \d+ s for Marketo's rate window/.test(l.data.message),
      ),
    ).toBe(true);
    // The daily quota of 8 is spent after these two reads: a warning says so.
    expect(
      logged.some((l) => l.level === "warning" && /Marketo API calls are left today/.test(l.data.message)),
    ).toBe(true);
    const warningsOnly = messages((await call(12, "warning")).text)
      .filter((m) => m.method === "notifications/message")
      .map((m) => (m.params as { level: string }).level);
    expect(warningsOnly.every((level) => level !== "info" && level !== "debug")).toBe(true);
  }, 30_000);

  it("tells a listening client that the tool list changed when accounts change", async () => {
    const changes: number[] = [];
    const client = new ModernClient(
      { name: "listener", version: "1" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: {
          tools: { debounceMs: 0, autoRefresh: false, onChanged: () => changes.push(Date.now()) },
        },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await new Promise((r) => setTimeout(r, 300));
    fixture.workspace.accountsChanged();
    for (let i = 0; i < 50 && changes.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(changes.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe("2026-07-28 cancellation over HTTP", () => {
  it("stops a call when the client cancels it (closing the request's stream)", async () => {
    const fixture = await marketoFixture({}, { MARKETO_CALLS_PER_WINDOW: "2", MARKETO_WINDOW_MS: "3000" });
    const http = await startHttpServer({ workspace: () => fixture.workspace });
    try {
      const client = new ModernClient(
        { name: "canceller", version: "1" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const controller = new AbortController();
      const pending = client.callTool(
        {
          name: "marketo_api_call",
          arguments: {
            method: "GET",
            endpoint: "/rest/v1/lists/1001/leads.json",
            query_parameters: { batchSize: 100, fields: "id" },
            paginate: true,
            max_pages: 10,
          },
        },
        {
          signal: controller.signal,
          onprogress: (p) => {
            if (/Waiting/.test(p.message ?? "")) controller.abort();
          },
        },
      );
      await expect(pending).rejects.toThrow();
      const sent = fixture.sandbox.stats().apiCalls;
      await new Promise((r) => setTimeout(r, 3_500));
      expect(fixture.sandbox.stats().apiCalls).toBe(sent);
      await client.close();
    } finally {
      await http.close();
      await fixture.close();
    }
  }, 20_000);
});

describe("2025-11-25 logging", () => {
  it("sends nothing until the client sets a level, then what is at or above it", async () => {
    const fixture = await marketoFixture({}, { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "1500" });
    const { mcpSession } = await import("../helpers/mcp.js");
    const { LoggingMessageNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const { client, close } = await mcpSession(fixture.workspace);
    const received: { level: string; data: { message: string } }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      received.push(n.params as { level: string; data: { message: string } });
    });
    const read = () =>
      client.callTool({
        name: "marketo_api_call",
        arguments: {
          method: "GET",
          endpoint: "/rest/v1/lists/1001/leads.json",
          query_parameters: { batchSize: 300, fields: "id" },
          paginate: true,
          max_pages: 2,
        },
      });
    try {
      await read();
      expect(received).toEqual([]);
      await client.setLoggingLevel("info");
      await read();
      expect(received.some((l) => l.level === "info" && /Waiting \d+ s/.test(l.data.message))).toBe(true);
      received.length = 0;
      await client.setLoggingLevel("error");
      await read();
      expect(received).toEqual([]);
    } finally {
      await close();
      await fixture.close();
    }
  }, 30_000);
});

describe("2026-07-28: the Google sign-in link is an input-required result", () => {
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

describe("what a result adds to the log", () => {
  it("its warnings, and a Google Analytics token quota running low", () => {
    const entries = resultLogEntries({
      warnings: ["type is not a Marketo parameter: filtered client-side"],
      quota: {
        tokens_per_hour: { consumed: 12, remaining: 800 },
        tokens_per_day: { consumed: 12, remaining: 190_000 },
      },
    });
    expect(entries.map((e) => [e.level, e.message])).toEqual([
      ["warning", "type is not a Marketo parameter: filtered client-side"],
      ["warning", "Only 800 Google Analytics quota tokens are left (tokens per hour) for this property."],
    ]);
  });
});
