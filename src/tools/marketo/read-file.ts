/**
 * A bulk export file (GET /bulk/v1/{leads|activities|…}/export/{exportId}/file.json), or an import's
 * failures or warnings file (GET /bulk/v1/leads/batch/{batchId}/failures.json, …), read as records:
 * the connector fetches it in Range requests and parses the CSV; the answer shows what fits the output
 * cap, with a cursor at the byte where the first record not shown starts
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#partial-retrieval-and-resumption).
 * With where, order_by or count_by every row is seen as it is parsed and only what the answer needs is held.
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { FilePosition, FileRead, FileReadOptions } from "../../connectors/marketo/bulk-file.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { IMPORT_FILE } from "../../connectors/marketo/file-answer.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { jsonBytes } from "../../json-size.js";
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import { capItems, MAX_RESULT_BYTES, moreWarning, sizeWords } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import type { ToolContext } from "../types.js";
import { type ActivityNaming, namedColumns, namedType } from "./activity-types.js";
import { type Computed, computedAnswer, keptBytesFor } from "./compute-answer.js";
import { computedSummary } from "./compute-words.js";
import { nameCounted, namesCalls } from "./id-names.js";
import { cursorOf } from "./position.js";
import { RESUME_WORDS, type ReadAnswer, type Shaped } from "./read-calls.js";

/** A Range request per 64 KB to 1 MB: one call for an answer's worth, few for a whole kept result. */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;

export interface FileOptions {
  /** The endpoint as the step checked it (the connector does not check it again). */
  path: CheckedPath;
  from: FilePosition | undefined;
  onWait: OnWait;
  compute?: RecordCompute | undefined;
  /** An activity export's file: each row is named by its type. */
  naming?: ActivityNaming | undefined;
}

/** What the file is, in the answer's words. */
export function fileWhat(path: string): string {
  // An import's failures or warnings file is read the same way as an extract's file.
  return IMPORT_FILE.test(path)
    ? `${path.endsWith("/failures.json") ? "failures" : "warnings"} file`
    : "export file";
}

export const chunkBytesFor = (maxBytes: number): number =>
  Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(Number.isFinite(maxBytes) ? maxBytes / 2 : MAX_CHUNK)));

/** Progress per Range read: how far into the file, in bytes. */
export function chunkProgress(ctx: ToolContext, what: string): FileReadOptions["onChunk"] {
  return ({ byte, total, records }) =>
    ctx.progress({
      progress: records,
      message: `Read ${sizeWords(byte)}${total !== undefined ? ` of ${sizeWords(total)}` : ""} of the ${what}`,
    });
}

export async function readFile(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: FileOptions,
): Promise<ReadAnswer & { described: string }> {
  if (options.compute) return computedFile(input, marketo, ctx, { ...options, compute: options.compute });
  const keep = ctx.fullResults?.maxBytes;
  const maxBytes = keep ?? MAX_RESULT_BYTES;
  const what = fileWhat(options.path.value);
  const naming = options.naming;
  const read = await marketo.readExportFile(
    { path: options.path, signal: ctx.signal, onWait: options.onWait },
    {
      ...(options.from ? { from: options.from, fromField: "cursor" } : {}),
      maxBytes,
      maxRecords: input.max_items ?? DEFAULT_MAX_ITEMS,
      chunkBytes: chunkBytesFor(maxBytes),
      ...(naming ? { map: (record) => namedType(record, naming.names) } : {}),
      onChunk: chunkProgress(ctx, what),
    },
  );
  const columns = naming ? namedColumns(read.columns) : read.columns;
  const capped = capItems(read.records, MAX_RESULT_BYTES, true);
  const next = capped.dropped > 0 ? read.positions[capped.items.length] : read.next;
  // An export file is linked whole even when it fits the answer: a file is what its reader asked for.
  const kept = keep !== undefined && read.records.length > 0;
  const counts = {
    read: read.records.length,
    shown: capped.items.length,
    kept,
    end: read.next === undefined,
  };
  const warnings: string[] = [];
  if (next) {
    warnings.push(
      moreWarning({
        unit: "records",
        shown: capped.items.length,
        read: read.records.length,
        capped: capped.dropped > 0,
        resume: RESUME_WORDS,
        kept,
        sizes: { shown: jsonBytes(capped.items), read: jsonBytes(read.records) },
      }),
    );
  }
  const described = rowsWords(options.from?.row ?? 0, read, what, read.records.length);
  const data: Shaped = {
    result: capped.items,
    complete: next === undefined,
    ...(next ? { next_cursor: cursorOf(input, { file: next }) } : {}),
    warnings,
    record_errors: [],
    pages: read.chunks,
    calls_used: read.callsUsed + (naming?.calls ?? 0),
    request_ids: [],
  };
  if (!kept) return { data, described, counts };
  return {
    data,
    described,
    counts,
    full: {
      kind: "records",
      items: read.records,
      columns,
      ...(read.next ? { nextCursor: cursorOf(input, { file: read.next }) } : {}),
    },
  };
}

function rowsWords(first: number, read: Pick<FileRead, "total">, what: string, count: number): string {
  const rows = count > 0 ? `rows ${first + 1}–${first + count}` : "no rows";
  return `${rows} of the ${what}${read.total !== undefined ? `, which is ${sizeWords(read.total)}` : ""}`;
}

/** A file read with where, order_by or count_by: every row seen as it is parsed, only what the answer needs held. */
async function computedFile(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: FileOptions & { compute: RecordCompute },
): Promise<ReadAnswer & { described: string }> {
  const { compute, naming } = options;
  const keptBytes = keptBytesFor(ctx, compute);
  const what = fileWhat(options.path.value);
  const read = await marketo.readExportFile(
    { path: options.path, signal: ctx.signal, onWait: options.onWait },
    {
      ...(options.from ? { from: options.from, fromField: "cursor" } : {}),
      maxBytes: keptBytes,
      maxRecords: input.max_items ?? DEFAULT_MAX_ITEMS,
      chunkBytes: chunkBytesFor(keptBytes),
      ...(naming ? { map: (record) => namedType(record, naming.names) } : {}),
      select: (record) => compute.keeps(record),
      onRecord: (record) => compute.see(record),
      onColumns: (names) => compute.knowColumns(naming ? namedColumns(names) : names),
      onChunk: chunkProgress(ctx, what),
    },
  );
  const stoppedBy = compute.read >= (input.max_items ?? DEFAULT_MAX_ITEMS) ? "items" : "bytes";
  const names = await nameCounted(compute, { marketo, signal: ctx.signal, onWait: options.onWait });
  const computed: Computed = {
    compute,
    kept: read.records,
    positions: read.positions.map((file) => ({ file })),
    next: read.next ? { file: read.next } : undefined,
    ...(read.next ? { stoppedBy } : {}),
    pages: read.chunks,
    calls: read.callsUsed + (naming?.calls ?? 0) + namesCalls(names),
    unit: "row",
    linked: true,
    columns: naming ? namedColumns(read.columns) : read.columns,
    ...(names ? { names } : {}),
  };
  const answer = computedAnswer(input, ctx, computed);
  const described = rowsWords(options.from?.row ?? 0, read, what, compute.read);
  const head = `GET ${input.endpoint}: ${described}, read in ${read.chunks} range request${read.chunks === 1 ? "" : "s"}, ${answer.data.calls_used} call${answer.data.calls_used === 1 ? "" : "s"}`;
  return { ...answer, described, summary: computedSummary(input, computed, answer, head) };
}
