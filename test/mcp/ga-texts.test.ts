import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("GA texts through MCP: each names the tool and is true when followed", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("the GA tools' list names tools, not step titles, and claims no default account", async () => {
    const { tools } = await client.listTools();
    const listed = JSON.stringify(tools.filter((tool) => tool.name.startsWith("google_analytics_")));
    expect(listed).not.toMatch(/API Call step|the only one visible/);
    expect(listed).not.toMatch(/with Run Reports|the Run Reports step/);
  });

  it("a measurement ID's hint names google_analytics_api_call, and the call it names lists the properties", async () => {
    const refused = await call("google_analytics_run_reports", {
      property: "G-ABC123",
      metrics: ["sessions"],
    });
    expect(text(refused)).toContain("google_analytics_api_call (GET v1beta/accountSummaries)");
    const followed = await call("google_analytics_api_call", {
      method: "GET",
      endpoint: "v1beta/accountSummaries",
    });
    expect(followed.isError, text(followed)).toBeFalsy();
    expect(JSON.stringify(followed.structuredContent)).toContain("properties/412345671");
  });

  it("a field Run Reports does not take names google_analytics_api_call, which runs the raw request", async () => {
    const body = {
      dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
      metrics: [{ name: "sessions" }],
      keepEmptyRows: true,
    };
    const refused = await call("google_analytics_run_reports", { property: "412345671", ...body });
    expect(text(refused)).toContain("use google_analytics_api_call (POST v1beta/properties/<id>:runReport)");
    const followed = await call("google_analytics_api_call", {
      method: "POST",
      endpoint: "v1beta/properties/412345671:runReport",
      body,
    });
    expect(followed.isError, text(followed)).toBeFalsy();
  });

  it("with two Analytics accounts visible, leaving analytics_account out is refused with both listed", async () => {
    const { tools } = await client.listTools();
    const create = tools.find((tool) => tool.name === "google_analytics_create_properties")!;
    const described = JSON.stringify(create.inputSchema.properties?.analytics_account);
    expect(described).toContain("needed when several are visible");
    const base = { display_name: "Shop", time_zone: "Europe/Paris", currency_code: "EUR" };
    const refused = await call("google_analytics_create_properties", base);
    expect(text(refused)).toMatch(/accounts\/100001.*accounts\/100002/);
    const followed = await call("google_analytics_create_properties", {
      ...base,
      analytics_account: "100001",
    });
    expect(followed.isError, text(followed)).toBeFalsy();
    // Each next step names a tool, and the first one works as written.
    const data = followed.structuredContent as { property: { property_id: string }; next_steps: string[] };
    expect(data.next_steps.join(" ")).toContain("google_analytics_api_call");
    expect(data.next_steps.join(" ")).toContain("google_analytics_run_reports (realtime: true)");
    const stream = await call("google_analytics_api_call", {
      method: "POST",
      endpoint: `v1beta/properties/${data.property.property_id}/dataStreams`,
      body: {
        type: "WEB_DATA_STREAM",
        displayName: "Website",
        webStreamData: { defaultUri: "https://www.example.com" },
      },
    });
    expect(stream.isError, text(stream)).toBeFalsy();
  });

  it('industry "retail" suggests SHOPPING, which is accepted', async () => {
    const base = {
      analytics_account: "100001",
      display_name: "Retail shop",
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    };
    const refused = await call("google_analytics_create_properties", {
      ...base,
      industry_category: "retail",
    });
    expect(text(refused)).toContain("did you mean SHOPPING?");
    const followed = await call("google_analytics_create_properties", {
      ...base,
      industry_category: "SHOPPING",
    });
    expect(followed.isError, text(followed)).toBeFalsy();
  });

  it("a key event for an uncollected event lists the closest collected events; the first one works", async () => {
    const refused = await call("google_analytics_create_key_events", {
      property: "412345671",
      event_name: "purchse",
    });
    expect(refused.isError).toBe(true);
    const listed =
      /Collected events with the closest names \(events (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)\): ([a-z_]+) \((\d+)/.exec(
        text(refused),
      );
    expect(listed, text(refused)).not.toBeNull();
    const [, start, end, name, count] = listed ?? [];
    expect(name).toBe("purchase");
    // The count covers the days the text states: the same report over those days gives it.
    const report = await call("google_analytics_run_reports", {
      property: "412345671",
      date_ranges: [{ start_date: start, end_date: end }],
      metrics: ["eventCount"],
      filter: `eventName == "${name}"`,
    });
    expect(report.structuredContent?.rows, text(report)).toEqual([{ eventCount: Number(count) }]);
    expect(Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)).toBe(29 * 86_400_000);
    const followed = await call("google_analytics_create_key_events", {
      property: "412345671",
      event_name: name,
    });
    expect(followed.isError, text(followed)).toBeFalsy();
  });

  it("ranks suggestions by name, never by frequency, says which already are key events, and claims nothing of GA", async () => {
    const lead = text(
      await call("google_analytics_create_key_events", {
        property: "412345671",
        event_name: "generate_lead",
      }),
    );
    // page_view is the most collected event, and nothing like the name.
    expect(lead).not.toMatch(/page_view|session_start|user_engagement/);
    expect(lead).toContain('No collected event has a name close to "generate_lead"');
    expect(lead).not.toMatch(/GA only lets|as GA requires/);
    expect(lead).toContain("This step checks that first");
    const signup = text(
      await call("google_analytics_create_key_events", { property: "412345671", event_name: "signup" }),
    );
    expect(signup).toMatch(/closest names \(events [^)]+\): sign_up \(\d+, already a key event\)/);
    // The hint offers no event that already is a key event as the one to use.
    expect(signup).not.toMatch(/Use sign_up/);
  });
});
