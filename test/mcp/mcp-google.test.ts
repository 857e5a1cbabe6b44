import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GoogleSandbox } from "../../src/sandbox/index.js";
import type { Workspace } from "../../src/workspace.js";
import { googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("MCP server over the Google sandbox: the four GA4 steps", () => {
  let sandbox: GoogleSandbox;
  let workspace: Workspace;
  let client: Client;
  let close: () => Promise<void>;
  let listChanged = 0;
  let propertyId = "";
  let accountId = "";

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    ({ sandbox, workspace } = await googleFixture());
    ({ client, close } = await mcpSession(workspace));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      listChanged += 1;
    });
    const summaries = await call("google_analytics_api_call", {
      method: "GET",
      endpoint: "v1beta/accountSummaries",
    });
    expect(summaries.isError).toBeFalsy();
    const body = (
      summaries.structuredContent as {
        body: { accountSummaries: { account: string; propertySummaries?: { property: string }[] }[] };
      }
    ).body;
    const withProps = body.accountSummaries.find((s) => (s.propertySummaries ?? []).length > 0)!;
    accountId = withProps.account.split("/")[1]!;
    propertyId = withProps.propertySummaries![0]!.property.split("/")[1]!;
  });

  afterAll(async () => {
    await close();
    await sandbox.close();
  });

  it("shows the connected accounts as an enum in the schemas", async () => {
    const { tools } = await client.listTools();
    const report = tools.find((t) => t.name === "google_analytics_run_reports")!;
    expect(JSON.stringify(report.inputSchema.properties?.account)).toContain("analyst");
  });

  it("runs a 7-day sessions-by-country report", async () => {
    const result = await call("google_analytics_run_reports", {
      property: `properties/${propertyId}`,
      metrics: ["sessions"],
      dimensions: ["country"],
      date_ranges: ["last7days"],
      order_by: "-sessions",
    });
    expect(result.isError, text(result)).toBeFalsy();
    const data = result.structuredContent as {
      rows: { country: string; sessions: number }[];
      row_count: number;
    };
    expect(data.rows.length).toBeGreaterThan(1);
    expect(typeof data.rows[0]!.sessions).toBe("number");
    expect(data.rows[0]!.sessions).toBeGreaterThanOrEqual(data.rows[1]!.sessions);
  });

  it("creates a key event for a collected event and refuses an uncollected one", async () => {
    const report = await call("google_analytics_run_reports", {
      property: propertyId,
      metrics: ["eventCount"],
      dimensions: ["eventName"],
      date_ranges: ["last30days"],
    });
    const names = (report.structuredContent as { rows: { eventName: string }[] }).rows.map(
      (r) => r.eventName,
    );
    const existing = (
      await call("google_analytics_api_call", {
        method: "GET",
        endpoint: `v1beta/properties/${propertyId}/keyEvents`,
      })
    ).structuredContent as { body: { keyEvents?: { eventName: string }[] } };
    const taken = new Set((existing.body.keyEvents ?? []).map((k) => k.eventName));
    const candidate = names.find((n) => !taken.has(n))!;
    const created = await call("google_analytics_create_key_events", {
      property: propertyId,
      event_name: candidate,
    });
    expect(created.isError, text(created)).toBeFalsy();
    expect((created.structuredContent as { already_existed: boolean }).already_existed).toBe(false);
    const again = await call("google_analytics_create_key_events", {
      property: propertyId,
      event_name: candidate,
    });
    expect((again.structuredContent as { already_existed: boolean }).already_existed).toBe(true);
    const refused = await call("google_analytics_create_key_events", {
      property: propertyId,
      event_name: "never_collected_event",
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/collected/);
  });

  it("creates a property, and explains the permission error on a viewer-only account", async () => {
    const created = await call("google_analytics_create_properties", {
      analytics_account: `accounts/${accountId}`,
      display_name: "Agent-made property",
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    });
    expect(created.isError, text(created)).toBeFalsy();
    expect(JSON.stringify(created.structuredContent)).toMatch(/data stream/i);

    await workspace.accounts.importAccount({
      label: "viewer",
      refreshToken: sandbox.issueRefreshToken("viewer@sandbox.example"),
    });
    workspace.accountsChanged();
    const denied = await call("google_analytics_create_properties", {
      account: "viewer",
      analytics_account: `accounts/${accountId}`,
      display_name: "Should fail",
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/Administrator/);
  });

  it("reaches both APIs through the API Call step and chooses the account per call", async () => {
    const admin = await call("google_analytics_api_call", {
      account: "analyst",
      method: "GET",
      endpoint: `v1beta/properties/${propertyId}`,
    });
    expect((admin.structuredContent as { api: string }).api).toBe("admin");
    const data = await call("google_analytics_api_call", {
      account: "viewer",
      method: "POST",
      endpoint: `v1beta/properties/${propertyId}:runReport`,
      body: {
        dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
        metrics: [{ name: "sessions" }],
      },
    });
    expect(data.isError, text(data)).toBeFalsy();
    expect((data.structuredContent as { api: string }).api).toBe("data");
    const evil = await call("google_analytics_api_call", {
      method: "GET",
      endpoint: "https://evil.example/v1beta/x",
      account: "analyst",
    });
    expect(evil.isError).toBe(true);
  });

  it("removing an account revokes it and tells clients the tool list changed", async () => {
    const before = sandbox.stats().revocations;
    const changedBefore = listChanged;
    await workspace.removeAccount("viewer");
    await new Promise((r) => setTimeout(r, 50));
    expect(sandbox.stats().revocations).toBe(before + 1);
    expect(listChanged).toBeGreaterThan(changedBefore);
    const { tools } = await client.listTools();
    expect(
      JSON.stringify(tools.find((t) => t.name === "google_analytics_api_call")!.inputSchema),
    ).not.toContain("viewer");
  });
});
