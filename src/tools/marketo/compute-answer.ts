/**
 * The answer of a read with where, order_by or count_by, REST pages and files alike: the records that
 * match (sorted) or the counts, as many as fit the answer (only a preview when an export's file is linked),
 * the whole of them kept, the figures the tool computed, and a cursor where one continues exactly.
 */
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { n } from "../numbers-in-words.js";
import { capItems, LINKED_FROM, MAX_RESULT_BYTES, sizeWords } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import { countColumnNames } from "../records/count-fields.js";
import { labelledColumns } from "../records/labels.js";
import { firstOfEach, tiedGroups, tieKeys } from "../records/limit-each.js";
import type { FullResult, ToolContext } from "../types.js";
import type { IdNames } from "./id-names.js";
import { cursorOf, type MarketoPosition } from "./position.js";
import type { ReadAnswer, Shaped } from "./read-calls.js";
import { outsideSum } from "./sum-words.js";

/**
 * How many bytes of sorted records a read may hold without an adapter that keeps results (the CLI): the
 * default of MARTECH_STEPS_RESULT_MAX_BYTES, the kept-result limit an adapter that keeps them applies.
 */
export const SORT_MAX_BYTES = 4_000_000;
/** The rows an answer shows of an export whose file is linked: a preview, the file holds them all. */
export const PREVIEW_ROWS = 10;
/**
 * The rows it shows when they are ranked (order_by): the top of a ranking is often the answer itself, and a "top 15"
 * cut at 10 cost a fresh agent a second call and a read of the file (trial s9, N47).
 */
export const RANKED_PREVIEW_ROWS = 25;
/**
 * An export file of this many rows or fewer is shown whole beside its link: a preview of 10 of a list's 12
 * members, with complete false and a cursor, read as an unfinished export and cost an extra read (trial s15, N131).
 */
export const WHOLE_FILE_ROWS = 25;
/**
 * Nor is one whose rows take this many characters or fewer as the answer's text shows them (one tab-separated line
 * each): a preview of 25 of a file's 27 short rows cost a read of the file (trial s23, N292); measured as JSON, a
 * 3.5 KB file of 137 rows was cut to 10 (review s27, finding 13).
 */
export const WHOLE_FILE_CHARS = 4_000;

/** A row's characters as the answer's text shows it: one tab-separated line. */
function rowChars(row: unknown): number {
  const cells = row !== null && typeof row === "object" ? Object.values(row) : [row];
  return (
    cells.map((cell) => (typeof cell === "string" ? cell : (JSON.stringify(cell) ?? ""))).join("\t").length +
    1
  );
}

/** Whether rows take WHOLE_FILE_CHARS or fewer as text, measured row by row only until past it (a file may be large). */
function fewChars(rows: readonly unknown[]): boolean {
  let size = 0;
  for (const row of rows) {
    size += rowChars(row);
    if (size > WHOLE_FILE_CHARS) return false;
  }
  return true;
}

/** A preview of at least this share of the rows shows them all: 25 of 28 cost a read of the file (trial s25, N327). */
const MOST = 0.8;

/**
 * The most characters (as the text shows them) the rows shown beside a link take, at least PREVIEW_LEAST rows: 20 to 25 wide rows
 * (activities with previous and next) printed 26,000 to 33,000 characters only for a link to hand on (trial s43,
 * N598, N601).
 */
export const PREVIEW_CHARS = 6_000;
const PREVIEW_LEAST = 3;

/**
 * The first rows within PREVIEW_CHARS (at least PREVIEW_LEAST); all of them, when they are the whole set and take no
 * more than a fifth over it, as a preview of MOST of the rows shows them all (a preview of 16 of 22 rows cost a read of
 * the file for 6; review s53, 8). A preview cut by its rows is held to PREVIEW_CHARS (review s54, F3: 25 of 79 rows
 * took 7,422).
 */
function withinChars(rows: Record<string, unknown>[], whole: boolean): Record<string, unknown>[] {
  const sizes = rows.map(rowChars);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= (whole ? PREVIEW_CHARS / MOST : PREVIEW_CHARS)) return rows;
  let size = 0;
  const within = sizes.findIndex((one) => {
    size += one;
    return size > PREVIEW_CHARS;
  });
  return rows.slice(0, Math.max(within, PREVIEW_LEAST));
}

/** What a computed read gives its answer. */
export interface Computed {
  compute: RecordCompute;
  /** The records kept (those that match where; none with count_by), in read order. */
  kept: Record<string, unknown>[];
  /** The position of each kept record, to resume right after the last one shown. */
  positions: MarketoPosition[];
  /** Where reading continues when the read stopped with more to read. */
  next: MarketoPosition | undefined;
  /** What stopped it: the kept bytes, max_items (records read), max_pages, or limit in read order reached. */
  stoppedBy?: "bytes" | "items" | "pages" | "limit";
  /** A joined read cut before its end (a read per id, activity types in groups): why, as its words say it. */
  cut?: string;
  /** A read with next, whole: all its matching records, of which those past the kept bytes are not kept. */
  matchedAll?: number;
  /** A read without paginate that max_items cut: the records its one page held. */
  pageRecords?: number;
  pages: number;
  calls: number;
  unit: "record" | "row";
  /** With per: the records read, of which these are the rows (what max_items counted). */
  from?: number;
  columns?: readonly string[];
  /** An export's file: linked as a file, the answer shows a preview. */
  file?: boolean;
  /**
   * A file read by GET (…/file.json): its rows are linked as a file too (CSV and JSON), shown as read. An agent
   * re-read an export's file, sorted, to hand a CSV on, and had to write it itself (trial s23, N290).
   */
  linked?: boolean;
  /** Columns read for the step only (a filter's field, a join's key): left out of the rows once sorted. */
  hidden?: readonly string[];
  /** The limit `bytes` stopped at, and the setting that sets it (for the words that say so). */
  limit?: { bytes: number; setting: string };
  /** The names looked up for count_by's ids (id-names.ts), for the summary; `calls` counts their calls. */
  names?: readonly IdNames[];
  /**
   * A read joined in memory (joined-answer.ts): every matching record is held, so the results are cut to these
   * bytes after the sort and limit, not the read (review s36, 8); computedAnswer sets `overflow`, the results cut.
   */
  keepBytes?: number;
  overflow?: number;
}

/**
 * A read joined in memory (activity type groups, reads per id) that computes anything (where, order_by, count_by,
 * limit, per, next, previous, lead_fields) is read to max_items, not to the bytes of the records read: computedJoined
 * cuts its results, sorted and paired, to what a kept result holds. Review s36, 8: a grouped read with where
 * stopped at the bytes read, 6 of 240 matching; review s37, 1: with order_by alone, the "latest" 3 were 15 days old.
 */
export const JOINED_READ_BYTES = Number.POSITIVE_INFINITY;

/** The most bytes of matching records a read keeps: the kept-result (or export file) limit, the answer's without one. */
export function keptBytesFor(ctx: ToolContext, compute: RecordCompute, file = false): number {
  if (compute.spec.countBy) return Number.POSITIVE_INFINITY;
  const offer = ctx.fullResults;
  if (offer) return file ? (offer.fileMaxBytes ?? offer.maxBytes) : offer.maxBytes;
  return compute.spec.order || compute.spec.each ? SORT_MAX_BYTES : MAX_RESULT_BYTES;
}

function refuseSortPastLimit(computed: Computed, bytes: number): never {
  const { compute } = computed;
  const limit = computed.limit ?? { bytes, setting: "MARTECH_STEPS_RESULT_MAX_BYTES" };
  // A read with next is whole: every record was read and its calls spent (review s36, 3).
  const what =
    computed.matchedAll !== undefined
      ? `the ${n(computed.matchedAll)} that match among all ${n(compute.read)} ${computed.unit}s read (the whole read, its calls spent) take more than ${sizeWords(limit.bytes)} of JSON, the most one answer holds (${limit.setting}).`
      : `the ${n(computed.kept.length)} that matched among the first ${n(compute.read)} ${computed.unit}s read ` +
        `already take ${sizeWords(limit.bytes)} of JSON, the most one answer holds (${limit.setting}), and more remain to be read.`;
  if (compute.spec.order) {
    throw new ValidationError("order_by", `sorting needs every matching record at once: ${what}`, {
      hint: "Narrow the records with where (or a shorter date range) so fewer match, count them with count_by instead, or leave order_by out to read them all.",
    });
  }
  const field = compute.spec.each?.fields[0] ?? "<field>";
  throw new ValidationError("limit", `limit per needs every matching record at once: ${what}`, {
    hint: `Narrow the records with where (or a shorter date range) so fewer match, or count them: count_by "${field},<another field>" with limit "1 per ${field}" keeps each ${field}'s most frequent.`,
  });
}

/** The answer's records, its cursor and what is kept, from a computed read. */
export function computedAnswer(input: MarketoApiCallInput, ctx: ToolContext, computed: Computed): ReadAnswer {
  const { compute } = computed;
  const spec = compute.spec;
  // limit per keeps each value's first records: like a sort, it needs them all at once.
  if ((spec.order || spec.each) && !spec.countBy && computed.stoppedBy === "bytes") {
    refuseSortPastLimit(computed, computed.limit?.bytes ?? keptBytesFor(ctx, compute, computed.file));
  }
  // limit cuts the results, not the read: the figures stay those of every record read.
  const all = compute.finish(computed.kept);
  const limited = spec.each
    ? firstOfEach(all, spec.each)
    : spec.limit !== undefined && all.length > spec.limit
      ? all.slice(0, spec.limit)
      : all;
  const held =
    computed.keepBytes === undefined || spec.countBy
      ? undefined
      : capItems(limited, computed.keepBytes, true);
  if (held?.dropped) computed.overflow = held.dropped;
  const rows = held ? held.items : limited;
  if (computed.hidden?.length && !spec.countBy) {
    for (const row of rows) for (const column of computed.hidden) delete row[column];
  }
  const keep = ctx.fullResults !== undefined;
  const shown = shownOf(rows, computed, keep);
  // A cursor continues exactly after the last record shown only in read order (where alone); sorted or
  // counted, it continues the read after the last record read, for figures of their own.
  // limit in read order is a page: its cursor too continues after the last record shown (review s22, finding 2).
  // limit per keeps records from all through the read: no cursor continues after the last shown (review s43, 1).
  const inOrder = !spec.order && !spec.countBy && !spec.each;
  const resumeAt = inOrder && shown.length < all.length ? computed.positions[shown.length] : computed.next;
  // An export's rows are linked as a file even when they fit the answer: a file is what was asked for.
  const asFile = (computed.file === true || computed.linked === true) && !spec.countBy;
  // Many records or rows shown whole are kept too, so that a later where can take them as its list (in result(…)):
  // an agent printed 14,500 characters of ids twice, and spent a call, to have a link (trial s32, third run). Count
  // rows too, which a join adds to records (each lead's count of visits: records/kept-join.ts).
  const many = rows.length >= LINKED_FROM && !computed.overflow; // not cut: a link would hold the same part
  const kept = keep && (rows.length > shown.length || (asFile && rows.length > 0) || many);
  const full: FullResult | undefined = kept
    ? {
        // count_by's rows are values with their counts, not records: the link says "count rows" (trial s4, T06);
        // per's are rows of records rolled up (review s32, 11).
        kind: spec.countBy ? "count rows" : computed.from !== undefined ? "rows" : "records",
        items: rows,
        ...(columnsOf(computed) ? { columns: columnsOf(computed) } : {}),
        ...(computed.next ? { nextCursor: cursorOf(input, computed.next) } : {}),
        ...(asFile ? { file: true } : {}),
        ...(!spec.countBy && rows.length < compute.read ? { of: compute.read } : {}),
        ...(computed.overflow ? { before: all.length } : {}),
      }
    : undefined;
  const data: Shaped = {
    result: shown,
    complete: resumeAt === undefined && (shown.length === rows.length || kept),
    ...(resumeAt ? { next_cursor: cursorOf(input, resumeAt) } : {}),
    warnings: [],
    record_errors: [],
    pages: computed.pages,
    calls_used: computed.calls,
    request_ids: [],
    computed: {
      ...figures(compute),
      ...(limited.length < all.length ? { before_limit: all.length } : {}),
    },
  };
  const counts = {
    read: rows.length,
    shown: shown.length,
    kept,
    end: computed.next === undefined,
    ...(limited.length < all.length ? { beforeLimit: all.length } : {}),
    ...(spec.each ? eachTies(all, spec) : {}),
  };
  const columns = spec.countBy ? columnsOf(computed) : undefined;
  const also = countedResult(input, ctx, computed, data.warnings);
  const links = { ...(full ? { full } : {}), ...(also ? { also } : {}) };
  return { data, counts, ...links, ...(columns ? { columns } : {}) };
}

/** keep_counted on a read that stopped before its end: its records counted are a part, not linked. */
const CUT_COUNTED =
  "keep_counted: the read stopped before its end (max_items, max_pages, paginate false or a cap), so the records counted are a part and are not linked: read them all (paginate true, max_items and max_pages high enough), or narrow with where.";

/**
 * keep_counted: the records count_by counted, kept beside its count rows for a next call's in result(…) or join
 * (trial s43, N598, N601: a second call printed them only for a link); when none can be kept, a warning says why.
 */
function countedResult(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  computed: Computed,
  warnings: string[],
): FullResult | undefined {
  const { compute } = computed;
  if (!input.keep_counted || !compute.spec.countBy) return undefined;
  const rows = compute.retained?.rows;
  // A read that stopped before its end counted a part: not handed on as the whole (review s53, 1).
  if (
    rows &&
    (computed.next !== undefined || computed.stoppedBy !== undefined || computed.cut !== undefined)
  ) {
    warnings.push(CUT_COUNTED);
    return undefined;
  }
  // "of N read" only when where kept some (review s53, 5: said with neither, and of per's rows).
  if (rows)
    return {
      kind: computed.unit === "row" ? "rows" : "records",
      items: rows,
      ...(compute.spec.where && compute.matched < compute.read ? { of: compute.read } : {}),
    };
  warnings.push(
    ctx.fullResults === undefined
      ? "keep_counted: this client keeps no results (the CLI); over MCP the records counted are linked."
      : computed.compute.retained
        ? `keep_counted: the records counted pass the most one kept result holds (${n(ctx.fullResults.maxBytes)} bytes as JSON): narrow them with where${computed.file ? ", or run the call without count_by and keep_counted: an export's records are linked as a file, which holds more" : ""}.`
        : "keep_counted: this read kept no records counted.",
  );
  return undefined;
}

/** The rows an answer shows: those within its bytes, or a preview of a set that is linked. */
function shownOf(
  rows: Record<string, unknown>[],
  computed: Computed,
  keep: boolean,
): Record<string, unknown>[] {
  const spec = computed.compute.spec;
  // An export's file, per's rows and limit per's records are sets more often handed on (in result(…), join) than
  // read: many of them are previewed beside their link, as a file is (trial s39: N558 printed 11,000 to 20,000
  // characters of per's rows three times, N561 28,000 of each lead's first activity, for a link).
  const preview =
    keep && !spec.countBy && (computed.file === true || computed.from !== undefined || !!spec.each);
  const capped = capItems(rows, MAX_RESULT_BYTES, true).items;
  const previewRows = spec.order ? RANKED_PREVIEW_ROWS : PREVIEW_ROWS;
  const cut = preview && rows.length > WHOLE_FILE_ROWS && previewRows < MOST * rows.length && !fewChars(rows);
  const shown = cut ? capped.slice(0, previewRows) : capped;
  if (preview) return withinChars(shown, !cut);
  // Count rows past the answer's bytes are a part anyway, linked whole: the first within PREVIEW_CHARS (trial s45,
  // N621: 334 of 677 per-lead rows, 23,000 characters, printed only for the link).
  return keep && spec.countBy && capped.length < rows.length ? withinChars(capped, false) : shown;
}

/** limit per's groups whose cut falls in a tie of the sort: order_by's fields, else count_by's count. */
function eachTies(
  all: readonly Record<string, unknown>[],
  spec: RecordCompute["spec"],
): { tiedGroups?: number } {
  if (!spec.each) return {};
  const keys = tieKeys(spec);
  const tied = keys.length === 0 ? 0 : tiedGroups(all, spec.each, keys);
  return tied > 0 ? { tiedGroups: tied } : {};
}

/** The figures the answer's computed holds: what was read, matched and counted. */
function figures(compute: RecordCompute): NonNullable<Shaped["computed"]> {
  return {
    read: compute.read,
    matched: compute.matched,
    // A pivot's groups are its filled cells, a figure next to no count shown (trial s10, N58: "groups":115
    // beside 20 rows): its rows and columns are given instead.
    ...(compute.pivot
      ? { rows: compute.pivot.rows.length, columns: compute.pivot.columns.length }
      : compute.groups !== undefined
        ? { groups: compute.groups }
        : {}),
    ...(compute.kept
      ? { groups_at_min_count: compute.kept.groups, records_at_min_count: compute.kept.records }
      : {}),
    ...(compute.spellings !== undefined ? { spellings: compute.spellings } : {}),
    ...(compute.sumTotal !== undefined ? { sum: compute.sumTotal } : {}),
    // Counted through a list with a sum outside it, the rows add a record's sum once per item (review s27, 9).
    ...(compute.sumTotal !== undefined && compute.recordsSum !== compute.sumTotal && outsideSum(compute)
      ? { records_sum: compute.recordsSum }
      : {}),
  };
}

/** The columns of what is kept: count_by's fields, count (records with count_distinct, spellings ignoring case), a pivot's row fields, columns and total, or the file's columns. */
function columnsOf(computed: Computed): readonly string[] | undefined {
  const columns = countColumns(computed);
  return columns && computed.compute.labels.length > 0
    ? labelledColumns(columns, computed.compute.labels)
    : columns;
}

function countColumns(computed: Computed): readonly string[] | undefined {
  const countBy = computed.compute.spec.countBy;
  const spec = computed.compute.spec;
  const pivot = computed.compute.pivot;
  if (countBy && pivot) {
    return [
      ...countBy.filter((f) => f !== pivot.field),
      ...pivot.columns,
      ...(spec.distinct ? [] : ["total"]),
      // The rates order_by asked for, after them (review s55, F1: left out of the CSV and the console's table).
      ...(pivot.rates ?? []).map((rate) => rate.name),
    ];
  }
  if (countBy) {
    return [...countBy, ...countColumnNames(spec)];
  }
  return computed.columns;
}
