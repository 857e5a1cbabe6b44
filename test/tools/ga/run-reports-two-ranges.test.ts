/**
 * A two-range report's request and its limits, on a scripted connector: every GA row is asked for once (the
 * offset, limit and order apply to the merged rows), a report GA says is larger than what was read is
 * refused rather than merged in part, and order_by takes the merged columns.
 */
import { describe, expect, it } from "vitest";
import type { RunReportResponse } from "../../../src/connectors/google/types.js";
import { ValidationError } from "../../../src/errors.js";
import { MERGE_MAX_GA_ROWS } from "../../../src/tools/ga/report-two-ranges.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa } from "../../helpers/ga-fake-connector.js";

const ID = "google_analytics_run_reports";
const INPUT = {
  property: "properties/123",
  metrics: ["sessions"],
  dimensions: ["country"],
  date_ranges: [
    { start_date: "2026-02-01", end_date: "2026-02-28", name: "feb" },
    { start_date: "2026-01-04", end_date: "2026-01-31", name: "jan" },
  ],
};

/** GA's answer for countries with [feb, jan] sessions (null: no row in that range). */
function answer(
  countries: Record<string, [number | null, number | null]>,
  rowCount?: number,
): RunReportResponse {
  const rows = Object.entries(countries).flatMap(([country, values]) =>
    values.flatMap((value, index) =>
      value === null
        ? []
        : [
            {
              dimensionValues: [{ value: country }, { value: index === 0 ? "feb" : "jan" }],
              metricValues: [{ value: String(value) }],
            },
          ],
    ),
  );
  return {
    dimensionHeaders: [{ name: "country" }, { name: "dateRange" }],
    metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
    rows,
    rowCount: rowCount ?? rows.length,
    metadata: { timeZone: "UTC" },
  };
}

describe("Run Reports with two date ranges", () => {
  it("asks GA for every row once, without its offset, limit or order, and pages the merged rows", async () => {
    const ga = new FakeGa();
    ga.onRunReport = () => answer({ France: [10, 20], Spain: [5, null], Italy: [null, 7], Peru: [1, 1] });
    const result = await runToolStep(
      ID,
      { ...INPUT, limit: 2, offset: 1, order_by: "-sessions" },
      contextFor(ga),
    );
    const [, body] = ga.callsOf("runReport")[0]?.args ?? [];
    expect(body).toMatchObject({ limit: String(MERGE_MAX_GA_ROWS) });
    expect(body).not.toHaveProperty("offset");
    expect(body).not.toHaveProperty("orderBys");
    const data = result.data as { rows: Record<string, unknown>[]; row_count: number; next_offset?: number };
    // By February's sessions, largest first: France 10, Spain 5, Peru 1, Italy 0.
    expect(data.rows.map((row) => row.country)).toEqual(["Spain", "Peru"]);
    expect(data.row_count).toBe(4);
    expect(data.next_offset).toBe(3);
    expect(data.rows[0]).toEqual({
      country: "Spain",
      "sessions[feb]": 5,
      "sessions[jan]": 0,
      sessions_change: 5,
      sessions_change_pct: null,
    });
    // The largest changes are the whole report's, not this page's (France's -10 → +... is not on it).
    expect(result.summary).toContain(
      "Largest changes in sessions over all 4 rows (jan → feb): France -10 (-50%), Italy -7 (-100%), Spain +5.",
    );
  });

  it("refuses a report GA says has more rows than were read, rather than merge part of it", async () => {
    const ga = new FakeGa();
    ga.onRunReport = () => answer({ France: [10, 20] }, MERGE_MAX_GA_ROWS + 1);
    const error = await runToolStep(ID, INPUT, contextFor(ga)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain("more than the 100,000 read to merge them");
    expect((error as ValidationError).hint).toContain("run each date range alone");
  });

  it("refuses a sort by a column the merged report has not, naming those it has, before anything is sent", async () => {
    const ga = new FakeGa();
    const error = await runToolStep(ID, { ...INPUT, order_by: "-bounceRate" }, contextFor(ga)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).hint).toBe(
      "Sort by one of sessions, sessions[<period>], sessions_change, sessions_change_pct, country (a metric alone sorts by its value in the later range).",
    );
    expect(ga.calls).toEqual([]);
  });
});
