import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
} from "@modelcontextprotocol/server";
import { CHART_META_KEY } from "../charts/model.js";
import type { RoomSignIn } from "../connections/types.js";
import { isMartechError, type MartechError } from "../errors.js";
import { keepResult, keptItemsOf } from "../keep-result.js";
import { log } from "../log.js";
import { resultsOffer } from "../results/index.js";
import { runToolStep } from "../tools/run.js";
import type { ProgressUpdate, ToolLogEntry, ToolResult } from "../tools/types.js";
import type { Workspace } from "../workspace.js";
import { offerAccountConnection, signInAnswer, signInFor, signInInputRequired } from "./elicit-connect.js";
import { internalErrorResult } from "./internal-error.js";
import { type ClientLogLevel, resultLogEntries } from "./logging.js";
import { resultLinks, ttlOf } from "./result-links.js";
import { resultText } from "./result-text.js";

/** An `isError` result a model can act on. The message of a MartechError never holds a secret. */
export function errorResult(error: MartechError): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: error.message }],
    _meta: { "martech-steps/error": error.toJSON() },
  };
}

export interface ToolCallDeps {
  server: McpServer;
  workspace: Workspace;
  offerSignIn: boolean;
  /** What a sign-in started here belongs to (see McpServerOptions.signInOwner). */
  signInOwner: object;
  logLevel: ClientLogLevel;
}

/**
 * Progress for one request. MCP requires progress to increase with every notification; a step may
 * report the same count twice (a wait between pages), so an equal or lower value is nudged just above
 * the last one.
 */
function progressSender(ctx: ServerContext): (update: ProgressUpdate) => void {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  let last = Number.NEGATIVE_INFINITY;
  return (update) => {
    if (progressToken === undefined) return;
    const progress = update.progress > last ? update.progress : last + 0.001;
    last = progress;
    ctx.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken, ...update, progress } })
      .catch(() => undefined);
  };
}

/**
 * Runs one tool step for an MCP `tools/call`. Results carry structured content (shaped by the step's
 * output schema, which clients validate) and, for clients that read only text, the summary and a
 * compact text view of it; a capped answer links its whole result; a typed error becomes an
 * `isError` result with the error in `_meta`.
 */
export async function callToolStep(
  deps: ToolCallDeps,
  stepId: string,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { workspace } = deps;
  const progress = progressSender(ctx);
  const send = (entry: ToolLogEntry) => deps.logLevel.send(ctx, entry);
  try {
    // A 2026-07-28 retry after the sign-in link: wait for the sign-in to finish, then run the step.
    if (deps.offerSignIn) {
      await signInAnswer(ctx, workspace, (message) => progress({ progress: 0, message }));
    }
    // Inside the try: resolving the context reads the credential store, which can fail too.
    const context = await workspace.toolContext({ signal: ctx.mcpReq.signal, progress });
    const fullResults = resultsOffer(workspace.resultSettings);
    const keptItems = keptItemsOf(workspace);
    const result = await runToolStep(stepId, args ?? {}, { ...context, log: send, fullResults, keptItems });
    for (const entry of resultLogEntries(result.data)) send(entry);
    return {
      ...(await resultContent(workspace, stepId, result)),
      structuredContent: result.data as Record<string, unknown>,
      // The chart as data, for the MCP App view a host renders (src/mcp/report-chart-app.ts): kept out of
      // the model's context, drawn from every row, not only the page structuredContent holds.
      ...(result.chart ? { _meta: { [CHART_META_KEY]: result.chart } } : {}),
    };
  } catch (error) {
    if (isMartechError(error)) {
      // No account is connected: a client that can open a link may be offered the sign-in.
      const signIn = deps.offerSignIn ? signInFor(error) : undefined;
      if (signIn) {
        const offered = await offerSignIn(deps, signIn, error, ctx);
        if (offered) return offered;
      }
      return errorResult(error);
    }
    return internalErrorResult(stepId, error, "tool step failed unexpectedly");
  }
}

/**
 * The content of a result: the summary and a compact text view of the data (structuredContent keeps
 * the typed JSON), links to the whole result when the answer shows only part of it, and its chart as a
 * PNG when the caller asked for one. Whatever the step.
 */
export async function resultContent(
  workspace: Workspace,
  stepId: string,
  result: ToolResult<unknown>,
): Promise<Pick<CallToolResult, "content">> {
  const content: CallToolResult["content"] = [];
  let text = resultText(result.summary, result.data, result.columns);
  if (result.full) {
    try {
      const meta = await keepResult(workspace, stepId, result.full);
      const { links, text: said } = resultLinks(meta, ttlOf(workspace, meta));
      text += `\n${said}`;
      content.push(...links);
    } catch (error) {
      // The answer stands without its link; the reason goes to the log (it may name the store).
      log.warn({ tool: stepId, err: error }, "a full result could not be kept");
      text += "\nThe full result could not be kept this time: continue with next_cursor.";
    }
  }
  if (result.also) {
    try {
      const meta = await keepResult(workspace, stepId, result.also);
      const { links, text: said } = resultLinks(meta, ttlOf(workspace, meta));
      text += `\nThe records counted, for a next call's in result(…) or join: ${said.replace(/^Full result: /, "")}`;
      content.push(
        ...links.map((link) => ({ ...link, title: link.title.replace(/^Full result/, "Records counted") })),
      );
    } catch (error) {
      log.warn({ tool: stepId, err: error }, "the records counted could not be kept");
      text += "\nThe records counted could not be kept this time.";
    }
  }
  content.unshift({ type: "text", text });
  if (result.chart && result.chartImage) {
    // The renderer (ECharts, resvg) loads with the first chart: calls without one never pay for it.
    const { renderChartPng } = await import("../charts/render-png.js");
    const png = await renderChartPng(result.chart);
    content.push({ type: "image", data: png.toString("base64"), mimeType: "image/png" });
  }
  return { content };
}

/** The sign-in link, in the form the request's protocol revision has for it. */
async function offerSignIn(
  deps: ToolCallDeps,
  signIn: RoomSignIn,
  error: MartechError,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  if (ctx.mcpReq.envelope === undefined) {
    const offered = await offerAccountConnection(deps.server, deps.workspace, signIn, error);
    return offered ? errorResult(offered) : undefined;
  }
  // A retry that already carries the user's answer gets the error: asking again would loop.
  if (ctx.mcpReq.inputResponses !== undefined) return undefined;
  return signInInputRequired(ctx, deps.workspace, signIn, deps.signInOwner);
}
