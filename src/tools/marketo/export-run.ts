/**
 * A bulk export in one call (`run_to_completion`): its jobs run to the end (export-job.ts) and their
 * files are read as records, joined into one file. A lead or activity export whose createdAt/updatedAt
 * range is longer than Marketo's 31 days runs as consecutive jobs of at most 31 days (export-windows.ts),
 * two at a time at most (Marketo processes two export jobs at once and queues ten,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#limits):
 * while one job's file is read, the next is already processing. Rows are joined in window order and
 * deduplicated by lead id or activity marketoGUID; where, order_by and count_by apply to the joined rows.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { isMartechError, ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { isPlainObject } from "../input/schema-walk.js";
import { namedFields, type RecordCompute } from "../records/compute.js";
import type { ToolContext } from "../types.js";
import {
  ACTIVITY_EXPORT_CREATE,
  type ActivityNaming,
  activityNaming,
  askedTypes,
  typeIds,
} from "./activity-types.js";
import { type Computed, computedAnswer, keptBytesFor } from "./compute-answer.js";
import {
  cancelUnneeded,
  type ExportCall,
  type Job,
  startJob,
  stopJobs,
  untilCompleted,
  type WindowedStop,
} from "./export-job.js";
import { type Joined, readJobFile } from "./export-join.js";
import { exportKey, KEEP_MAX_BYTES, keepExport, keptExport, reusedColumns } from "./export-reuse.js";
import { reusedAnswer } from "./export-reused.js";
import type { ExportRun, Planned } from "./export-state.js";
import {
  type ExportSpan,
  exportSpan,
  filterOnlyFields,
  keyAdded,
  keyColumn,
  windowBody,
} from "./export-windows.js";
import { emptyWindows, exportSummary } from "./export-words.js";

import type { ReadAnswer } from "./read-calls.js";

/** The create endpoints of the four bulk extracts: leads, activities, program members, custom objects. */
export const EXPORT_CREATE =
  /^\/bulk\/v1\/(leads|activities|program\/members|customobjects\/[^/]+)\/export\/create\.json$/;

export function checkRunToCompletion(input: MarketoApiCallInput): void {
  if (input.method !== "POST" || !EXPORT_CREATE.test(input.endpoint) || input.cursor !== undefined) {
    throw new ValidationError(
      "run_to_completion",
      "it runs a bulk export's create call to the end: POST to /bulk/v1/{leads|activities|program/members|customobjects/{apiName}}/export/create.json, without cursor.",
      {
        hint: 'E.g. method POST, endpoint /bulk/v1/leads/export/create.json, body {"fields":["id","email"],"format":"CSV","filter":{"staticListId":1001}}, run_to_completion true.',
      },
    );
  }
}

/** The activity export's activityTypeIds with names turned into ids, and the naming of its rows. */
async function activityBody(
  body: Record<string, unknown>,
  call: ExportCall,
  compute: RecordCompute,
): Promise<{ body: Record<string, unknown>; naming: ActivityNaming }> {
  const reader = { marketo: call.marketo, signal: call.ctx.signal, onWait: call.onWait };
  const filter = isPlainObject(body.filter) ? body.filter : undefined;
  const given = filter?.activityTypeIds;
  const { ids, types } = await typeIds(given ?? [], reader, "body.filter.activityTypeIds");
  const naming = activityNaming(types, reader);
  if (given === undefined || !filter) return { body, naming };
  compute.expectValues(askedTypes(ids, types.names));
  return { body: { ...body, filter: { ...filter, activityTypeIds: ids } }, naming };
}

function planOf(body: Record<string, unknown>, span: ExportSpan | undefined): Planned[] {
  return span ? span.windows.map((window) => ({ body: windowBody(body, span, window), window })) : [{ body }];
}

export async function runExport(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  onWait: OnWait,
  compute: RecordCompute,
): Promise<ReadAnswer & { summary: string }> {
  const call: ExportCall = {
    marketo,
    ctx,
    onWait,
    base: input.endpoint.replace(/\/create\.json$/, ""),
    calls: 0,
  };
  let body = isPlainObject(input.body) ? input.body : {};
  let naming: ActivityNaming | undefined;
  if (input.endpoint === ACTIVITY_EXPORT_CREATE) ({ body, naming } = await activityBody(body, call, compute));
  const span = exportSpan(input.endpoint, body);
  const needed = filterOnlyFields(
    input.endpoint,
    body,
    namedFields(compute.spec).map(({ field }) => field),
  );
  const asked = Array.isArray(body.fields) ? body.fields.map(String) : undefined;
  if (needed.length > 0) body = { ...body, fields: [...(body.fields as unknown[]), ...needed] };
  const reuseKey = exportKey(input.endpoint, body);
  const found = keptExport(marketo, reuseKey, asked && [...asked, ...needed]);
  if (found) {
    const columns = reusedColumns(found, asked);
    const maxBytes = keptBytesFor(ctx, compute, true);
    return reusedAnswer(input, ctx, { found, columns, hidden: needed, compute, maxBytes });
  }
  const key = span ? keyColumn(body, span) : undefined;
  const joined: Joined = {
    compute,
    kept: [],
    positions: [],
    bytes: 0,
    rows: 0,
    chunks: 0,
    duplicates: 0,
    jobs: [],
    ...(naming ? { naming } : {}),
    ...(span && key ? { keys: new Set<string>(), key } : {}),
    hidden: [...needed, ...(span && key && keyAdded(body, span) ? [key] : [])],
    maxBytes: keptBytesFor(ctx, compute, true),
    ...(input.max_items !== undefined ? { maxRows: input.max_items } : {}),
    raw: [],
  };
  const run: ExportRun = { call, plan: planOf(body, span), span, joined, open: [], started: Date.now() };
  try {
    await runJobs(run);
  } catch (error) {
    if (ctx.signal?.aborted) return stopJobs(call, run.open, error, joined.reading, windowedStop(run));
    throw error;
  }
  keepWhole(run, reuseKey, ctx);
  return answerOf(input, ctx, run);
}

/** A run that read every row is kept for later calls (export-reuse.ts); one cut short is not. */
function keepWhole(run: ExportRun, key: string, ctx: ToolContext): void {
  const { joined } = run;
  if (joined.stopped || run.unexported || !joined.raw) return;
  const rows = joined.raw;
  joined.raw = undefined;
  keepExport(
    run.call.marketo,
    key,
    {
      columns: joined.allColumns ?? [],
      visible: joined.columns ?? [],
      rows,
      finishedAt: Date.now(),
      jobs: joined.jobs.length,
      calls: run.call.calls + (joined.naming?.calls ?? 0),
    },
    ctx.fullResults?.fileMaxBytes ?? KEEP_MAX_BYTES,
  );
}

const isExportRefusal = (error: unknown): boolean =>
  isMartechError(error) && error.details.serviceCode === "1029";

/** A job for plan item `index`; Marketo's 1029 (queue full, export allowance spent) is returned, not thrown. */
async function start(run: ExportRun, index: number): Promise<Job | { refused: unknown }> {
  const planned = run.plan[index] as Planned;
  const total = run.plan.length;
  const label = (id: string) =>
    planned.window && run.span
      ? `Export ${index + 1} of ${total} (${run.span.field} ${planned.window.startAt} → ${planned.window.endAt}, job ${id})`
      : `Export ${id}`;
  try {
    const job = await startJob(run.call, planned.body, label);
    run.open.push(job);
    return job;
  } catch (error) {
    if (index > 0 && isExportRefusal(error)) return { refused: error };
    throw error;
  }
}

/** The jobs, one after the other, the next one processing while a file is read. */
async function runJobs(run: ExportRun): Promise<void> {
  let current = await start(run, 0);
  for (let index = 0; ; index += 1) {
    if ("refused" in current) return leaveUnexported(run, index, current.refused);
    const hasNext = index + 1 < run.plan.length;
    let ahead = hasNext ? await start(run, index + 1) : undefined;
    await untilCompleted(run.call, current);
    const window = run.plan[index]?.window;
    run.joined.jobs.push({ job: current, ...(window ? { window } : {}) });
    run.joined.reading = current;
    await readJobFile(run.call, current, run.joined, { index, total: run.plan.length });
    run.joined.reading = undefined;
    if (run.plan.length > 1) {
      const empty = emptyWindows(run);
      run.call.ctx.progress({
        progress: run.joined.rows,
        message: `Export ${index + 1} of ${run.plan.length} read: ${run.joined.rows.toLocaleString("en-US")} rows so far, ${empty} empty window${empty === 1 ? "" : "s"}`,
      });
    }
    run.open = run.open.filter((job) => job !== current);
    if (run.joined.stopped || !ahead) {
      if (ahead && !("refused" in ahead)) await cancelUnneeded(run.call, ahead);
      run.open = [];
      run.skipped = hasNext ? run.plan.length - index - 1 : 0;
      return;
    }
    // Refused while two jobs ran (Marketo's queue is shared): asked again now that this one is done.
    if ("refused" in ahead) ahead = await start(run, index + 1);
    current = ahead;
  }
}

/**
 * A run of several windows cut by the call's deadline: the windows read and the jobs left running, and how
 * to get the period in parts that each fit (the read part again, then the rest from the first window not
 * read, the same way if it is cut again).
 */
function windowedStop(run: ExportRun): WindowedStop | undefined {
  const { span, plan, joined } = run;
  if (!span || plan.length < 2) return undefined;
  const read = joined.jobs.length - (joined.reading ? 1 : 0);
  const next = plan[read]?.window;
  const first = plan[0]?.window;
  const last = plan.at(-1)?.window;
  if (!next || !first || !last) return undefined;
  const rows = read > 0 ? ` (${joined.rows.toLocaleString("en-US")} rows so far)` : "";
  const running = run.open.map((job) => job.label).join("; ");
  return {
    message:
      `The export of ${span.field} ${first.startAt} → ${last.endAt} runs as ${plan.length} jobs of at most 31 days ` +
      `and did not finish within the call's {seconds} s deadline: ${read} of them ${read === 1 ? "was" : "were"} read${rows}, ` +
      `which this call cannot return.${running ? ` Still at Marketo: ${running}; each file holds its window only.` : ""}`,
    hint:
      read > 0
        ? `Ask for the period in parts, a call each: ${span.field} ${first.startAt} → ${next.startAt} (what was read), ` +
          `then ${next.startAt} → ${last.endAt}, split again the same way if the deadline cuts it.`
        : `Ask for a shorter period, a call each: ${span.field} ${first.startAt} → ${first.endAt} first (one job), then on from ${first.endAt}.`,
  };
}

function leaveUnexported(run: ExportRun, index: number, error: unknown): void {
  const windows = run.plan.slice(index).flatMap((planned) => (planned.window ? [planned.window] : []));
  run.unexported = { windows, reason: error instanceof Error ? error.message : String(error) };
}

function answerOf(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  run: ExportRun,
): ReadAnswer & { summary: string } {
  const { joined } = run;
  const lone = run.plan.length === 1 ? joined.jobs[0]?.job : undefined;
  const file = lone ? `${run.call.base}/${lone.id}/file.json` : undefined;
  // A lone job's cursors continue in its file; a joined file has no single one to continue in.
  const asFile: MarketoApiCallInput = file
    ? {
        ...input,
        method: "GET",
        endpoint: file,
        query_parameters: undefined,
        body: undefined,
        run_to_completion: false,
      }
    : input;
  const computed: Computed = {
    compute: joined.compute,
    kept: joined.kept,
    positions: lone ? joined.positions : [],
    next: lone ? joined.next : undefined,
    ...(joined.stoppedBy ? { stoppedBy: joined.stoppedBy } : {}),
    pages: joined.chunks,
    calls: run.call.calls + (joined.naming?.calls ?? 0),
    unit: "row",
    ...(joined.columns ? { columns: joined.columns } : {}),
    hidden: joined.hidden,
    file: true,
    limit: {
      bytes: joined.maxBytes,
      setting: ctx.fullResults?.fileMaxBytes
        ? "MARTECH_STEPS_EXPORT_MAX_BYTES"
        : "MARTECH_STEPS_RESULT_MAX_BYTES",
    },
  };
  const answer = computedAnswer(asFile, ctx, computed);
  // A joined file cut by a cap has no cursor to continue in: it is incomplete all the same (restWords says how).
  const cut = !lone && joined.stoppedBy !== undefined;
  const data = { ...answer.data, ...(cut ? { complete: false } : {}), extra: extraOf(run, file) };
  if (run.unexported) data.warnings.push(`Not exported: ${run.unexported.reason}`);
  const read = { ...answer, data };
  return { ...read, summary: exportSummary(input, ctx, run, computed, read, file) };
}

function extraOf(run: ExportRun, file: string | undefined): Record<string, unknown> {
  const jobs = run.joined.jobs.map(({ job, window }) => ({
    exportId: job.id,
    status: "Completed",
    numberOfRecords: job.status?.numberOfRecords,
    fileSize: job.status?.fileSize,
    ...(window ? { startAt: window.startAt, endAt: window.endAt } : {}),
  }));
  if (file && jobs[0]) return { ...jobs[0], file_endpoint: file };
  return {
    jobs,
    ...(run.span
      ? { split_by: run.span.field, deduplicated_by: run.span.key, duplicates_dropped: run.joined.duplicates }
      : {}),
    ...(run.span ? { empty_windows: emptyWindows(run) } : {}),
    ...(run.unexported ? { not_exported: run.unexported.windows } : {}),
  };
}
