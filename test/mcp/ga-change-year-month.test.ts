/**
 * Review s30, finding 7: a change over `date` and `month` is refused with the hint "use year with month", and doing
 * it gives each month's change from the same month a year before. That needs a whole month a year before inside the
 * sandbox's 400 days of data, which a window ending on the real clock holds only a few days a month (on 6 December
 * 2026 the data began on 2 November 2025, so no November had a whole one before it and the hint, followed, gave no
 * change). Here the sandbox's clock is pinned to noon on 1 December 2026: its data begins before November 2025.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";
import { runningClock } from "../helpers/marketo-mcp.js";

const ga = gaOverMcp(runningClock(Date.parse("2026-12-01T12:00:00Z")));

describe("a change by month: the hint year with month, followed", () => {
  it("refuses date with month naming year with month, which gives November's change from the November before", async () => {
    const refused = await ga.call("google_analytics_run_reports", {
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["date", "month"],
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-29" }],
    });
    expect(refused.isError).toBe(true);
    const use = /use (\w+) with (\w+)/.exec(firstText(refused));
    expect(use?.slice(1)).toEqual(["year", "month"]);
    const args = {
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: [use?.[1], use?.[2]],
      date_ranges: [{ start_date: "2025-11-01", end_date: "2026-11-30" }],
      limit: 1000,
    };
    const result = await ga.call("google_analytics_run_reports", args);
    expect(result.isError, firstText(result)).toBeFalsy();
    type Row = { year: string; month: string; sessions: number; "sessions%change": number | null };
    const rows = (result.structuredContent as { rows: Row[] }).rows;
    const [before, after] = [
      rows.find((r) => r.year === "2025" && r.month === "11"),
      rows.find((r) => r.year === "2026" && r.month === "11"),
    ];
    expect(before && after).toBeTruthy();
    const want =
      Math.round((((after?.sessions ?? 0) - (before?.sessions ?? 1)) / (before?.sessions ?? 1)) * 1000) / 10;
    expect(after?.["sessions%change"]).toBe(want);
    // Every other month has no whole month a year before in the range: none is worked out.
    expect(rows.filter((r) => typeof r["sessions%change"] === "number")).toHaveLength(1);
  });
});
