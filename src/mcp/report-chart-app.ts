/**
 * Run Reports' chart as an MCP App (the MCP Apps extension, SEP-1865, stable 2026-01-26:
 * https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx). A host that
 * renders apps reads the tool's `_meta.ui.resourceUri`, reads this `ui://` resource (one HTML file, built by
 * console/report-chart.vite.config.ts from console/src/report-chart-app.tsx), shows it in a sandboxed iframe
 * and hands it the call's result, whose `_meta` carries the chart model (CHART_META_KEY). A host that does not
 * render apps ignores both and keeps the text and, when asked, the PNG.
 *
 * Written to the extension's wire format rather than with `@modelcontextprotocol/ext-apps/server`
 * (`registerAppTool`, `registerAppResource`): those helpers target SDK v2 too, but our tools/list is answered
 * by our own handler (src/mcp/tools.ts), so a registerTool `_meta` would never be listed, and the helpers
 * would make ext-apps (with its peers react-dom and the MCP client) a run-time dependency for two constants.
 * test/mcp/report-chart-app.test.ts checks these constants against the ones ext-apps exports.
 */
import { readFile } from "node:fs/promises";
import type { McpServer } from "@modelcontextprotocol/server";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import { ConfigurationError } from "../errors.js";
import { type ListedStep, listedSteps } from "../tools/listing.js";
import { packageFile } from "../version.js";
import type { ResourceProvider } from "./resource-provider.js";

export const REPORT_CHART_URI = "ui://martech-steps/report-chart";
/** The MIME type of an MCP App's HTML (ext-apps' RESOURCE_MIME_TYPE); the spec says it MUST be this. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The tool whose results the view draws (its room's `chartAppStep`: Run Reports). */
export const REPORT_CHART_TOOL =
  CONNECTION_KINDS.map((kind): AnyRoom => CONNECTION_ROOMS[kind]).find((room) => room.chartAppStep)
    ?.chartAppStep ?? "";

/**
 * The tool's `_meta`: `ui.resourceUri`, and the flat `ui/resourceUri` the spec still lists as deprecated
 * (ext-apps' RESOURCE_URI_META_KEY), which ext-apps' own registerAppTool sets too for hosts that read only it.
 */
export const REPORT_CHART_TOOL_META = {
  ui: { resourceUri: REPORT_CHART_URI },
  "ui/resourceUri": REPORT_CHART_URI,
} as const;

/**
 * What the view may reach beyond its own inlined code: nothing. Empty lists are the spec's secure default
 * (no connections, no remote scripts, styles, images or frames); stated so that a host's audit sees it.
 */
export const REPORT_CHART_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

/**
 * The built view, from the package's root: this module runs from src/mcp/ (tests, tsx), dist/mcp/ (tsc's
 * output, the plugin's exports) and dist/cli/chunks/ (the CLI's bundle, which `npm start`, `serve` and the
 * installed bin run), so a path relative to its own `import.meta.url` held for the first two only
 * (issue 25: the bin read dist/dist/mcp-app/).
 */
const VIEW_FILE = packageFile("dist/mcp-app/report-chart.html");

/** Each view file read once (the package's; a test's); a failed read is tried again on the next request. */
const views = new Map<string, Promise<string>>();

/** The built view; a missing build says how to make it. */
function viewHtml(file: string): Promise<string> {
  let view = views.get(file);
  if (!view) {
    view = readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      views.delete(file);
      throw new ConfigurationError(
        `The chart view is not built (${file}: ${error.code ?? error.message}): run npm run build in a checkout, or reinstall the package.`,
        { cause: error },
      );
    });
    views.set(file, view);
  }
  return view;
}

/** The tool list's `_meta` for a step: the chart view for Run Reports, nothing for the others. */
export function appToolMeta(stepName: string): { _meta: typeof REPORT_CHART_TOOL_META } | undefined {
  return stepName === REPORT_CHART_TOOL ? { _meta: REPORT_CHART_TOOL_META } : undefined;
}

/** Registers the view's resource when `steps` (the server's listed steps) include Run Reports. */
export function registerReportChartApp(
  server: McpServer,
  steps: readonly Pick<ListedStep, "name">[],
  viewFile: string = VIEW_FILE,
): void {
  if (!steps.some((step) => step.name === REPORT_CHART_TOOL)) return;
  server.registerResource(
    "report-chart",
    REPORT_CHART_URI,
    {
      title: "Run Reports chart",
      description: `An interactive chart of a ${REPORT_CHART_TOOL} result, for hosts that render MCP Apps.`,
      mimeType: MCP_APP_MIME_TYPE,
      _meta: { ui: REPORT_CHART_UI_META },
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: MCP_APP_MIME_TYPE,
          text: await viewHtml(viewFile),
          _meta: { ui: REPORT_CHART_UI_META },
        },
      ],
    }),
  );
}

export const reportChartApp: ResourceProvider = (server) => registerReportChartApp(server, listedSteps());
