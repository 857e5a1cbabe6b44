/**
 * A chart's title wraps at words, and the plot starts below the title's lines and the subtitle (newcomer
 * trial 2026-12-02-s7, finding 7: at 400 px "Views, Total users by Page path" took two lines while the
 * option made room for one, and "Retail Web Store · rows 1–10 of 15" was drawn over the first bar).
 * Measured in the SVG ECharts' server renderer draws at the width the 400 px page gives its chart.
 */
import { describe, expect, it } from "vitest";
import { type ChartModel, titleLines } from "../../src/charts/model.js";
import { renderChartSvg } from "../../src/charts/render-png.js";

/** The chart box's width in a 400 px window (the results' width inside the page's padding). */
const PHONE = 346;

const pages = (title: string): ChartModel => ({
  kind: "bar",
  title,
  subtitle: "Retail Web Store · rows 1–10 of 15",
  categories: ["/", "/products/starter-kit", "/blog/getting-started", "/pricing"],
  series: [
    { name: "Views", data: [11_973, 4_068, 2_210, 1_721] },
    { name: "Total users", data: [6_101, 2_050, 1_480, 990] },
  ],
});

/** Where the subtitle's text ends and the first bar starts, in the SVG (y grows downwards). */
async function measured(chart: ChartModel) {
  const svg = await renderChartSvg(chart, { width: PHONE });
  const texts = [
    ...svg.matchAll(
      /<text[^>]*?font-size:(\d+)px[^>]*? y="([\d.-]+)" transform="translate\([\d.]+ ([\d.]+)\)"[^>]*>([^<]*)</g,
    ),
  ];
  const subtitle = texts.find((text) => text[4] === chart.subtitle);
  const titleRows = texts.filter((text) => text[1] === "16").length;
  const bars = [...svg.matchAll(/<path d="M[\d.]+ ([\d.]+)l[^"]*"[^>]*ecmeta_ssr_type="chart"/g)].map((bar) =>
    Number(bar[1]),
  );
  // A text's y is its middle (dominant-baseline central): its foot is half its size lower.
  const subtitleFoot = subtitle
    ? Number(subtitle[3]) + Number(subtitle[2]) + Number(subtitle[1]) / 2
    : Number.NaN;
  return { titleRows, subtitleFoot, firstBar: Math.min(...bars) };
}

describe("a chart's title over its plot", () => {
  it("counts the lines of a title wrapped at words", () => {
    expect(titleLines("Views, Total users by Page path", PHONE)).toBe(2);
    expect(titleLines("Sessions by Country", PHONE)).toBe(1);
    expect(titleLines("Views, Total users by Page path", 800)).toBe(1);
  });

  it.each([
    "Views, Total users by Page path",
    "Sessions by Session default channel group, last 28 days vs the 28 days before",
  ])("starts the bars below the subtitle at 400 px: %s", async (title) => {
    const { titleRows, subtitleFoot, firstBar } = await measured(pages(title));
    // Room for at least the lines drawn (the server's renderer measures its own font, the browser its own).
    expect(titleRows).toBeLessThanOrEqual(titleLines(title, PHONE));
    expect(subtitleFoot).toBeLessThan(firstBar);
  });
});
