/**
 * An axis's labels name the chart's font (console review s10, result words 4): ECharts makes room for the
 * labels (containLabel) measured in the axis label's own font, the default sans-serif when it names none,
 * and draws them in the chart's, wider: "/blog/getting-started" was cut at the chart's left edge at 1280 px.
 * The browser's drawing is checked in test/e2e/console-report-compare.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type ChartModel, chartOption } from "../../src/charts/model.js";

type Axis = { axisLabel?: { fontFamily?: string } };
const axes = (option: Record<string, unknown>): Axis[] =>
  [option.xAxis, option.yAxis].flatMap((axis) => (Array.isArray(axis) ? axis : [axis])) as Axis[];

const chart = (kind: "bar" | "line"): ChartModel => ({
  kind,
  title: "Total users, Purchase revenue by Landing page",
  categories: ["/", "/blog/getting-started", "/products/pro-suite"],
  series: [
    { name: "Total users", data: [220, 61, 47], unit: "count" },
    { name: "Purchase revenue", data: [1323, 0, 310], unit: "currency" },
  ],
  currency: "USD",
});

describe("a chart's axis labels", () => {
  it.each(["bar", "line"] as const)(
    "are measured in the font they are drawn in (%s, two value axes)",
    (kind) => {
      for (const width of [346, 800]) {
        const option = chartOption(chart(kind), width);
        const font = (option.textStyle as { fontFamily: string }).fontFamily;
        const labels = axes(option);
        expect(labels.length).toBe(3);
        for (const axis of labels) expect(axis.axisLabel?.fontFamily).toBe(font);
      }
    },
  );
});
