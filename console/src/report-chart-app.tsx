/**
 * Run Reports' chart as an MCP App view (SEP-1865, `@modelcontextprotocol/ext-apps`): the page a host that
 * renders apps shows in its sandboxed iframe for a `google_analytics_run_reports` call. It draws the result's
 * chart model with the console's own chart component (Chart.tsx), so the host, the console and the PNG show
 * one picture. Built into one self-contained HTML file (console/report-chart.vite.config.ts) that the MCP
 * server serves as `ui://martech-steps/report-chart` (src/mcp/report-chart-app.ts).
 * https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
 */
import { App } from "@modelcontextprotocol/ext-apps";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { CHART_META_KEY, type ChartModel, chartsByUnit, isChartModel } from "../../src/charts/model.ts";
import Chart from "./Chart.tsx";
import "./report-chart-app.css";

// SVG rather than the console's canvas: sharp at whatever size and zoom the host gives the frame, and its
// labels are text a reader (or a test) finds in the page. Styles are set through the DOM, which the view's
// CSP allows (zrender's svg/patch.js sets `style.cssText`).
echarts.use([SVGRenderer]);

type ViewState = { chart: ChartModel } | { note: string };

/** What a tool result gives the view: its chart, or the words to show instead (an error's own message). */
function viewOf(result: {
  isError?: boolean;
  content?: readonly { type: string; text?: string }[];
  _meta?: Record<string, unknown>;
}): ViewState {
  const chart = result._meta?.[CHART_META_KEY];
  if (!result.isError && isChartModel(chart)) return { chart };
  const said = result.content?.find((block) => block.type === "text")?.text;
  return { note: result.isError && said ? said : "This report has no chart: its rows are in the answer." };
}

const app = new App({ name: "martech-steps report chart", version: "1.0.0" });
let show: (state: ViewState) => void = () => undefined;
let latest: ViewState = { note: "Waiting for the report…" };
// Handlers are set before connecting: a host may send the result as soon as the view is initialized.
app.ontoolresult = (result) => {
  latest = viewOf(result);
  show(latest);
};
app.ontoolcancelled = () => {
  latest = { note: "The report was cancelled." };
  show(latest);
};

function ReportChart() {
  const [state, setState] = useState<ViewState>(latest);
  useEffect(() => {
    show = setState;
    setState(latest);
  }, []);
  return (
    <main>
      {"chart" in state ? (
        chartsByUnit(state.chart).map((one) => <Chart key={one.title} chart={one} renderer="svg" />)
      ) : (
        <p className="note" role="status">
          {state.note}
        </p>
      )}
    </main>
  );
}

createRoot(document.getElementById("root") as HTMLElement).render(<ReportChart />);
app.connect().catch((error: unknown) => {
  latest = { note: `The host did not connect: ${error instanceof Error ? error.message : String(error)}` };
  show(latest);
});
