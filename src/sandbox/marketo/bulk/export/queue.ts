/**
 * The bulk extract queue and its clock
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract):
 * Created → (enqueue) Queued → Processing when one of the 2 export slots is free → Completed after
 * `jobMs`; Cancelled on request; Failed when the selection is gone when processing starts. The queue
 * holds at most 10 jobs including the running ones, is shared by every export type, and the export
 * bytes of a Chicago day are capped (500 MB by default). State advances lazily from the sandbox clock,
 * so a test with a fake clock sees every transition at a predictable time.
 */
import { createHash } from "node:crypto";
import { chicagoDate } from "../../access/usage.js";
import { MarketoApiError, type World } from "../../types.js";
import { leadDate } from "../../wire/codec.js";
import type { BulkJob, BulkKind } from "../model.js";
import { writeExportFile } from "./file.js";

/** Max Concurrent Export Jobs (ADE bulk-extract.md "Limits"). */
export const MAX_PROCESSING = 2;
/** Max Queued Export Jobs, inclusive of currently exporting jobs. */
export const MAX_QUEUED = 10;
const SEVEN_DAYS_MS = 7 * 86_400_000;
const FILE_RETENTION_MS = SEVEN_DAYS_MS;

const running = (job: BulkJob) => job.status === "Processing";
const isOpen = (job: BulkJob): boolean =>
  job.status === "Created" || job.status === "Queued" || job.status === "Processing";

function start(world: World, job: BulkJob, at: number): void {
  job.startedAt = at;
  const written = writeExportFile(world, job);
  if ("error" in written) {
    job.status = "Failed";
    job.finishedAt = at;
    job.errorMsg = written.error;
    return;
  }
  job.status = "Processing";
  job.file = written.file;
  job.fileSize = written.file.length;
  job.fileChecksum = `sha256:${createHash("sha256").update(written.file).digest("hex")}`;
  job.numberOfRecords = written.records;
}

/**
 * Plays the queue forward to `now` (see `playQueue`), then drops the files past their retention:
 * "File Retention Period: seven days" (ADE bulk-extract.md "Limits"; the same page's "Data from each
 * successful export is held for 10 days" is the older figure, and the Limits list is the one kept
 * current), counted from the moment the job completed. The job and its status stay: "Job status is
 * available for 30 days after Completed or Failed status was reached".
 */
export function advance(world: World, now: number): void {
  playQueue(world, now);
  for (const job of world.bulk.jobs) {
    if (job.file && job.finishedAt !== undefined && now >= job.finishedAt + FILE_RETENTION_MS)
      delete job.file;
  }
}

/** A Completed job whose file is gone: past its retention period. */
export const fileExpired = (job: BulkJob): boolean => job.status === "Completed" && !job.file;

/**
 * Free slots take the oldest queued job (at the later of its queue time and the moment the slot freed),
 * running jobs complete `jobMs` after they started.
 */
function playQueue(world: World, now: number): void {
  const { bulk } = world;
  let cursor = Number.NEGATIVE_INFINITY;
  for (;;) {
    const queued = bulk.jobs
      .filter((j) => j.status === "Queued")
      .sort((a, b) => (a.queuedAt ?? 0) - (b.queuedAt ?? 0));
    const next = queued[0];
    if (next && bulk.jobs.filter(running).length < MAX_PROCESSING) {
      start(world, next, Math.max(next.queuedAt ?? now, cursor));
      continue;
    }
    const done = bulk.jobs
      .filter(running)
      .map((job) => ({ job, at: (job.startedAt ?? now) + bulk.jobMs }))
      .sort((a, b) => a.at - b.at)[0];
    if (!done || done.at > now) return;
    done.job.status = "Completed";
    done.job.finishedAt = done.at;
    cursor = done.at;
  }
}

/** Bytes exported by jobs that finished on the current Chicago day (the quota resets at midnight CST). */
export function exportedToday(world: World, now: number): number {
  const today = chicagoDate(now);
  return world.bulk.jobs
    .filter(
      (j) => j.status === "Completed" && j.finishedAt !== undefined && chicagoDate(j.finishedAt) === today,
    )
    .reduce((sum, j) => sum + (j.fileSize ?? 0), 0);
}

export function checkQuota(world: World, now: number): void {
  if (exportedToday(world, now) >= world.bulk.dailyQuotaBytes) {
    throw new MarketoApiError("1029", "Export daily quota exceeded");
  }
}

/** A UUID-shaped export id, derived from the job number and the clock so runs are repeatable. */
export function newExportId(world: World, now: number): string {
  const hex = createHash("sha256")
    .update(`bulk:${world.bulk.nextJob++}:${now}`)
    .digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The caller's job of this export type; 1013 "Object not found" otherwise (the wording is inferred). */
export function findJob(
  world: World,
  kind: BulkKind,
  exportId: string | undefined,
  apiName?: string,
): BulkJob {
  const job = world.bulk.jobs.find(
    (j) => j.kind === kind && j.exportId === exportId && j.apiName === apiName,
  );
  if (!job) throw new MarketoApiError("1013", `Export id '${exportId ?? ""}' not found`);
  return job;
}

export function enqueue(world: World, job: BulkJob, now: number): void {
  if (job.status === "Queued" || job.status === "Processing") {
    throw new MarketoApiError("1029", "Job already queued");
  }
  if (job.status !== "Created") {
    throw new MarketoApiError("1003", `Export job '${job.exportId}' is ${job.status}: create a new job`);
  }
  if (
    world.bulk.jobs.filter((j) => j.status === "Queued" || j.status === "Processing").length >= MAX_QUEUED
  ) {
    throw new MarketoApiError("1029", "Too many jobs in queue");
  }
  checkQuota(world, now);
  job.status = "Queued";
  job.queuedAt = now;
}

/**
 * No finishedAt: Swagger ExportResponse.finishedAt "will have value only when status is "Completed" or
 * "Failed"", and the cancel example in ADE bulk-extract.md carries only exportId, status, createdAt, format.
 */
export function cancel(job: BulkJob): void {
  if (!isOpen(job))
    throw new MarketoApiError(
      "1003",
      `Export job '${job.exportId}' is ${job.status} and cannot be cancelled`,
    );
  job.status = "Cancelled";
  delete job.file;
}

/** Jobs of the past seven days, oldest first (ADE bulk-extract.md "Retrieving Jobs"). */
export function recentJobs(world: World, kind: BulkKind, now: number, apiName?: string): BulkJob[] {
  return world.bulk.jobs.filter(
    (j) => j.kind === kind && j.apiName === apiName && j.createdAt >= now - SEVEN_DAYS_MS,
  );
}

/** The status object: each timestamp appears once its state is reached, file facts once Completed. */
export function statusJson(job: BulkJob): Record<string, unknown> {
  const json: Record<string, unknown> = {
    exportId: job.exportId,
    format: job.format,
    status: job.status,
    createdAt: leadDate(job.createdAt),
  };
  if (job.queuedAt !== undefined) json.queuedAt = leadDate(job.queuedAt);
  if (job.startedAt !== undefined) json.startedAt = leadDate(job.startedAt);
  if (job.finishedAt !== undefined) json.finishedAt = leadDate(job.finishedAt);
  if (job.status === "Completed") {
    json.numberOfRecords = job.numberOfRecords ?? 0;
    json.fileSize = job.fileSize ?? 0;
    if (job.fileChecksum !== undefined) json.fileChecksum = job.fileChecksum;
  }
  if (job.errorMsg !== undefined) json.errorMsg = job.errorMsg;
  return json;
}
