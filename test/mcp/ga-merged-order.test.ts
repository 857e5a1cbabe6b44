/**
 * A two-range report sorts by the columns it prints (agent trial 2026-12-03-s9, N42: order_by
 * "-newUsers[2026]" was refused on the report whose columns are newUsers[2026] and newUsers[2025]). Through
 * MCP on the sandbox: the trial's request runs and sorts by the period named; a period the report does not
 * have is refused naming the spellings it takes.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();

const trial = {
  property: "412345671",
  metrics: ["newUsers"],
  dimensions: ["country"],
  date_ranges: [
    { start_date: "2026-10-01", end_date: "2026-12-02", name: "2026" },
    { start_date: "2025-10-01", end_date: "2025-12-02", name: "2025" },
  ],
  limit: 10,
};

describe("a two-range report's order_by", () => {
  it.each(["newUsers[2026]", "newUsers[2025]"])("sorts by %s, a column the answer prints", async (column) => {
    for (const key of [`-${column}`, [{ field: column, desc: true }]]) {
      const answer = await ga.call("google_analytics_run_reports", { ...trial, order_by: key });
      expect(answer.isError, firstText(answer)).toBeFalsy();
      const rows = (answer.structuredContent as { rows: Record<string, number>[] }).rows;
      const values = rows.map((row) => row[column] as number);
      expect(values.length).toBeGreaterThan(1);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
  });

  it("refuses a period the report does not have, naming the columns it sorts by", async () => {
    const answer = await ga.call("google_analytics_run_reports", { ...trial, order_by: "-newUsers[2024]" });
    expect(answer.isError).toBe(true);
    expect(firstText(answer)).toContain('"newUsers[2024]" is not a column of this two-range report');
    expect(firstText(answer)).toContain(
      "newUsers, newUsers[2026], newUsers[2025], newUsers_change, newUsers_change_pct, country",
    );
  });
});
