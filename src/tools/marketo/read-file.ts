/**
 * A bulk export file (GET /bulk/v1/{leads|activities|…}/export/{exportId}/file.json), or an import's
 * failures or warnings file (GET /bulk/v1/leads/batch/{batchId}/failures.json, …), read as records:
 * the connector fetches it in Range requests and parses the CSV; the answer shows what fits the output
 * cap, with a cursor at the byte where the first record not shown starts
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#partial-retrieval-and-resumption).
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { FilePosition } from "../../connectors/marketo/bulk-file.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { IMPORT_FILE } from "../../connectors/marketo/file-answer.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { jsonBytes } from "../../json-size.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { capItems, MAX_RESULT_BYTES, moreWarning, sizeWords } from "../output-cap.js";
import type { ToolContext } from "../types.js";
import { cursorOf } from "./position.js";
import { RESUME_WORDS, type ReadAnswer, type Shaped } from "./read-calls.js";

/** A Range request per 64 KB to 1 MB: one call for an answer's worth, few for a whole kept result. */
const MIN_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;

export async function readFile(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  /** `path`: the endpoint as the step checked it (the connector does not check it again). */
  options: { path: CheckedPath; from: FilePosition | undefined; onWait: OnWait },
): Promise<ReadAnswer & { described: string }> {
  const keep = ctx.fullResults?.maxBytes;
  const maxBytes = keep ?? MAX_RESULT_BYTES;
  // An import's failures or warnings file is read the same way as an extract's file.
  const what = IMPORT_FILE.test(options.path.value)
    ? `${options.path.value.endsWith("/failures.json") ? "failures" : "warnings"} file`
    : "export file";
  const read = await marketo.readExportFile(
    { path: options.path, signal: ctx.signal, onWait: options.onWait },
    {
      ...(options.from ? { from: options.from, fromField: "cursor" } : {}),
      maxBytes,
      maxRecords: input.max_items,
      chunkBytes: Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(maxBytes / 2))),
      onChunk: ({ byte, total, records }) =>
        ctx.progress({
          progress: records,
          message: `Read ${sizeWords(byte)}${total !== undefined ? ` of ${sizeWords(total)}` : ""} of the ${what}`,
        }),
    },
  );
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
  const first = options.from?.row ?? 0;
  const rows = read.records.length > 0 ? `rows ${first + 1}–${first + read.records.length}` : "no rows";
  const described = `${rows} of the ${what}${read.total !== undefined ? `, which is ${sizeWords(read.total)}` : ""}`;
  const data: Shaped = {
    result: capped.items,
    complete: next === undefined,
    ...(next ? { next_cursor: cursorOf(input, { file: next }) } : {}),
    warnings,
    record_errors: [],
    pages: read.chunks,
    calls_used: read.callsUsed,
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
      columns: read.columns,
      ...(read.next ? { nextCursor: cursorOf(input, { file: read.next }) } : {}),
    },
  };
}
