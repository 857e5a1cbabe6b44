import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
// The same chart parts as the server's PNG (src/charts/echarts-parts.ts), drawn on a canvas here.
import { CHART_PARTS } from "../../src/charts/echarts-parts.ts";
import { type ChartModel, chartOption } from "../../src/charts/model.ts";

echarts.use([...CHART_PARTS, CanvasRenderer]);

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
