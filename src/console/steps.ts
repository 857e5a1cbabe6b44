/**
 * The tool-step bar's server side: the catalog search, a step's form module, and runs. A run goes
 * through runToolStep in the session's workspace, exactly as an MCP call does, and streams the same
 * progress updates as NDJSON; closing the request (the page's Cancel) aborts the run's signal.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ChartModel } from "../charts/model.js";
import { CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import { keptItemsOf } from "../keep-result.js";
import { resultsOffer } from "../results/index.js";
import { listedSteps } from "../tools/listing.js";
import { getToolStep, searchToolSteps, TOOL_STEPS } from "../tools/registry.js";
import { runToolStep } from "../tools/run.js";
import type { ProgressUpdate, ToolResult, ToolStep } from "../tools/types.js";
import type { Workspace } from "../workspace.js";
import { formModule } from "./form-module.js";
import { errorBody, readJson, secure, sendJson } from "./http-util.js";
import { nearestTasks, pageAnswers } from "./nearest.js";
import {
  forPeople,
  type KeptView,
  keepCountedForPage,
  keepForPage,
  PartialRead,
  stoppedEvent,
} from "./run-results.js";
import { searchAnswers, searchTasks } from "./tasks.js";
import { forPeople as titled } from "./titled-issues.js";

/** Abbreviations whose full stop ends no sentence ("… counted once per event, e.g. sign-ups"). */
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|cf)$/i;

/** The first sentence of a text: up to a full stop, ! or ? before a space, not an abbreviation's. */
export function firstSentence(text: string): string {
  for (const end of text.matchAll(/[.!?](?=\s|$)/g)) {
    const upTo = text.slice(0, end.index);
    if (!ABBREVIATION.test(upTo)) return `${upTo}${end[0]}`;
  }
  return text;
}

/**
 * A step's description without the API names it gives an agent first in a parenthesis ("a report
 * (runReport; realtime: …)" → "a report (realtime: …)"): a person reads the rest (trial s7, finding 15).
 */
export function withoutApiNames(text: string): string {
  return text
    .replace(/\s?\((?:[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+(?:_[a-z0-9]+)+)\)/g, "")
    .replace(/\((?:[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+(?:_[a-z0-9]+)+);\s*/g, "(");
}

/** What the page lists for a step: never its handler or schema objects. */
export function stepSummary(step: ToolStep) {
  // The page links "Reference" to docUrl.
  const description = withoutApiNames(step.description);
  return {
    id: step.id,
    title: step.title,
    service: step.service,
    category: step.category,
    summary: firstSentence(description),
    description,
    docUrl: step.docUrl,
    connection: step.connection,
    annotations: step.annotations,
    examples: step.examples(new Date()),
  };
}

/**
 * Each service's product name by its service id ("Adobe Marketo Engage"), from the connection rooms: the
 * bar heads a step's or task's hit with it, and the page names no service itself.
 */
const PRODUCTS: Readonly<Record<string, string>> = Object.fromEntries(
  CONNECTION_KINDS.map((kind) => [CONNECTION_ROOMS[kind].service, CONNECTION_ROOMS[kind].product]),
);

/** GET /console/api/steps?q=: the catalog's hits in its order (every step when the query is empty), and the tasks found. */
export function searchSteps(res: ServerResponse, query: string): void {
  const asked = query.slice(0, 200);
  // A question no step does ("email every Monday") is answered in words, and the bar lists what comes
  // nearest (the answer's own search) in place of what the words would find.
  const answers = searchAnswers(asked);
  const searched = answers.find((answer) => answer.search)?.search ?? asked;
  const hits = searched.trim() ? searchToolSteps(searched) : TOOL_STEPS.map((step) => ({ id: step.id }));
  // A step found by words of its own says why ("Purchase revenue by Country" for "sales by country"), and
  // its hit opens the form filled so (trial s9, finding 1: a click gave an empty form).
  const steps = hits.map((hit) => {
    const step = getToolStep(hit.id);
    const reason = "reason" in hit ? hit.reason : undefined;
    const input = reason ? step.searchInput?.(searched) : undefined;
    return {
      ...stepSummary(step),
      ...(reason ? { reason } : {}),
      ...(reason && input
        ? { start: { title: reason, note: `Filled from your search: ${reason}.`, input } }
        : {}),
    };
  });
  // A task ("Find a lead") is found by the same bar, as a form of its own beside its step's.
  const tasks = searchTasks(searched);
  const said = [...answers, ...pageAnswers(asked)];
  // Words that find nothing still lead somewhere: the nearest tasks (trial s13, finding 1).
  const nearest =
    searched.trim() && steps.length === 0 && tasks.length === 0 && said.length === 0
      ? nearestTasks(searched)
      : { tasks, answers: [] };
  const found = { steps, tasks: nearest.tasks, answers: [...said, ...nearest.answers] };
  sendJson(res, 200, { query, ...found, products: PRODUCTS });
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
  | { type: "started"; run: string }
  | ({ type: "progress" } & ProgressUpdate)
  | {
      type: "result";
      summary: string;
      data: unknown;
      chart?: ChartModel;
      /** The warnings and hints a person reads (data keeps all of them). */
      notes: string[];
      /** The order of the result's columns, where its rows' keys do not keep it (ToolResult.columns). */
      columns?: readonly string[];
      kept?: KeptView;
      /** keep_counted's records, kept apart from the count rows (ToolResult.also). */
      counted?: KeptView;
    }
  | { type: "stopped"; summary: string; kept?: KeptView }
  | { type: "error"; error: Record<string, unknown> };

/** What the page gets of a result, whatever the step: its summary, data and chart (the page draws it). */
export function resultEvent(result: ToolResult<unknown>, kept?: KeptView, counted?: KeptView): RunEvent {
  const { summary, data, chart, notes, columns } = forPeople(result);
  return {
    type: "result",
    summary,
    data,
    notes,
    ...(chart ? { chart } : {}),
    ...(columns ? { columns } : {}),
    ...(kept ? { kept } : {}),
    ...(counted ? { counted } : {}),
  };
}

/**
 * A refused input named by the fields' titles, as the form names them (titled-issues.ts, which the form's
 * own check uses too); an agent's error (MCP, CLI) keeps the API names it must write back.
 */
function inTitles(stepId: string, body: Record<string, unknown>, input: unknown): Record<string, unknown> {
  const listed = listedSteps().find((step) => step.name === stepId);
  if (!listed) return body;
  const steps = TOOL_STEPS.map((step) => step.id);
  return titled(body as Parameters<typeof titled>[0], listed.inputSchema as never, steps, input);
}

/** A run in progress: its controller, and the session that may cancel it. */
export interface ConsoleRun {
  controller: AbortController;
  session: string;
  /** Set by the page's Cancel (rather than the request closing): the run then ends "stopped". */
  stopped: boolean;
}

/**
 * POST /console/api/steps/:id/run with {input, continues?}: NDJSON events, first `started` (the run's id, for
 * Cancel), then progress, and last a result, a `stopped` (Cancel: the records read so far, kept) or
 * an error. The whole result is kept (as for MCP's resource links) so that the page can show and
 * download all of it, not only what an agent's answer holds; a run that reads on from a kept result
 * (`continues`, its id: the page's *Load more*) keeps that result's items first.
 */
export async function runStep(
  req: IncomingMessage,
  res: ServerResponse,
  workspace: Workspace,
  id: string,
  scope: { runs: Map<string, ConsoleRun>; session: string },
): Promise<void> {
  const step = getToolStep(id);
  const body = await readJson(req);
  const run: ConsoleRun = { controller: new AbortController(), session: scope.session, stopped: false };
  const runId = randomUUID();
  scope.runs.set(runId, run);
  // Closing the tab, or a page that aborts its fetch, closes the connection before the answer ended.
  res.on("close", () => {
    if (!res.writableEnded) run.controller.abort();
  });
  secure(res);
  res.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" });
  const send = (event: RunEvent) => {
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  send({ type: "started", run: runId });
  const read = new PartialRead(workspace.resultSettings.maxBytes);
  try {
    const context = await workspace.toolContext({
      signal: run.controller.signal,
      progress: (update) => send({ type: "progress", ...update }),
    });
    const fullResults = resultsOffer(workspace.resultSettings);
    const partial = (items: readonly unknown[]) => read.add(items);
    const keptItems = keptItemsOf(workspace);
    const result = await runToolStep(step.id, body.input ?? {}, {
      ...context,
      fullResults,
      partial,
      keptItems,
    });
    const continues = typeof body.continues === "string" ? body.continues : undefined;
    const kept = await keepForPage(workspace, step.id, result, continues);
    send(resultEvent(result, kept, await keepCountedForPage(workspace, step.id, result)));
  } catch (error) {
    if (run.stopped) send(await stoppedEvent(workspace, step.id, read));
    else send({ type: "error", error: inTitles(step.id, errorBody(error), body.input) });
  } finally {
    scope.runs.delete(runId);
    res.end();
  }
}

/** POST /console/api/runs/:run/cancel: stops a run of this session; it ends with the records read so far. */
export function cancelRun(runs: Map<string, ConsoleRun>, session: string, runId: string): boolean {
  const run = runs.get(runId);
  // Another session's run is not found either: run ids are not secrets, sessions are.
  if (!run || run.session !== session) return false;
  run.stopped = true;
  run.controller.abort();
  return true;
}
