/**
 * Trial s17, N171 (a wrong number): with the filter firstSessionDate begins_with "202609", the sandbox answered
 * new users in October for people first seen in September. GA counts a user as new on the day of their first
 * session (https://support.google.com/analytics/answer/12253918: "New users: the number of users who
 * interacted with your site or launched your app for the first time"), so a row's newUsers can be more than 0
 * only where its date is its firstSessionDate, and a returning user is never new. Fast-check over property ×
 * month × dimension, through MCP on the sandbox.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";
import { SEED } from "../helpers/ga-properties.js";

type Row = Record<string, string | number | null>;
const rows = (r: CallToolResult) => (r.structuredContent as unknown as { rows: Row[] }).rows;
const ga = gaOverMcp();
const PROPERTIES = ["Retail Web Store", "Media News Site", "Retail Help Center"];
const MONTHS = ["2026-08", "2026-09", "2026-10", "2026-11"];

const lastDay = (month: string) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
};
const report = async (args: Record<string, unknown>) => {
  const result = await ga.call("google_analytics_run_reports", { limit: 10_000, ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return rows(result);
};

describe("new users in the sandbox", () => {
  it("are new only on the day of their first session, and never returning", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PROPERTIES),
        fc.constantFrom(...MONTHS),
        fc.constantFrom("deviceCategory", "country", "sessionDefaultChannelGroup", "eventName"),
        async (property, month, dimension) => {
          const date_ranges = [{ start_date: `${month}-01`, end_date: lastDay(month) }];
          const byDay = await report({
            property,
            date_ranges,
            metrics: ["newUsers", "totalUsers"],
            dimensions: ["date", "firstSessionDate", dimension],
          });
          expect(byDay.length).toBeGreaterThan(0);
          for (const row of byDay) {
            if (row.date !== row.firstSessionDate) expect(row.newUsers, JSON.stringify(row)).toBe(0);
          }
          expect(byDay.some((row) => Number(row.newUsers) > 0)).toBe(true);
          const byKind = await report({
            property,
            date_ranges,
            metrics: ["newUsers"],
            dimensions: ["newVsReturning", dimension],
          });
          for (const row of byKind.filter((r) => r.newVsReturning === "returning")) {
            expect(row.newUsers, JSON.stringify(row)).toBe(0);
          }
        },
      ),
      { numRuns: 8, seed: SEED },
    );
  });

  it("first seen in September are new in September only (N171)", async () => {
    const byMonth = await report({
      property: "Retail Web Store",
      date_ranges: [{ start_date: "2026-08-01", end_date: "2026-11-30" }],
      metrics: ["newUsers", "activeUsers"],
      dimensions: ["yearMonth"],
      filter: 'firstSessionDate begins_with "202609"',
    });
    const months = Object.fromEntries(byMonth.map((row) => [row.yearMonth, row]));
    expect(Number(months["202609"]?.newUsers)).toBeGreaterThan(0);
    expect(Number(months["202610"]?.activeUsers)).toBeGreaterThan(0);
    for (const month of ["202610", "202611"]) expect(months[month]?.newUsers ?? 0).toBe(0);
  });
});
