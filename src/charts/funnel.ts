/**
 * A funnel report's chart as an ECharts funnel series (model.ts chartOption): the stages in their order, each
 * labelled beside it with its step and count, in the room the chart's width leaves (console review s13,
 * findings 3 and 10).
 */
/** What of a chart (model.ts ChartModel) a funnel draws: typed here, so funnel.ts imports nothing of model.ts. */
interface FunnelChart {
  categories: string[];
  series: { name: string; data: number[] }[];
}

/** A funnel's share of the chart's width, the labels taking the rest; a narrow chart leaves them more. */
const funnelShare = (width: number) => (width < 600 ? 0.4 : 0.52);
/** ECharts' label line beside a stage (labelLine.length 20) and the 5 px between it and the label. */
const FUNNEL_LABEL_GAP = 25;

/**
 * The room a funnel's labels have, in px: from the widest stage's label to the chart's edge, less a margin.
 * A label wider than it wraps at its spaces (console review s13, finding 3: "1. View item (view_item): 5"
 * ran off the right edge at 400 px, its count unread).
 */
export function funnelLabelRoom(width: number): number {
  const left = Math.round(width * 0.04);
  return Math.max(80, width - left - Math.round(width * funnelShare(width)) - FUNNEL_LABEL_GAP - 8);
}

/**
 * A funnel's stages in their order (not by size), each labelled with its name and count, the count with
 * the reader's thousands separators as the table writes it (console/src/report-numbers.ts; "5,824", not
 * "5824": console review s13, finding 10), each label wrapped at the room beside the funnel.
 */
export function funnelSeries(chart: FunnelChart, top: number, width: number): Record<string, unknown> {
  const values = chart.series[0]?.data ?? [];
  const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
  return {
    type: "funnel",
    name: chart.series[0]?.name ?? "",
    sort: "none",
    left: Math.round(width * 0.04),
    width: Math.round(width * funnelShare(width)),
    top: top + 8,
    bottom: 40,
    minSize: "6%",
    gap: 2,
    label: {
      show: true,
      position: "right",
      width: funnelLabelRoom(width),
      overflow: "break",
      lineHeight: 16,
    },
    // Each label's text as it reads: a template would print the raw value ({c}, "5824"). The count on a
    // line of its own: wrapped after the name, "11,519" broke at its comma. GA event names hold no braces,
    // so ECharts reads the text as it is.
    data: chart.categories.map((name, index) => {
      const value = values[index] ?? 0;
      return { name, value, label: { formatter: `${name}\n${count.format(value)}` } };
    }),
  };
}
