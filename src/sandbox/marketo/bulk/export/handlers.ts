/**
 * The bulk extract endpoints for leads, activities, program members and custom objects: create, enqueue, status, cancel, file and the
 * job list (Swagger createExportLeadsUsingPOST … getExportActivitiesUsingGET). Every call first plays
 * the queue forward to the sandbox clock. The file endpoint is not a Marketo envelope: it sends the
 * file (206 with Content-Range for a `Range: bytes=…` request, as Adobe recommends for large files),
 * or 404 with a plain-text message while the job is unknown or not Completed, or once the file is past
 * its seven-day retention (ADE bulk-extract.md).
 */

import { type ApiRequest, type Handler, type HandlerContext, RawReply } from "../../types.js";
import { jsonBody, multi, pageByToken } from "../../wire/params.js";
import type { BulkKind } from "../model.js";
import {
  advance,
  cancel,
  checkQuota,
  enqueue,
  fileExpired,
  findJob,
  newExportId,
  recentJobs,
  statusJson,
} from "./queue.js";
import { parseCreate } from "./request.js";

const CONTENT_TYPE = { CSV: "text/csv", TSV: "text/tab-separated-values", SSV: "text/plain" } as const;

function touch(ctx: HandlerContext): number {
  const now = ctx.now();
  advance(ctx.world, now);
  return now;
}

export function plain(status: number, text: string): RawReply {
  return new RawReply(status, { "Content-Type": "text/plain;charset=UTF-8" }, Buffer.from(text, "utf8"));
}

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` range (RFC 7233 §2.1). A malformed or multi-range header is
 * ignored (the whole file is sent, as §3.1 allows), and so is `a-b` with b < a: §2.1 calls it
 * syntactically invalid and says the recipient MUST ignore the header. A valid range that starts past
 * the end is unsatisfiable: 416 (§4.4).
 */
function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (last < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(last, size - 1) };
}

/** A file whole (200), or the byte range asked (206), or 416 for a range past its end. */
export function rangedFile(
  rangeHeader: string | undefined,
  file: Buffer,
  headers: Record<string, string>,
): RawReply {
  const range = byteRange(rangeHeader, file.length);
  if (range === "unsatisfiable") {
    return new RawReply(416, { ...headers, "Content-Range": `bytes */${file.length}` }, Buffer.alloc(0));
  }
  if (!range) return new RawReply(200, headers, file);
  return new RawReply(
    206,
    { ...headers, "Content-Range": `bytes ${range.start}-${range.end}/${file.length}` },
    file.subarray(range.start, range.end + 1),
  );
}

/**
 * The handlers of one export type. A custom object export's paths start with the type's `{apiName}`:
 * its jobs are found under that name only.
 */
export function bulkHandlers(
  kind: BulkKind,
): Record<"create" | "enqueue" | "status" | "cancel" | "file" | "list", Handler> {
  const scoped = kind === "customObjects";
  const at = (params: string[]) =>
    scoped ? { apiName: params[0], id: params[1] } : { apiName: undefined, id: params[0] };
  const job = (ctx: HandlerContext, params: string[]) => {
    const { apiName, id } = at(params);
    return findJob(ctx.world, kind, id, apiName);
  };
  return {
    create(req: ApiRequest, ctx: HandlerContext, params) {
      const now = touch(ctx);
      const { apiName } = at(params);
      const spec = parseCreate(ctx.world, kind, jsonBody(req.body), apiName);
      // "When you exceed the quota, you cannot create or enqueue another job" (ADE bulk-extract.md).
      checkQuota(ctx.world, now);
      const created = {
        ...spec,
        ...(apiName !== undefined ? { apiName } : {}),
        exportId: newExportId(ctx.world, now),
        status: "Created" as const,
        createdAt: now,
      };
      ctx.world.bulk.jobs.push(created);
      return { result: [statusJson(created)] };
    },
    enqueue(_req, ctx, params) {
      const now = touch(ctx);
      const found = job(ctx, params);
      enqueue(ctx.world, found, now);
      return { result: [statusJson(found)] };
    },
    status(_req, ctx, params) {
      touch(ctx);
      return { result: [statusJson(job(ctx, params))] };
    },
    cancel(_req, ctx, params) {
      touch(ctx);
      const found = job(ctx, params);
      cancel(found);
      return { result: [statusJson(found)] };
    },
    list(req, ctx, params) {
      const now = touch(ctx);
      // The docs list "Canceled" among the filter values while jobs report "Cancelled": accept both.
      const wanted = new Set(
        multi(req.params, "status").map((s) => s.toLowerCase().replace("canceled", "cancelled")),
      );
      const jobs = recentJobs(ctx.world, kind, now, at(params).apiName).filter(
        (j) => wanted.size === 0 || wanted.has(j.status.toLowerCase()),
      );
      const { page, nextPageToken } = pageByToken(jobs, req.params, "exports");
      const result = page.map(statusJson);
      return nextPageToken ? { result, nextPageToken } : { result };
    },
    file(req, ctx, params) {
      touch(ctx);
      const { apiName, id } = at(params);
      const found = ctx.world.bulk.jobs.find(
        (j) => j.kind === kind && j.exportId === id && j.apiName === apiName,
      );
      if (!found) return plain(404, `Export id ${id ?? ""} not found`);
      // The wording is inferred: the docs name the retention period, not the answer after it.
      if (fileExpired(found))
        return plain(404, `The file of export ${found.exportId} expired: files are kept for seven days`);
      if (found.status !== "Completed" || !found.file)
        return plain(404, `Export ${found.exportId} is ${found.status}, not Completed`);
      const headers = {
        "Content-Type": `${CONTENT_TYPE[found.format]};charset=UTF-8`,
        "Accept-Ranges": "bytes",
      };
      return rangedFile(req.range, found.file, headers);
    },
  };
}
