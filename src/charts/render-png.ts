/**
 * Server-side rendering of a result's chart (model.ts), for MCP's image content: ECharts renders the
 * option to SVG without a DOM (https://echarts.apache.org/handbook/en/how-to/cross-platform/server), from
 * the part of it bundled into the package (echarts-server.ts), and resvg, shipped as a
 * registry package with prebuilt binaries, rasterises the SVG to PNG. Both load on first use, so
 * commands that draw no chart never pay for them.
 */
import { type ChartModel, chartHeight, chartOption } from "./model.js";

export interface PngSize {
  width?: number;
  height?: number;
}

/** The SVG of a chart, as ECharts' server-side renderer draws it. */
export async function renderChartSvg(chart: ChartModel, size: PngSize = {}): Promise<string> {
  const echarts = await import("./echarts-server.js");
  const width = size.width ?? 800;
  const instance = echarts.init(null, null, {
    renderer: "svg",
    ssr: true,
    width,
    height: size.height ?? Math.max(400, chartHeight(chart, width)),
  });
  try {
    instance.setOption({ backgroundColor: "#ffffff", ...chartOption(chart, width) });
    return instance.renderToSVGString();
  } finally {
    instance.dispose();
  }
}

/** A PNG of a chart: the same chart the console draws (800 wide and as high as it needs, 400 at least, unless told). */
export async function renderChartPng(chart: ChartModel, size: PngSize = {}): Promise<Buffer> {
  const svg = await renderChartSvg(chart, size);
  const { Resvg } = await import("@resvg/resvg-js");
  return new Resvg(svg, { font: { loadSystemFonts: true } }).render().asPng();
}
