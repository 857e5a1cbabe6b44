/**
 * A chart of a result, as data: what a step knows about drawing its answer (kind, title, categories,
 * series), with no pixels and no renderer. A step puts it on its ToolResult (`chart`); each adapter draws
 * it its way: the console with ECharts in the browser, MCP as a PNG (render-png.ts). Both go through
 * `chartOption()` below, so the picture is the same. This module imports nothing: the browser bundle uses it.
 */
export interface ChartModel {
  /**
   * A line over the categories (a time axis), bars (one row of bars per category, side by side per
   * series: grouped), or a funnel (one stage per category, in order: a funnel report's steps).
   */
  kind: "line" | "bar" | "funnel";
  title: string;
  /** What the data is about, under the title (a GA property's name). */
  subtitle?: string;
  /** The x axis, in order: dates, or the values of the dimensions. */
  categories: string[];
  /** One line, or one bar colour, per series; `data[i]` is the value at `categories[i]`. */
  series: { name: string; data: number[] }[];
  /**
   * The column the result's table starts sorted by: the order the request asked for when it asked one
   * (the answer's own), else the column the chart runs along.
   */
  orderedBy?: { column: string; descending: boolean };
  /**
   * Every value is a time in seconds (an average session duration): the page's tooltip and value axis read
   * it as a clock, m:ss (console/src/chart-units.ts); the data stays the seconds.
   */
  unit?: "seconds";
}

const ymd = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
/**
 * GA4 time dimensions and how their values read (on an axis, in a table). The Data API gives them as
 * digits: date is YYYYMMDD, dateHour YYYYMMDDHH, yearMonth YYYYMM...
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema#dimensions).
 */
export const TIME_DIMENSIONS: Record<string, (value: string) => string> = {
  date: ymd,
  firstSessionDate: ymd,
  dateHour: (v) => `${ymd(v)} ${v.slice(8, 10)}h`,
  dateHourMinute: (v) => `${ymd(v)} ${v.slice(8, 10)}:${v.slice(10, 12)}`,
  yearMonth: (v) => `${v.slice(0, 4)}-${v.slice(4, 6)}`,
  yearWeek: (v) => `${v.slice(0, 4)} w${v.slice(4, 6)}`,
  isoYearIsoWeek: (v) => `${v.slice(0, 4)} w${v.slice(4, 6)}`,
  year: (v) => v,
};

/** A GA time dimension's value as people read it (20261119 → 2026-11-19); any other value as it is. */
export function timeValue(column: string, value: unknown): unknown {
  const format = TIME_DIMENSIONS[column];
  return format && typeof value === "string" && /^\d{4,12}$/.test(value) ? format(value) : value;
}

/** Fonts resvg finds on common systems, then the generic family (the browser has its own). */
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** Past this many points a line's markers hide it. */
const MAX_SYMBOLS = 40;
/** The width a chart is drawn at when the caller does not say (the PNG's). */
const DEFAULT_WIDTH = 800;
/** The title's size, and what one of its characters takes at most (DejaVu Sans Bold, 16 px). */
const TITLE_SIZE = 16;
const TITLE_CHAR = 10;
/** The widest a bar's category label may be: longer ones end with "…" (the tooltip has them whole). */
const MAX_LABEL = 180;

/** How many lines the title takes at this width (it wraps rather than running off the chart). */
const titleLines = (title: string, width: number) =>
  Math.max(1, Math.ceil((title.length * TITLE_CHAR) / Math.max(120, width - 32)));

/**
 * The height a chart needs to be read: bars get a row each (grouped bars a row per category), a funnel a
 * band per step, a line the console's usual 380 px. The page sizes its chart with it, the PNG too.
 */
export function chartHeight(chart: ChartModel): number {
  const rows = chart.categories.length;
  if (chart.kind === "bar")
    return Math.min(1200, Math.max(320, 120 + rows * (10 + 16 * chart.series.length)));
  if (chart.kind === "funnel") return Math.max(320, 120 + rows * 56);
  return 380;
}

/**
 * The ECharts option of a chart: only JSON values (no functions), the same in the browser (canvas) and
 * in the server's SVG renderer (https://echarts.apache.org/en/option.html), for a chart `width` pixels
 * wide: the title wraps at it (title.textStyle.overflow "break", ECharts 5+), and the plot starts below it.
 */
export function chartOption(chart: ChartModel, width = DEFAULT_WIDTH): Record<string, unknown> {
  const lines = titleLines(chart.title, width);
  const top = 16 + lines * (TITLE_SIZE + 6) + (chart.subtitle ? 22 : 0);
  const common = {
    animation: false,
    textStyle: { fontFamily: FONT_FAMILY },
    title: {
      text: chart.title,
      ...(chart.subtitle ? { subtext: chart.subtitle } : {}),
      left: "center",
      textStyle: {
        fontSize: TITLE_SIZE,
        lineHeight: TITLE_SIZE + 6,
        width: Math.max(120, width - 32),
        overflow: "break",
      },
    },
    // Rich-text tooltips are drawn on the chart itself: HTML ones carry inline styles the console's CSP forbids.
    tooltip: { trigger: chart.kind === "funnel" ? "item" : "axis", renderMode: "richText" },
    legend: { type: "scroll", bottom: 0 },
  };
  // A funnel's stages carry their names: a legend would repeat them.
  if (chart.kind === "funnel")
    return { ...common, legend: { show: false }, series: [funnelSeries(chart, top)] };
  const grid = { left: 16, right: 24, top: top + 8, bottom: 48, containLabel: true };
  if (chart.kind === "bar") {
    // Bars lie down: a category's name reads along its bar, never tilted or clipped at the chart's edge.
    return {
      ...common,
      grid,
      yAxis: {
        type: "category",
        data: chart.categories,
        inverse: true,
        axisLabel: { width: Math.min(MAX_LABEL, Math.round(width * 0.35)), overflow: "truncate" },
      },
      // Fewer ticks on a narrow chart: "1,000" and "2,000" side by side need about 60 px each.
      xAxis: { type: "value", splitNumber: width < 560 ? 3 : 5, axisLabel: { hideOverlap: true } },
      series: chart.series.map((series) => ({ type: "bar", name: series.name, data: series.data })),
    };
  }
  return {
    ...common,
    grid,
    xAxis: { type: "category", data: chart.categories, axisLabel: { hideOverlap: true } },
    yAxis: { type: "value" },
    series: chart.series.map((series) => ({
      type: "line",
      name: series.name,
      data: series.data,
      showSymbol: chart.categories.length <= MAX_SYMBOLS,
    })),
  };
}

/** A funnel's stages in their order (not by size), each labelled with its name and count. */
function funnelSeries(chart: ChartModel, top: number): Record<string, unknown> {
  const values = chart.series[0]?.data ?? [];
  return {
    type: "funnel",
    name: chart.series[0]?.name ?? "",
    sort: "none",
    left: "4%",
    width: "52%",
    top: top + 8,
    bottom: 40,
    minSize: "6%",
    gap: 2,
    label: { show: true, position: "right", formatter: "{b}: {c}" },
    data: chart.categories.map((name, index) => ({ name, value: values[index] ?? 0 })),
  };
}

/**
 * Where an MCP tool result carries its chart model: the result's `_meta`, which MCP keeps out of the
 * model's context (https://modelcontextprotocol.io/specification/2025-11-25/basic/index#meta), and which an
 * MCP Apps host hands to the view whole with the result (`ui/notifications/tool-result` carries the
 * CallToolResult: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx).
 * Not in structuredContent: that holds one page of rows, while the chart is drawn from every row GA returned.
 */
export const CHART_META_KEY = "martech-steps/chart";

const isNumbers = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((item) => typeof item === "number");

/** A value that reached a page from elsewhere (an MCP host) is a chart model this module can draw. */
export function isChartModel(value: unknown): value is ChartModel {
  if (!value || typeof value !== "object") return false;
  const chart = value as Partial<Record<keyof ChartModel, unknown>>;
  return (
    (chart.kind === "line" || chart.kind === "bar" || chart.kind === "funnel") &&
    typeof chart.title === "string" &&
    (chart.subtitle === undefined || typeof chart.subtitle === "string") &&
    Array.isArray(chart.categories) &&
    chart.categories.every((category) => typeof category === "string") &&
    Array.isArray(chart.series) &&
    chart.series.every(
      (series: unknown) =>
        !!series &&
        typeof series === "object" &&
        typeof (series as { name?: unknown }).name === "string" &&
        isNumbers((series as { data?: unknown }).data),
    )
  );
}
