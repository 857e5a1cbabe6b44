/**
 * The part of ECharts the server draws with: the core, the chart parts every renderer shares
 * (echarts-parts.ts) and the SVG renderer (server-side rendering needs no DOM:
 * https://echarts.apache.org/handbook/en/how-to/cross-platform/server).
 * The build bundles this module into dist/charts/echarts-server.js (scripts/echarts-server.vite.config.ts),
 * so the published package carries these 0.7 MB of ECharts instead of depending on its whole 62 MB
 * package (https://echarts.apache.org/handbook/en/basics/import#shrinking-bundle-size).
 */
import { init, use } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { CHART_PARTS } from "./echarts-parts.js";

use([...CHART_PARTS, SVGRenderer]);

export { init };
