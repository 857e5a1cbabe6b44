/**
 * A Marketo call's answer, shaped for an agent: as many records as fit the output cap, the exact
 * position of the first one not shown (a cursor, and Marketo's own token or offset when they are
 * exact), and, for an adapter that keeps whole results, everything that was read.
 */

import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import { PAGING_TOKEN_PATH } from "../../connectors/marketo/activities.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { positionOf } from "../../connectors/marketo/pagination.js";
import type { MarketoCallResult, MarketoUpload, ResumePosition } from "../../connectors/marketo/types.js";
import { jsonBytes } from "../../json-size.js";
import {
  DEFAULT_MAX_ITEMS,
  type MarketoApiCallInput,
  type MarketoApiCallOutput,
} from "../../schemas/marketo.js";
import { capItems, LINKED_FROM, MAX_RESULT_BYTES, moreWarning } from "../output-cap.js";
import type { FullResult, ToolContext } from "../types.js";
import { activityStartWords } from "./activity-start.js";
import { type ActivityNaming, nameRecords } from "./activity-types.js";
import { listCalls, sendInTurn } from "./list-split.js";
import { pathNote } from "./path-notes.js";
import { cursorOf } from "./position.js";
import type { ProgramTypeFilter } from "./program-type.js";
import { writes } from "./write-answer.js";

export type Shaped = Omit<MarketoApiCallOutput, "daily_calls_remaining">;

/** What the summary says of a read: how many records were read, how many are shown, whether all are linked. */
export interface ReadCounts {
  read: number;
  shown: number;
  /** The whole read is kept and linked beside the answer. */
  kept: boolean;
  /** The read reached the end of what Marketo has for this request. */
  end: boolean;
  /** What max_items kept of a read without paginate, when it cut the page. */
  cut?: PlainCut;
  /** The results before limit cut them to `read` (where, order_by, count_by applied). */
  beforeLimit?: number;
  /** With limit per: the groups whose first row left out ties their last kept on the sort (limit-each.ts). */
  tiedGroups?: number;
}

/** A read without paginate that max_items cut: it kept the first `kept` of the `of` records of its one page. */
export interface PlainCut {
  kept: number;
  of: number;
  /** Marketo has pages after this one (paginate true reads them). */
  more: boolean;
}

/**
 * max_items on a GET without paginate: the first max_items records of its page, the rest left to the cursor.
 * It applied only to paged reads and files, so a fresh agent that gave max_items 2 to see a list's fields got
 * all 91 members (agent trial s9, N52). Cut before the program type filter, which counts what was read.
 */
function cutPlain(input: MarketoApiCallInput, result: MarketoCallResult): PlainCut | undefined {
  const max = input.max_items;
  if (input.method !== "GET" || input.paginate || max === undefined || result.result.length <= max) {
    return undefined;
  }
  const cut = { kept: max, of: result.result.length, more: result.next !== undefined };
  result.next = positionOf(result, max);
  result.result = result.result.slice(0, max);
  result.recordErrors = result.recordErrors.filter((error) => error.index < max);
  result.stoppedBy = "maxItems";
  result.complete = false;
  // Marketo's token and offset point past the whole page: only the cursor continues inside it.
  delete result.nextPageToken;
  delete result.nextOffset;
  return cut;
}

/** A read's answer as the step hands it on. */
export interface ReadAnswer {
  data: Shaped;
  full?: FullResult;
  /** keep_counted: the records count_by counted (ToolResult.also). */
  also?: FullResult;
  counts: ReadCounts;
  /** What was read, when it is not a list of records (an export file's rows, a paging token). */
  described?: string;
  /** The whole summary, when the reader words it itself (computed reads, exports run to completion). */
  summary?: string;
  /** Where names added to the records came from, each said after the summary as "Names: …". */
  notes?: string[];
  /** The order of `data.result`'s columns (ToolResult.columns), when the rows' keys do not keep it. */
  columns?: readonly string[];
}

/** Records as the output schema has them: objects (a bare value, which Marketo does not send, is wrapped). */
export function asRecords(items: readonly unknown[]): Record<string, unknown>[] {
  return items.map((item) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : { value: item },
  );
}

export const RESUME_WORDS = "cursor = next_cursor (same method, endpoint and query_parameters)";

function exactWords(next: ResumePosition): string {
  if (next.skip) return "";
  if (next.nextPageToken !== undefined) return ", or query_parameters.nextPageToken = next_page_token";
  if (next.offset !== undefined) return ", or query_parameters.offset = next_offset";
  return "";
}

/** What a read has done so far, in the words its progress uses ("Page 3, 600 records read"). */
export interface ReadSoFar {
  page: number;
  items: number;
}

export const readSoFarWords = (seen: ReadSoFar): string =>
  `Page ${seen.page}, ${seen.items.toLocaleString("en-US")} record${seen.items === 1 ? "" : "s"} read`;

interface ReadOptions {
  /** Updated after each page, so that a wait between pages can say how far the read got. */
  seen: ReadSoFar;
  /** The endpoint as the step checked it: passed on, so the connector does not check it again. */
  path: CheckedPath;
  resume: ResumePosition | undefined;
  byType: ProgramTypeFilter | undefined;
  /** A bulk import's file (upload.ts). */
  upload?: MarketoUpload | undefined;
  /** Set for activity reads: each record is named by its type. */
  naming?: ActivityNaming | undefined;
  onWait: NonNullable<Parameters<MarketoConnector["call"]>[0]["onWait"]>;
}

/** Many records shown whole are kept too, for a later where or join (LINKED_FROM; trial s36, N533). */
const linked = (input: MarketoApiCallInput, records: readonly unknown[]): boolean =>
  input.method === "GET" && records.length >= LINKED_FROM;

export async function readCalls(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: ReadOptions,
): Promise<ReadAnswer> {
  const { byType } = options;
  const keep = ctx.fullResults?.maxBytes;
  const result = await callMarketo(input, marketo, ctx, options, keep);
  if (options.path.value === PAGING_TOKEN_PATH) return pagingToken(result);
  const cut = cutPlain(input, result);
  // Activities named by their type before anything is measured or capped (the cap counts the names too).
  result.result = await nameRecords(asRecords(result.result), options.naming);
  result.callsUsed += options.naming?.calls ?? 0;
  const warnings = [...result.warnings];
  const records = asRecords(byType ? result.result.filter(byType.keeps) : result.result);
  const start = options.resume ? undefined : activityStartWords(input, records[0]);
  if (start) warnings.unshift(start);
  const note = options.resume ? undefined : pathNote(input);
  if (note) warnings.push(note);
  if (byType) warnings.push(byType.warning(result.result.length, records.length));
  // A write's statuses are never cut by size: the summary counts them all, and write-answer.ts lists only
  // the exceptions when the client keeps the whole (review s22, finding 1: a cut answer said "added 1,589" of 2,000).
  const capped = writes(input) ? { items: records, dropped: 0 } : capItems(records, MAX_RESULT_BYTES, true);
  // Positions count what Marketo returned, filtered out or not: resume right after the last record shown.
  const last = capped.items.at(-1);
  const raw = last === undefined ? -1 : result.result.indexOf(last);
  const notShown = capped.dropped === 0 ? result.result.length : raw < 0 ? capped.items.length : raw + 1;
  const next = positionOf(result, notShown);
  const kept = keep !== undefined && (capped.dropped > 0 || linked(input, records));
  const counts: ReadCounts = {
    read: records.length,
    shown: capped.items.length,
    kept,
    end: result.next === undefined,
    ...(cut ? { cut } : {}),
  };
  if (next && (capped.dropped > 0 || result.stoppedBy)) {
    warnings.push(
      moreWarning({
        unit: "records",
        shown: capped.items.length,
        read: records.length,
        capped: capped.dropped > 0,
        resume: `${RESUME_WORDS}${exactWords(next)}`,
        kept,
        sizes: { shown: jsonBytes(capped.items), read: jsonBytes(records) },
      }),
    );
  }
  // The token that picks up later activity belongs to the end of the read, not to a cut answer.
  const extra = { ...result.extra };
  if (next) delete extra.lastPageToken;
  const data: Shaped = {
    result: capped.items,
    complete: next === undefined,
    ...(next ? { next_cursor: cursorOf(input, { page: next }) } : {}),
    ...(next && !next.skip && next.nextPageToken !== undefined
      ? { next_page_token: next.nextPageToken }
      : {}),
    ...(next?.offset !== undefined ? { next_offset: next.offset } : {}),
    warnings,
    record_errors: result.recordErrors,
    pages: result.pages,
    calls_used: result.callsUsed,
    request_ids: result.requestIds,
    ...(result.translatedFrom ? { translated_from: result.translatedFrom } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
  if (!kept) return { data, counts };
  return {
    data,
    counts,
    full: {
      kind: "records",
      items: records,
      ...(result.next ? { nextCursor: cursorOf(input, { page: result.next }) } : {}),
    },
  };
}

/**
 * GET /rest/v1/activities/pagingtoken.json answers a token, not a page of records: there is nothing
 * more to read from it, and the token is for the activity reads (activities.json, leadchanges.json,
 * deletedleads.json) as their nextPageToken
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/paging-tokens).
 */
function pagingToken(result: MarketoCallResult): ReadAnswer {
  const token = result.nextPageToken ?? result.next?.nextPageToken;
  const data: Shaped = {
    result: [],
    complete: true,
    ...(token !== undefined ? { next_page_token: token } : {}),
    warnings: result.warnings,
    record_errors: result.recordErrors,
    pages: result.pages,
    calls_used: result.callsUsed,
    request_ids: result.requestIds,
  };
  const described =
    token === undefined
      ? "no paging token"
      : "a paging token (next_page_token), not records: read the activities since that time with GET " +
        "/rest/v1/activities.json, query_parameters { nextPageToken: next_page_token, activityTypeIds: " +
        '"<ids or names from GET /rest/v1/activities/types.json, or all>" }, paginate true (or give /rest/v1/activities.json ' +
        "sinceDatetime instead: this tool fetches the token itself)";
  return { data, counts: { read: 0, shown: 0, kept: false, end: true }, described };
}

/** The call itself, paginated when asked (read no further than the answer can show), with progress per page. */
function callMarketo(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: ReadOptions,
  keep: number | undefined,
): Promise<MarketoCallResult> {
  const { byType } = options;
  const calls = listCalls(input, options.path.value);
  if (calls) return sendInTurn(calls, (part) => callMarketo(part, marketo, ctx, options, keep));
  return marketo.call({
    method: input.method,
    path: options.path,
    query: byType ? byType.query : input.query_parameters,
    body: input.body,
    ...(options.upload ? { file: options.upload } : {}),
    signal: ctx.signal,
    onWait: options.onWait,
    ...(options.resume ? { resume: options.resume } : {}),
    paginate: input.paginate
      ? {
          maxPages: input.max_pages,
          maxItems: input.max_items ?? DEFAULT_MAX_ITEMS,
          // Without an adapter that keeps whole results, read no further than the answer can show.
          maxBytes: keep ?? MAX_RESULT_BYTES,
          // One unit throughout: records fetched (waits report the same count).
          onPage: ({ page, items, records }) => {
            options.seen.page = page;
            options.seen.items = items;
            if (records && ctx.partial) ctx.partial(byType ? records.filter(byType.keeps) : records);
            ctx.progress({
              progress: items,
              total: input.max_items ?? DEFAULT_MAX_ITEMS,
              message: readSoFarWords(options.seen),
            });
          },
        }
      : false,
  });
}
