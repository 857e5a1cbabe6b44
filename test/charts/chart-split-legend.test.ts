/**
 * Charts at 400 px and of mixed units (newcomer trial s9, finding 11): the legend wraps instead of paging
 * "1/2", the chart grows by the lines it takes, and a report of purchases and revenue is drawn as one chart
 * per unit, each titled by its metric, rather than one bar chart with two scales.
 */
import { describe, expect, it } from "vitest";
import { legendLines } from "../../src/charts/legend.js";
import { type ChartModel, chartHeight, chartOption, chartsByUnit } from "../../src/charts/model.js";
import type { RunReportsOutput } from "../../src/schemas/google-analytics.js";
import { reportChart } from "../../src/tools/ga/report-chart.js";

const PERIODS = ["Last 28 days (5 Nov – 2 Dec 2026)", "The 28 days before (8 Oct – 4 Nov 2026)"];

/** A comparison's chart as Run Reports draws it: a bar per period, each named with its dates in the legend. */
const compared: ChartModel = {
  kind: "bar",
  title: "Sessions by Session default channel group",
  categories: ["Organic Search", "Direct"],
  series: PERIODS.map((name, index) => ({ name, data: [40 - index, 30 - index], unit: "count" })),
};

const mixed = reportChart(
  {
    property: "properties/412345671",
    rows: [
      { country: "United States", ecommercePurchases: 8, purchaseRevenue: 1323 },
      { country: "France", ecommercePurchases: 3, purchaseRevenue: 410 },
    ],
    row_count: 2,
    totals: [],
    request: {
      dimensions: [{ name: "country" }],
      metrics: [{ name: "ecommercePurchases" }, { name: "purchaseRevenue" }],
    },
    metadata: { currency_code: "USD" },
    hints: [],
  } as RunReportsOutput,
  { country: "Country", ecommercePurchases: "Ecommerce purchases", purchaseRevenue: "Purchase revenue" },
  undefined,
  { ecommercePurchases: "TYPE_INTEGER", purchaseRevenue: "TYPE_CURRENCY" },
);

describe("a chart's legend at 400 px", () => {
  it("wraps (a plain legend), never pages", () => {
    const legend = chartOption(compared, 360).legend as { type: string };
    expect(legend.type).toBe("plain");
  });

  it("takes more lines on a narrow chart than on a wide one, and the chart grows by them", () => {
    const names = compared.series.map((series) => series.name);
    expect(names.length).toBe(2);
    expect(legendLines(names, 360)).toBeGreaterThan(legendLines(names, 1200));
    expect(legendLines(names, 1200)).toBe(1);
    expect(chartHeight(compared, 360)).toBeGreaterThan(chartHeight(compared, 1200));
    const bottom = (width: number) => (chartOption(compared, width).grid as { bottom: number }).bottom;
    expect(bottom(360)).toBeGreaterThan(bottom(1200));
  });
});

describe("a report of two units", () => {
  it("is drawn as one chart per unit, each with its own axis and titled by its metric", () => {
    const charts = chartsByUnit(mixed);
    expect(charts.map((chart) => chart.title)).toEqual([
      "Ecommerce purchases by Country",
      "Purchase revenue by Country",
    ]);
    expect(charts.map((chart) => chart.series.map((series) => series.unit))).toEqual([
      ["count"],
      ["currency"],
    ]);
    expect(charts[1]?.currency).toBe("USD");
    expect(charts[0]?.currency).toBeUndefined();
    for (const chart of charts) expect(chartOption(chart, 360).xAxis).not.toBeInstanceOf(Array);
  });

  it("keeps a chart of one unit whole", () => {
    expect(chartsByUnit(compared)).toEqual([compared]);
  });
});
