import type { RunReportsOutput } from "../../schemas/google-analytics.js";
import type { ToolImage } from "../types.js";

/**
 * The Run Reports chart as a PNG, from the one chart definition the console draws too
 * (src/charts/report-chart.ts). The renderer loads on first use: a report without a chart never pays for it.
 */
export async function chartImage(output: RunReportsOutput): Promise<ToolImage> {
  const { reportChart } = await import("../../charts/report-chart.js");
  const { renderReportChartPng } = await import("../../charts/render-png.js");
  return {
    mimeType: "image/png",
    data: await renderReportChartPng(output),
    title: reportChart(output).title,
  };
}
