/**
 * Reading a bulk export file as records. Adobe recommends the `Range` header for "partial and
 * resumption-friendly retrieval" of these files, which can be hundreds of MB
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#partial-retrieval-and-resumption):
 * the file is fetched in byte ranges, only as far as the records asked for, and parsed as it arrives by
 * csv-parse, which carries a record (or a character) cut by a range's edge over to the next range.
 */
import { createRequire } from "node:module";
import type { Parser } from "csv-parse";
import { UpstreamError, ValidationError } from "../../errors.js";
import { itemBytes } from "../../json-size.js";
import type { FileChunk } from "./file-answer.js";
import { RangeBudget } from "./range-budget.js";
import type { MarketoPage } from "./types.js";

/** Where a read of a file resumes: the byte where a record starts, and how many records precede it. */
export interface FilePosition {
  byte: number;
  row: number;
  /** Length in bytes of the header line (read again to name the columns). */
  header: number;
}

export type FileRecord = Record<string, string | null>;

export interface FileRead {
  columns: string[];
  /** The records returned: every record read, or those `select` kept. */
  records: FileRecord[];
  /** Records read (returned or not). */
  read: number;
  /** The position of each record, to resume at any of them. */
  positions: FilePosition[];
  /** Where the read continues after the last record; undefined when the file ended. */
  next: FilePosition | undefined;
  /** The file's size in bytes, when Marketo said it. */
  total: number | undefined;
  /** Range requests sent. */
  chunks: number;
}

export interface FileReadOptions {
  from?: FilePosition;
  /** The caller's name for `from` in errors (a tool's input field). Default "from". */
  fromField?: string;
  /** Serialized JSON of the records returned (json-size.ts): reading stops before passing it (one record at least). */
  maxBytes: number;
  /** The most records to read (returned or not). */
  maxRecords?: number;
  /** Applied to each record as it is parsed, before `select` (a caller naming a column's codes). */
  map?(record: FileRecord): FileRecord;
  /**
   * Whether a record is returned (asked once per record, without side effects). Records not returned take
   * no room in maxBytes, so a read that keeps few records can go through a whole file in flat memory.
   */
  select?(record: FileRecord): boolean;
  /** Each record read, once, with whether it was returned; not for a record the read stopped before. */
  onRecord?(record: FileRecord, returned: boolean): void;
  /** The columns, as soon as the header line is read. */
  onColumns?(columns: readonly string[]): void;
  /** Bytes asked per Range request. */
  chunkBytes: number;
  /** Applied to every header name and value before it is returned (the connector's redaction). */
  clean<T>(value: T): T;
  onChunk?(info: { byte: number; total: number | undefined; records: number }): void;
}

export type FetchChunk = (start: number, end: number) => Promise<FileChunk>;

/** TSV by its content type; otherwise the separator the header line uses most (CSV ",", SSV ";" or " "). */
function delimiterOf(contentType: string, headerLine: string): string {
  if (/tab-separated/i.test(contentType)) return "\t";
  if (/text\/csv/i.test(contentType)) return ",";
  const counts = [",", "\t", ";"].map((d) => [d, headerLine.split(d).length - 1] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : " ";
}

/** Marketo writes an empty value as an unquoted `null`. */
const NULLS = (value: string, context: { quoting: boolean }) =>
  !context.quoting && value === "null" ? null : value;

interface Parsed {
  record: (string | null)[];
  info: { bytes: number };
}

const require = createRequire(import.meta.url);

/**
 * A csv-parse parser; the library is loaded when an export file is first read (start-up does not pay
 * for it). Empty lines and records of another length come through: what they mean depends on the
 * header, known only once it is parsed (readFileRecords decides).
 */
function parser(delimiter: string): Parser {
  const { Parser: CsvParser } = require("csv-parse") as typeof import("csv-parse");
  const p = new CsvParser({
    delimiter,
    info: true,
    bom: true,
    skip_empty_lines: false,
    relax_column_count: true,
    cast: NULLS,
  });
  // Errors are read synchronously from `errored` after each write.
  p.on("error", () => undefined);
  return p;
}

function failed(reason: string | undefined, path: string): never {
  throw new UpstreamError(`The export file of ${path} is not valid CSV (${reason ?? "unreadable"}).`, {
    hint: "Check the job's format (CSV, TSV or SSV); read the file with a bulk export client if it persists.",
    details: { path },
  });
}

function drain(p: Parser, path: string): Parsed[] {
  const out: Parsed[] = [];
  for (let r = p.read() as Parsed | null; r !== null; r = p.read() as Parsed | null) out.push(r);
  if (p.errored) failed(p.errored.message, path);
  return out;
}

/** The chunk's bytes from `pos` on (a server that ignores Range sends the whole file from byte 0). */
function from(chunk: FileChunk, pos: number): Uint8Array {
  return chunk.start < pos ? chunk.bytes.subarray(pos - chunk.start) : chunk.bytes;
}

/**
 * The header line of a file whose header is `length` bytes long, read again to resume inside the file.
 * Those bytes must be exactly one line: a position of this file ends its header with the line break
 * (csv-parse counts it), and one whose length is off would name the columns wrongly without a word.
 */
async function readHeader(fetch: FetchChunk, length: number, path: string, field: string) {
  const chunk = await fetch(0, length - 1);
  const bytes = chunk.bytes.subarray(0, length);
  const text = new TextDecoder().decode(bytes);
  const delimiter = delimiterOf(chunk.contentType, text);
  const p = parser(delimiter);
  p.write(bytes);
  p.end();
  const records = drain(p, path);
  const last = bytes.at(-1);
  if (bytes.length !== length || (last !== 0x0a && last !== 0x0d) || records.length !== 1) {
    throw new ValidationError(
      field,
      `it does not point into the export file of ${path} (its header is not where it says).`,
      {
        hint: "Pass next_cursor exactly as the previous answer for this file gave it, or leave cursor out to start at the beginning.",
      },
    );
  }
  return { columns: (records[0]?.record ?? []).map(String), delimiter, total: chunk.total };
}

/** A fresh read of an empty file: a range from byte 0 of a 0-byte file is unsatisfiable (HTTP 416). */
function isEmptyFile(error: unknown): boolean {
  return error instanceof UpstreamError && error.status === 416;
}

/** A parser for the file's delimiter, told by its content type or its first line. */
function parserFor(bytes: Uint8Array, contentType: string): Parser {
  const firstLine = new TextDecoder().decode(bytes.subarray(0, 4096)).split(/\r?\n/)[0] ?? "";
  return parser(delimiterOf(contentType, firstLine));
}

/**
 * Whether a record whose field count is not the header's is a stray line break, passed over; any other
 * such record is refused. In a file of one column an empty line is a record (an empty value); in a file
 * of several it can only be a stray line break (its bytes are the line break alone).
 */
function isStrayLine(
  values: unknown[],
  columns: string[],
  bytes: number,
  row: number,
  path: string,
): boolean {
  if (columns.length === values.length) return false;
  if (values.length === 1 && values[0] === "" && bytes <= 2) return true;
  return failed(`record ${row + 1} has ${values.length} fields, the header ${columns.length}`, path);
}

function recordOf(columns: string[], values: (string | null)[]): FileRecord {
  const record: FileRecord = {};
  columns.forEach((name, i) => {
    record[name] = values[i] ?? null;
  });
  return record;
}

/**
 * One Range of the file, checked: its bytes from `pos`, or undefined for an empty file read from its
 * start. Counts the request against the read's RangeBudget and records the file's size in `out`.
 */
async function fetchRange(
  fetch: FetchChunk,
  budget: RangeBudget,
  out: FileRead,
  at: { pos: number; end: number; path: string },
): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  const { pos, end, path } = at;
  budget.next();
  let chunk: FileChunk;
  try {
    chunk = await fetch(pos, end);
  } catch (error) {
    if (pos === 0 && isEmptyFile(error)) return undefined;
    throw error;
  }
  out.chunks += 1;
  out.total = chunk.total;
  const bytes = from(chunk, pos);
  // A range that starts later than asked would glue two records together; an empty one before the
  // end would be asked for again and again.
  if (chunk.start > pos || (bytes.length === 0 && out.total !== undefined && pos < out.total)) {
    throw new UpstreamError(
      `Marketo answered ${path} with another byte range than asked (bytes ${chunk.start}–, ${bytes.length} bytes, for bytes ${pos}–${end}).`,
      {
        hint: "Retry later; if it persists, read the export in one piece with a bulk export client.",
        details: { path },
      },
    );
  }
  if (out.total !== undefined) {
    budget.expect(pos, out.total);
    if (pos + bytes.length < out.total) budget.answered(end - pos + 1, bytes.length);
  }
  return { bytes, contentType: chunk.contentType };
}

/**
 * One record parsed: read it (returning it when `select` keeps it) and give the bytes it added, or stop the
 * read before it (undefined, with `out.next` at it) when maxRecords were read or it would pass maxBytes.
 */
function take(
  options: FileReadOptions,
  out: FileRead,
  parsed: FileRecord,
  size: number,
  position: FilePosition,
): number | undefined {
  if (out.read >= (options.maxRecords ?? Number.POSITIVE_INFINITY)) {
    out.next = position;
    return undefined;
  }
  const mapped = options.map ? options.map(parsed) : parsed;
  const clean = options.clean(mapped);
  const returned = options.select ? options.select(clean) : true;
  const bytes = returned ? itemBytes(clean) : 0;
  if (returned && out.records.length > 0 && size + bytes > options.maxBytes) {
    out.next = position;
    return undefined;
  }
  out.read += 1;
  options.onRecord?.(clean, returned);
  if (returned) {
    out.records.push(clean);
    out.positions.push(position);
  }
  return bytes;
}

/**
 * Reads records from a position (the start by default) until maxBytes of JSON, maxRecords or the end of
 * the file, fetching one Range after another only while more records are needed.
 */
export async function readFileRecords(
  fetch: FetchChunk,
  path: string,
  options: FileReadOptions,
): Promise<FileRead> {
  const out: FileRead = {
    columns: [],
    records: [],
    read: 0,
    positions: [],
    next: undefined,
    total: undefined,
    chunks: 0,
  };
  let p: Parser | undefined;
  let headerBytes = options.from?.header ?? 0;
  const budget = new RangeBudget(path, options.chunkBytes);
  if (options.from) {
    budget.next();
    const header = await readHeader(fetch, options.from.header, path, options.fromField ?? "from");
    out.chunks += 1;
    out.columns = options.clean(header.columns);
    options.onColumns?.(out.columns);
    out.total = header.total;
    p = parser(header.delimiter);
  }
  const streamStart = options.from?.byte ?? 0;
  let pos = streamStart;
  let recordStart = streamStart;
  let row = options.from?.row ?? 0;
  let size = 0;
  for (let ended = false; !ended; ) {
    if (out.total !== undefined && pos >= out.total) break;
    const end =
      out.total === undefined
        ? pos + options.chunkBytes - 1
        : Math.min(pos + options.chunkBytes, out.total) - 1;
    const chunk = await fetchRange(fetch, budget, out, { pos, end, path });
    if (!chunk) break;
    const { bytes } = chunk;
    p ??= parserFor(bytes, chunk.contentType);
    pos += bytes.length;
    // The end: the size Marketo gave is reached, or a range came back shorter than asked.
    ended = out.total !== undefined ? pos >= out.total : bytes.length < end - (pos - bytes.length) + 1;
    p.write(bytes);
    if (ended) p.end();
    for (const parsed of drain(p, path)) {
      const recordEnd = streamStart + parsed.info.bytes;
      if (headerBytes === 0) {
        // A read from the start: its first record names the columns.
        headerBytes = recordEnd;
        out.columns = options.clean(parsed.record.map(String));
        options.onColumns?.(out.columns);
        recordStart = recordEnd;
        continue;
      }
      if (isStrayLine(parsed.record, out.columns, recordEnd - recordStart, row, path)) {
        recordStart = recordEnd;
        continue;
      }
      const position = { byte: recordStart, row, header: headerBytes };
      const taken = take(options, out, recordOf(out.columns, parsed.record), size, position);
      if (taken === undefined) {
        p.destroy();
        return out;
      }
      size += taken;
      row += 1;
      recordStart = recordEnd;
    }
    options.onChunk?.({ byte: pos, total: out.total, records: out.records.length });
  }
  p?.destroy();
  return out;
}

/**
 * A read as the page request() answers for an export file (a file can be hundreds of MB, so request()
 * reads a capped part): the records, the columns, and when more remain, where readExportFile continues.
 */
export function fileAsPage(read: FileRead, maxBytes: number): MarketoPage {
  const warnings = read.next
    ? [
        `Read ${read.records.length} records of the export file (about ${maxBytes} bytes of JSON); more remain ` +
          `from row ${read.next.row + 1}: continue with readExportFile(path, { from: extra.next }).`,
      ]
    : [];
  return {
    result: read.records,
    requestId: undefined,
    warnings,
    recordErrors: [],
    extra: {
      columns: read.columns,
      ...(read.total !== undefined ? { fileBytes: read.total } : {}),
      ...(read.next ? { next: read.next } : {}),
    },
  };
}
