import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

describe("MCP cancellation and progress while queued behind Marketo's window", () => {
  let fixture: MarketoFixture;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // Our share of the window: 2 calls per 5 s, so page 3 has to wait.
    fixture = await marketoFixture({}, { MARKETO_CALLS_PER_WINDOW: "2", MARKETO_WINDOW_MS: "5000" });
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.close();
  });

  it("reports the wait as progress, and stops sending once the client cancels", async () => {
    const controller = new AbortController();
    const messages: string[] = [];
    const values: number[] = [];
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
    const sent = fixture.sandbox.stats().apiCalls;
    expect(sent).toBeLessThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 5_500));
    expect(fixture.sandbox.stats().apiCalls).toBe(sent);
  });
});
