import { Client as ModernClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";
import { listMembersRead } from "../helpers/mcp-calls.js";

describe("MCP cancellation and progress while queued behind Marketo's window", () => {
  let fixture: MarketoFixture;
  let client: Client;
  let close: () => Promise<void>;
  let http: HttpServerHandle;

  beforeAll(async () => {
    // Our share of the window: 2 calls per 5 s, so page 3 has to wait.
    fixture = await marketoFixture({}, { MARKETO_CALLS_PER_WINDOW: "2", MARKETO_WINDOW_MS: "5000" });
    ({ client, close } = await mcpSession(fixture.workspace));
    http = await startHttpServer({ workspace: () => fixture.workspace });
  });
  afterAll(async () => {
    await close();
    await http.close();
    await fixture.close();
  });

  /** Once the client has cancelled, Marketo receives nothing more, even after the window reopens. */
  async function expectNothingMoreSent(before = 0): Promise<void> {
    const sent = fixture.sandbox.stats().apiCalls;
    expect(sent - before).toBeLessThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 5_500));
    expect(fixture.sandbox.stats().apiCalls).toBe(sent);
  }

  it("2025-11-25: reports the wait as progress, and stops sending once the client cancels", async () => {
    const controller = new AbortController();
    const messages: string[] = [];
    const values: number[] = [];
    const pending = client.callTool(
      { name: "marketo_api_call", arguments: listMembersRead(100, 10) },
      undefined,
      {
        signal: controller.signal,
        onprogress: (p) => {
          values.push(p.progress);
          messages.push(p.message ?? "");
          if (/Waiting/.test(p.message ?? "")) controller.abort();
        },
      },
    );
    await expect(pending).rejects.toThrow();
    expect(messages.some((m) => /Waiting \d+ s for Marketo's rate window limit/.test(m))).toBe(true);
    // MCP: progress increases with every notification, waits included.
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
    await expectNothingMoreSent();
  });

  it("2026-07-28 over HTTP: the client cancels by closing the request's stream, and sending stops", async () => {
    const modern = new ModernClient(
      { name: "canceller", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    // The window of the first test has reopened: two pages go, the third waits.
    await new Promise((r) => setTimeout(r, 100));
    const before = fixture.sandbox.stats().apiCalls;
    const controller = new AbortController();
    const pending = modern.callTool(
      { name: "marketo_api_call", arguments: listMembersRead(100, 10) },
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (/Waiting/.test(p.message ?? "")) controller.abort();
        },
      },
    );
    await expect(pending).rejects.toThrow();
    await expectNothingMoreSent(before);
    await modern.close();
  }, 20_000);
});
