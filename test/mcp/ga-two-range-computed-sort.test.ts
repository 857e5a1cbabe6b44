/**
 * Trial s47, N646: an agent comparing last week's sessions a day with the four weeks before, site by site, wrote
 * order_by "property,sessions/day_change,…" and was refused twice ("a sort on sessions/day takes one date range";
 * "property" is not a field), then ranked the rows itself. Two ranges' merged rows are sorted by the step over the
 * whole report, so a column it works out (a mean a day, a ratio, their changes) sorts like any other; and over
 * several properties "property" sorts the joined table.
 *
 * Invariant, over generated requests: the sorted answer holds exactly the rows of the same report unsorted, in the
 * key's order (no value last), grouped by property when "property" leads.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaReports } from "../helpers/ga-reports.js";

type Row = Record<string, string | number | null>;
const rows = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;
const ranges = [
  { start_date: "2026-11-30", end_date: "2026-12-06", name: "week" },
  { start_date: "2026-11-02", end_date: "2026-11-29", name: "before" },
];
const key = (row: Row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Whether `list` is in `column`'s order, values with none last. */
function ordered(list: readonly Row[], column: string, desc: boolean): boolean {
  const values = list.map((row) => row[column] ?? null);
  const firstNone = values.indexOf(null);
  if (firstNone >= 0 && values.slice(firstNone).some((v) => v !== null)) return false;
  const numbers = values.filter((v): v is number => v !== null).map(Number);
  return numbers.every(
    (v, i) => i === 0 || (desc ? (numbers[i - 1] as number) >= v : (numbers[i - 1] as number) <= v),
  );
}

describe("two ranges sorted by a column the step works out", () => {
  const report = gaReports("423456787");

  it("sorts by a mean a day's or a ratio's column, with every row of the unsorted report", async () => {
    const request = fc.record({
      dimension: fc.constantFrom("sessionDefaultChannelGroup", "deviceCategory", "country"),
      metric: fc.constantFrom("sessions/day", "engagedSessions/sessions", "activeUsers/day"),
      column: fc.constantFrom("_change", "_change_pct", "[week]", "[before]"),
      desc: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ dimension, metric, column, desc }) => {
        const args = {
          dimensions: [dimension],
          metrics: [metric, "sessions"],
          date_ranges: ranges,
          limit: 500,
        };
        const sortedBy = `${metric}${column}`;
        const sorted = await report({ ...args, order_by: `${desc ? "-" : ""}${sortedBy}` });
        expect(sorted.isError, firstText(sorted)).toBeFalsy();
        const plain = await report(args);
        expect(rows(sorted).map(key).sort()).toEqual(rows(plain).map(key).sort());
        expect(ordered(rows(sorted), sortedBy, desc)).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it("sorts several properties' joined rows by property first, then the column", async () => {
    const args = {
      property: "423456787,423456789",
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions/day", "sessions"],
      date_ranges: ranges,
      limit: 100,
    };
    const sorted = await report({ ...args, order_by: "property,-sessions/day_change" });
    expect(sorted.isError, firstText(sorted)).toBeFalsy();
    const list = rows(sorted);
    const sites = list.map((row) => String(row.property));
    expect(sites).toEqual([...sites].sort());
    for (const site of new Set(sites)) {
      expect(
        ordered(
          list.filter((row) => row.property === site),
          "sessions/day_change",
          true,
        ),
      ).toBe(true);
    }
    expect(list.map(key).sort()).toEqual(
      rows(await report(args))
        .map(key)
        .sort(),
    );
  });

  it("takes property in order_by over one range and one property, where it changes nothing", async () => {
    const args = { dimensions: ["deviceCategory"], metrics: ["sessions"], date_ranges: ["last28days"] };
    const sorted = await report({ ...args, order_by: ["property", "-sessions"] });
    expect(sorted.isError, firstText(sorted)).toBeFalsy();
    expect(rows(sorted)).toEqual(rows(await report({ ...args, order_by: "-sessions" })));
  });

  it("still refuses a column of three ranges, naming what it takes", async () => {
    const three = await report({
      metrics: ["sessions/day"],
      date_ranges: [...ranges, { start_date: "2026-10-01", end_date: "2026-10-31", name: "october" }],
      order_by: "-sessions/day",
    });
    expect(three.isError).toBe(true);
    expect(firstText(three)).toContain("takes one or two date ranges");
  });
});
