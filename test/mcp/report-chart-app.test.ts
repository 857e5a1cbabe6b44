/**
 * Run Reports' chart as an MCP App, as an MCP client sees it (in memory, on the Google sandbox): the tool
 * names its `ui://` view, the server lists and reads the view's HTML with the MCP Apps MIME type and a CSP
 * that allows nothing remote, and a Run Reports result carries the chart model the view draws. The view
 * drawing it in a browser is test/e2e/mcp-app.test.ts. Needs `npm run build` (dist/mcp-app/).
 */
import { createHash } from "node:crypto";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_META_KEY, isChartModel } from "../../src/charts/model.js";
import {
  MCP_APP_MIME_TYPE,
  REPORT_CHART_TOOL,
  REPORT_CHART_TOOL_META,
  REPORT_CHART_URI,
  registerReportChartApp,
} from "../../src/mcp/report-chart-app.js";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession, modernMcpSession } from "../helpers/mcp.js";
import { tempDir } from "../helpers/temp.js";

type Row = Record<string, string | number | null>;

describe("Run Reports' chart as an MCP App", () => {
  let fixture: GoogleFixture;
  let session: McpSession;

  beforeAll(async () => {
    fixture = await googleFixture();
    session = await mcpSession(fixture.workspace);
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("uses the extension's own wire names (ext-apps' exported constants)", () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(Object.keys(REPORT_CHART_TOOL_META)).toEqual(["ui", RESOURCE_URI_META_KEY]);
  });

  it("names the view on Run Reports only, in the current and the deprecated key", async () => {
    const { tools } = await session.client.listTools();
    const report = tools.find((tool) => tool.name === REPORT_CHART_TOOL);
    expect(report?._meta).toEqual({
      ui: { resourceUri: REPORT_CHART_URI },
      [RESOURCE_URI_META_KEY]: REPORT_CHART_URI,
    });
    for (const other of tools.filter((tool) => tool.name !== REPORT_CHART_TOOL)) {
      expect(other._meta?.ui, other.name).toBeUndefined();
    }
  });

  it("lists the view with the MCP App MIME type and a CSP that allows nothing remote", async () => {
    const { resources } = await session.client.listResources();
    const view = resources.find((resource) => resource.uri === REPORT_CHART_URI);
    expect(view).toMatchObject({ name: "report-chart", mimeType: RESOURCE_MIME_TYPE });
    expect(view?._meta).toEqual({
      ui: {
        csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
        prefersBorder: true,
      },
    });
  });

  it("reads the view as one self-contained HTML file whose own CSP admits exactly its inlined code", async () => {
    const { contents } = await session.client.readResource({ uri: REPORT_CHART_URI });
    expect(contents).toHaveLength(1);
    const [content] = contents as [{ uri: string; mimeType: string; text: string; _meta?: unknown }];
    expect(content).toMatchObject({ uri: REPORT_CHART_URI, mimeType: RESOURCE_MIME_TYPE });
    expect(content._meta).toMatchObject({ ui: { csp: { connectDomains: [], resourceDomains: [] } } });
    const html = content.text;
    expect(html.slice(0, 15).toLowerCase()).toBe("<!doctype html>");
    // Nothing is loaded from anywhere: no script or stylesheet by address, no link element at all.
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    // The hashes the policy allows are those of the page's inline script and style, and nothing else.
    const hashOf = (code: string) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? "");
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(policy).toContain(`script-src ${scripts.map(hashOf).join(" ")};`);
    expect(policy).toContain(`style-src ${styles.map(hashOf).join(" ")};`);
  });

  it("answers Run Reports with the chart model in the result's _meta, the text answer unchanged", async () => {
    const result = (await session.client.callTool({
      name: REPORT_CHART_TOOL,
      arguments: {
        property: "412345671",
        dimensions: ["date"],
        metrics: ["sessions", "activeUsers"],
        date_ranges: ["last7days"],
      },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const chart = result._meta?.[CHART_META_KEY];
    expect(isChartModel(chart)).toBe(true);
    if (!isChartModel(chart)) return;
    const rows = (result.structuredContent as { rows: Row[] }).rows;
    const dates = [...new Set(rows.map((row) => String(row.date)))].sort();
    expect(dates).toHaveLength(7);
    expect(chart.kind).toBe("line");
    expect(chart.categories).toEqual(dates.map((d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`));
    // Named as Google Analytics shows them (the property's metadata), and the property by its name.
    expect(chart.series.map((series) => series.name)).toEqual(["Sessions", "Active users"]);
    expect(chart.title).toBe("Sessions, Active users by Date");
    expect(chart.subtitle).toBe("Retail Web Store");
    const byDate = new Map(rows.map((row) => [String(row.date), row.sessions]));
    expect(chart.series[0]?.data).toEqual(dates.map((date) => byDate.get(date)));
    // No picture unless asked: hosts that do not render apps keep the text answer as before.
    expect(result.content.map((block) => block.type)).toEqual(["text"]);
  });

  it("says which rows the chart draws when they are one page of the report", async () => {
    const page = (await session.client.callTool({
      name: REPORT_CHART_TOOL,
      arguments: {
        property: "412345671",
        dimensions: ["date"],
        metrics: ["sessions"],
        date_ranges: ["last28days"],
        limit: 10,
        offset: 5,
      },
    })) as CallToolResult;
    const chart = page._meta?.[CHART_META_KEY] as { subtitle?: string; categories: string[] };
    expect(chart.categories).toHaveLength(10);
    expect(chart.subtitle).toBe("Retail Web Store · rows 6–15 of 28");
  });

  it("offers the same to a 2026-07-28 client: the tool's view, its HTML, the chart in a result", async () => {
    const modern = await modernMcpSession(fixture.workspace);
    try {
      const { tools } = await modern.client.listTools();
      expect(tools.find((tool) => tool.name === REPORT_CHART_TOOL)?._meta).toEqual(REPORT_CHART_TOOL_META);
      const { contents } = await modern.client.readResource({ uri: REPORT_CHART_URI });
      expect(contents[0]).toMatchObject({ uri: REPORT_CHART_URI, mimeType: RESOURCE_MIME_TYPE });
      const result = await modern.client.callTool({
        name: REPORT_CHART_TOOL,
        arguments: {
          property: "412345671",
          dimensions: ["date"],
          metrics: ["sessions"],
          date_ranges: ["last7days"],
        },
      });
      expect(isChartModel((result as CallToolResult)._meta?.[CHART_META_KEY])).toBe(true);
    } finally {
      await modern.close();
    }
  });

  it("registers the view only on a server whose tool list has Run Reports", () => {
    const registered: string[] = [];
    const server = {
      registerResource: (name: string) => {
        registered.push(name);
      },
    } as unknown as McpServer;
    registerReportChartApp(server, [{ name: "marketo_api_call" }]);
    expect(registered).toEqual([]);
    registerReportChartApp(server, [{ name: "marketo_api_call" }, { name: REPORT_CHART_TOOL }]);
    expect(registered).toEqual(["report-chart"]);
  });

  it("says how to build the view when it is missing, and serves it once built", async () => {
    let read: ((uri: URL) => Promise<{ contents: { text: string }[] }>) | undefined;
    const server = {
      registerResource: (_name: string, _uri: string, _meta: unknown, callback: typeof read) => {
        read = callback;
      },
    } as unknown as McpServer;
    const dir = await tempDir("martech-chart-view-");
    const file = join(dir, "report-chart.html");
    registerReportChartApp(server, [{ name: REPORT_CHART_TOOL }], file);
    await expect(read?.(new URL(REPORT_CHART_URI))).rejects.toThrow(
      /The chart view is not built \(.*report-chart\.html: ENOENT\): run npm run build in a checkout, or reinstall the package\./,
    );
    // What npm run build does for this file: writes it (the real build is what the tests above read).
    await copyFile(new URL("../../dist/mcp-app/report-chart.html", import.meta.url), file);
    const { contents } = (await read?.(new URL(REPORT_CHART_URI))) ?? { contents: [] };
    expect(contents[0]?.text.slice(0, 15).toLowerCase()).toBe("<!doctype html>");
  });
});
