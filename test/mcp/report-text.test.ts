import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/** Retail Web Store, the sandbox property with a year of data. */
const PROPERTY = "412345671";

describe("what the model reads of a report over MCP", () => {
  let fixture: GoogleFixture;
  let session: McpSession;
  const report = async (args: Record<string, unknown>) =>
    (await session.client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property: PROPERTY, ...args },
    })) as CallToolResult;

  beforeAll(async () => {
    fixture = await googleFixture();
    session = await mcpSession(fixture.workspace);
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("is a table at most half the size of the Data API's own JSON for the same 30 rows, 2 dimensions, 2 metrics", async () => {
    const result = await report({
      metrics: ["sessions", "activeUsers"],
      dimensions: ["date", "country"],
      date_ranges: ["last30days"],
      order_by: "date,country",
      limit: 30,
    });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as {
      rows: Record<string, unknown>[];
      request: Record<string, unknown>;
    };
    expect(data.rows).toHaveLength(30);
    const text = (result.content[0] as { text: string }).text;
    // The same request, sent to the Data API as it is: its JSON answer for the same rows.
    const ga = await fixture.workspace.connection("google", "analyst");
    const raw = JSON.stringify(await ga.runReport(PROPERTY, data.request));
    console.info(
      `30-row report: text ${text.length} characters (structuredContent ${JSON.stringify(data).length}), raw Data API JSON ${raw.length}`,
    );
    // Measured without the note on today's date, which only some hours of the day add (zoneDayNote).
    const measured = text.replace(/ Today in \S+ is \S+ \(in UTC \S+\): [^.]*\./, "");
    expect(measured.length).toBeLessThanOrEqual(raw.length * 0.5);
    // A header row, then one tab-separated line per row: every value is still there.
    const lines = text.split("\n");
    const header = lines.indexOf("date\tcountry\tsessions\tactiveUsers");
    expect(header).toBeGreaterThan(0);
    const first = data.rows[0] as { date: string; country: string; sessions: number; activeUsers: number };
    expect(lines[header + 1]).toBe(
      `${first.date}\t${first.country}\t${first.sessions}\t${first.activeUsers}`,
    );
    expect(text).not.toContain('"rows"');
  });

  it("carries the chart as a PNG image when the input asks for it, and none by default", async () => {
    const args = { metrics: ["sessions"], dimensions: ["date"], date_ranges: ["last28days"] };
    const plain = await report(args);
    expect(plain.content.some((block) => block.type === "image")).toBe(false);
    const charted = await report({ ...args, chart: true });
    const image = charted.content.find((block) => block.type === "image") as {
      data: string;
      mimeType: string;
    };
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      true,
    );
    // 800 × 400, the size of the console's chart.
    expect(png.readUInt32BE(16)).toBe(800);
    expect(png.readUInt32BE(20)).toBe(400);
  });
});
