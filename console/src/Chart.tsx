import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
// The same chart parts as the server's PNG (src/charts/echarts-parts.ts), drawn on a canvas here.
import { CHART_PARTS } from "../../src/charts/echarts-parts.ts";
import { type ChartModel, chartHeight, chartOption } from "../../src/charts/model.ts";
import { withUnits } from "./chart-units.ts";
import { clock } from "./report-values.ts";

echarts.use([...CHART_PARTS, CanvasRenderer]);

/**
 * A result's chart (src/charts/model.ts), drawn with the option the server's PNG uses too, at the width
 * its box has (the title wraps at it) and the height the chart needs (a row per bar). On a canvas by
 * default; the MCP App view (report-chart-app.tsx) draws SVG, after registering ECharts' SVG renderer itself
 * (so the console's bundle does not carry it).
 */
export default function Chart(props: { chart: ChartModel; renderer?: "canvas" | "svg" }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const chart = echarts.init(node, undefined, { renderer: props.renderer ?? "canvas" });
    // The height follows the width too: a legend wrapped on a narrow screen takes lines under the plot.
    const draw = () => {
      const width = node.clientWidth || undefined;
      node.style.height = `${chartHeight(props.chart, width)}px`;
      chart.resize();
      chart.setOption(withUnits(chartOption(props.chart, width), props.chart, clock), true);
    };
    draw();
    const resize = () => draw();
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      chart.dispose();
    };
  }, [props.chart, props.renderer]);
  return (
    <figure className="chart" data-kind={props.chart.kind}>
      <div
        ref={box}
        className="chart-canvas"
        // Set through the DOM (CSSOM), which the console's CSP allows, unlike a style attribute in markup.
        style={{ height: `${chartHeight(props.chart)}px` }}
        role="img"
        aria-label={`Chart: ${props.chart.title}`}
      />
    </figure>
  );
}
