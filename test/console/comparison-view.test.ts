/**
 * Two periods compared, one measure at a time (console review s10, findings 3 and 4): a row keeps its
 * dimensions and shows the chosen measure's this period, previous period and change, in that order; the %
 * rides in the change's cell and never breaks inside.
 */
import { describe, expect, it } from "vitest";
import {
  changeWithPercent,
  comparedMetrics,
  oneMetricChart,
  oneMetricRow,
  shownMetric,
} from "../../console/src/comparison-view.js";
import type { ComparedReport } from "../../console/src/comparison-words.js";
import { chartsByUnit } from "../../src/charts/model.js";
import type { RunReportsOutput } from "../../src/schemas/google-analytics.js";
import { reportChart } from "../../src/tools/ga/report-chart.js";

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

  it("shows the measure chosen, the first when the report has none such", () => {
    expect(shownMetric(REPORT, "purchaseRevenue")).toBe("purchaseRevenue");
    expect(shownMetric(REPORT, undefined)).toBe("sessions");
    expect(shownMetric(REPORT, "bounceRate")).toBe("sessions");
  });

  // The step's own chart of sessions, purchases and revenue by channel, this week and last (GA's rows).
  const METRICS = ["sessions", "ecommercePurchases", "purchaseRevenue"];
  const gaRows = [
    ["Organic Search", "this week", 1000, 8, 1323],
    ["Organic Search", "last week", 900, 5, 700],
    ["Direct", "this week", 400, 2, 120],
    ["Direct", "last week", 500, 3, 310],
  ].map(([channel, dateRange, sessions, ecommercePurchases, purchaseRevenue]) => ({
    sessionDefaultChannelGroup: channel as string,
    dateRange: dateRange as string,
    sessions: sessions as number,
    ecommercePurchases: ecommercePurchases as number,
    purchaseRevenue: purchaseRevenue as number,
  }));
  const stepChart = reportChart(
    {
      property: "properties/1",
      rows: gaRows,
      row_count: 2,
      metadata: { currency_code: "USD" },
      request: {
        metrics: METRICS.map((name) => ({ name })),
        dimensions: [{ name: "sessionDefaultChannelGroup" }],
        dateRanges: [{ name: "this week" }, { name: "last week" }],
      },
      hints: [],
    } as unknown as RunReportsOutput,
    {
      sessions: "Sessions",
      ecommercePurchases: "Ecommerce purchases",
      purchaseRevenue: "Purchase revenue",
      sessionDefaultChannelGroup: "Session default channel group",
    },
    undefined,
    { sessions: "TYPE_INTEGER", ecommercePurchases: "TYPE_INTEGER", purchaseRevenue: "TYPE_CURRENCY" },
  );

  it("charts the chosen measure alone, each period's bar per row, titled by the measure", () => {
    // Without it, sessions and purchases shared one count axis (console review s10, result words 2).
    expect(chartsByUnit(stepChart).length).toBe(2);
    const purchases = oneMetricChart(stepChart, METRICS, "ecommercePurchases");
    expect(purchases.title).toBe("Ecommerce purchases by Session default channel group");
    expect(purchases.categories).toEqual(["Organic Search", "Direct"]);
    expect(purchases.series.map(({ name, data }) => ({ name, data }))).toEqual([
      { name: "this week", data: [8, 2] },
      { name: "last week", data: [5, 3] },
    ]);
    expect(chartsByUnit(purchases)).toEqual([purchases]);
    expect(purchases.currency).toBeUndefined();
    const revenue = oneMetricChart(stepChart, METRICS, "purchaseRevenue");
    expect(revenue.series.map((one) => [one.name, one.data, one.unit])).toEqual([
      ["this week", [1323, 120], "currency"],
      ["last week", [700, 310], "currency"],
    ]);
    expect(revenue.currency).toBe("USD");
  });

  it("leaves a chart that does not draw each measure as it is", () => {
    const first = { ...stepChart, series: stepChart.series.filter((one) => one.metric === "Sessions") };
    expect(oneMetricChart(first, METRICS, "purchaseRevenue")).toBe(first);
  });
});
