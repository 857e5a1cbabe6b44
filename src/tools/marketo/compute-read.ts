/**
 * A REST read with where, order_by or count_by: the pages stream in (MarketoConnector.pages()), every
 * record is seen once as it arrives (tools/records/compute.ts) and only what the answer needs is held:
 * the matching records (where, order_by) with the exact position of each, or one counter per value
 * (count_by). So the caps that stop a read count what it keeps: matching records up to the kept-result
 * byte limit, while max_items and max_pages count what it reads, as they do without where.
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { within } from "../../connectors/marketo/pagination.js";
import type { OnWait, ResumePosition, StreamedPage } from "../../connectors/marketo/types.js";
import { itemBytes } from "../../json-size.js";
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import type { RecordCompute } from "../records/compute.js";
import type { PerGroups } from "../records/per.js";
import type { ToolContext } from "../types.js";
import type { ActivityPairs } from "./activity-pairs.js";
import { activityStartWords } from "./activity-start.js";
import { type ActivityNaming, nameRecords } from "./activity-types.js";
import { type Computed, computedAnswer, keptBytesFor } from "./compute-answer.js";
import { computedSummary } from "./compute-words.js";
import { nameCounted, namesCalls } from "./id-names.js";
import { rolledUp } from "./joined-answer.js";
import { joinedPages, type LeadJoin } from "./lead-join.js";
import type { Labeler } from "./membership-names.js";
import { pathNote } from "./path-notes.js";
import type { ProgramTypeFilter } from "./program-type.js";
import { asRecords, type ReadAnswer } from "./read-calls.js";

export interface ComputeReadOptions {
  path: CheckedPath;
  resume: ResumePosition | undefined;
  byType: ProgramTypeFilter | undefined;
  onWait: OnWait;
  compute: RecordCompute;
  /** Set for activity reads: each record is named by its type. */
  naming: ActivityNaming | undefined;
  /** Set for a lead's membership reads: each record gets its list's, program's or campaign's name. */
  label?: Labeler | undefined;
  /**
   * With `previous`: each record gets the activity before it, as it is read; with `next`, the one after it, once
   * the whole read is in (activity-pairs.ts).
   */
  pairer?: ActivityPairs | undefined;
  /** With `per`: the matching records are rolled up into it, not kept, and its rows answered (joined-answer.ts). */
  per?: PerGroups | undefined;
  /** With `lead_fields`: each record gets its lead's fields, as it is read (lead-join.ts). */
  leads?: LeadJoin | undefined;
}

interface Walk {
  kept: Record<string, unknown>[];
  positions: ResumePosition[];
  bytes: number;
  /** Records Marketo returned, before the program type filter. */
  received: number;
  pages: number;
  calls: number;
  warnings: string[];
  requestIds: string[];
  next: ResumePosition | undefined;
  stoppedBy?: "bytes" | "items" | "pages" | "limit";
  /** Without paginate, max_items cut the one page: the records it held. */
  pageRecords?: number;
  /** With next, the read whole: the matching records past the kept bytes, seen (in the figures) but not kept. */
  overflow?: number;
  /** With next and limit in read order: the matching records after the first ones limit needs, not kept. */
  beyondLimit?: number;
}

export async function computeRead(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: ComputeReadOptions,
): Promise<ReadAnswer> {
  const { compute } = options;
  const walk = await readPages(input, marketo, ctx, options);
  if (options.per) return perRead(input, ctx, walk, { ...options, per: options.per }, marketo);
  const names = await nameCounted(compute, { marketo, signal: ctx.signal, onWait: options.onWait });
  const computed: Computed = {
    compute,
    kept: walk.kept,
    // previous pairs over one whole read: no cursor resumes it part-way (review s32, finding 2).
    positions: options.pairer ? [] : walk.positions.map((page) => ({ page })),
    // The whole read's matches, of which a sort refused past the bytes holds part (review s36, 3).
    ...(walk.overflow !== undefined ? { matchedAll: walk.kept.length + walk.overflow } : {}),
    next: walk.next && !options.pairer ? { page: walk.next } : undefined,
    ...(walk.stoppedBy ? { stoppedBy: walk.stoppedBy } : {}),
    ...(walk.pageRecords !== undefined ? { pageRecords: walk.pageRecords } : {}),
    pages: walk.pages,
    calls: walk.calls + extraCalls(options) + namesCalls(names),
    unit: "record",
    ...(names ? { names } : {}),
  };
  const answer = computedAnswer(input, ctx, computed);
  if (walk.beyondLimit) beforeLimit(answer, walk.kept.length + walk.beyondLimit);
  answer.data.warnings.unshift(...walk.warnings);
  answer.data.request_ids = walk.requestIds;
  const calls = answer.data.calls_used;
  const head =
    `${input.method} ${input.endpoint}: ${plural(compute.read, "record")} read in ${plural(walk.pages, "page")}, ` +
    plural(calls, "call") +
    joinWords(options) +
    (options.pairer && walk.next ? `; ${pairedCut(input, walk, options.pairer)}` : "") +
    (walk.overflow ? `; ${overflowWords(walk)}` : "");
  if (options.pairer && (walk.next || walk.overflow)) answer.data.complete = false;
  return { ...answer, summary: computedSummary(input, computed, answer, head) };
}

/**
 * A read with next, whole, whose matching records pass what one answer holds: its figures are of every record,
 * and only the records kept are cut (review s35, 1: it was said as a read that stopped, its figures a prefix's).
 */
function overflowWords(walk: Walk): string {
  const kept = walk.kept.length;
  const matching = `${n(kept + (walk.overflow ?? 0))} matching records`;
  // A cut read is said as such (pairedCut); the figures are then of the records read (review s36, 4).
  const whole = walk.next ? `${matching} among those read` : `${matching} (the figures are of them all)`;
  return `the answer holds the first ${n(kept)} of the ${whole}, the most one answer holds: narrow with where, or count with count_by`;
}

/** limit's first records of a read with next, and the matching ones after them, counted but not kept. */
function beforeLimit(answer: ReadAnswer, all: number): void {
  answer.counts.beforeLimit = all;
  if (answer.data.computed) answer.data.computed.before_limit = all;
}

/** A paired read that stopped: what to raise, since no cursor continues it (review s32, finding 2). */
function pairedCut(input: MarketoApiCallInput, walk: Walk, pairs: ActivityPairs): string {
  const fix = !input.paginate
    ? "give paginate true"
    : walk.stoppedBy === "pages"
      ? `raise max_pages (now ${n(input.max_pages)}, at most 200)`
      : walk.stoppedBy === "bytes"
        ? "the answer holds no more records: narrow with where, or count with count_by"
        : `raise max_items (now ${n(input.max_items ?? DEFAULT_MAX_ITEMS)}, at most 100,000)`;
  // The last records read may have their next one among those not read.
  const unread = pairs.wholeRead ? ", and a record with no next may have one after the last read" : "";
  return `the read stopped before its end, and ${pairs.names} ${pairs.list.length > 1 ? "pair" : "pairs"} over one whole read, so no cursor continues it: ${fix}; the figures below cover only the records read${unread}`;
}

/** The pages, each record seen once; stops at max_pages, max_items (records read) or the kept bytes. */
async function readPages(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: ComputeReadOptions,
): Promise<Walk> {
  const { compute, byType } = options;
  const keptBytes = keptBytesFor(ctx, compute);
  const maxItems = input.paginate ? (input.max_items ?? DEFAULT_MAX_ITEMS) : Number.POSITIVE_INFINITY;
  const plainCap = input.paginate ? undefined : input.max_items;
  const { spec } = compute;
  const firstOnly = spec.limit !== undefined && !spec.order && !spec.countBy ? spec.limit : undefined;
  const walk = emptyWalk();
  let at: ResumePosition = options.resume ?? {};
  const ahead = { calls: 0 };
  const pages = pagesOf(input, marketo, ctx, options, { maxItems, ahead });
  // next pairs over the whole read: its pages are held, and where, count_by and the caps see them after.
  const held: { records: Record<string, unknown>[]; at: ResumePosition }[] = [];
  const whole = options.pairer?.wholeRead === true;
  for await (const page of pages) {
    walk.pages += 1;
    walk.calls = page.callsUsed;
    walk.warnings.push(...page.warnings.filter((w) => !walk.warnings.includes(w)));
    if (page.requestId) walk.requestIds.push(page.requestId);
    // Without paginate, max_items keeps the first records of the one page (trial s9, N52), as readCalls does.
    const keep = plainCap !== undefined && page.result.length > plainCap ? plainCap : page.result.length;
    if (keep < page.result.length) walk.pageRecords = page.result.length;
    const records = await prepared(input, walk, options, page.result.slice(0, keep));
    if (whole) held.push({ records, at });
    else take(walk, records, at, ctx, options);
    const count = whole ? walk.received : compute.read;
    ctx.progress({ progress: count, message: progressWords(walk.pages, count, whole ? undefined : compute) });
    walk.next = keep < page.result.length ? within(at, keep) : page.next;
    if (walk.pageRecords !== undefined) {
      walk.stoppedBy = "items";
      break;
    }
    // In read order the first `limit` are known once kept: the pages after them are not read (review s23, 6).
    if (firstOnly !== undefined && walk.kept.length >= firstOnly && page.next) {
      walk.stoppedBy = "limit";
      break;
    }
    if (!page.next) break;
    at = page.next;
    if (walk.bytes >= keptBytes) {
      walk.stoppedBy = "bytes";
      break;
    }
  }
  if (whole) takeWhole(walk, held, ctx, options, keptBytes);
  // Pages held for their leads' join, read before the reader stopped, were spent all the same.
  walk.calls = Math.max(walk.calls, ahead.calls);
  walk.requestIds.push(...(options.leads?.requestIds ?? []));
  if (walk.next && !walk.stoppedBy) walk.stoppedBy = compute.read >= maxItems ? "items" : "pages";
  if (byType) walk.warnings.push(byType.warning(walk.received, compute.read));
  return walk;
}

/** A page's records named, labelled and paired with the activity before each; the read's first words. */
async function prepared(
  input: MarketoApiCallInput,
  walk: Walk,
  options: ComputeReadOptions,
  result: unknown[],
): Promise<Record<string, unknown>[]> {
  const named = await nameRecords(asRecords(result), options.naming);
  const records = options.label ? await options.label.label(named) : named;
  options.pairer?.stream(records);
  const first = walk.received === 0 && !options.resume;
  const start = first ? activityStartWords(input, records[0]) : undefined;
  if (start) walk.warnings.unshift(start);
  const note = first ? pathNote(input) : undefined;
  if (note) walk.warnings.push(note);
  walk.received += records.length;
  return records;
}

/** Each record seen once: where, count_by and the rest; the matching ones kept (or rolled up by per). */
function take(
  walk: Walk,
  records: Record<string, unknown>[],
  at: ResumePosition,
  ctx: ToolContext,
  options: ComputeReadOptions,
): void {
  const keptNow: Record<string, unknown>[] = [];
  records.forEach((record, index) => {
    if (!seen(record, options)) return;
    if (options.per) {
      options.per.add(record);
      return;
    }
    walk.kept.push(record);
    walk.positions.push(within(at, index));
    walk.bytes += itemBytes(record);
    keptNow.push(record);
  });
  if (keptNow.length > 0) ctx.partial?.(keptNow);
}

/** A record seen by the figures (where, count_by): whether it matches. */
const seen = (record: Record<string, unknown>, options: ComputeReadOptions): boolean =>
  (!options.byType || options.byType.keeps(record)) && options.compute.see(record);

/** next's held pages, once the read is whole: paired, then seen page by page up to the kept bytes. */
function takeWhole(
  walk: Walk,
  held: readonly { records: Record<string, unknown>[]; at: ResumePosition }[],
  ctx: ToolContext,
  options: ComputeReadOptions,
  keptBytes: number,
): void {
  options.pairer?.finish(held.flatMap((page) => page.records));
  const { spec } = options.compute;
  // limit in read order needs its first records only (review s36, 1: the rest are counted before limit).
  const limit = spec.limit !== undefined && !spec.order && !spec.countBy ? spec.limit : undefined;
  let overflow = 0;
  for (const page of held) {
    if (walk.bytes < keptBytes && (limit === undefined || walk.kept.length < limit)) {
      take(walk, page.records, page.at, ctx, options);
    }
    // Past what the answer holds or limit needs: still in the figures (where, count_by), not kept.
    else for (const record of page.records) if (seen(record, options)) overflow += 1;
  }
  if (overflow === 0) return;
  if (limit !== undefined && walk.kept.length >= limit) walk.beyondLimit = overflow;
  else walk.overflow = overflow;
  // A sort needs every matching record at once: refused, as a read that passes the bytes is (compute-answer.ts).
  if (spec.order) walk.stoppedBy = "bytes";
}

/** The read's pages; with lead_fields, joined to their leads a few pages at once (lead-join.ts). */
function pagesOf(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: ComputeReadOptions,
  { maxItems, ahead }: { maxItems: number; ahead: { calls: number } },
): AsyncIterable<StreamedPage> {
  const read = marketo.pages(
    {
      method: input.method,
      path: options.path,
      query: options.byType ? options.byType.query : input.query_parameters,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onWait: options.onWait,
      ...(options.resume ? { resume: options.resume } : {}),
    },
    { maxPages: input.paginate ? input.max_pages : 1, maxItems },
  );
  // limit in read order may stop after a page: its leads are read with it, not 300 ahead (review s33, 3).
  const { spec } = options.compute;
  // Not with where: it may keep few records a page, and each page's leads then cost a call (review s34, 2).
  // Nor with next, which reads the whole read whatever limit says (review s35, 10).
  const eager =
    spec.limit !== undefined && !spec.order && !spec.countBy && !spec.where && !options.pairer?.wholeRead;
  return options.leads ? joinedPages(read, options.leads, { ahead, eager }) : read;
}

/** per's rows of a paged read: the read's figures, then count_by, order_by, sum and limit over the rows. */
function perRead(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  walk: Walk,
  options: ComputeReadOptions & { per: PerGroups },
  marketo: MarketoConnector,
): Promise<ReadAnswer> {
  const { compute } = options;
  const calls = walk.calls + extraCalls(options);
  const head = (spent: number) =>
    `${input.method} ${input.endpoint}: ${plural(compute.read, "record")} read in ${plural(walk.pages, "page")}, ` +
    plural(spent, "call") +
    joinWords(options);
  // Without paginate one page is read whatever max_pages says (review s32, finding 6).
  const limit = !input.paginate
    ? "give paginate true"
    : walk.stoppedBy === "pages"
      ? "raise max_pages (at most 200)"
      : "raise max_items (at most 100,000)";
  // next's caveat holds for per's rows too (review s35, 6).
  const unread = options.pairer?.wholeRead
    ? ", and a record with no next may have one after the last read"
    : "";
  const cut = walk.next ? `the read stopped before its end: ${limit}${unread}` : undefined;
  const base = {
    warnings: walk.warnings,
    record_errors: [],
    pages: walk.pages,
    calls_used: calls,
    request_ids: walk.requestIds,
  };
  const reader = { marketo, signal: ctx.signal, onWait: options.onWait };
  return rolledUp(input, ctx, compute, options.per, {
    head,
    base,
    cut,
    itemsCut: walk.stoppedBy === "items",
    reader,
  });
}

/** The calls spent beside the pages: types' names, memberships' names, the leads of lead_fields. */
const extraCalls = (options: ComputeReadOptions): number =>
  (options.naming?.calls ?? 0) + (options.label?.calls ?? 0) + (options.leads?.calls ?? 0);

/** What previous and lead_fields added to the records, for the head of the summary (grouped reads' too). */
export const joinWords = (options: Pick<ComputeReadOptions, "leads" | "pairer">): string =>
  (options.leads ? `; ${options.leads.words()}` : "") + (options.pairer ? `; ${options.pairer.words()}` : "");

const emptyWalk = (): Walk => ({
  kept: [],
  positions: [],
  bytes: 0,
  received: 0,
  pages: 0,
  calls: 0,
  warnings: [],
  requestIds: [],
  next: undefined,
});

/** `compute` when where is tested as the pages come (not while next holds them). */
function progressWords(pages: number, read: number, compute: RecordCompute | undefined): string {
  const words = `Page ${pages}, ${n(read)} record${read === 1 ? "" : "s"} read`;
  return compute?.spec.where ? `${words}, ${n(compute.matched)} match` : words;
}
