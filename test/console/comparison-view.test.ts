/**
 * Two periods compared, one measure at a time (console review s10, findings 3 and 4): a row keeps its
 * dimensions and shows the chosen measure's this period, previous period and change, in that order; the %
 * rides in the change's cell and never breaks inside.
 */
import { describe, expect, it } from "vitest";
import { changeWithPercent, comparedMetrics, oneMetricRow } from "../../console/src/comparison-view.js";
import type { ComparedReport } from "../../console/src/comparison-words.js";

const ROW = {
  sessionDefaultChannelGroup: "Organic Search",
  "sessions[last week]": 900,
  "sessions[this week]": 1000,
  sessions_change: 100,
  sessions_change_pct: 11.11,
  "purchaseRevenue[last week]": 50,
  "purchaseRevenue[this week]": 40,
  purchaseRevenue_change: -10,
  purchaseRevenue_change_pct: -20,
};

const REPORT: ComparedReport = {
  rows: [ROW],
  date_ranges: [
    { start_date: "2026-11-24", end_date: "2026-11-30", name: "this week" },
    { start_date: "2026-11-17", end_date: "2026-11-23", name: "last week" },
  ],
  comparison: { from: "last week", to: "this week" },
  request: { metrics: [{ name: "sessions" }, { name: "purchaseRevenue" }], dimensions: [{}] },
};

describe("a comparison shown one measure at a time", () => {
  it("offers the measures in the request's order", () => {
    expect(comparedMetrics(REPORT)).toEqual(["sessions", "purchaseRevenue"]);
  });

  it("keeps the dimensions, then this period, the previous one and the change of the chosen measure", () => {
    const row = oneMetricRow(ROW, "purchaseRevenue", REPORT);
    expect(Object.entries(row)).toEqual([
      ["sessionDefaultChannelGroup", "Organic Search"],
      ["purchaseRevenue[this week]", 40],
      ["purchaseRevenue[last week]", 50],
      ["purchaseRevenue_change", -10],
    ]);
    expect(Object.keys(oneMetricRow(ROW, "sessions", REPORT))).toEqual([
      "sessionDefaultChannelGroup",
      "sessions[this week]",
      "sessions[last week]",
      "sessions_change",
    ]);
  });

  it("keeps a paired date's value in each period, and a totals row's measures only", () => {
    const paired = { "date[last week]": "20261117", "date[this week]": "20261124", ...ROW };
    expect(Object.keys(oneMetricRow(paired, "sessions", REPORT)).slice(0, 3)).toEqual([
      "date[last week]",
      "date[this week]",
      "sessionDefaultChannelGroup",
    ]);
    const { sessionDefaultChannelGroup: _, ...totals } = ROW;
    expect(Object.keys(oneMetricRow(totals, "sessions", REPORT))).toEqual([
      "sessions[this week]",
      "sessions[last week]",
      "sessions_change",
    ]);
  });

  it("says the change with its % beside it, the % by its number; the change alone without one", () => {
    // Its parenthesis never breaks: at 400 px the arrow went to a line of its own (console review s10).
    expect(changeWithPercent("+100", "+11.11 % ▲")).toBe("+100 (+11.11\u00a0%\u00a0▲)");
    expect(changeWithPercent("\u2212$1,973.00", "\u221263.89 % ▼")).toBe(
      "\u2212$1,973.00 (\u221263.89\u00a0%\u00a0▼)",
    );
    expect(changeWithPercent("0", "0.0 %")).toBe("0 (0.0\u00a0%)");
    expect(changeWithPercent("+100", undefined)).toBe("+100");
  });
});
