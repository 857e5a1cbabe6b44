/**
 * The part of ECharts the server draws with: the core, the two chart kinds report-chart.ts defines, the
 * components its option uses and the SVG renderer (server-side rendering needs no DOM:
 * https://echarts.apache.org/handbook/en/how-to/cross-platform/server). `grid.containLabel` needs
 * LegacyGridContainLabel since ECharts 6 (https://echarts.apache.org/handbook/en/basics/release-note/v6-upgrade-guide).
 * The build bundles this module into dist/charts/echarts-server.js (scripts/echarts-server.vite.config.ts),
 * so the published package carries these 0.7 MB of ECharts instead of depending on its whole 62 MB
 * package (https://echarts.apache.org/handbook/en/basics/import#shrinking-bundle-size).
 */
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { init, use } from "echarts/core";
import { LegacyGridContainLabel } from "echarts/features";
import { SVGRenderer } from "echarts/renderers";

use([
  LineChart,
  BarChart,
  GridComponent,
  LegacyGridContainLabel,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  SVGRenderer,
]);

export { init };
