/**
 * A chart of times reads clocks in the page (console/src/chart-units.ts with src/tools/ga/report-chart.ts;
 * newcomer trial 2026-12-02-s5, finding 6): Run Reports marks a chart whose metrics GA types TYPE_SECONDS,
 * and the page's tooltip and value axis read 0:58, not 57.59; a chart of counts is left as it is.
 */
import { describe, expect, it } from "vitest";
import { withUnits } from "../../console/src/chart-units.js";
import { clock } from "../../console/src/report-values.js";
import { chartOption } from "../../src/charts/model.js";
import { renderChartSvg } from "../../src/charts/render-png.js";
import type { RunReportsOutput } from "../../src/schemas/google-analytics.js";
import { reportChart } from "../../src/tools/ga/report-chart.js";

const report = (metric: string): RunReportsOutput => ({
  property: "properties/412345671",
  rows: [
    { sessionDefaultChannelGroup: "Direct", [metric]: 57.59 },
    { sessionDefaultChannelGroup: "Email", [metric]: 4_210 },
  ],
  row_count: 2,
  totals: [],
  request: { dimensions: [{ name: "sessionDefaultChannelGroup" }], metrics: [{ name: metric }] },
  hints: [],
});

type Formatter = (value: unknown) => string;

describe("a chart of times", () => {
  it("is marked seconds when every metric is GA's TYPE_SECONDS, and its tooltip and axis read a clock", () => {
    const chart = reportChart(report("averageSessionDuration"), {}, undefined, {
      averageSessionDuration: "TYPE_SECONDS",
    });
    expect(chart.unit).toBe("seconds");
    // The data stays GA's seconds.
    expect(chart.series[0]?.data).toEqual([4_210, 57.59]);
    const option = withUnits(chartOption(chart, 800), chart, clock);
    const tooltip = (option.tooltip as { valueFormatter: Formatter }).valueFormatter;
    expect(tooltip(57.59)).toBe("0:58");
    expect(tooltip(4_210)).toBe("1:10:10");
    const axis = (option.xAxis as { axisLabel: { formatter: Formatter; hideOverlap: boolean } }).axisLabel;
    expect(axis.formatter(600)).toBe("10:00");
    expect(axis.hideOverlap).toBe(true);
  });

  it("leaves a chart of counts as it is", () => {
    const chart = reportChart(report("sessions"), {}, undefined, { sessions: "TYPE_INTEGER" });
    expect(chart.unit).toBeUndefined();
    const option = chartOption(chart, 800);
    expect(withUnits(option, chart, clock)).toBe(option);
  });
});

/** Purchases (1–8) and revenue (up to 1,323) by country, as GA types them (trial s7, finding 8). */
const sales: RunReportsOutput = {
  property: "properties/412345671",
  rows: [
    { country: "United States", ecommercePurchases: 8, purchaseRevenue: 1_323 },
    { country: "Canada", ecommercePurchases: 3, purchaseRevenue: 402.5 },
    { country: "France", ecommercePurchases: 1, purchaseRevenue: 96 },
  ],
  row_count: 3,
  totals: [],
  metadata: { currency_code: "USD" },
  request: {
    dimensions: [{ name: "country" }],
    metrics: [{ name: "ecommercePurchases" }, { name: "purchaseRevenue" }],
  },
  hints: [],
};
const SALES_TYPES = { ecommercePurchases: "TYPE_INTEGER", purchaseRevenue: "TYPE_CURRENCY" };
const UI = { ecommercePurchases: "Ecommerce purchases", purchaseRevenue: "Purchase revenue" };

/** The width of each bar ECharts' SVG renderer draws for series `index` (its paths: "M x y l w 0 …Z"). */
const barWidths = (svg: string, index: number) =>
  [
    ...svg.matchAll(
      /<path d="M[\d.]+ [\d.]+l([\d.]+) 0[^"]*"[^>]*ecmeta_series_index="(\d+)"[^>]*ecmeta_ssr_type="chart"/g,
    ),
  ]
    .filter((match) => Number(match[2]) === index)
    .map((match) => Number(match[1]));

describe("a chart of counts and money", () => {
  const chart = reportChart(sales, UI, undefined, SALES_TYPES);

  it("gives each unit a value axis, named, so the purchases' bars do not vanish beside revenue", async () => {
    expect(chart.series.map((series) => [series.name, series.unit])).toEqual([
      ["Ecommerce purchases", "count"],
      ["Purchase revenue", "currency"],
    ]);
    expect(chart.currency).toBe("USD");
    const option = chartOption(chart, 400) as {
      xAxis: Record<string, unknown>[];
      series: { xAxisIndex: number }[];
    };
    expect(option.xAxis.map((axis) => [axis.name, axis.position])).toEqual([
      ["Ecommerce purchases", "bottom"],
      ["Purchase revenue (USD)", "top"],
    ]);
    expect(option.series.map((series) => series.xAxisIndex)).toEqual([0, 1]);
    // Measured as drawn at 400 px: France's 1 purchase is a bar a person sees (on revenue's axis it was 0.2 px).
    const svg = await renderChartSvg(chart, { width: 400 });
    const purchases = barWidths(svg, 0);
    const revenue = barWidths(svg, 1);
    expect(purchases).toHaveLength(3);
    expect(Math.min(...purchases)).toBeGreaterThan(10);
    expect(Math.max(...purchases)).toBeGreaterThan(Math.max(...revenue) * 0.8);
  });

  it("reads the money axis and tooltip in the currency, the counts' as numbers", () => {
    const option = withUnits(chartOption(chart, 400), chart, clock, "en-US");
    const axes = option.xAxis as { axisLabel: { formatter?: Formatter } }[];
    expect(axes[0]?.axisLabel.formatter).toBeUndefined();
    expect(axes[1]?.axisLabel.formatter?.(1_323)).toBe("$1,323");
    const series = option.series as { tooltip?: { valueFormatter: Formatter } }[];
    expect(series[0]?.tooltip).toBeUndefined();
    expect(series[1]?.tooltip?.valueFormatter(402.5)).toBe("$402.50");
  });

  it("names a chart of money alone by its currency, and gives a line of two units an axis on each side", () => {
    const revenue = reportChart(
      {
        ...sales,
        rows: sales.rows.map(({ ecommercePurchases: _, ...row }) => row),
        request: { ...sales.request, metrics: [{ name: "purchaseRevenue" }] },
      },
      UI,
      undefined,
      SALES_TYPES,
    );
    expect((chartOption(revenue, 800).xAxis as { name?: string }).name).toBe("Purchase revenue (USD)");
    const line = chartOption({ ...chart, kind: "line" }, 800) as {
      yAxis: { position: string }[];
      series: { yAxisIndex: number }[];
    };
    expect(line.yAxis.map((axis) => axis.position)).toEqual(["left", "right"]);
    expect(line.series.map((series) => series.yAxisIndex)).toEqual([0, 1]);
  });
});
