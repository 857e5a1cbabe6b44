/**
 * A chart's legend at a given width (model.ts' chartOption and chartHeight): how many lines it wraps to, and
 * the room they take under the plot. Imports nothing: the browser bundle uses it.
 */

/** A legend entry's text size and what one of its characters takes (12 px, wide letters counted). */
const LEGEND_CHAR = 7.2;
/** A legend entry's symbol, the gap before its text, the gap to the next entry, and a line's height. */
const LEGEND_ITEM = 25 + 5 + 10;
const LEGEND_LINE = 22;

/**
 * How many lines the legend takes at this width: it wraps (ECharts' plain legend) rather than paging
 * "1/2", which hid a comparison's second period at 400 px (trial s9, finding 11); an entry longer than a
 * line breaks within it.
 */
export function legendLines(names: string[], width: number): number {
  const room = Math.max(120, width - 32);
  let lines = names.length > 0 ? 1 : 0;
  let used = 0;
  for (const name of names) {
    const text = name.length * LEGEND_CHAR;
    const needed = Math.min(room, text + LEGEND_ITEM);
    if (used > 0 && used + needed > room) {
      lines++;
      used = 0;
    }
    lines += Math.ceil(text / (room - LEGEND_ITEM)) - 1;
    used += needed;
  }
  return lines;
}

/** The height the legend's lines past the first add under the plot. */
export function legendRoom(series: { name: string }[], width: number): number {
  const lines = legendLines(
    series.map((one) => one.name),
    width,
  );
  return Math.max(0, lines - 1) * LEGEND_LINE;
}

/** ECharts' legend: plain (it wraps) under the plot, an entry too long for a line broken within it. */
export function legendOption(width: number): Record<string, unknown> {
  return {
    type: "plain",
    bottom: 0,
    left: 16,
    right: 16,
    textStyle: { width: Math.max(80, width - 32 - LEGEND_ITEM), overflow: "break" },
  };
}
