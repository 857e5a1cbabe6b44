/**
 * Issue 27 (trial s20, N219 and N236): the agent divided each row by its month's or campaign's total by hand.
 * With two or more dimensions, a share column "sessions%" also gives "sessions%in_<first dimension>", each row's
 * percent of GA's own total of its first dimension's value. Invariants, over generated reports on the sandbox:
 * each such share is the row's value over the total that the same report by the first dimension alone gives
 * (read through the step), to 0.1; the summary says what the column is; for a count GA adds up over rows
 * (sessions) a group's shares add up to 100 within their rounding; without the totals stated (more than 24
 * values, or one) there is no such column.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[]; row_count: number };

const ga = gaOverMcp();

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", {
    limit: 10_000,
    date_ranges: ["last90days"],
    ...args,
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return { ...data(result), summary: firstText(result) };
}

const percent = (value: number, total: number) => Math.round((value / total) * 1000) / 10;

describe("a share of the first dimension's total (sessions%in_month)", () => {
  it("property: each row's share is of GA's own total of its first value; sessions' add up to 100", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("Retail Web Store", "Media News Site"),
        fc.constantFrom("month", "deviceCategory", "sessionDefaultChannelGroup"),
        fc.constantFrom("country", "deviceCategory", "dayOfWeekName", "sessionDefaultChannelGroup"),
        fc.constantFrom("sessions", "activeUsers", "screenPageViews"),
        async (property, first, second, metric) => {
          fc.pre(first !== second);
          const column = `${metric}%in_${first}`;
          const answer = await report({ property, metrics: [`${metric}%`], dimensions: [first, second] });
          const groups = await report({ property, metrics: [metric], dimensions: [first] });
          const totals = new Map(groups.rows.map((row) => [row[first], Number(row[metric])]));
          expect(groups.rows.length).toBeGreaterThan(1);
          for (const row of answer.rows) {
            expect(row[column]).toBe(percent(Number(row[metric]), totals.get(row[first]) ?? Number.NaN));
          }
          expect(answer.summary).toContain(`Each row's ${column} is its percent of its ${first}'s total.`);
          if (metric !== "sessions" || answer.row_count > answer.rows.length) return;
          for (const value of totals.keys()) {
            const shares = answer.rows
              .filter((row) => row[first] === value)
              .map((row) => Number(row[column]));
            const sum = shares.reduce((a, b) => a + b, 0);
            expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * shares.length + 1e-9);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it("is not given where GA's totals by the first dimension are not stated", async () => {
    // By date over 90 days: more than 24 values of the first dimension; by one dimension: no groups.
    for (const dimensions of [["date", "deviceCategory"], ["deviceCategory"]]) {
      const answer = await report({ property: "Retail Web Store", metrics: ["sessions%"], dimensions });
      expect(Object.keys(answer.rows[0] ?? {}).some((key) => key.includes("%in_"))).toBe(false);
      expect(answer.summary).not.toContain("%in_");
    }
  });

  it("under a dimension filter says the totals are of the rows it keeps (review s25, finding 6)", async () => {
    const answer = await report({
      property: "Retail Web Store",
      metrics: ["sessions%"],
      dimensions: ["yearMonth", "sessionDefaultChannelGroup"],
      filter: 'sessionDefaultChannelGroup in ("Email", "Paid Search")',
    });
    expect(answer.summary).toContain(
      "Each row's sessions%in_yearMonth is its percent of its yearMonth's total over the rows the filter keeps.",
    );
  });

  it("is refused as a sort key with the sort that gives its order, which runs (review s25, finding 9)", async () => {
    const args = {
      property: "Retail Web Store",
      metrics: ["sessions%"],
      dimensions: ["yearMonth", "deviceCategory"],
    };
    const refused = await ga.call("google_analytics_run_reports", {
      ...args,
      order_by: "-sessions%in_yearMonth",
    });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain(
      'Sort by "yearMonth,-sessions": within each yearMonth that is the order',
    );
    const sorted = await report({ ...args, order_by: "yearMonth,-sessions" });
    for (const month of new Set(sorted.rows.map((row) => row.yearMonth))) {
      const shares = sorted.rows
        .filter((row) => row.yearMonth === month)
        .map((row) => Number(row["sessions%in_yearMonth"]));
      expect(shares).toEqual([...shares].sort((a, b) => b - a));
    }
  });

  it("on several properties, says once what the column is (review s25)", async () => {
    const answer = await report({
      property: "all",
      metrics: ["sessions%"],
      dimensions: ["yearMonth", "deviceCategory"],
    });
    expect(answer.summary.split("Each row's sessions%in_yearMonth is its percent")).toHaveLength(2);
    // Each property's own totals are still stated, once each.
    expect(answer.summary.split("Totals by yearMonth").length).toBeGreaterThan(2);
  });
});
