/**
 * A chart's option as the page draws it: for a chart of times (ChartModel `unit: "seconds"`), the tooltip
 * and the value axis read a clock, 0:58 rather than 57.59 (newcomer trial 2026-12-02-s5, finding 6).
 * The shared option is JSON only (src/charts/model.ts chartOption, which the PNG renders too); ECharts'
 * formatters are functions, so the page adds them here: tooltip.valueFormatter
 * (https://echarts.apache.org/en/option.html#tooltip.valueFormatter) and axisLabel.formatter.
 */
import type { ChartModel } from "../../src/charts/model.ts";

type Option = Record<string, unknown>;

/**
 * The option with its values read as clocks (`clock`: report-values.ts, passed in so that this module
 * imports no other) when the chart's values are seconds; else as it is.
 */
export function withUnits(
  option: Option,
  chart: Pick<ChartModel, "kind" | "unit">,
  clock: (seconds: number) => string,
): Option {
  if (chart.unit !== "seconds") return option;
  const clockOf = (value: unknown) => (typeof value === "number" ? clock(value) : String(value ?? ""));
  const tooltip = { ...(option.tooltip as Option | undefined), valueFormatter: clockOf };
  // The value axis: x for lying bars, y for lines; a funnel has none (its labels carry the values).
  const axis = chart.kind === "bar" ? "xAxis" : chart.kind === "line" ? "yAxis" : undefined;
  if (!axis) return { ...option, tooltip };
  const value = option[axis] as Option | undefined;
  const axisLabel = { ...(value?.axisLabel as Option | undefined), formatter: clockOf };
  return { ...option, tooltip, [axis]: { ...value, axisLabel } };
}
