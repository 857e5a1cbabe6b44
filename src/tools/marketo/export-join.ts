/**
 * The files of an export's jobs read into one: each row parsed once, in job order, dropped when its key
 * (lead id, activity marketoGUID) was read before, then seen by where/order_by/count_by
 * (tools/records/compute.ts), which keeps only what the answer needs. The key set holds one key per row
 * read (tens of bytes each) and only when the span was split; a lone job's rows are never compared.
 */
import type { FilePosition, FileRecord } from "../../connectors/marketo/bulk-file.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { jsonBytes } from "../../json-size.js";
import type { RecordCompute } from "../records/compute.js";
import { type ActivityNaming, namedColumns, namedType } from "./activity-types.js";
import type { ExportCall, Job } from "./export-job.js";
import { KEEP_MAX_ROWS } from "./export-reuse.js";
import type { Window } from "./export-windows.js";
import type { MarketoPosition } from "./position.js";
import { chunkBytesFor, chunkProgress } from "./read-file.js";

export interface Joined {
  compute: RecordCompute;
  /** The rows kept (matching where; none with count_by), in job and file order. */
  kept: Record<string, unknown>[];
  /** A lone job's row positions in its file (a joined file has none to continue in). */
  positions: MarketoPosition[];
  next?: MarketoPosition;
  stoppedBy?: "bytes" | "items";
  /** Set once a limit stopped the read: later jobs are not run. */
  stopped?: boolean;
  /** JSON bytes of the rows kept. */
  bytes: number;
  /** Rows read, duplicates included (max_items counts them). */
  rows: number;
  /** Range requests. */
  chunks: number;
  duplicates: number;
  /** The jobs whose files were read, with their windows. */
  jobs: { job: Job; window?: Window }[];
  columns?: string[];
  naming?: ActivityNaming;
  /** A split span's dedupe: the keys read and the key's column. */
  keys?: Set<string>;
  key?: string;
  /**
   * Columns exported for the step, not asked for in fields: the key of a split span's dedupe and the fields
   * where/order_by/count_by read. They are left out of the columns and, once sorted, of the rows.
   */
  hidden: string[];
  /** The job whose file is being read (a cancel then only stops the reading). */
  reading?: Job;
  /** The most bytes of rows kept (the export file limit) and, when given, max_items. */
  maxBytes: number;
  maxRows?: number;
  /** Every row read once (duplicates dropped) with every column, for a later call to reuse (export-reuse.ts). */
  raw?: Record<string, unknown>[];
  /** Every column of the files, hidden ones included. */
  allColumns?: string[];
}

/** Reads one Completed job's file into the join; sets `stopped` when a limit ends the read. */
export async function readJobFile(
  call: ExportCall,
  job: Job,
  joined: Joined,
  at: { index: number; total: number },
): Promise<void> {
  const room = joined.maxBytes - joined.bytes;
  const rowsLeft = (joined.maxRows ?? Number.POSITIVE_INFINITY) - joined.rows;
  if (room <= 0 || rowsLeft <= 0) {
    joined.stopped = true;
    joined.stoppedBy = rowsLeft <= 0 ? "items" : "bytes";
    return;
  }
  const { compute, naming, keys, key } = joined;
  // A row without its key (a file without the column) is never taken for a duplicate.
  const keyOf = (record: FileRecord) => (key !== undefined && record[key] ? String(record[key]) : undefined);
  const isDuplicate = (record: FileRecord) => {
    const value = keyOf(record);
    return keys !== undefined && value !== undefined && keys.has(value);
  };
  const what = at.total > 1 ? `file of export ${at.index + 1} of ${at.total}` : "export file";
  const read = await call.marketo.readExportFile(
    {
      path: checkMarketoPath(`${call.base}/${job.id}/file.json`),
      signal: call.ctx.signal,
      onWait: call.onWait,
    },
    {
      maxBytes: room,
      ...(Number.isFinite(rowsLeft) ? { maxRecords: rowsLeft } : {}),
      chunkBytes: chunkBytesFor(room),
      ...(naming ? { map: (record) => namedType(record, naming.names) } : {}),
      select: (record) => !isDuplicate(record) && compute.keeps(record),
      onRecord: (record) => {
        if (isDuplicate(record)) {
          joined.duplicates += 1;
          return;
        }
        const value = keyOf(record);
        if (keys && value !== undefined) keys.add(value);
        // A copy: the answer later drops hidden columns from the rows it keeps.
        if (joined.raw && joined.raw.length < KEEP_MAX_ROWS) joined.raw.push({ ...record });
        else joined.raw = undefined;
        compute.see(record);
      },
      onColumns: (names) => {
        const columns = naming ? namedColumns(names) : [...names];
        joined.columns ??= columns.filter((column) => !joined.hidden.includes(column));
        joined.allColumns ??= columns;
        compute.knowColumns(columns);
      },
      onChunk: chunkProgress(call.ctx, what),
    },
  );
  call.calls += read.callsUsed;
  joined.rows += read.read;
  joined.chunks += read.chunks;
  for (const [i, record] of read.records.entries()) {
    joined.kept.push(record);
    joined.positions.push({ file: read.positions[i] as FilePosition });
  }
  joined.bytes += jsonBytes(read.records);
  if (read.next) {
    joined.stopped = true;
    joined.stoppedBy = joined.rows >= (joined.maxRows ?? Number.POSITIVE_INFINITY) ? "items" : "bytes";
    joined.next = { file: read.next };
  }
}
