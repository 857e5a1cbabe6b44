/**
 * Issue 27 (trial s15): the agent divided report columns by hand (revenue per session, engaged time per active
 * user). "totalRevenue/sessions" asks the step for the ratio. Invariants, over generated reports on the
 * sandbox: each row's ratio is its own two values divided, to 4 decimals (no value when the divisor is 0);
 * the totals row's is the totals' ratio; a page sorted on the ratio is the whole report sorted on it, cut at
 * offset and limit, and pages read in turn give every row once.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) =>
  r.structuredContent as unknown as { rows: Row[]; totals: Row[]; row_count: number; next_offset?: number };

const ga = gaOverMcp();

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", { date_ranges: ["last30days"], ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return data(result);
}

const divided = (top: unknown, bottom: unknown) =>
  Number(bottom) === 0 ? null : Math.round((Number(top) / Number(bottom)) * 1e4) / 1e4;

describe("ratios of two metrics (totalRevenue/sessions)", () => {
  it("property: each ratio is its row's values divided; sorted on it, a page is the whole report's slice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Retail Web Store", "Media News Site"),
        fc.constantFrom("country", "deviceCategory", "sessionDefaultChannelGroup", "pagePath"),
        fc.constantFrom<[string, string]>(
          ["totalRevenue", "sessions"],
          ["userEngagementDuration", "activeUsers"],
          ["screenPageViews", "sessions"],
          ["keyEvents", "sessions"],
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 6 }),
        async (property, dimension, [top, bottom], desc, limit, offset) => {
          const ratio = `${top}/${bottom}`;
          const order_by = `${desc ? "-" : ""}${ratio}`;
          const whole = await report({ property, metrics: [ratio], dimensions: [dimension], limit: 10_000 });
          for (const row of whole.rows) expect(row[ratio]).toBe(divided(row[top], row[bottom]));
          expect(whole.totals[0]?.[ratio]).toBe(divided(whole.totals[0]?.[top], whole.totals[0]?.[bottom]));
          const sorted = [...whole.rows].sort((a, b) => {
            const [x, y] = [a[ratio], b[ratio]];
            if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
            return desc ? Number(y) - Number(x) : Number(x) - Number(y);
          });
          const page = await report({
            property,
            metrics: [ratio],
            dimensions: [dimension],
            order_by,
            limit,
            offset,
          });
          expect(page.row_count).toBe(whole.rows.length);
          expect(page.rows.map((row) => row[ratio])).toEqual(
            sorted.slice(offset, offset + limit).map((row) => row[ratio]),
          );
        },
      ),
      { numRuns: 20 },
    );
  });

  it("pages read by next_offset, sorted on a ratio, give every row once", async () => {
    const args = {
      property: "Retail Web Store",
      metrics: ["totalRevenue/sessions"],
      dimensions: ["country"],
      order_by: "-totalRevenue/sessions",
      limit: 4,
    };
    const seen: string[] = [];
    let offset: number | undefined = 0;
    let rowCount = 0;
    while (offset !== undefined) {
      const page = await report({ ...args, offset });
      seen.push(...page.rows.map((row) => String(row.country)));
      rowCount = page.row_count;
      offset = page.next_offset;
    }
    expect(seen.length).toBe(rowCount);
    expect(new Set(seen).size).toBe(rowCount);
  });

  // Refused before: two ranges' merged rows are sorted by the step, a ratio's columns too (trial s47, N646).
  it("a sort on a ratio over two date ranges sorts by its later range's value", async () => {
    const args = {
      property: "Retail Web Store",
      metrics: ["totalRevenue/sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: ["lastMonth", { start_date: "2026-10-01", end_date: "2026-10-31" }],
    };
    const rows = (await report({ ...args, order_by: "-totalRevenue/sessions" })).rows;
    const later = rows.map((row) => Number(row["totalRevenue/sessions[lastMonth]"]));
    expect(later.length).toBeGreaterThan(1);
    expect(later).toEqual([...later].sort((a, b) => b - a));
    expect(rows.map((row) => row["totalRevenue/sessions[lastMonth]"])).toEqual(
      rows.map((row) => divided(row["totalRevenue[lastMonth]"], row["sessions[lastMonth]"])),
    );
  });

  it("a part GA does not know is refused with the name, before any report runs", async () => {
    const result = await ga.call("google_analytics_run_reports", {
      property: "Retail Web Store",
      metrics: ["keyEvents%", "totalRevenue/sesions"],
    });
    expect(result.isError).toBe(true);
    // Named at its place in the list as written, not in the list GA would have been sent.
    expect(firstText(result)).toContain('Invalid metrics[1]: "sesions"');
  });
});
