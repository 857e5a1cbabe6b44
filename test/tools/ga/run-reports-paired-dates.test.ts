/**
 * Two periods by date through MCP, on the sandbox (trial 2026-12-03-s10, N57: Black Friday weekend 2026
 * against the same weekend of 2025, by date, merged rows by calendar date, so every row read "−100 %" or had
 * no change): rows pair day 1 with day 1, their changes are the pairs' changes, and the totals still add up
 * the rows. Periods of different lengths give no change per row and say why.
 */
import { describe, expect, it } from "vitest";
import { roundChange } from "../../../src/tools/ga/report-compare.js";
import { gaOverMcp } from "../../helpers/ga-mcp.js";
import { answer, PROPERTY, report, text } from "../../helpers/ga-properties.js";

type Rows = Map<string, Record<string, unknown>>;

const BFCM = {
  property: PROPERTY,
  metrics: ["sessions", "purchaseRevenue"],
  dimensions: ["date"],
  date_ranges: [
    { start_date: "2026-11-27", end_date: "2026-11-30", name: "bfcm2026" },
    { start_date: "2025-11-28", end_date: "2025-12-01", name: "bfcm2025" },
  ],
  limit: 100,
};

describe("Run Reports over two periods by date", () => {
  const ga = gaOverMcp();

  /** One period's report alone: its sessions and revenue by date. */
  async function alone(range: (typeof BFCM.date_ranges)[number]) {
    const rows = answer(await report(ga.client, { ...BFCM, date_ranges: [range] })).rows;
    return new Map(rows.map((row) => [String(row.date), row]));
  }

  it("pairs the BFCM weekends day by day: each row's change is its pair's, the totals add up the rows", async () => {
    const result = await report(ga.client, BFCM);
    const data = answer(result);
    const [y2026, y2025] = (await Promise.all(BFCM.date_ranges.map(alone))) as [Rows, Rows];
    expect(data.rows).toHaveLength(4);
    const days = (iso: string) => (Date.parse(iso) - Date.parse("2026-11-27")) / 86_400_000;
    const daysLast = (iso: string) => (Date.parse(iso) - Date.parse("2025-11-28")) / 86_400_000;
    const iso = (v: unknown) => String(v).replace(/^(\d{4})(\d\d)(\d\d)$/, "$1-$2-$3");
    for (const row of data.rows) {
      const [later, earlier] = [String(row["date[bfcm2026]"]), String(row["date[bfcm2025]"])];
      // Day N of one weekend with day N of the other.
      expect(days(iso(later))).toBe(daysLast(iso(earlier)));
      for (const metric of BFCM.metrics) {
        const to = y2026.get(later)?.[metric];
        const from = y2025.get(earlier)?.[metric];
        expect(row[`${metric}[bfcm2026]`]).toBe(to);
        expect(row[`${metric}[bfcm2025]`]).toBe(from);
        expect(row[`${metric}_change`]).toBe(roundChange(Number(to) - Number(from)));
        expect(row[`${metric}_change_pct`]).toBe(
          roundChange(((Number(to) - Number(from)) / Number(from)) * 100),
        );
      }
    }
    for (const metric of BFCM.metrics) {
      for (const label of ["bfcm2026", "bfcm2025"]) {
        const sum = data.rows.reduce((total, row) => total + Number(row[`${metric}[${label}]`]), 0);
        expect(data.totals[0]?.[`${metric}[${label}]`]).toBeCloseTo(sum, 6);
      }
    }
    expect(data.comparison).toMatchObject({ from: "bfcm2025", to: "bfcm2026", paired: "date" });
    expect(text(result)).not.toContain("-100%");
    expect(text(result)).toMatch(
      /Largest changes in sessions \(bfcm2025 → bfcm2026\): 2026-11-\d\d vs 2025-1\d-\d\d /,
    );
  });

  it("gives no change per row when the periods differ in length, and says why", async () => {
    const ranges = [
      { start_date: "2026-11-01", end_date: "2026-11-30", name: "nov" },
      { start_date: "2026-10-01", end_date: "2026-10-31", name: "oct" },
    ];
    const result = await report(ga.client, { ...BFCM, date_ranges: ranges });
    const data = answer(result);
    expect(data.rows).toHaveLength(31);
    for (const row of data.rows) {
      expect(row.sessions_change).toBeNull();
      expect(row.sessions_change_pct).toBeNull();
    }
    // Day 31 of October has no day of November beside it: not 0, no such day.
    const last = data.rows.find((row) => row["date[oct]"] === "20261031");
    expect(last?.["date[nov]"]).toBeNull();
    expect(last?.["sessions[nov]"]).toBeNull();
    expect(data.comparison?.no_row_change).toContain("nov 30 days, oct 31 days");
    expect(text(result).split("\n")[0]).toContain("No change per row: by date the periods do not line up");
    expect(data.totals[0]?.sessions_change).toBeTypeOf("number");
  });
});
