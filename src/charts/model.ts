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
  /** The column of the result's table the chart runs along, so that the table can show rows in the same order. */
  orderedBy?: { column: string; descending: boolean };
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
    (chart.kind === "line" || chart.kind === "bar") &&
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
