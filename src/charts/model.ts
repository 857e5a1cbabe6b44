/**
 * A chart of a result, as data: what a step knows about drawing its answer (kind, title, categories,
 * series), with no pixels and no renderer. A step puts it on its ToolResult (`chart`); each adapter draws
 * it its way: the console with ECharts in the browser, MCP as a PNG (render-png.ts). Both go through
 * `chartOption()` below, so the picture is the same. This module imports nothing: the browser bundle uses it.
 */
export interface ChartModel {
  /** A line over the categories (a time axis), or bars (one per category). */
  kind: "line" | "bar";
  title: string;
  /** What the data is about, under the title (a GA property). */
  subtitle?: string;
  /** The x axis, in order: dates, or the values of the dimensions. */
  categories: string[];
  /** One line, or one bar colour, per series; `data[i]` is the value at `categories[i]`. */
  series: { name: string; data: number[] }[];
}

/** Fonts resvg finds on common systems, then the generic family (the browser has its own). */
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** Past this many points a line's markers hide it. */
const MAX_SYMBOLS = 40;
/** Past this many bars their labels are tilted to stay readable. */
const UPRIGHT_BAR_LABELS = 6;

/**
 * The ECharts option of a chart: only JSON values (no functions), the same in the browser (canvas) and
 * in the server's SVG renderer (https://echarts.apache.org/en/option.html).
 */
export function chartOption(chart: ChartModel): Record<string, unknown> {
  const { kind, categories } = chart;
  return {
    animation: false,
    textStyle: { fontFamily: FONT_FAMILY },
    title: { text: chart.title, ...(chart.subtitle ? { subtext: chart.subtitle } : {}), left: "center" },
    // Rich-text tooltips are drawn on the chart itself: HTML ones carry inline styles the console's CSP forbids.
    tooltip: { trigger: "axis", renderMode: "richText" },
    legend: { type: "scroll", bottom: 0 },
    grid: { left: 16, right: 24, top: 64, bottom: 48, containLabel: true },
    xAxis: {
      type: "category",
      data: categories,
      axisLabel: {
        hideOverlap: true,
        rotate: kind === "bar" && categories.length > UPRIGHT_BAR_LABELS ? 30 : 0,
      },
    },
    yAxis: { type: "value" },
    series: chart.series.map((series) =>
      kind === "line"
        ? { type: "line", name: series.name, data: series.data, showSymbol: categories.length <= MAX_SYMBOLS }
        : { type: "bar", name: series.name, data: series.data },
    ),
  };
}
