/**
 * One bulk export job's life, as Marketo runs it
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract):
 * create with the caller's body, enqueue, poll the status (Created → Queued → Processing → Completed |
 * Failed | Cancelled) with progress; a job is cancelled with POST …/export/{exportId}/cancel.json. A
 * caller who cancels the call cancels the open jobs at Marketo; at the call's deadline they are left
 * running and the error says how to pick them up.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { isDeadlineReason } from "../../deadline.js";
import { CancelledError, DeadlineExceededError, isMartechError, UpstreamError } from "../../errors.js";
import type { ToolContext } from "../types.js";

/** First status poll after this long, then twice as long each time, up to a minute (Marketo's own pace). */
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 60_000;
/** The cancel request gets its own short limit: the call's signal has already fired. */
const CANCEL_TIMEOUT_MS = 10_000;

/** What every job of one call shares: the connector, the call's context, and the calls spent. */
export interface ExportCall {
  marketo: MarketoConnector;
  ctx: ToolContext;
  onWait: OnWait;
  /** The export type's base path, e.g. /bulk/v1/leads/export. */
  base: string;
  calls: number;
}

export interface Job {
  id: string;
  /** How progress names it: "Export 2 of 3 (createdAt … → …)", or "Export <id>" for a lone job. */
  label: string;
  polls: number;
  /** Set once Marketo says Completed: from then on there is nothing left to cancel, only a file to read. */
  completed?: boolean;
  status?: Record<string, unknown>;
  /** Its window's place in the plan, so a later call can pick it up for that window (export-resume.ts). */
  index?: number;
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

async function post(call: ExportCall, path: string, signal: AbortSignal | undefined, body?: unknown) {
  const answer = await call.marketo.call({
    method: path.endsWith("status.json") ? "GET" : "POST",
    path: checkMarketoPath(path),
    ...(body !== undefined ? { body } : {}),
    ...(signal ? { signal } : {}),
    onWait: call.onWait,
  });
  call.calls += answer.callsUsed;
  return (answer.result[0] ?? {}) as Record<string, unknown>;
}

/**
 * Creates the job with `body` and enqueues it. `onCreated` gets the job before the enqueue goes out: a call
 * cut while it is sent still knows the job, which a later call picks up rather than exporting it again.
 */
export async function startJob(
  call: ExportCall,
  body: unknown,
  label: (id: string) => string,
  onCreated?: (job: Job) => void,
): Promise<Job> {
  const created = await post(call, `${call.base}/create.json`, call.ctx.signal, body);
  const id = String(created.exportId ?? "");
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) {
    throw new UpstreamError(`Marketo answered ${call.base}/create.json without an exportId.`, {
      hint: "Check the create body against the bulk extract reference and run it again.",
    });
  }
  const job: Job = { id, label: label(id), polls: 0 };
  onCreated?.(job);
  call.ctx.progress({ progress: 0, message: `${job.label} created` });
  await post(call, `${call.base}/${id}/enqueue.json`, call.ctx.signal);
  call.ctx.progress({ progress: 0, message: `${job.label} created and enqueued` });
  return job;
}

/** Polls the status until Completed; Failed or Cancelled end the call with Marketo's reason. */
export async function untilCompleted(call: ExportCall, job: Job): Promise<Record<string, unknown>> {
  if (job.completed && job.status) return job.status;
  let wait = FIRST_POLL_MS;
  for (;;) {
    await sleep(wait, call.ctx.signal);
    wait = Math.min(wait * 2, MAX_POLL_MS);
    job.polls += 1;
    const status = await post(call, `${call.base}/${job.id}/status.json`, call.ctx.signal);
    const state = String(status.status ?? "");
    call.ctx.progress({
      progress: job.polls,
      message: `${job.label} is ${state} (status check ${job.polls})`,
    });
    if (state === "Completed") {
      job.completed = true;
      job.status = status;
      return status;
    }
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

/**
 * A job an earlier call started, asked for its status once: Completed (its file is read at once), Queued or
 * Processing (polled as usual), Created (enqueued now); undefined when Marketo no longer has it, or it
 * failed or was cancelled, so the window is exported anew.
 */
export async function pickUp(call: ExportCall, job: Job): Promise<Job | undefined> {
  let status: Record<string, unknown>;
  try {
    status = await post(call, `${call.base}/${job.id}/status.json`, call.ctx.signal);
  } catch (error) {
    if (call.ctx.signal?.aborted || !isMartechError(error) || error.details.serviceCode === undefined)
      throw error;
    return undefined;
  }
  const state = String(status.status ?? "");
  const picked: Job = {
    ...job,
    label: `${job.label.replace(/, job [^)]*\)$/, "")}, job ${job.id}, picked up)`,
  };
  if (state === "Completed") return { ...picked, completed: true, status };
  if (state === "Queued" || state === "Processing") return picked;
  if (state === "Created") {
    await post(call, `${call.base}/${job.id}/enqueue.json`, call.ctx.signal);
    return picked;
  }
  return undefined;
}

/**
 * What a run of several windows' jobs says when the call's deadline comes (export-run.ts): a job then
 * holds one window only, so pointing at its file (as for a lone job) sent an agent to one empty month of an
 * all-time export (trial s7, N17). `message` holds "{seconds}" for the deadline.
 */
export interface WindowedStop {
  message: string;
  hint: string;
  /** Set when what was read is kept for the same call again: what a cancel's answer says of it. */
  kept?: string;
}

/**
 * The call was cancelled or ran out of time: cancel the open jobs at Marketo (cancelled), or leave them
 * running and say how to pick them up (deadline). `reading` is the completed job whose file was being read.
 */
export async function stopJobs(
  call: ExportCall,
  open: readonly Job[],
  error: unknown,
  reading?: Job,
  windowed?: WindowedStop,
): Promise<never> {
  const reason = call.ctx.signal?.reason;
  const running = open.filter((job) => !job.completed);
  if (windowed && isDeadlineReason(reason)) {
    throw new DeadlineExceededError(
      `${windowed.message.replace("{seconds}", String(Math.round(reason.totalMs / 1000)))}`,
      { writeMayHaveHappened: true, deadlineMs: reason.totalMs, hint: windowed.hint },
    );
  }
  // Cancelled with the windows read kept: the same call again continues, so that is what it says.
  if (windowed?.kept && !isDeadlineReason(reason)) {
    const outcomes = await cancelAll(call, running);
    throw new CancelledError(`The export was cancelled${outcomes}. ${windowed.kept}`, {
      hint: windowed.hint,
    });
  }
  // A Completed job cannot be cancelled (Marketo answers 1003) and does not keep running: only its file
  // is left, kept seven days.
  if (running.length === 0 && reading) return stoppedReading(call, reading, reason);
  if (isDeadlineReason(reason)) {
    const first = running[0] ?? reading;
    const seconds = Math.round(reason.totalMs / 1000);
    throw new DeadlineExceededError(
      running.length === 1
        ? `Export ${running[0]?.id} did not complete within the call's ${seconds} s deadline; it keeps running at Marketo.`
        : `The export did not complete within the call's ${seconds} s deadline; ` +
            `${running.map((job) => `export ${job.id}`).join(" and ")} keep running at Marketo.`,
      {
        writeMayHaveHappened: true,
        deadlineMs: reason.totalMs,
        hint: first
          ? `Poll GET ${call.base}/${first.id}/status.json until Completed, then read GET ${call.base}/${first.id}/file.json.`
          : "Run it again with a shorter date range.",
      },
    );
  }
  const outcomes = await cancelAll(call, running);
  throw new CancelledError(`The export was cancelled${outcomes}.`, {
    hint: isMartechError(error) ? error.message : "Run it again when needed.",
  });
}

/** Cancels the running jobs at Marketo: "; export … was cancelled at Marketo; …", or "" for none. */
async function cancelAll(call: ExportCall, running: readonly Job[]): Promise<string> {
  const outcomes: string[] = [];
  for (const job of running) {
    try {
      await post(call, `${call.base}/${job.id}/cancel.json`, AbortSignal.timeout(CANCEL_TIMEOUT_MS));
      outcomes.push(`export ${job.id} was cancelled at Marketo`);
    } catch {
      outcomes.push(`cancelling export ${job.id} at Marketo failed: POST ${call.base}/${job.id}/cancel.json`);
    }
  }
  return outcomes.length > 0 ? `; ${outcomes.join("; ")}` : "";
}

function stoppedReading(call: ExportCall, job: Job, reason: unknown): never {
  const file = `Read it with GET ${call.base}/${job.id}/file.json (Marketo keeps it for seven days).`;
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

/** Cancels a job this call no longer needs (the read stopped early); a failure only leaves it to finish. */
export async function cancelUnneeded(call: ExportCall, job: Job): Promise<void> {
  try {
    await post(call, `${call.base}/${job.id}/cancel.json`, AbortSignal.timeout(CANCEL_TIMEOUT_MS));
  } catch {
    // It completes at Marketo and its file expires in seven days: nothing else depends on it.
  }
}
