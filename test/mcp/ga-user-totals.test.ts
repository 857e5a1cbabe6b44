/**
 * GA's users are distinct people: the total of totalUsers over eventName (or page) rows is the users of
 * the whole report, never the sum of the rows, since one person does several events
 * (https://support.google.com/analytics/answer/12253918). The sandbox summed them: 129,351 users over
 * event rows whose largest row had 26,899. Event counts still add up. Through MCP on the sandbox.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

let fixture: GoogleFixture;
let session: McpSession;

beforeAll(async () => {
  fixture = await googleFixture();
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.sandbox.close();
});

type Row = Record<string, number | string>;

async function report(dimension: string) {
  const result = (await session.client.callTool({
    name: "google_analytics_run_reports",
    arguments: {
      property: "412345671",
      date_ranges: ["last28days"],
      dimensions: [dimension],
      metrics: ["totalUsers", "eventCount"],
      limit: 10_000,
    },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  const data = result.structuredContent as { rows: Row[]; totals: Row[] };
  const sum = (metric: string) => data.rows.reduce((total, row) => total + Number(row[metric]), 0);
  const largest = Math.max(...data.rows.map((row) => Number(row.totalUsers)));
  return { rows: data.rows, total: data.totals[0] ?? {}, sum, largest };
}

describe("GA sandbox totals of users", () => {
  it.each(["eventName"])("over %s rows are distinct users, events still add up", async (dimension) => {
    const { rows, total, sum, largest } = await report(dimension);
    expect(rows.length).toBeGreaterThan(1);
    expect(Number(total.totalUsers)).toBeGreaterThanOrEqual(largest);
    expect(Number(total.totalUsers)).toBeLessThan(sum("totalUsers"));
    expect(Number(total.eventCount)).toBe(sum("eventCount"));
  });

  it("equal the users of the same days with no dimension", async () => {
    const { total } = await report("eventName");
    const whole = (await session.client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property: "412345671", date_ranges: ["last28days"], metrics: ["totalUsers"] },
    })) as CallToolResult;
    const rows = (whole.structuredContent as { rows: Row[] }).rows;
    expect(Number(total.totalUsers)).toBe(Number(rows[0]?.totalUsers));
  });
});
