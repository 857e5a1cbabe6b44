/**
 * The tool-step bar's server side: the catalog search, a step's form module, and runs. A run goes
 * through runToolStep in the session's workspace, exactly as an MCP call does, and streams the same
 * progress updates as NDJSON; closing the request (the page's Cancel) aborts the run's signal.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ChartModel } from "../charts/model.js";
import { getToolStep, searchToolSteps, TOOL_STEPS } from "../tools/registry.js";
import { runToolStep } from "../tools/run.js";
import type { ProgressUpdate, ToolResult, ToolStep } from "../tools/types.js";
import type { Workspace } from "../workspace.js";
import { formModule } from "./form-module.js";
import { errorBody, readJson, secure, sendJson } from "./http-util.js";

/** What the page lists for a step: never its handler or schema objects. */
export function stepSummary(step: ToolStep) {
  const firstSentence = /^.*?[.!?](?=\s|$)/.exec(step.description)?.[0] ?? step.description;
  // The page links "Reference" to docUrl: the URL spelled out in the text (for MCP clients) is left out.
  const description = step.description.replace(/\s*Reference: \S+$/, "");
  return {
    id: step.id,
    title: step.title,
    service: step.service,
    category: step.category,
    summary: firstSentence,
    description,
    docUrl: step.docUrl,
    connection: step.connection,
    annotations: step.annotations,
    examples: step.examples(new Date()),
  };
}

/** GET /console/api/steps?q=: the catalog's hits in its order (every step when the query is empty). */
export function searchSteps(res: ServerResponse, query: string): void {
  const steps = query.trim()
    ? searchToolSteps(query.slice(0, 200)).map((hit) => getToolStep(hit.id))
    : TOOL_STEPS;
  sendJson(res, 200, { query, steps: steps.map(stepSummary) });
}

/** GET /console/api/steps/:id/form.js: the form module for this workspace's accounts. */
export async function sendFormModule(res: ServerResponse, workspace: Workspace, id: string): Promise<void> {
  const step = getToolStep(id);
  const code = await formModule(step, await workspace.schemaContext());
  secure(res);
  res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
  res.end(code);
}

export type RunEvent =
  | ({ type: "progress" } & ProgressUpdate)
  | { type: "result"; summary: string; data: unknown; chart?: ChartModel }
  | { type: "error"; error: Record<string, unknown> };

/** What the page gets of a result, whatever the step: its summary, data and chart (the page draws it). */
export function resultEvent(result: ToolResult<unknown>): RunEvent {
  const { summary, data, chart } = result;
  return { type: "result", summary, data, ...(chart ? { chart } : {}) };
}

/** POST /console/api/steps/:id/run with {input}: NDJSON events, the last one a result or an error. */
export async function runStep(
  req: IncomingMessage,
  res: ServerResponse,
  workspace: Workspace,
  id: string,
  running: Set<AbortController>,
): Promise<void> {
  const step = getToolStep(id);
  const body = await readJson(req);
  const controller = new AbortController();
  running.add(controller);
  // The page cancels by aborting its fetch: the connection closes before the answer ended.
  res.on("close", () => {
    if (!res.writableEnded) controller.abort();
  });
  secure(res);
  res.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" });
  const send = (event: RunEvent) => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  try {
    const context = await workspace.toolContext({
      signal: controller.signal,
      progress: (update) => send({ type: "progress", ...update }),
    });
    send(resultEvent(await runToolStep(step.id, body.input ?? {}, context)));
  } catch (error) {
    send({ type: "error", error: errorBody(error) });
  } finally {
    running.delete(controller);
    res.end();
  }
}
