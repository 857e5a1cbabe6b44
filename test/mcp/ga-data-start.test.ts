/**
 * A range that reaches before the property's data (issue 27, agent trial s5 T15): Q4 to date against the same
 * days of last year, on a property whose data starts on 2025-10-29, read +84 % with no warning. The answer
 * now names the day data starts (the property's Admin API createTime), the days of the range without data,
 * and the comparison of only the days with data in both; that comparison, when run, has data on every day of
 * both ranges and no such note. A range wholly after the start gets none.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

type Row = Record<string, string | number | null>;
interface Report {
  rows: Row[];
  totals: Row[];
  hints: string[];
}
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const data = (r: CallToolResult) => r.structuredContent as unknown as Report;
const summary = (r: CallToolResult) => text(r).split("\n")[0] ?? "";

const Q4_TO_DATE = [
  { start_date: "2026-10-01", end_date: "2026-12-01" },
  { start_date: "2025-10-01", end_date: "2025-12-01" },
];
const NOTE = /Data starts on .*?(?=$| Largest changes)/;

describe("a range before the property's data starts", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const report = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property: "412345671", ...args },
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    return result;
  };

  beforeAll(async () => {
    // Only Date is faked (timers run): 2026-12-02 15:00 UTC is 10:00 in New York, the property's zone, the
    // day of the trial; the sandbox's 400 days of data then start on 2025-10-29.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 11, 2, 15), shouldAdvanceTime: true });
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
    vi.useRealTimers();
  });

  it("states the sandbox property as created on its first data day (Admin API createTime)", async () => {
    const property = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/properties/412345671" },
    })) as CallToolResult;
    expect(property.isError, text(property)).toBeFalsy();
    // 00:00 on 2025-10-29 in New York (UTC−4 then).
    expect(text(property)).toContain('"createTime":"2025-10-29T04:00:00.000Z"');
    const day = await report({
      metrics: ["sessions"],
      dimensions: ["date"],
      date_ranges: [{ start_date: "2025-10-27", end_date: "2025-10-30" }],
    });
    expect(
      data(day)
        .rows.map((row) => row.date)
        .sort(),
    ).toEqual(["20251029", "20251030"]);
  });

  it("warns on Q4 to date against last year's, and its aligned comparison has data on every day of both", async () => {
    const q4 = await report({ metrics: ["purchaseRevenue"], date_ranges: Q4_TO_DATE });
    const note = NOTE.exec(summary(q4))?.[0];
    expect(note, summary(q4)).toBe(
      "Data starts on 2025-10-29 (the property was created then; it has no data before): 2025-10-01…2025-12-01 " +
        "has 28 of its 62 days before it, with no data. The comparison is not like for like; compare only the " +
        'days with data in both: date_ranges [{"start_date":"2026-10-29","end_date":"2026-12-01"},' +
        '{"start_date":"2025-10-29","end_date":"2025-12-01"}].',
    );
    expect(data(q4).hints).toContain(note);

    const aligned = JSON.parse(/date_ranges (\[.*?\])\./.exec(note ?? "")?.[1] ?? "[]") as object[];
    const like = await report({ metrics: ["purchaseRevenue"], date_ranges: aligned });
    expect(summary(like)).not.toContain("Data starts on");
    expect(data(like).hints.join(" ")).not.toContain("Data starts on");
    // Every day of both aligned ranges has data: 34 days each, read day by day.
    for (const range of aligned) {
      const daily = await report({ metrics: ["sessions"], dimensions: ["date"], date_ranges: [range] });
      expect(data(daily).rows.filter((row) => Number(row.sessions) > 0)).toHaveLength(34);
    }
    // The like-for-like change differs from the one that counted 28 empty days.
    const change = (r: CallToolResult) => Number(data(r).rows[0]?.purchaseRevenue_change_pct);
    expect(change(like)).toBeLessThan(change(q4));
  });

  it("warns on one range reaching before the start, naming the days it covers", async () => {
    const one = await report({
      metrics: ["sessions"],
      date_ranges: [{ start_date: "2025-10-01", end_date: "2025-11-30" }],
    });
    expect(summary(one)).toContain(
      "Data starts on 2025-10-29 (the property was created then; it has no data before): 2025-10-01…2025-11-30 " +
        "has 28 of its 61 days before it, with no data. Its figures cover only the days with data: " +
        "2025-10-29…2025-11-30.",
    );
  });

  it("says nothing of it for ranges wholly after the start", async () => {
    for (const date_ranges of [
      [{ start_date: "2025-10-29", end_date: "2025-12-01" }],
      [
        { start_date: "2026-11-01", end_date: "2026-12-01" },
        { start_date: "2025-11-01", end_date: "2025-12-01" },
      ],
      ["last28days"],
    ]) {
      const result = await report({ metrics: ["sessions"], date_ranges });
      expect(text(result)).not.toContain("Data starts on");
    }
  });
});
