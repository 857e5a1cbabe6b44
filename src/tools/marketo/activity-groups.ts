/**
 * A lead's whole history in one call: Get Lead Activities takes at most 10 activity type ids a read
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities: "up to
 * 10 activity type ids"), so more types, or "all", cost the agent one call per 10 (trial s18, N185: 18 types,
 * an error, then two calls). With paginate true this step reads them 10 at a time, one group after the other
 * through the connector (limits, retries, paging), and joins the records in time order (activityDate, then id,
 * as one read gives them); where, order_by, count_by and max_items then apply to the whole. max_items and
 * max_pages are the whole read's, shared by the groups in turn (review s20, finding 5: max_pages was each
 * group's). A group not read, or read in part, is said, and its types are not counted 0 (finding 4).
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { DEFAULT_MAX_PAGES } from "../../connectors/marketo/pagination.js";
import type { MarketoCallResult, OnWait } from "../../connectors/marketo/types.js";
import { ValidationError } from "../../errors.js";
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { capItems, LINKED_FROM, MAX_RESULT_BYTES } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import type { PerGroups } from "../records/per.js";
import type { ToolContext } from "../types.js";
import type { ActivityPairs } from "./activity-pairs.js";
import { activityStartWords } from "./activity-start.js";
import { type ActivityNaming, askedTypes, byTime, nameRecords, TYPES_A_READ } from "./activity-types.js";
import { JOINED_READ_BYTES } from "./compute-answer.js";
import { joinWords } from "./compute-read.js";
import { computedJoined } from "./joined-answer.js";
import { type LeadJoin, leadFreeTest } from "./lead-join.js";
import { asRecords, type ReadAnswer, type Shaped } from "./read-calls.js";

const READ_PATH = "/rest/v1/activities.json";

/** Whether this read names more types than one Marketo read takes (the step then reads them in groups). */
export const isGroupedRead = (path: string, ids: readonly number[] | undefined): boolean =>
  path === READ_PATH && (ids?.length ?? 0) > TYPES_A_READ;

/**
 * A grouped read needs paginate (a single page of each group is not a page of the whole). It gives no cursor,
 * so a cursor given is another request's and is refused before this (tools/cursor.ts).
 */
export function checkGrouped(input: MarketoApiCallInput, count: number): void {
  if (input.paginate) return;
  throw new ValidationError(
    "query_parameters.activityTypeIds",
    `${count} activity types is more than the ${TYPES_A_READ} one Marketo read takes; with paginate true this step reads them ${TYPES_A_READ} at a time and joins them.`,
    { hint: "Send the same call with paginate true (and max_pages 200 for a lead's whole history)." },
  );
}

export interface GroupOptions {
  path: CheckedPath;
  ids: readonly number[];
  onWait: OnWait;
  compute: RecordCompute | undefined;
  naming: ActivityNaming | undefined;
  /** With `previous`: each record gets the activity before it, once the groups are joined in time order. */
  pairer?: ActivityPairs | undefined;
  /** With `per`: the records rolled up, one row per value (records/per.ts). */
  per?: PerGroups | undefined;
  /** With `lead_fields`: each record gets its lead's fields (lead-join.ts). */
  leads?: LeadJoin | undefined;
}

interface GroupRead {
  types: number[];
  result?: MarketoCallResult;
  /** Not read: max_items or max_pages was spent by the groups before it. */
  unreadBy?: "maxItems" | "maxPages";
  /** Read to the first `limit` records only: all a limit in time order needs of it (its next is not a cut). */
  enough?: boolean;
}

/**
 * limit alone, in time order: the first n of the joined groups are among each group's first n, so each group is read
 * to n records (review s38: limit 3 over "all" types read 124 calls once joined reads went to max_items).
 */
function firstOnly(options: GroupOptions): number | undefined {
  const spec = options.compute?.spec;
  if (spec?.limit === undefined || spec.where || spec.order || spec.countBy) return undefined;
  return options.pairer || options.per || options.leads ? undefined : spec.limit;
}

function groupsOf(ids: readonly number[]): number[][] {
  const groups: number[][] = [];
  for (let start = 0; start < ids.length; start += TYPES_A_READ) {
    groups.push(ids.slice(start, start + TYPES_A_READ));
  }
  return groups;
}

/** Each group read in turn, each with what is left of max_items; none after one stopped short. */
async function readGroups(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: GroupOptions,
): Promise<GroupRead[]> {
  const limit = input.max_items ?? DEFAULT_MAX_ITEMS;
  const maxBytes = options.compute ? JOINED_READ_BYTES : (ctx.fullResults?.maxBytes ?? MAX_RESULT_BYTES);
  const groups = groupsOf(options.ids).map((types): GroupRead => ({ types }));
  const first = firstOnly(options);
  let records = 0;
  let pages = 0;
  for (const [index, group] of groups.entries()) {
    const left = limit - records;
    const maxItems = first !== undefined ? Math.min(left, first) : left;
    const maxPages = (input.max_pages ?? DEFAULT_MAX_PAGES) - pages;
    if (maxItems <= 0 || maxPages <= 0) {
      for (const rest of groups.slice(index)) rest.unreadBy = maxItems <= 0 ? "maxItems" : "maxPages";
      break;
    }
    group.result = await marketo.call({
      method: "GET",
      path: options.path,
      query: { ...input.query_parameters, activityTypeIds: group.types.join(",") },
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onWait: options.onWait,
      paginate: { maxPages, maxItems, maxBytes },
    });
    records += group.result.result.length;
    pages += group.result.pages;
    ctx.progress({
      progress: index + 1,
      total: groups.length,
      message: `${n(index + 1)} of ${plural(groups.length, "group")} of activity types read, ${plural(records, "record")}`,
    });
    group.enough = first !== undefined && maxItems < left && group.result.next !== undefined;
    if (group.result.next !== undefined && !group.enough) break;
  }
  return groups;
}

/** The types of the groups read to their end: only they can be counted 0 where they have no activity. */
const wholeTypes = (groups: readonly GroupRead[]): number[] =>
  groups.flatMap((group) => (group.result && group.result.next === undefined ? group.types : []));

/** What was left unread, and what to change to read it: undefined when every group was read to its end. */
function cutWords(input: MarketoApiCallInput, groups: GroupRead[]): string | undefined {
  const stopped = groups.findIndex((group) => group.result?.next !== undefined && !group.enough);
  const unread = groups.filter((group) => group.result === undefined).flatMap((group) => group.types);
  if (stopped < 0 && unread.length === 0) return undefined;
  const by = groups[stopped]?.result?.stoppedBy ?? groups.find((g) => g.unreadBy)?.unreadBy;
  // A client that keeps no whole result reads no more than an answer shows: max_items would not help.
  const fix =
    by === "maxPages"
      ? "raise max_pages (the whole read's, at most 200), or give a later sinceDatetime"
      : by === "maxBytes"
        ? "the answer holds no more: narrow with where or leadIds, or count with count_by"
        : `raise max_items (now ${n(input.max_items ?? DEFAULT_MAX_ITEMS)}, at most 100,000)${input.count_by ? "" : ", or count with count_by"}`;
  const partly = groups[stopped]?.types ?? [];
  const which = [
    ...(partly.length > 0 ? [`types ${partly.join(", ")} were read in part`] : []),
    ...(unread.length > 0
      ? [
          `${unread.length === 1 ? "type" : "types"} ${unread.join(", ")} ${unread.length === 1 ? "was" : "were"} not read`,
        ]
      : []),
  ];
  return `the read stopped before its end (${which.join("; ")}; none is counted 0): ${fix}`;
}

/**
 * previous over the joined groups: the pairs of a record later than the last date its type's group read (a cut
 * group, or one not read) are not known (review s32, finding 1), and are left without.
 */
function pairGroups(
  pairs: ActivityPairs,
  groups: readonly GroupRead[],
  records: Record<string, unknown>[],
): void {
  pairs.pair(records);
  for (const pairer of pairs.list) {
    // The types' groups cut short (several types may be in several groups): known up to the earliest cut.
    const cut = groups.filter(
      (group) =>
        group.types.some((type) => pairer.typeIds.has(type)) &&
        !(group.result && group.result.next === undefined),
    );
    if (cut.length === 0) continue;
    const lasts = cut.map((group) =>
      (group.result?.result ?? []).reduce<string>((latest, item) => {
        const date = String((item as { activityDate?: unknown } | undefined)?.activityDate ?? "");
        return date > latest ? date : latest;
      }, ""),
    );
    // Only the types whose group stopped are named (review s42, 4).
    const stopped = [...pairer.typeIds].filter((type) => cut.some((group) => group.types.includes(type)));
    pairer.knownUntil(lasts.sort()[0] ?? "", records, pairer.namesOf(stopped));
  }
}

export async function groupedActivities(
  input: MarketoApiCallInput,
  marketo: MarketoConnector,
  ctx: ToolContext,
  options: GroupOptions,
): Promise<ReadAnswer> {
  checkGrouped(input, options.ids.length);
  const groups = await readGroups(input, marketo, ctx, options);
  const results = groups.flatMap((group) => (group.result ? [group.result] : []));
  const named = await nameRecords(asRecords(results.flatMap((r) => r.result)), options.naming);
  const records = named.sort(byTime);
  await options.leads?.join(records, leadFreeTest(options.compute?.spec));
  if (options.pairer) pairGroups(options.pairer, groups, records);
  const calls =
    results.reduce((sum, r) => sum + r.callsUsed, 0) +
    (options.naming?.calls ?? 0) +
    (options.leads?.calls ?? 0);
  // The first activity read is the earliest of the types asked only when every group was read from the start.
  const start = groups.every((group) => group.result) ? activityStartWords(input, records[0]) : undefined;
  options.compute?.expectValues(askedTypes(wholeTypes(groups), options.naming?.names ?? new Map()));
  const base = {
    warnings: [...(start ? [start] : []), ...new Set(results.flatMap((r) => r.warnings))],
    record_errors: results.flatMap((r) => r.recordErrors),
    pages: results.reduce((sum, r) => sum + r.pages, 0),
    calls_used: calls,
    request_ids: [...results.flatMap((r) => r.requestIds), ...(options.leads?.requestIds ?? [])],
  };
  const cut = cutWords(input, groups);
  // Each group's read has its own paging token: none stands for the whole (review s20, 11h). Said only of a
  // whole read: after a cut, reading on from the last date would skip the types not read (review s21, 4).
  const enough = groups.filter((group) => group.enough).length;
  if (!cut && enough > 0) {
    base.warnings.push(
      `limit ${n(options.compute?.spec.limit ?? 0)} in time order: ${plural(enough, "group")} of types ${enough === 1 ? "was" : "were"} read to ${enough === 1 ? "its" : "their"} first ${n(options.compute?.spec.limit ?? 0)} records only, all the earliest results need (the figures are of the records read).`,
    );
  } else if (!cut) {
    base.warnings.push(
      // "Whole" first: the agent took "to read later activity" for a read that had not reached today (trial s30, N432).
      "Every group was read to its latest activity (the read is whole). No next_page_token: each group of types has its own; to read activity logged after this call, call again with sinceDatetime the last activityDate read.",
    );
  }
  const head = (spent: number) =>
    `GET ${READ_PATH}: ${plural(options.ids.length, "activity type")} read ${TYPES_A_READ} at a time ` +
    `(the most Marketo takes a read) in ${plural(results.length, "group")}, joined in time order: ` +
    `${plural(records.length, "record")}, ${plural(spent, "call")}` +
    joinWords(options);
  if (options.compute) {
    const reader = { marketo, signal: ctx.signal, onWait: options.onWait };
    return computedJoined(input, ctx, options.compute, records, {
      head,
      base,
      cut,
      itemsCut: cut !== undefined,
      reader,
      per: options.per,
    });
  }
  const keep = ctx.fullResults !== undefined;
  const capped = capItems(records, MAX_RESULT_BYTES, true);
  // Many records shown whole are kept too, for a later where or join (LINKED_FROM; review s45, 3).
  const kept = keep && (capped.dropped > 0 || records.length >= LINKED_FROM);
  const data: Shaped = { result: capped.items, complete: !cut && (capped.dropped === 0 || kept), ...base };
  const shown =
    capped.dropped === 0
      ? records.length <= 1
        ? records.length === 1
          ? "the record shown here"
          : "none to show"
        : `all ${plural(records.length, "record")} shown here${kept ? " and in the full result linked below" : ""}`
      : `the first ${n(capped.items.length)} shown here, ${kept ? `all ${n(records.length)} in the full result linked below` : "the rest not kept by this client: narrow with where or count with count_by"}`;
  return {
    data,
    counts: { read: records.length, shown: capped.items.length, kept, end: !cut },
    summary: `${head(calls)}; ${shown}${cut ? `. ${cut.charAt(0).toUpperCase()}${cut.slice(1)}` : ""}.`,
    // A cut read's kept records are not all the call had: said with the link, refused as a list (review s46, 1).
    ...(kept ? { full: { kind: "records" as const, items: records, ...(cut ? { stopped: cut } : {}) } } : {}),
  };
}
