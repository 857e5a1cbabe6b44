/**
 * Run Reports' chart as an MCP App, in headless Chromium, through the extension's own host bridge: a small
 * host page (test/helpers/mcp-app-host.js, AppBridge + PostMessageTransport) finds the view's URI on the
 * listed tool, loads the view's HTML as the MCP server serves it into a sandboxed iframe, and hands it the
 * input and result of a real Run Reports call made through an MCP client on the Google sandbox. The view
 * draws the chart with the console's Chart component: its axis shows the report's dates, its legend the
 * metrics, and axe-core finds no serious violation. Screenshots go to test-output/screenshots.
 * Needs `npm run build` (dist/mcp-app/).
 */
import { fileURLToPath } from "node:url";
import { getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Frame } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_META_KEY, type ChartModel } from "../../src/charts/model.js";
import { axeViolations } from "../helpers/axe.js";
import { type Browser, launchBrowser } from "../helpers/browser.js";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

const HOST = "http://mcp-host.test/";
const HOST_ENTRY = fileURLToPath(new URL("../helpers/mcp-app-host.js", import.meta.url));

/** The host page's script, bundled with the extension's app-bridge (and what it imports) by Vite. */
async function hostScript(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: "silent",
    build: {
      write: false,
      minify: false,
      target: "es2022",
      lib: { entry: HOST_ENTRY, formats: ["es"], fileName: "host" },
    },
  });
  // Not watching: build() answers with the bundle (one output, as there is one format).
  const bundle = (Array.isArray(output) ? output[0] : output) as { output: unknown[] } | undefined;
  const chunk = bundle?.output[0] as { code?: string } | undefined;
  if (typeof chunk?.code !== "string") throw new Error("the host page's bundle is missing");
  return chunk.code;
}

describe("Run Reports' chart in an MCP Apps host", () => {
  let fixture: GoogleFixture;
  let session: McpSession;
  let browser: Browser;
  let viewHtml: string;
  /** What the pages and frames logged to the console (a refused script or style is reported there). */
  const logged: string[] = [];

  /** Run Reports through the MCP session, as a host calls it before showing the app. */
  const runReport = async (input: Record<string, unknown>) =>
    (await session.client.callTool({
      name: "google_analytics_run_reports",
      arguments: input,
    })) as CallToolResult;

  const showApp = async (input: Record<string, unknown>, result: CallToolResult): Promise<Frame> => {
    await browser.page.evaluate(
      // Runs in the page (the suite's TypeScript has no DOM types): the host's entry point.
      ([html, args, answer]) =>
        (globalThis as unknown as { showApp: (...a: unknown[]) => Promise<void> }).showApp(
          html,
          args,
          answer,
        ),
      [viewHtml, input, result] as const,
    );
    const frame = browser.page.frames().find((candidate) => candidate !== browser.page.mainFrame());
    if (!frame) throw new Error("the host shows no view");
    return frame;
  };

  beforeAll(async () => {
    fixture = await googleFixture();
    session = await mcpSession(fixture.workspace);
    // As a host does: the tool names its view, and the view is read from the server.
    const { tools } = await session.client.listTools();
    const listed = tools.find((tool) => tool.name === "google_analytics_run_reports");
    // The v1 client's Tool and the extension's (SDK v2) differ only in how they type a JSON Schema.
    const uri = getToolUiResourceUri((listed ?? {}) as unknown as Parameters<typeof getToolUiResourceUri>[0]);
    if (!uri) throw new Error("Run Reports names no view");
    const { contents } = await session.client.readResource({ uri });
    viewHtml = (contents[0] as { text: string }).text;
    const script = await hostScript();
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(15_000);
    browser.page.on("console", (message) => logged.push(message.text()));
    await browser.page.route(HOST, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title></head><body><main><h1>MCP Apps test host</h1></main><script type="module">${script}</script></body></html>`,
      }),
    );
    await browser.page.goto(HOST);
    await browser.page.waitForFunction("typeof window.showApp === 'function'");
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await session?.close();
    await fixture?.close();
  });

  it("draws a real report's chart: the dates on the axis, the metrics in the legend, axe-clean", async () => {
    const input = {
      property: "412345671",
      dimensions: ["date"],
      metrics: ["sessions", "activeUsers"],
      date_ranges: ["last7days"],
    };
    const result = await runReport(input);
    expect(result.isError).toBeFalsy();
    const rows = (result.structuredContent as { rows: Record<string, unknown>[] }).rows;
    const dates = [...new Set(rows.map((row) => String(row.date)))]
      .sort()
      .map((d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`);
    expect(dates).toHaveLength(7);

    const frame = await showApp(input, result);
    const chart = frame.locator("figure.chart");
    await chart.locator("svg text").first().waitFor({ state: "attached" });
    const texts = (await chart.locator("svg text").allTextContents()).map((text) => text.trim());
    // The x axis labels are the report's dates, in order; the legend names both metrics; the title is the model's.
    expect(texts.filter((text) => /^\d{4}-\d{2}-\d{2}$/.test(text))).toEqual(dates);
    // Metrics by the names GA shows (the property's metadata), as the console's chart does.
    expect(texts).toEqual(expect.arrayContaining(["Sessions", "Active users"]));
    const model = result._meta?.[CHART_META_KEY] as ChartModel;
    expect(texts).toContain(model.title);
    // One line per metric: a stroked path each, besides the axes' and legend's.
    const lines = await chart.locator("svg path[fill='none'][stroke-width='2']").count();
    expect(lines).toBeGreaterThanOrEqual(2);
    expect(await chart.locator("[role=img]").getAttribute("aria-label")).toBe(`Chart: ${model.title}`);
    expect(await axeViolations(frame)).toEqual([]);
    // The view's own CSP (script and style by hash, nothing else) refused nothing it needs.
    expect(logged.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await browser.screenshot("mcp-app-01-report-chart");
  });

  it("enforces the view's CSP: a style the build did not inline is refused, and reported", async () => {
    const frame = browser.page.frames().find((candidate) => candidate !== browser.page.mainFrame());
    if (!frame) throw new Error("the host shows no view");
    const before = logged.length;
    await frame.evaluate(
      `document.head.append(Object.assign(document.createElement("style"), { textContent: "main { color: red }" }))`,
    );
    await expect
      .poll(() => logged.slice(before).filter((text) => /Content Security Policy/i.test(text)).length)
      .toBeGreaterThan(0);
  });

  it("draws bars for a report by a dimension, labelled with its values", async () => {
    const input = {
      property: "412345671",
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions"],
      date_ranges: ["last28days"],
    };
    const result = await runReport(input);
    expect(result.isError).toBeFalsy();
    const model = result._meta?.[CHART_META_KEY] as ChartModel;
    expect(model.kind).toBe("bar");
    const frame = await showApp(input, result);
    const chart = frame.locator("figure.chart");
    await chart.locator("svg text").first().waitFor({ state: "attached" });
    const texts = (await chart.locator("svg text").allTextContents()).map((text) => text.trim());
    const channels = (result.structuredContent as { rows: Record<string, unknown>[] }).rows.map((row) =>
      String(row.sessionDefaultChannelGroup),
    );
    expect(model.categories.toSorted()).toEqual(channels.toSorted());
    expect(texts).toEqual(expect.arrayContaining(model.categories));
    expect(await axeViolations(frame)).toEqual([]);
    await browser.screenshot("mcp-app-02-report-bars");
  });

  it("draws purchases and revenue as a chart each, titled by its metric (trial s9, finding 11)", async () => {
    const input = {
      property: "412345671",
      dimensions: ["country"],
      metrics: ["ecommercePurchases", "purchaseRevenue"],
      date_ranges: ["last28days"],
    };
    const result = await runReport(input);
    expect(result.isError).toBeFalsy();
    const frame = await showApp(input, result);
    const charts = frame.locator("figure.chart [role=img]");
    await expect.poll(() => charts.count()).toBe(2);
    expect(await Promise.all((await charts.all()).map((chart) => chart.getAttribute("aria-label")))).toEqual([
      "Chart: Ecommerce purchases by Country",
      "Chart: Purchase revenue by Country",
    ]);
    expect(await axeViolations(frame)).toEqual([]);
    await browser.screenshot("mcp-app-03-two-units");
  });

  it("shows the tool's own message when the call failed, and no chart", async () => {
    const input = { property: "412345671", metrics: ["notAMetric"], date_ranges: ["last7days"] };
    const result = await runReport(input);
    expect(result.isError).toBe(true);
    const said = (result.content[0] as { text: string }).text;
    const frame = await showApp(input, result);
    await expect
      .poll(async () => frame.locator("[role=status]").textContent(), { timeout: 10_000 })
      .toBe(said);
    expect(await frame.locator("figure.chart").count()).toBe(0);
    expect(await axeViolations(frame)).toEqual([]);
  });
});
