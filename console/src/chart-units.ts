/**
 * A chart's option as the page draws it, its values read in their units: a time as a clock, 0:58 rather
 * than 57.59 (newcomer trial 2026-12-02-s5, finding 6), money with its currency, $1,323 rather than 1,323
 * (trial s7, finding 9), each value axis and each series' tooltip by its own unit when a chart has several
 * (src/charts/model.ts gives them an axis each: trial s7, finding 8).
 * The shared option is JSON only (src/charts/model.ts chartOption, which the PNG renders too); ECharts'
 * formatters are functions, so the page adds them here: tooltip.valueFormatter
 * (https://echarts.apache.org/en/option.html#tooltip.valueFormatter, also a series' own tooltip's) and
 * axisLabel.formatter.
 */
import type { ChartModel, ValueUnit } from "../../src/charts/model.ts";

type Option = Record<string, unknown>;
type Formatter = (value: unknown) => string;

/** How a unit's values read, or none where ECharts' own numbers do (counts, other numbers). */
function formatterOf(
  unit: ValueUnit,
  chart: Pick<ChartModel, "currency">,
  clock: (seconds: number) => string,
  locale?: string,
): Formatter | undefined {
  if (unit === "seconds") return (value) => (typeof value === "number" ? clock(value) : String(value ?? ""));
  if (unit !== "currency" || !chart.currency) return undefined;
  // The reader's locale: "$1,323" in the US, "1 323 $US" in France (https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/NumberFormat).
  const money = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: chart.currency,
    // Cents when there are some ($402.50), none on a whole amount ($1,323).
    trailingZeroDisplay: "stripIfInteger",
  });
  return (value) => (typeof value === "number" ? money.format(value) : String(value ?? ""));
}

/**
 * The option with its values read in their units (`clock`: report-values.ts, passed in so that this
 * module imports no other page module); a chart of counts as it is.
 */
export function withUnits(
  option: Option,
  chart: Pick<ChartModel, "kind" | "unit" | "series" | "currency">,
  clock: (seconds: number) => string,
  locale?: string,
): Option {
  // A chart of times says so as a whole (`unit: "seconds"`), its series' units may be left unsaid.
  // The units in the series' order, as model.ts chartUnits gives their axes (a type import: see above).
  const units: ValueUnit[] =
    chart.unit === "seconds"
      ? ["seconds"]
      : [...new Set(chart.series.map((series) => series.unit ?? "number"))];
  const formatters = units.map((unit) => formatterOf(unit, chart, clock, locale));
  if (formatters.every((formatter) => !formatter)) return option;
  const [only] = formatters;
  const tooltip =
    units.length === 1 && only
      ? { ...(option.tooltip as Option | undefined), valueFormatter: only }
      : option.tooltip;
  // Several units: each series' tooltip reads its own.
  const series =
    units.length > 1 && Array.isArray(option.series)
      ? option.series.map((drawn: Option, index) => {
          const formatter = formatters[units.indexOf(chart.series[index]?.unit ?? "number")];
          return formatter ? { ...drawn, tooltip: { valueFormatter: formatter } } : drawn;
        })
      : option.series;
  // The value axes: x for lying bars, y for lines; a funnel has none (its labels carry the values).
  const axis = chart.kind === "bar" ? "xAxis" : chart.kind === "line" ? "yAxis" : undefined;
  if (!axis) return { ...option, tooltip, series };
  const read = (value: Option | undefined, index: number): Option => {
    const formatter = formatters[index];
    return formatter
      ? { ...value, axisLabel: { ...(value?.axisLabel as Option | undefined), formatter } }
      : (value ?? {});
  };
  const axes = option[axis] as Option | Option[] | undefined;
  return {
    ...option,
    tooltip,
    series,
    [axis]: Array.isArray(axes) ? axes.map(read) : read(axes, 0),
  };
}
