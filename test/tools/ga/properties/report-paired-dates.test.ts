/**
 * Two periods by a dimension of absolute dates (date, yearMonth, year: the sandbox's), as a property over
 * generated requests on the sandbox. The invariant (src/tools/ga/report-pairs.ts): a row holds the same
 * position of each period (day N of one with day N of the other), each period's value being what that
 * period alone reports there; its change is the pair's when the periods' positions cover the same days,
 * else none, and the answer says which. Every path says the same: the MCP answer's text and structured
 * content, the step's result (which the console's table shows and the CSV keeps), and the chart, whose
 * point at a row's position holds that row's values, period by period.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChartModel } from "../../../../src/charts/model.js";
import { timeValue } from "../../../../src/charts/model.js";
import type { RunReportsOutput } from "../../../../src/schemas/google-analytics.js";
import { runToolStep } from "../../../../src/tools/run.js";
import { gaOverMcp } from "../../../helpers/ga-mcp.js";
import { answer, METRICS, PROPERTY, type Row, report, SEED, text } from "../../../helpers/ga-properties.js";

type Period = { start_date: string; end_date: string };

const DAY_MS = 86_400_000;
const isoDaysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);
const iso = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;

/** Two periods, of the same length half the time, anywhere in the last 400 days. */
const periods = fc
  .record({
    ends: fc.tuple(fc.integer({ min: 2, max: 400 }), fc.integer({ min: 2, max: 400 })),
    days: fc.integer({ min: 1, max: 45 }),
    other: fc.option(fc.integer({ min: 1, max: 45 }), { nil: undefined }),
  })
  .map(({ ends, days, other }) =>
    ends.map((end, i) => {
      const length = i === 1 && other !== undefined ? other : days;
      return { start_date: isoDaysAgo(end + length - 1), end_date: isoDaysAgo(end), name: `p${i + 1}` };
    }),
  );

const request = fc.record({
  dimension: fc.constantFrom("date", "yearMonth", "year"),
  metrics: fc.uniqueArray(fc.constantFrom(...METRICS), { minLength: 1, maxLength: 2 }),
  date_ranges: periods,
});

describe("two periods by an absolute date, generated requests", () => {
  const ga = gaOverMcp();

  const seen = { rows: 0, paired: 0, unpaired: 0 };

  it("pairs rows by position in every rendering, with a change only where the pairs cover the same days", async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ dimension, metrics, date_ranges }) => {
        const args = { property: PROPERTY, metrics, dimensions: [dimension], date_ranges, limit: 1000 };
        const mcp = await report(ga.client, args);
        const data = answer(mcp);
        const step = await runToolStep(
          "google_analytics_run_reports",
          { ...args, account: "analyst" },
          await ga.fixture.workspace.toolContext({}),
        );
        // The step's result (the console's table, the kept CSV) and MCP's structured content agree.
        expect((step.data as RunReportsOutput).rows).toEqual(data.rows);
        expect(data.comparison?.paired).toBe(dimension);
        const labels = ["p1", "p2"];
        const [a, b] = date_ranges as unknown as [Period, Period];
        const lengths = [a, b].map((r) => daysBetween(r.start_date, r.end_date) + 1);
        if (lengths[0] !== lengths[1]) expect(data.comparison?.no_row_change).toBeTruthy();
        if (dimension === "date" && lengths[0] === lengths[1])
          expect(data.comparison?.no_row_change).toBeUndefined();
        const first = text(mcp).split("\n")[0] ?? "";
        expect(first).toContain(
          data.comparison?.no_row_change
            ? "No change per row"
            : `Rows by ${dimension} pair the periods by position`,
        );
        // Each period alone, by the same dimension.
        const alone = await Promise.all(
          [a, b].map(async (range) => {
            const rows = answer(await report(ga.client, { ...args, date_ranges: [range] })).rows;
            return new Map(rows.map((row) => [String(row[dimension]), row]));
          }),
        );
        seen.rows += data.rows.length;
        if (data.comparison?.no_row_change) seen.unpaired += 1;
        else seen.paired += 1;
        for (const row of data.rows) {
          const values = labels.map((label) => row[`${dimension}[${label}]`]);
          if (dimension === "date" && values.every((v) => v !== null)) {
            // Day N of one period with day N of the other.
            const [x, y] = values.map((v) => iso(String(v)));
            expect(daysBetween(a.start_date, x as string)).toBe(daysBetween(b.start_date, y as string));
          }
          for (const metric of metrics) {
            const own = labels.map((_label, i) =>
              values[i] === null ? null : (alone[i]?.get(String(values[i]))?.[metric] ?? 0),
            );
            for (const [i, label] of labels.entries())
              expect(row[`${metric}[${label}]`], label).toEqual(own[i]);
            if (data.comparison?.no_row_change) expect(row[`${metric}_change`]).toBeNull();
            else {
              const [from, to] = data.comparison?.from === "p1" ? [own[0], own[1]] : [own[1], own[0]];
              const change = Number(to) - Number(from);
              expect(row[`${metric}_change`]).toBe(
                Number(Math.abs(change) < 1 ? change.toPrecision(4) : change.toFixed(2)),
              );
            }
          }
        }
        expectChart(step.chart as ChartModel, data.rows, { dimension, metrics, labels });
      }),
      { seed: SEED, numRuns: 12 },
    );
    // The runs had rows, some with a change per row and some without.
    expect(seen.rows).toBeGreaterThan(0);
    expect(seen.paired).toBeGreaterThan(0);
    expect(seen.unpaired).toBeGreaterThan(0);
  });
});

/**
 * The chart's point at a row's position holds that row's values: one line per metric and period (in the
 * request's order), along the longest period's dates.
 */
function expectChart(
  chart: ChartModel,
  rows: Row[],
  o: { dimension: string; metrics: string[]; labels: string[] },
): void {
  if (rows.length === 0) return;
  // The longest period has a value on every row.
  const along = o.labels.find((label) => rows.every((row) => row[`${o.dimension}[${label}]`] !== null));
  expect(along).toBeDefined();
  expect(chart.series).toHaveLength(o.metrics.length * o.labels.length);
  for (const row of rows) {
    const at = chart.categories.indexOf(String(timeValue(o.dimension, row[`${o.dimension}[${along}]`])));
    expect(at, JSON.stringify(row)).toBeGreaterThanOrEqual(0);
    o.metrics.forEach((metric, m) => {
      o.labels.forEach((label, i) => {
        const drawn = chart.series[m * o.labels.length + i]?.data[at];
        expect(drawn, `${metric}[${label}]`).toBeCloseTo(Number(row[`${metric}[${label}]`] ?? 0), 6);
      });
    });
  }
}
