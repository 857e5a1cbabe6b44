/**
 * The table beside a Run Reports chart starts in the order the request asked GA for, not the chart's
 * (trial s7, finding 2): reportChart's `orderedBy` follows the request's orderBys.
 */
import { describe, expect, it } from "vitest";
import type { RunReportsOutput } from "../../../src/schemas/google-analytics.js";
import { reportChart } from "../../../src/tools/ga/report-chart.js";

function report(orderBys?: unknown[]): RunReportsOutput {
  const rows = [
    { country: "France", ecommercePurchases: 2, purchaseRevenue: 900 },
    { country: "Japan", ecommercePurchases: 8, purchaseRevenue: 400 },
  ];
  return {
    property: "properties/412345671",
    rows,
    row_count: rows.length,
    totals: [],
    request: {
      dimensions: [{ name: "country" }],
      metrics: [{ name: "ecommercePurchases" }, { name: "purchaseRevenue" }],
      ...(orderBys ? { orderBys } : {}),
    },
    hints: [],
  };
}

describe("the order a report's table starts in", () => {
  it("is the request's one sort key, a metric other than the first", () => {
    const chart = reportChart(report([{ desc: true, metric: { metricName: "purchaseRevenue" } }]));
    expect(chart.orderedBy).toEqual({ column: "purchaseRevenue", descending: true });
  });

  it("is the request's dimension, ascending", () => {
    const chart = reportChart(report([{ dimension: { dimensionName: "country" } }]));
    expect(chart.orderedBy).toEqual({ column: "country", descending: false });
  });

  it("is the answer's own, no column marked, for several keys or a numeric dimension sort", () => {
    const two = [{ dimension: { dimensionName: "country" } }, { metric: { metricName: "purchaseRevenue" } }];
    expect(reportChart(report(two)).orderedBy).toBeUndefined();
    const numeric = [{ dimension: { dimensionName: "country", orderType: "NUMERIC" } }];
    expect(reportChart(report(numeric)).orderedBy).toBeUndefined();
  });

  it("is the chart's, the first metric largest first, when the request asked no order", () => {
    expect(reportChart(report()).orderedBy).toEqual({ column: "ecommercePurchases", descending: true });
  });
});
