/**
 * A fan-out's read (fan-out.ts): each id read through the connector as a single call is (limits, retries,
 * paging with paginate), a few at a time (the connector holds Marketo's 10 in flight and 100 per 20 s);
 * the records joined in the order of the ids, each tagged with the id it came from when it lacks that
 * field (count_by programId on members); then where, order_by, count_by and max_items over the whole.
 * An id Marketo refuses (610, 702, 1013...) or answers with nothing but a warning is reported, not fatal,
 * unless every id is.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoCallResult, OnWait } from "../../connectors/marketo/types.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { UpstreamError } from "../../errors.js";
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { capItems, LINKED_FROM, MAX_RESULT_BYTES } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import type { PerGroups } from "../records/per.js";
import type { ToolContext } from "../types.js";
import { JOINED_READ_BYTES } from "./compute-answer.js";
import { readBeforeWords } from "./compute-words.js";
import { endpointFor, type FanOut } from "./fan-out.js";
import {
  failed,
  type Id,
  type IdRead,
  idsWords,
  NO_PATH,
  noneGave,
  noneWords,
  statusWords,
} from "./fan-out-none.js";
import { computedJoined } from "./joined-answer.js";
import { type LeadJoin, leadFreeTest } from "./lead-join.js";
import type { Labeler } from "./membership-names.js";
import { asRecords, type ReadAnswer, type Shaped } from "./read-calls.js";

/** Reads in flight at once: a few, well under Marketo's 10 (other calls share them). */
const IN_FLIGHT = 4;

export interface FanOutOptions {
  fan: FanOut;
  onWait: OnWait;
  compute: RecordCompute | undefined;
  /** With `per`: the records rolled up, one row per value (records/per.ts). */
  per?: PerGroups | undefined;
  /** With `lead_fields`: each record gets its lead's fields (lead-join.ts). */
  leads?: LeadJoin | undefined;
  /** A membership read whose where, order_by or count_by name the list, program or campaign name (membership-names.ts). */
  label?: Labeler | undefined;
}

/** What one id is called in the summary: the path segment before the placeholder, singular ("program"). */
function idWord(fan: FanOut): string {
  const before = fan.template.split(`{${fan.name}}`)[0]?.split("/").filter(Boolean).at(-1) ?? "";
  return /^[a-z]+$/i.test(before) ? before.replace(/s$/, "") : "id";
}

async function readOne(
  id: Id,
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: FanOutOptions & { maxItems: number },
): Promise<IdRead> {
  const path = checkMarketoPath(endpointFor(options.fan, id));
  // Counted or computed, every record read counts (count_by keeps no records); shown, the answer's bytes.
  const maxBytes = options.compute ? JOINED_READ_BYTES : (ctx.fullResults?.maxBytes ?? MAX_RESULT_BYTES);
  try {
    const result = await marketo.call({
      method: "GET",
      path,
      query: options.fan.query,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onWait: options.onWait,
      paginate: input.paginate ? { maxPages: input.max_pages, maxItems: options.maxItems, maxBytes } : false,
    });
    return { id, result };
  } catch (error) {
    // Marketo refused this id (its own code): the others still count. Anything else (auth, limits,
    // network, a cancel) would fail every id alike, so it fails the call.
    if (error instanceof UpstreamError && error.serviceCode) return { id, refused: error };
    throw error;
  }
}

/** Every id read, IN_FLIGHT at a time, answers in the order of the ids; none once max_items records are read. */
async function readAll(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: FanOutOptions,
): Promise<IdRead[]> {
  const { ids } = options.fan;
  const limit = input.max_items ?? DEFAULT_MAX_ITEMS;
  const reads: IdRead[] = new Array(ids.length);
  let next = 0;
  let done = 0;
  let records = 0;
  // A read that fails the call stops the others: no call is sent after the answer.
  let stopped = false;
  const word = idWord(options.fan);
  const worker = async (): Promise<void> => {
    while (next < ids.length && !stopped) {
      const index = next++;
      const id = ids[index] as Id;
      const maxItems = limit - records;
      const read =
        maxItems > 0
          ? await readOne(id, input, marketo, ctx, { ...options, maxItems }).catch((error: unknown) => {
              stopped = true;
              throw error;
            })
          : { id, skipped: true as const };
      if ("result" in read) records += read.result.result.length;
      // A path Marketo does not have is so for every id: said after the first, not after a call per id (review
      // s29, finding 12: 200 calls before "did you mean").
      if ("refused" in read && NO_PATH.test(`${read.refused.message} ${read.refused.hint ?? ""}`)) {
        stopped = true;
        throw read.refused;
      }
      reads[index] = read;
      done += 1;
      ctx.progress({
        progress: done,
        total: ids.length,
        message: `${plural(done, word)} of ${n(ids.length)} read`,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, ids.length) }, worker));
  return reads;
}

/** The ids read without failing whose records all fall within the first `limit` joined. */
function whole(reads: IdRead[], limit: number): Id[] {
  let start = 0;
  const ids: Id[] = [];
  for (const read of reads) {
    if (!("result" in read)) continue;
    start += read.result.result.length;
    if (!failed(read) && start <= limit) ids.push(read.id);
  }
  return ids;
}

/**
 * Records of every id, each tagged with its id when it lacks the placeholder's field. A record whose own field
 * of that name holds something else (a form's fields, each with its own id, read from /form/{id}/fields.json)
 * is tagged under the path's word for it, formId, so that the joined fields still say their form (trial s17,
 * N174: "the joined fields carry no form id").
 */
function joined(reads: IdRead[], fan: Pick<FanOut, "name">, tag: string): Record<string, unknown>[] {
  const { name } = fan;
  // Every record tagged alike (tagField): a membership whose program id equals its lead's id keeps leadId too.
  return reads.flatMap((read) =>
    "result" in read
      ? asRecords(read.result.result).map((record) =>
          tag === name && name in record ? record : { ...record, [tag]: read.id },
        )
      : [],
  );
}

/**
 * The field that holds each record's path id: the placeholder's name, or the own tag when the records' field of that
 * name holds something else (a lead's program memberships: `id` is the program's; review s54, P2: the lead ids were
 * counted 0 as program ids).
 */
function tagField(reads: IdRead[], fan: Pick<FanOut, "name" | "template">): string {
  const records = reads.flatMap((read) =>
    "result" in read ? asRecords(read.result.result).map((record) => ({ record, id: read.id })) : [],
  );
  // No record to tell by: an {id} with a path after it reads something else of that id (a lead's memberships),
  // whose own id is not the path's (review s55, F4: leads in no program were counted 0 as program ids).
  if (records.length === 0)
    return fan.name === "id" && !fan.template.endsWith(`{${fan.name}}.json`) ? ownTag(fan) : fan.name;
  const other = records.some(
    ({ record, id }) => fan.name in record && String(record[fan.name]) !== String(id),
  );
  return other ? ownTag(fan) : fan.name;
}

/** "formId" for /rest/asset/v1/form/{id}/fields.json, "leadId" for /rest/v1/leads/{id}/…; else "path_<name>". */
function ownTag({ name, template }: Pick<FanOut, "name" | "template">): string {
  const word = new RegExp(`/([A-Za-z]+)/\\{${name}\\}`).exec(template)?.[1];
  // Singular, as Marketo names its ids: /leads/{id}/… tags leadId, not leadsId (review s23, finding 10).
  return word && name === "id" ? `${word.replace(/s$/, "")}Id` : `path_${name}`;
}

/**
 * The figures of the reads: the answers, their calls (one per refused id, and `more` spent beside them: the leads
 * of lead_fields), pages, warnings, request ids.
 */
function tally(reads: IdRead[], more: number) {
  const results = reads.flatMap((read) => ("result" in read ? [read.result] : []));
  const refused = reads.filter((read) => "refused" in read).length;
  const calls = results.reduce((sum, r) => sum + r.callsUsed, 0) + refused + more;
  return {
    read: results.length + refused,
    calls,
    base: {
      // An empty answer's warning is said with its id (noneWords).
      warnings: [...new Set(results.flatMap((r) => (r.result.length > 0 ? r.warnings : [])))],
      record_errors: results.flatMap((r) => r.recordErrors),
      pages: results.reduce((sum, r) => sum + r.pages, 0),
      calls_used: calls,
      request_ids: results.flatMap((r) => r.requestIds),
    },
  };
}

export async function fanOutRead(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: FanOutOptions,
): Promise<ReadAnswer> {
  const { fan } = options;
  const reads = await readAll(input, marketo, ctx, options);
  if (reads.every(failed)) throw noneGave(fan, reads, input.query_parameters?.status);
  const none = noneWords(reads);
  const word = idWord(fan);
  const limit = input.max_items ?? DEFAULT_MAX_ITEMS;
  const tag = tagField(reads, fan);
  const all = joined(reads, fan, tag);
  // Named before they are computed, as a read of one id's are (review s54, P1: where on listName was refused).
  const records = options.label ? await options.label.label(all.slice(0, limit)) : all.slice(0, limit);
  await options.leads?.join(records, leadFreeTest(options.compute?.spec));
  const { read, calls, base } = tally(reads, (options.leads?.calls ?? 0) + (options.label?.calls ?? 0));
  base.request_ids.push(...(options.leads?.requestIds ?? []));
  const cut = cutWords(input, word, reads, all.length > limit);
  if (cut) base.warnings.push(cut);
  const head = (spent: number) =>
    `GET ${fan.template}: ${plural(read, word)} read, ${plural(all.length, "record")}` +
    `${all.length > limit ? ` (the first ${n(limit)} kept, max_items)` : ""}, ${plural(spent, "call")}` +
    (none ? ` (${none}${statusWords(input.query_parameters?.status)})` : "") +
    (options.leads ? `; ${options.leads.words()}` : "");
  if (options.compute) {
    // count_by over the placeholder's field: an id read with no record (matching) still gets its row, count 0;
    // not an id Marketo has not (an empty answer with its warning), nor one whose records max_items left out.
    options.compute.expectValues(whole(reads, limit).map((id) => ({ [tag]: id })));
    const itemsCut = all.length > limit || reads.some((r) => "skipped" in r);
    const reader = { marketo, signal: ctx.signal, onWait: options.onWait };
    const per = options.per;
    return computedJoined(input, ctx, options.compute, records, { head, base, cut, itemsCut, reader, per });
  }
  const keep = ctx.fullResults !== undefined;
  const capped = capItems(records, MAX_RESULT_BYTES, true);
  // Many records shown whole are kept too, for a later where or join (LINKED_FROM; trial s36, N531).
  const kept = keep && (capped.dropped > 0 || records.length >= LINKED_FROM);
  const data: Shaped = {
    result: capped.items,
    complete: !cut && (capped.dropped === 0 || kept),
    ...base,
  };
  const shown =
    capped.dropped === 0
      ? `all ${plural(records.length, "record")} shown here${kept ? " and in the full result linked below" : ""}`
      : `the first ${n(capped.items.length)} shown here, ${kept ? `all ${n(records.length)} in the full result linked below` : "the rest not kept by this client: narrow with where or count with count_by"}`;
  return {
    data,
    counts: { read: records.length, shown: capped.items.length, kept, end: !cut },
    summary: `${[`${head(calls)}; ${shown}`, cut].filter(Boolean).join(". ")}.`,
    // A cut read's kept records are not all the call had: said with the link, refused as a list (review s46, 1).
    ...(kept ? { full: { kind: "records" as const, items: records, ...(cut ? { stopped: cut } : {}) } } : {}),
  };
}

/** What a read of one id stopped at, and what to change to read all of it (max_items is said apart). */
function stopFix(input: MarketoApiCallInput, result: MarketoCallResult): string {
  if (!input.paginate) return "give paginate true";
  if (result.stoppedBy === "maxPages") return "raise max_pages (at most 200)";
  return "count them with count_by, or read fewer ids a call";
}

/** What was left unread: ids with more to read, and what max_items stopped (ids read in part or not at all). */
function cutWords(
  input: MarketoApiCallInput,
  word: string,
  reads: IdRead[],
  limitCut: boolean,
): string | undefined {
  const byFix = new Map<string, Id[]>();
  const inPart: Id[] = [];
  for (const read of reads) {
    if (!("result" in read) || read.result.next === undefined) continue;
    if (input.paginate && read.result.stoppedBy === "maxItems") {
      inPart.push(read.id);
      continue;
    }
    const fix = stopFix(input, read.result);
    byFix.set(fix, [...(byFix.get(fix) ?? []), read.id]);
  }
  const parts = [...byFix].map(
    ([fix, ids]) =>
      `${idsWords(ids, word)} ${ids.length === 1 ? "has" : "have"} more records than read: ${fix}`,
  );
  const skipped = reads.filter((read) => "skipped" in read).map((read) => read.id);
  if (limitCut || inPart.length > 0 || skipped.length > 0) {
    const which = [
      ...(inPart.length > 0 ? [`${idsWords(inPart, word)} read in part`] : []),
      ...(skipped.length > 0 ? [`${idsWords(skipped, word)} not read`] : []),
    ];
    const before = readBeforeWords(input, "record");
    parts.push(
      `max_items ${n(input.max_items ?? DEFAULT_MAX_ITEMS)} stopped the read${which.length > 0 ? ` (${which.join(", ")})` : ""}` +
        `${before ? ` (${before})` : ""}: raise max_items (at most 100,000)`,
    );
  }
  return parts.length > 0 ? parts.join("; ") : undefined;
}
