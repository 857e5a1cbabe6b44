/**
 * A chart of a result, as data: what a step knows about drawing its answer (kind, title, categories,
 * series), with no pixels and no renderer. A step puts it on its ToolResult (`chart`); each adapter draws
 * it its way: the console with ECharts in the browser, MCP as a PNG (render-png.ts). Both go through
 * `chartOption()` below, so the picture is the same. It imports only legend.ts and funnel.ts, which import
 * nothing but its types: the browser bundle uses them all.
 */
import { funnelSeries } from "./funnel.js";
import { legendOption, legendRoom } from "./legend.js";

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
  /**
   * One line, or one bar colour, per series; `data[i]` is the value at `categories[i]`. A series' `unit`,
   * when known: series of different units get a value axis each (chartOption), so that purchases (1–8)
   * do not vanish beside revenue (up to 1,323) on one scale (newcomer trial 2026-12-02-s7, finding 8).
   */
  series: { name: string; data: number[]; unit?: ValueUnit; metric?: string }[];
  /**
   * What the categories are, by name ("Country"), and so the part of the title after "by": a chart split by
   * unit (chartsByUnit) titles each part with its own metrics and these.
   */
  by?: string;
  /**
   * The rows' filter in a person's words ("Device category = mobile"): the title says it after the metrics
   * and `by`, as does each part of a chart split by unit (console review s10, C2: a filtered chart's title
   * read as the whole property's).
   */
  only?: string;
  /** The currency of the series whose unit is "currency" (ISO 4217, "USD"): their axis says it. */
  currency?: string;
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

/** What a series counts: things, other numbers (a rate, an average), money, or a time in seconds. */
export type ValueUnit = "count" | "number" | "currency" | "seconds";

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

/**
 * A GA time dimension's value as people read it (20261119 → 2026-11-19); any other value as it is. A column
 * of one period's date, `date[<period>]`, reads as its dimension: two periods' rows by date hold each
 * period's own date (src/tools/ga/report-pairs.ts).
 */
export function timeValue(column: string, value: unknown): unknown {
  const format = TIME_DIMENSIONS[column] ?? TIME_DIMENSIONS[column.replace(/\[.+\]$/, "")];
  return format && typeof value === "string" && /^\d{4,12}$/.test(value) ? format(value) : value;
}

/** Fonts resvg finds on common systems, then the generic family (the browser has its own). */
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** Past this many points a line's markers hide it. */
const MAX_SYMBOLS = 40;
/** The width a chart is drawn at when the caller does not say (the PNG's). */
const DEFAULT_WIDTH = 800;
/**
 * The title's size, and what one of its characters takes in a line of words (DejaVu Sans Bold, 16 px:
 * 10.5 on average, capitals and "w" wider); 10 counted "Views, Total users by Page path" 4 px short of
 * the line it took two of in the browser (trial s7, finding 7).
 */
const TITLE_SIZE = 16;
const TITLE_CHAR = 11;
/** The widest a bar's category label may be: longer ones end with "…" (the tooltip has them whole). */
const MAX_LABEL = 180;
/**
 * An axis's labels name their font themselves: ECharts sizes the grid to its labels (containLabel) in the
 * axis label's own font, the default sans-serif when it names none, but draws them in the chart's
 * (textStyle), here wider: "/blog/getting-started" was cut at the chart's left edge (console review s10,
 * result words 4).
 */
const LABEL_FONT = { fontFamily: FONT_FAMILY };

/**
 * How many lines the title takes at this width: it wraps at spaces (overflow "break") rather than running
 * off the chart, so a line ends with the last word that fits, not the last character. Counting characters
 * alone read "Views, Total users by Page path" (31 characters) as one line at 400 px, where the browser
 * drew two and the subtitle landed on the first bar (newcomer trial 2026-12-02-s7, finding 7).
 */
export function titleLines(title: string, width: number): number {
  const room = Math.max(120, width - 32);
  let lines = 1;
  let used = 0;
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const needed = word.length * TITLE_CHAR;
    const spaced = used === 0 ? needed : used + TITLE_CHAR + needed;
    if (spaced <= room) used = spaced;
    else {
      // A word wider than a line is cut across lines (ECharts breaks it where it must).
      lines += used === 0 ? 0 : 1;
      lines += Math.floor(needed / room);
      used = needed % room;
    }
  }
  return lines;
}

/**
 * The height a chart needs to be read: bars get a row each (grouped bars a row per category), a funnel a
 * band per step, a line the console's usual 380 px. The page sizes its chart with it, the PNG too.
 */
export function chartHeight(chart: ChartModel, width = DEFAULT_WIDTH): number {
  const rows = chart.categories.length;
  if (chart.kind === "funnel") return Math.max(320, 120 + rows * 56);
  // A legend wrapped at this width takes lines under the plot.
  const legend = legendRoom(chart.series, width);
  if (chart.kind === "bar")
    return Math.min(1200, Math.max(320, 120 + rows * (10 + 16 * chart.series.length))) + legend;
  return 380 + legend;
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
    color: PALETTE,
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
    legend: legendOption(width),
  };
  const legend = legendRoom(chart.series, width);
  // A funnel's stages carry their names: a legend would repeat them.
  if (chart.kind === "funnel")
    return { ...common, legend: { show: false }, series: [funnelSeries(chart, top, width)] };
  const units = chartUnits(chart);
  const axes = valueAxes(chart, units, width);
  const named = axes.some((axis) => "name" in axis);
  const on = (series: ChartModel["series"][number]) => units.indexOf(series.unit ?? "number");
  if (chart.kind === "bar") {
    // A second value axis lies along the top, its name above it; the first's name under its labels.
    const topAxis = axes.some((axis) => axis.position === "top");
    const grid = {
      left: 16,
      right: 24,
      top: top + 8 + (topAxis ? 24 : 0),
      bottom: 48 + (named ? 20 : 0) + legend,
      containLabel: true,
    };
    // Bars lie down: a category's name reads along its bar, never tilted or clipped at the chart's edge.
    return {
      ...common,
      grid,
      yAxis: barCategories(chart.categories, width),
      xAxis: axes.length === 1 ? axes[0] : axes,
      series: chart.series.map((series) => ({
        type: "bar",
        name: series.name,
        data: series.data,
        ...(axes.length > 1 ? { xAxisIndex: on(series) } : {}),
      })),
    };
  }
  const grid = {
    left: 16,
    right: 24,
    top: top + 8 + (named ? 22 : 0),
    bottom: 48 + legend,
    containLabel: true,
  };
  return {
    ...common,
    grid,
    xAxis: { type: "category", data: chart.categories, axisLabel: { ...LABEL_FONT, hideOverlap: true } },
    yAxis: axes.length === 1 ? axes[0] : axes,
    series: chart.series.map((series) => ({
      type: "line",
      name: series.name,
      data: series.data,
      showSymbol: chart.categories.length <= MAX_SYMBOLS,
      ...(axes.length > 1 ? { yAxisIndex: on(series) } : {}),
    })),
  };
}

/** Lying bars' category axis, top to bottom; a label wider than its room ends with "…". */
function barCategories(categories: string[], width: number): Record<string, unknown> {
  return {
    type: "category",
    data: categories,
    inverse: true,
    axisLabel: { ...LABEL_FONT, width: Math.min(MAX_LABEL, Math.round(width * 0.35)), overflow: "truncate" },
  };
}

/**
 * The charts a person reads for one model: one per unit when its series have several (a chart each for
 * purchases and for revenue, each on its own scale and titled by its metrics), else the model itself.
 * One bar chart with an axis per unit (chartOption) drew 8 purchases and $1,323 as bars of comparable
 * length, which they are not (trial s9, finding 11). The PNG keeps the one chart with its named axes.
 */
export function chartsByUnit(chart: ChartModel): ChartModel[] {
  const units = chartUnits(chart);
  if (units.length < 2 || chart.kind === "funnel") return [chart];
  return units.map((unit) => {
    const series = chart.series.filter((one) => (one.unit ?? "number") === unit);
    const metrics = [...new Set(series.map((one) => one.metric ?? one.name))];
    const { currency, ...rest } = chart;
    return {
      ...rest,
      title: chartTitle(metrics, chart.by, chart.only),
      series,
      ...(unit === "currency" && currency ? { currency } : {}),
    };
  });
}

/** "Sessions, Users by Country — only where Device category = mobile": metrics, what they are by, the filter. */
export function chartTitle(metrics: readonly string[], by?: string, only?: string): string {
  return `${metrics.join(", ")}${by ? ` by ${by}` : ""}${only ? ` — only where ${only}` : ""}`;
}

/** The units of a chart's series, in their order (a series without one is a plain "number"). */
export function chartUnits(chart: Pick<ChartModel, "series">): ValueUnit[] {
  const units = [...new Set(chart.series.map((series) => series.unit ?? "number"))];
  // A chart of no rows still draws its (empty) value axis.
  return units.length > 0 ? units : ["number"];
}

/**
 * The series' colours, set on the option so that an axis drawn in its series' colour matches them: ECharts
 * 6's own palette (echarts/lib/visual/tokens.js `theme`).
 */
const PALETTE = [
  "#5070dd",
  "#b6d634",
  "#505372",
  "#ff994d",
  "#0ca8df",
  "#ffd10a",
  "#fb628b",
  "#785db0",
  "#3fbe95",
];
const UNIT_WORDS: Record<ValueUnit, string> = {
  count: "count",
  number: "value",
  currency: "money",
  seconds: "time",
};

/** An axis's name: its one series' ("Purchase revenue (USD)"), else its unit's ("USD", "count"). */
function axisName(chart: ChartModel, unit: ValueUnit): string {
  const drawn = chart.series.filter((series) => (series.unit ?? "number") === unit);
  const money = unit === "currency" && chart.currency ? chart.currency : undefined;
  if (drawn.length !== 1) return money ?? UNIT_WORDS[unit];
  const name = drawn[0]?.name ?? UNIT_WORDS[unit];
  return money && !name.includes(money) ? `${name} (${money})` : name;
}

/**
 * One value axis per unit (a chart of one unit keeps its one axis): lying bars' along the bottom and the
 * top, a line's on the left and the right, further ones offset outwards. Each of several is named (its
 * series, or its unit) and its line drawn thick in its first series' colour, so a reader pairs it with its
 * bars or line; a currency's axis is named so even alone.
 */
function valueAxes(chart: ChartModel, units: ValueUnit[], width: number): Record<string, unknown>[] {
  const bar = chart.kind === "bar";
  return units.map((unit, index) => {
    const several = units.length > 1;
    const colour =
      PALETTE[chart.series.findIndex((series) => (series.unit ?? "number") === unit) % PALETTE.length];
    const sides = bar ? (["bottom", "top"] as const) : (["left", "right"] as const);
    return {
      type: "value",
      // Fewer ticks on a narrow chart: "1,000" and "2,000" side by side need about 60 px each.
      ...(bar ? { splitNumber: width < 560 ? 3 : 5 } : {}),
      axisLabel: { ...LABEL_FONT, hideOverlap: true },
      ...(several ? { axisLine: { show: true, lineStyle: { color: colour, width: 3 } } } : {}),
      ...(several || unit === "currency"
        ? {
            name: axisName(chart, unit),
            nameLocation: bar ? "middle" : "end",
            nameGap: bar ? 26 : 12,
            // A line's axis names stand over their axes, inwards: the right one would run off the chart.
            nameTextStyle: {
              fontWeight: "bold",
              color: "#1f2328",
              ...(bar ? {} : { align: index % 2 === 0 ? "left" : "right" }),
            },
          }
        : {}),
      ...(several
        ? {
            position: sides[index % 2],
            offset: Math.floor(index / 2) * (bar ? 28 : 56),
            // Only the first axis draws grid lines: two sets of lines that do not meet read as noise.
            splitLine: { show: index === 0 },
          }
        : {}),
    };
  });
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
