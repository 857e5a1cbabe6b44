/**
 * A bulk export in one call (`run_to_completion`): its jobs run to the end (export-job.ts) and their
 * files are read as records, joined into one file. A lead or activity export whose createdAt/updatedAt
 * range is longer than Marketo's 31 days runs as consecutive jobs of at most 31 days (export-windows.ts),
 * two at a time at most (Marketo processes two export jobs at once and queues ten,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#limits):
 * while one job's file is read, the next is already processing. Rows are joined in window order and
 * deduplicated by lead id or activity marketoGUID; where, order_by and count_by apply to the joined rows.
 * A run the call's deadline or a cancel cuts keeps what it read, and the same call again continues it
 * (export-resume.ts); the answer is export-answer.ts'.
 */

import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { isDeadlineReason } from "../../deadline.js";
import { isMartechError, ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { isPlainObject } from "../input/schema-walk.js";
import { namedFields, type RecordCompute } from "../records/compute.js";
import { isJoinedPath } from "../records/fields.js";
import type { ToolContext } from "../types.js";
import {
  ACTIVITY_EXPORT_CREATE,
  type ActivityNaming,
  activityNaming,
  askedTypes,
  typeIds,
} from "./activity-types.js";
import { keptBytesFor } from "./compute-answer.js";
import { answerOf, keepWhole } from "./export-answer.js";
import {
  cancelUnneeded,
  type ExportCall,
  type Job,
  pickUp,
  startJob,
  stopJobs,
  untilCompleted,
} from "./export-job.js";
import { type Joined, readJobFile } from "./export-join.js";
import { isCut, keepCut, markRead, resume, windowedStop } from "./export-resume.js";
import {
  exportKey,
  KEEP_MAX_BYTES,
  keptExport,
  partialKey,
  reusedColumns,
  takePartial,
} from "./export-reuse.js";
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
import { emptyWindows } from "./export-words.js";
import { nameCounted, namesCalls } from "./id-names.js";
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

/** What a run hands back beside its answer (export-then.ts). */
export interface ExportSink {
  rows?: Record<string, unknown>[];
  /** Set when a kept run answered: when it finished. */
  reusedFinishedAt?: number;
}

export async function runExport(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  onWait: OnWait,
  compute: RecordCompute,
  /**
   * Given, it receives every row of a whole run (or of the run reused, and when that run finished), for previous, per
   * and lead_fields (export-then.ts).
   */
  sink?: ExportSink,
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
    // joined is the step's (records/kept-join.ts), not a field Marketo has.
    namedFields(compute.spec)
      .map(({ field }) => field)
      .filter((field) => !isJoinedPath(field)),
  );
  const asked = Array.isArray(body.fields) ? body.fields.map(String) : undefined;
  if (needed.length > 0) body = { ...body, fields: [...(body.fields as unknown[]), ...needed] };
  const reuseKey = exportKey(input.endpoint, body);
  const found = keptExport(marketo, reuseKey, asked && [...asked, ...needed]);
  if (found) {
    const columns = reusedColumns(found, asked);
    const maxBytes = keptBytesFor(ctx, compute, true);
    const reader = { marketo, signal: ctx.signal, onWait };
    if (sink) {
      sink.rows = found.rows;
      sink.reusedFinishedAt = found.finishedAt;
    }
    return reusedAnswer(input, ctx, { found, columns, hidden: needed, compute, maxBytes, reader });
  }
  const joined = newJoined(input, ctx, compute, { body, span, needed, naming, holds: sink !== undefined });
  const mark = { windows: 0, raw: 0, rows: 0, duplicates: 0 };
  const run: ExportRun = {
    call,
    plan: planOf(body, span),
    span,
    joined,
    open: [],
    started: Date.now(),
    mark,
  };
  const cutKey = partialKey(input.endpoint, body, input.max_items);
  const partial = span ? takePartial(marketo, cutKey) : undefined;
  if (partial) resume(run, partial);
  try {
    await runJobs(run);
  } catch (error) {
    if (!(await isCut(error, ctx.signal))) throw error;
    const kept = keepCut(run, cutKey, ctx, isDeadlineReason(ctx.signal?.reason));
    return stopJobs(call, run.open, error, joined.reading, windowedStop(run, kept));
  }
  if (sink && !joined.stopped && !run.unexported && joined.raw) sink.rows = joined.raw;
  keepWhole(run, reuseKey, ctx);
  const names = await nameCounted(compute, { marketo, signal: ctx.signal, onWait });
  run.call.calls += namesCalls(names);
  return answerOf(input, ctx, run, names);
}

/** The join of a run's files: empty, with the dedupe of a split span and the columns only the step reads. */
function newJoined(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  compute: RecordCompute,
  of: {
    body: Record<string, unknown>;
    span?: ExportSpan;
    needed: string[];
    naming?: ActivityNaming;
    holds?: boolean;
  },
): Joined {
  const { body, span, needed, naming } = of;
  const key = span ? keyColumn(body, span) : undefined;
  return {
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
    // Rows held for previous, next, per or lead_fields (export-then.ts) are bounded as a kept export's are, not by
    // what an answer shows: the CLI's 45 KB stopped the export before its where and count_by ran (review s37, 2).
    maxBytes: of.holds ? (ctx.fullResults?.fileMaxBytes ?? KEEP_MAX_BYTES) : keptBytesFor(ctx, compute, true),
    ...(input.max_items !== undefined ? { maxRows: input.max_items } : {}),
    raw: [],
  };
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
  const kept = run.pickups?.get(index);
  if (kept) {
    // Open while Marketo is asked about it: a cut now keeps it for the next call still.
    run.open.push(kept);
    const picked = await pickUp(run.call, kept);
    run.pickups?.delete(index);
    run.open = run.open.filter((job) => job !== kept);
    if (picked) {
      run.open.push(picked);
      return picked;
    }
  }
  try {
    // Known from its create on: a cut during the enqueue still leaves it to pick up.
    return await startJob(run.call, planned.body, label, (job) => {
      job.index = index;
      run.open.push(job);
    });
  } catch (error) {
    // Refused: the job created is not enqueued and is asked for anew. Anything else (a cut during the
    // enqueue among it) leaves it open, for a cut run to keep.
    if (index > 0 && isExportRefusal(error)) {
      run.open = run.open.filter((job) => job.index !== index);
      return { refused: error };
    }
    throw error;
  }
}

/** The jobs, one after the other, the next one processing while a file is read. */
async function runJobs(run: ExportRun): Promise<void> {
  const from = run.resumed?.from ?? 0;
  if (from >= run.plan.length) return;
  let current = await start(run, from);
  for (let index = from; ; index += 1) {
    if ("refused" in current) return leaveUnexported(run, index, current.refused);
    const hasNext = index + 1 < run.plan.length;
    let ahead = hasNext ? await start(run, index + 1) : undefined;
    await untilCompleted(run.call, current);
    const window = run.plan[index]?.window;
    run.joined.jobs.push({ job: current, ...(window ? { window } : {}) });
    run.joined.reading = current;
    await readJobFile(run.call, current, run.joined, { index, total: run.plan.length });
    run.joined.reading = undefined;
    if (!run.joined.stopped) markRead(run);
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

function leaveUnexported(run: ExportRun, index: number, error: unknown): void {
  const windows = run.plan.slice(index).flatMap((planned) => (planned.window ? [planned.window] : []));
  run.unexported = { windows, reason: error instanceof Error ? error.message : String(error) };
}
