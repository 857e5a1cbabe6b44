import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
type Row = Record<string, string | number | null>;
interface Report {
  rows: Row[];
  totals: Row[];
  date_ranges?: { name?: string; start_date: string; end_date: string }[];
  comparison?: { from: string; to: string };
  metadata?: { time_zone?: string };
  hints: string[];
}
const data = (r: CallToolResult) => r.structuredContent as unknown as Report;

/** Today minus `days` in `timeZone`, as YYYY-MM-DD (computed here independently of the step). */
function daysAgo(days: number, timeZone: string): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

describe("Run Reports through MCP: real dates and two-range comparisons", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const report = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: args,
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    return result;
  };

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  // The sandbox's properties are in America/New_York (412345671) and Asia/Tokyo (423456789).
  for (const [property, zone] of [
    ["412345671", "America/New_York"],
    ["423456789", "Asia/Tokyo"],
  ] as const) {
    it(`states last7days as the real dates of ${zone}, and those dates give the same numbers`, async () => {
      const relative = await report({ property, metrics: ["sessions"], date_ranges: ["last7days"] });
      const stated = data(relative).date_ranges;
      expect(stated).toEqual([{ start_date: daysAgo(7, zone), end_date: daysAgo(1, zone) }]);
      expect(data(relative).metadata?.time_zone).toBe(zone);
      const summary = text(relative).split("\n")[0]!;
      expect(summary).toContain(`for ${daysAgo(7, zone)}…${daysAgo(1, zone)}, dates in ${zone}`);
      expect(summary).not.toMatch(/daysAgo|yesterday/);
      // Doing what the answer says: the stated dates are the ones GA used.
      const absolute = await report({
        property,
        metrics: ["sessions"],
        date_ranges: [{ start_date: stated![0]!.start_date, end_date: stated![0]!.end_date }],
      });
      expect(data(absolute).rows).toEqual(data(relative).rows);
    });
  }

  it("states today, yesterday and the default range as dates too", async () => {
    const zone = "America/New_York";
    const result = await report({ property: "412345671", metrics: ["sessions"], date_ranges: ["yesterday"] });
    expect(data(result).date_ranges).toEqual([{ start_date: daysAgo(1, zone), end_date: daysAgo(1, zone) }]);
    expect(text(result).split("\n")[0]).toContain(`for ${daysAgo(1, zone)}, dates in ${zone}`);
    const byDefault = await report({ property: "412345671", metrics: ["sessions"] });
    expect(data(byDefault).date_ranges).toEqual([
      { start_date: daysAgo(7, zone), end_date: daysAgo(1, zone) },
    ]);
  });

  it("merges two ranges into one row per country with each value, the change and the largest movers", async () => {
    const property = "412345671";
    const previous = { start_date: "14daysAgo", end_date: "8daysAgo", name: "previous" };
    const both = await report({
      property,
      metrics: ["sessions"],
      dimensions: ["country"],
      date_ranges: ["last7days", previous],
      limit: 1000,
    });
    const merged = data(both);
    expect(merged.comparison).toEqual({ from: "previous", to: "last7days" });
    const one = async (range: unknown) =>
      new Map(
        data(
          await report({ property, metrics: ["sessions"], dimensions: ["country"], date_ranges: [range] }),
        ).rows.map((row) => [row.country, row.sessions]),
      );
    const current = await one("last7days");
    const before = await one({ start_date: "14daysAgo", end_date: "8daysAgo" });
    expect(merged.rows.length).toBe(new Set([...current.keys(), ...before.keys()]).size);
    for (const row of merged.rows) {
      // GA leaves out a row whose metrics are all 0: a country missing from one range had 0 there.
      const now = current.get(row.country as string) ?? 0;
      const then = before.get(row.country as string) ?? 0;
      expect(row["sessions[last7days]"]).toBe(now);
      expect(row["sessions[previous]"]).toBe(then);
      if (typeof now === "number" && typeof then === "number") {
        expect(row.sessions_change).toBe(now - then);
        if (then !== 0) expect(row.sessions_change_pct).toBeCloseTo(((now - then) / then) * 100, 1);
      }
    }
    // The summary's first mover is the row with the largest absolute change.
    const top = [...merged.rows]
      .filter((row) => typeof row.sessions_change === "number")
      .sort((a, b) => Math.abs(Number(b.sessions_change)) - Math.abs(Number(a.sessions_change)))[0]!;
    const sign = Number(top.sessions_change) > 0 ? "+" : "";
    expect(text(both).split("\n")[0]).toContain(
      `Largest changes in sessions (previous → last7days): ${top.country} ${sign}${top.sessions_change}`,
    );
    expect(merged.totals).toHaveLength(1);
    expect(merged.totals[0]!.sessions_change).toBe(
      Number(merged.totals[0]!["sessions[last7days]"]) - Number(merged.totals[0]!["sessions[previous]"]),
    );
  });

  it("changes go from the earlier range to the later, whatever their order", async () => {
    const result = await report({
      property: "412345671",
      metrics: ["sessions"],
      date_ranges: [{ start_date: "14daysAgo", end_date: "8daysAgo" }, "last7days"],
    });
    const stated = data(result).date_ranges!;
    expect(data(result).comparison).toEqual({
      from: `${stated[0]!.start_date}…${stated[0]!.end_date}`,
      to: "last7days",
    });
    const row = data(result).rows[0]!;
    expect(row.sessions_change).toBe(
      Number(row["sessions[last7days]"]) - Number(row[`sessions[${data(result).comparison!.from}]`]),
    );
  });
});
