import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
// grid.containLabel (src/charts/report-chart.ts) needs it since ECharts 6, as on the server (echarts-server.ts).
import { LegacyGridContainLabel } from "echarts/features";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
import { type ChartModel, chartOption } from "../../src/charts/model.ts";

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  LegacyGridContainLabel,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  CanvasRenderer,
]);

/** A result's chart (src/charts/model.ts), drawn with the option the server's PNG uses too. */
export default function Chart(props: { chart: ChartModel }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const chart = echarts.init(box.current, undefined, { renderer: "canvas" });
    chart.setOption(chartOption(props.chart));
    const resize = () => chart.resize();
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      chart.dispose();
    };
  }, [props.chart]);
  return (
    <figure className="chart" data-kind={props.chart.kind}>
      <div ref={box} className="chart-canvas" role="img" aria-label={`Chart: ${props.chart.title}`} />
    </figure>
  );
}
