/**
 * Trial s24, N297 and N306: in a report by two dimensions the agent added rows up by the second dimension by hand
 * (a session channel's purchases over the first-touch × session-channel rows). Such a report, when its first
 * dimension's totals are stated (2 to 24 values), states GA's own totals by its second dimension too. Invariant, over generated two-dimension reports on the sandbox: each of them
 * is that value's figure in the same report by the second dimension alone, read through the step.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const ga = gaOverMcp();

async function report(args: Record<string, unknown>) {
  const result: CallToolResult = await ga.call("google_analytics_run_reports", {
    date_ranges: [{ start_date: "2026-11-01", end_date: "2026-11-30" }],
    ...args,
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return { rows: (result.structuredContent as { rows: Row[] }).rows, summary: firstText(result) };
}

const figure = (value: number) => (Math.round(value * 100) / 100).toLocaleString("en-US");

describe("GA's totals by the second dimension of a report by two, and by each of three", () => {
  it("property: each is the second dimension's own figure, as GA gives it alone", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("412345671", "423456787"),
        fc.constantFrom("firstUserDefaultChannelGroup", "deviceCategory", "yearMonth", "country"),
        fc.constantFrom("sessionDefaultChannelGroup", "deviceCategory", "dayOfWeekName"),
        fc.constantFrom("sessions", "activeUsers", "transactions"),
        async (property, first, second, metric) => {
          fc.pre(first !== second);
          const both = await report({ property, metrics: [metric], dimensions: [first, second] });
          const alone = await report({ property, metrics: [metric], dimensions: [second], limit: 30 });
          const byFirst = await report({ property, metrics: [metric], dimensions: [first], limit: 30 });
          const heading = `Totals of ${metric} by ${second} (GA's own`;
          // Stated beside the first dimension's totals: each dimension with 2 to 24 values (a crossed report).
          const stated = (rows: Row[]) => rows.length >= 2 && rows.length <= 24;
          if (!stated(alone.rows) || !stated(byFirst.rows) || both.rows.length === 0) {
            expect(both.summary).not.toContain(heading);
            return;
          }
          const said = both.summary.slice(both.summary.indexOf(heading));
          expect(said.length).toBeLessThan(both.summary.length);
          for (const row of alone.rows)
            expect(said).toContain(`${row[second]} ${figure(Number(row[metric]))}`);
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it("property: by three dimensions, each of the second and third is its own figure too (trial s44, N613)", async () => {
    const dimensions = ["sessionDefaultChannelGroup", "deviceCategory", "newVsReturning", "country"];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("412345671", "412345674"),
        fc.shuffledSubarray(dimensions, { minLength: 3, maxLength: 3 }),
        fc.constantFrom("screenPageViews", "activeUsers"),
        async (property, three, metric) => {
          const crossed = await report({ property, metrics: [metric], dimensions: three });
          const byFirst = await report({ property, metrics: [metric], dimensions: [three[0]], limit: 30 });
          const stated = (rows: Row[]) => rows.length >= 2 && rows.length <= 24;
          for (const other of three.slice(1) as string[]) {
            const alone = await report({ property, metrics: [metric], dimensions: [other], limit: 30 });
            const heading = `Totals of ${metric} by ${other} (GA's own`;
            if (!stated(alone.rows) || !stated(byFirst.rows)) {
              expect(crossed.summary).not.toContain(heading);
              continue;
            }
            const said = crossed.summary.slice(crossed.summary.indexOf(heading));
            expect(said.length).toBeLessThan(crossed.summary.length);
            const own = said.slice(0, said.indexOf("."));
            for (const row of alone.rows)
              expect(own).toContain(`${row[other]} ${figure(Number(row[metric]))}`);
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);

  it("is not asked of GA by a range's days when they are more than it states (review s28, finding 14)", async () => {
    const left = async (dimensions: string[]) => {
      const result: CallToolResult = await ga.call("google_analytics_run_reports", {
        property: "412345674",
        metrics: ["sessions"],
        dimensions,
        date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-30" }],
      });
      return (result.structuredContent as { quota: { tokens_per_hour: { remaining: number } } }).quota
        .tokens_per_hour.remaining;
    };
    const start = await left(["sessionDefaultChannelGroup"]);
    const byDate = await left(["sessionDefaultChannelGroup", "date"]);
    const byDevice = await left(["sessionDefaultChannelGroup", "deviceCategory"]);
    // The report by date asks GA one request fewer than by device: no totals by date, which 91 days would not state.
    expect(byDate - byDevice - (start - byDate)).toBe(1);
  });

  it("is not asked by weeks either when a range has more of them than it states (review s30, finding 13)", async () => {
    let last: number | undefined;
    const cost = async (dimensions: string[]) => {
      const result: CallToolResult = await ga.call("google_analytics_run_reports", {
        property: "412345674",
        metrics: ["sessions"],
        dimensions,
        date_ranges: [{ start_date: "2026-05-01", end_date: "2026-11-30" }],
        limit: 5,
      });
      const left = (result.structuredContent as { quota: { tokens_per_hour: { remaining: number } } }).quota
        .tokens_per_hour.remaining;
      const spent = last === undefined ? undefined : last - left;
      last = left;
      return spent;
    };
    await cost(["sessionDefaultChannelGroup"]);
    // 30 ISO weeks: neither the totals by week (second) nor, weeks first, any totals are asked.
    const weeksSecond = await cost(["sessionDefaultChannelGroup", "isoYearIsoWeek"]);
    const deviceSecond = await cost(["sessionDefaultChannelGroup", "deviceCategory"]);
    const weeksFirst = await cost(["isoYearIsoWeek", "sessionDefaultChannelGroup"]);
    const deviceFirst = await cost(["deviceCategory", "sessionDefaultChannelGroup"]);
    expect(weeksSecond).toBeLessThan(deviceSecond as number);
    expect(weeksFirst).toBeLessThan(deviceFirst as number);
  });

  it("is not asked of GA for the others of four dimensions (a summary of three lists at most)", async () => {
    const four = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory", "sessionDefaultChannelGroup", "dayOfWeekName", "newVsReturning"],
    });
    expect(four.summary).toContain("Totals of sessions by deviceCategory");
    expect(four.summary).not.toContain("Totals of sessions by sessionDefaultChannelGroup");
  });
});
