/**
 * The parts of ECharts a result's chart needs (model.ts's `chartOption()`: line, bar and funnel series,
 * grid, legend, title, tooltip), whatever draws it: the server adds the SVG renderer (echarts-server.ts, bundled
 * into the package), the console page the canvas renderer (console/src/Chart.tsx). One list, so the page and
 * the PNG can never disagree on what a chart may hold. `grid.containLabel` needs LegacyGridContainLabel
 * since ECharts 6 (https://echarts.apache.org/handbook/en/basics/release-note/v6-upgrade-guide).
 * https://echarts.apache.org/handbook/en/basics/import#shrinking-bundle-size
 */
import { BarChart, FunnelChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { LegacyGridContainLabel } from "echarts/features";

export const CHART_PARTS = [
  LineChart,
  BarChart,
  FunnelChart,
  GridComponent,
  LegacyGridContainLabel,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
];
