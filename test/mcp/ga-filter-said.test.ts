/**
 * Console review s10 (C2): a filtered report's figures were shown under "Report on Retail Web Store … 13 rows of
 * 13" with no word of the filter, so a marketer could share mobile-and-US numbers as the whole property's. The
 * summary's first sentence says the filter, as given; a report without one says nothing of it.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { CHART_META_KEY, type ChartModel, chartsByUnit } from "../../src/charts/model.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();

const report = async (filter?: unknown) =>
  (await ga.client.callTool({
    name: "google_analytics_run_reports",
    arguments: {
      property: "412345671",
      metrics: ["totalUsers", "sessions"],
      dimensions: ["landingPage"],
      date_ranges: [{ start_date: "2026-11-01", end_date: "2026-11-30" }],
      ...(filter ? { filter } : {}),
    },
  })) as CallToolResult;

it("says a report's filter in its first sentence, before the rows", async () => {
  const filter = 'deviceCategory == "mobile" and country == "United States"';
  const filtered = await report(filter);
  expect(filtered.isError, firstText(filtered)).toBeFalsy();
  const first = firstText(filtered).split(": ")[0] ?? "";
  expect(first).toMatch(/^Report on .+ for 2026-11-01…2026-11-30, dates in \S+, only where /);
  expect(first).toContain(`only where ${filter}`);
  const whole = await report();
  expect(firstText(whole)).not.toContain("only where");
});

it("titles a filtered report's chart with its filter in the property's UI names (review s10, C2)", async () => {
  const chartOf = (result: CallToolResult) => result._meta?.[CHART_META_KEY] as ChartModel;
  const filtered = chartOf(await report('deviceCategory == "mobile" and country == "United States"'));
  const title =
    "Total users, Sessions by Landing page — only where Device category = mobile and Country = United States";
  expect(filtered.title).toBe(title);
  // The same title where the page or an MCP App view draws the chart, one per unit.
  expect(chartsByUnit(filtered).map((chart) => chart.title)).toEqual([title]);
  expect(chartOf(await report()).title).toBe("Total users, Sessions by Landing page");
});
