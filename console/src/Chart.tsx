import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
// The same chart parts as the server's PNG (src/charts/echarts-parts.ts), drawn on a canvas here.
import { CHART_PARTS } from "../../src/charts/echarts-parts.ts";
import { type ChartModel, chartOption } from "../../src/charts/model.ts";

echarts.use([...CHART_PARTS, CanvasRenderer]);

/**
 * A result's chart (src/charts/model.ts), drawn with the option the server's PNG uses too. On a canvas by
 * default; the MCP App view (report-chart-app.tsx) draws SVG, after registering ECharts' SVG renderer itself
 * (so the console's bundle does not carry it).
 */
export default function Chart(props: { chart: ChartModel; renderer?: "canvas" | "svg" }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const chart = echarts.init(box.current, undefined, { renderer: props.renderer ?? "canvas" });
    chart.setOption(chartOption(props.chart));
    const resize = () => chart.resize();
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      chart.dispose();
    };
  }, [props.chart, props.renderer]);
  return (
    <figure className="chart" data-kind={props.chart.kind}>
      <div ref={box} className="chart-canvas" role="img" aria-label={`Chart: ${props.chart.title}`} />
    </figure>
  );
}
