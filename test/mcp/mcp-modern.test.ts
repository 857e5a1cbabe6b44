import { Client as ModernClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { resultLogEntries } from "../../src/mcp/logging.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";
import { listMembersRead } from "../helpers/mcp-calls.js";
import { raw } from "../helpers/raw-http.js";

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
      resources: { uri: string; description?: string }[];
    };
    expect(resources.resources.map((r) => r.uri)).toContain("martech-steps://manifest");
    const manifest = (await modern(http.url, 4, "resources/read", { uri: "martech-steps://manifest" })).json()
      ?.result as { contents: { text: string }[] };
    expect(JSON.parse(manifest.contents[0]!.text).steps).toHaveLength(5);
    // Its description states its size, within a quarter (trial s28: an agent read it before its first task).
    const said = resources.resources.find((r) => r.uri === "martech-steps://manifest")?.description ?? "";
    const size = Number(/about ([\d,]+) characters/.exec(said)?.[1]?.replaceAll(",", ""));
    const actual = manifest.contents[0]!.text.length;
    expect(Math.abs(size - actual) / actual, `${said} (${actual})`).toBeLessThan(0.25);
  });

  it("sends progress that strictly increases, and log lines only at the level the request asks", async () => {
    const call = (id: number, logLevel?: string) =>
      modern(http.url, id, "tools/call", {
        name: "marketo_api_call",
        arguments: listMembersRead(100, 4),
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

describe("2025-11-25 logging", () => {
  it("sends nothing until the client sets a level, then what is at or above it", async () => {
    const fixture = await marketoFixture({}, { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "1500" });
    const { client, close } = await mcpSession(fixture.workspace);
    const received: { level: string; data: { message: string } }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      received.push(n.params as { level: string; data: { message: string } });
    });
    const read = () =>
      client.callTool({
        name: "marketo_api_call",
        arguments: listMembersRead(300, 2),
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

  it("each property's quota running low, in a report over several properties", () => {
    const entries = resultLogEntries({
      properties: [
        {
          property: "properties/1",
          property_name: "Shop",
          quota: { tokens_per_hour: { remaining: 30_000 } },
        },
        { property: "properties/2", property_name: "Blog", quota: { tokens_per_day: { remaining: 700 } } },
        { property: "properties/3", error: "Invalid metrics[0]: …" },
      ],
    });
    expect(entries.map((e) => [e.level, e.message])).toEqual([
      ["warning", "Only 700 Google Analytics quota tokens are left (tokens per day) for Blog."],
    ]);
  });
});
