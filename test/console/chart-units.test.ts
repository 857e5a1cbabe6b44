/**
 * A chart of times reads clocks in the page (console/src/chart-units.ts with src/tools/ga/report-chart.ts;
 * newcomer trial 2026-12-02-s5, finding 6): Run Reports marks a chart whose metrics GA types TYPE_SECONDS,
 * and the page's tooltip and value axis read 0:58, not 57.59; a chart of counts is left as it is.
 */
import { describe, expect, it } from "vitest";
import { withUnits } from "../../console/src/chart-units.js";
import { clock } from "../../console/src/report-values.js";
import { chartOption } from "../../src/charts/model.js";
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
