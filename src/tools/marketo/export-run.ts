/**
 * A bulk export in one call (`run_to_completion`): create the job with the caller's body, enqueue it,
 * poll its status with progress, then read its file as records (read-file.ts: the first rows in the
 * answer, the whole file as a kept result). The steps and states are Marketo's
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract):
 * Created → Queued → Processing → Completed | Failed | Cancelled, and a job is cancelled with
 * POST …/export/{exportId}/cancel.json. A caller who cancels the call cancels the job at Marketo; at the
 * call's deadline the job is left running and the answer says how to pick it up.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { isDeadlineReason } from "../../deadline.js";
import {
  CancelledError,
  DeadlineExceededError,
  isMartechError,
  UpstreamError,
  ValidationError,
} from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { sizeWords } from "../output-cap.js";
import type { ToolContext } from "../types.js";
import type { ReadAnswer } from "./read-calls.js";
import { readFile } from "./read-file.js";

/** The create endpoints of the four bulk extracts: leads, activities, program members, custom objects. */
export const EXPORT_CREATE =
  /^\/bulk\/v1\/(leads|activities|program\/members|customobjects\/[^/]+)\/export\/create\.json$/;

/** First status poll after this long, then twice as long each time, up to a minute (Marketo's own pace). */
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 60_000;
/** The cancel request gets its own short limit: the call's signal has already fired. */
const CANCEL_TIMEOUT_MS = 10_000;

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

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

interface Job {
  marketo: MarketoConnector;
  ctx: ToolContext;
  onWait: OnWait;
  base: string;
  id: string;
  calls: number;
  /** Set once Marketo says Completed: from then on there is nothing left to cancel, only a file to read. */
  completed?: boolean;
}

async function post(job: Job, path: string, signal: AbortSignal | undefined) {
  const answer = await job.marketo.call({
    method: path.endsWith("status.json") ? "GET" : "POST",
    path: checkMarketoPath(path),
    ...(signal ? { signal } : {}),
    onWait: job.onWait,
  });
  job.calls += answer.callsUsed;
  return (answer.result[0] ?? {}) as Record<string, unknown>;
}

/** Polls the status until Completed; Failed or Cancelled end the call with Marketo's reason. */
async function untilCompleted(job: Job): Promise<{ status: Record<string, unknown>; polls: number }> {
  let wait = FIRST_POLL_MS;
  for (let polls = 1; ; polls += 1) {
    await sleep(wait, job.ctx.signal);
    wait = Math.min(wait * 2, MAX_POLL_MS);
    const status = await post(job, `${job.base}/${job.id}/status.json`, job.ctx.signal);
    const state = String(status.status ?? "");
    job.ctx.progress({ progress: polls, message: `Export ${job.id} is ${state} (status check ${polls})` });
    if (state === "Completed") return { status, polls };
    if (state === "Failed" || state === "Cancelled") {
      throw new UpstreamError(
        `Marketo's export ${job.id} ended ${state}${status.errorMsg ? `: ${String(status.errorMsg)}` : ""}.`,
        {
          hint: "Check the create body (fields, filter) against the bulk extract reference, then run it again.",
        },
      );
    }
  }
}

/** The caller cancelled: cancel the job at Marketo too (its own limit: the call's signal has fired). */
async function cancelJob(job: Job, error: unknown): Promise<never> {
  const reason = job.ctx.signal?.reason;
  // A Completed job cannot be cancelled (Marketo answers 1003) and does not keep running: only its file
  // is left, kept seven days.
  if (job.completed) return stoppedReading(job, reason);
  if (isDeadlineReason(reason)) {
    throw new DeadlineExceededError(
      `Export ${job.id} did not complete within the call's ${Math.round(reason.totalMs / 1000)} s deadline; it keeps running at Marketo.`,
      {
        writeMayHaveHappened: true,
        deadlineMs: reason.totalMs,
        hint: `Poll GET ${job.base}/${job.id}/status.json until Completed, then read GET ${job.base}/${job.id}/file.json.`,
      },
    );
  }
  let cancelled = "";
  try {
    await post(job, `${job.base}/${job.id}/cancel.json`, AbortSignal.timeout(CANCEL_TIMEOUT_MS));
    cancelled = `; export ${job.id} was cancelled at Marketo`;
  } catch {
    cancelled = `; cancelling export ${job.id} at Marketo failed: POST ${job.base}/${job.id}/cancel.json`;
  }
  throw new CancelledError(`The export was cancelled${cancelled}.`, {
    hint: isMartechError(error) ? error.message : "Run it again when needed.",
  });
}

function stoppedReading(job: Job, reason: unknown): never {
  const file = `Read it with GET ${job.base}/${job.id}/file.json (Marketo keeps it for seven days).`;
  if (isDeadlineReason(reason)) {
    throw new DeadlineExceededError(
      `Export ${job.id} completed, but its file was not read within the call's ${Math.round(reason.totalMs / 1000)} s deadline.`,
      { writeMayHaveHappened: true, deadlineMs: reason.totalMs, hint: file },
    );
  }
  throw new CancelledError(`Reading the file of export ${job.id} was cancelled; the export had completed.`, {
    hint: file,
  });
}

export async function runExport(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  onWait: OnWait,
): Promise<ReadAnswer & { summary: string }> {
  const started = Date.now();
  const base = input.endpoint.replace(/\/create\.json$/, "");
  const created = await marketo.call({
    method: "POST",
    path: checkMarketoPath(input.endpoint),
    body: input.body,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onWait,
  });
  const id = String((created.result[0] as { exportId?: unknown } | undefined)?.exportId ?? "");
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) {
    throw new UpstreamError(`Marketo answered ${input.endpoint} without an exportId.`, {
      hint: "Check the create body against the bulk extract reference and run it again.",
    });
  }
  const job: Job = { marketo, ctx, onWait, base, id, calls: created.callsUsed };
  try {
    await post(job, `${base}/${id}/enqueue.json`, ctx.signal);
    ctx.progress({ progress: 0, message: `Export ${id} created and enqueued` });
    const { status, polls } = await untilCompleted(job);
    job.completed = true;
    const file = `${base}/${id}/file.json`;
    const asFile: MarketoApiCallInput = {
      ...input,
      method: "GET",
      endpoint: file,
      query_parameters: undefined,
      body: undefined,
      run_to_completion: false,
    };
    const read = await readFile(asFile, marketo, ctx, {
      path: checkMarketoPath(file),
      from: undefined,
      onWait,
    });
    const data = {
      ...read.data,
      calls_used: job.calls + read.data.calls_used,
      extra: {
        exportId: id,
        status: "Completed",
        numberOfRecords: status.numberOfRecords,
        fileSize: status.fileSize,
        file_endpoint: file,
      },
    };
    const seconds = Math.max(1, Math.round((Date.now() - started) / 1000));
    return {
      ...read,
      data,
      summary: exportSummary(
        input.endpoint,
        file,
        id,
        { polls, seconds, calls: data.calls_used },
        read,
        status,
      ),
    };
  } catch (error) {
    if (ctx.signal?.aborted) return cancelJob(job, error);
    throw error;
  }
}

function exportSummary(
  endpoint: string,
  file: string,
  id: string,
  run: { polls: number; seconds: number; calls: number },
  read: ReadAnswer,
  status: Record<string, unknown>,
): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const { counts } = read;
  const size = typeof status.fileSize === "number" ? ` (${sizeWords(status.fileSize)})` : "";
  const parts = [
    `POST ${endpoint} run to completion: export ${id} created, enqueued and Completed after ${run.polls} status check${run.polls === 1 ? "" : "s"} (${run.seconds} s); ${n(counts.read)} rows read of its file${size}, ${n(run.calls)} calls in all`,
    counts.shown < counts.read
      ? `the first ${n(counts.shown)} rows are shown here`
      : `all ${n(counts.read)} rows are shown here`,
  ];
  if (counts.kept) parts.push(`all ${n(counts.read)} are in the full result linked below (JSON and CSV)`);
  if (read.data.next_cursor) {
    parts.push(`to read on in answers, call GET ${file} with cursor = next_cursor`);
  }
  parts.push(`Marketo keeps the file at GET ${file} for seven days`);
  return `${parts.join("; ")}.`;
}
