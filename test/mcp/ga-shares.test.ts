/**
 * Issue 27 (trial s15): in 10 of 20 tasks the agent worked out shares over report rows itself ("2,343 / 16,493
 * sessions = 14.2 %"). "sessions%" asks the step for each row's share of GA's total. Invariants, over
 * generated reports on the sandbox: every share is the row's value over the total of the same report asked
 * without shares, to 0.1; a page (limit, offset) shows the same shares as the whole report for the same rows;
 * a sort on "x%" is the sort on x; a metric's shares over all its rows add up to 100 when the rows are parts
 * of the total (sessions by channel).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) =>
  r.structuredContent as unknown as { rows: Row[]; totals: Row[]; row_count: number };

const ga = gaOverMcp();

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", { date_ranges: ["last30days"], ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return data(result);
}

const key = (row: Row, dimension: string) => String(row[dimension]);

describe("shares of the total (sessions%)", () => {
  it("property: each share is the row over GA's total, the same on a page as in the whole report", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Retail Web Store", "Media News Site", "Retail Help Center"),
        fc.constantFrom("country", "deviceCategory", "sessionDefaultChannelGroup", "pagePath", "eventName"),
        fc.constantFrom("sessions", "activeUsers", "eventCount", "totalRevenue"),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        async (property, dimension, metric, limit, offset) => {
          const plain = await report({ property, metrics: [metric], dimensions: [dimension], limit: 10_000 });
          const whole = await report({
            property,
            metrics: [`${metric}%`],
            dimensions: [dimension],
            limit: 10_000,
          });
          const page = await report({
            property,
            metrics: [metric, `${metric}%`],
            dimensions: [dimension],
            limit,
            offset,
          });
          const total = Number(plain.totals[0]?.[metric]);
          const expected = (value: number) => (total > 0 ? Math.round((value / total) * 1000) / 10 : null);
          expect(whole.rows.length).toBe(plain.rows.length);
          for (const row of whole.rows) expect(row[`${metric}%`]).toBe(expected(Number(row[metric])));
          const inWhole = new Map(whole.rows.map((row) => [key(row, dimension), row[`${metric}%`]]));
          for (const row of page.rows) expect(row[`${metric}%`]).toBe(inWhole.get(key(row, dimension)));
          expect(page.rows).toEqual(whole.rows.slice(offset, offset + limit));
          if (total > 0) expect(whole.totals[0]?.[`${metric}%`]).toBe(100);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("the shares of sessions by channel add up to 100, and a sort on sessions% is the sort on sessions", async () => {
    const args = {
      property: "Retail Web Store",
      dimensions: ["sessionDefaultChannelGroup"],
      date_ranges: ["lastMonth"],
    };
    const shares = await report({ ...args, metrics: ["sessions%"], order_by: "sessions%" });
    const plain = await report({ ...args, metrics: ["sessions"], order_by: "sessions" });
    const sum = shares.rows.reduce((s, row) => s + Number(row["sessions%"]), 0);
    expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * shares.rows.length);
    expect(shares.rows.map((row) => row.sessionDefaultChannelGroup)).toEqual(
      plain.rows.map((row) => row.sessionDefaultChannelGroup),
    );
  });

  it("two periods: each period's share is of that period's total, and the change is in points", async () => {
    const result = await report({
      property: "Retail Web Store",
      metrics: ["sessions%"],
      dimensions: ["deviceCategory"],
      date_ranges: ["lastMonth", { start_date: "2026-10-01", end_date: "2026-10-31", name: "October" }],
    });
    const total = (label: string) => result.rows.reduce((s, row) => s + Number(row[`sessions[${label}]`]), 0);
    for (const row of result.rows) {
      for (const label of ["lastMonth", "October"]) {
        const share = Math.round((Number(row[`sessions[${label}]`]) / total(label)) * 1000) / 10;
        expect(row[`sessions%[${label}]`]).toBe(share);
      }
      const change = Number(row["sessions%[lastMonth]"]) - Number(row["sessions%[October]"]);
      expect(Number(row["sessions%_change"])).toBeCloseTo(change, 5);
    }
  });

  it("a share of a name GA does not know is refused with the name, before any report runs", async () => {
    const result = await ga.call("google_analytics_run_reports", {
      property: "Retail Web Store",
      metrics: ["sesions%"],
    });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("sesions");
    expect(firstText(result)).toContain("sessions");
  });
});
