/**
 * A lead's whole history in one call: Get Lead Activities takes at most 10 activity type ids a read
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities: "up to
 * 10 activity type ids"), so more types, or "all", cost the agent one call per 10 (trial s18, N185: 18 types,
 * an error, then two calls). With paginate true this step reads them 10 at a time, one group after the other
 * through the connector (limits, retries, paging), and joins the records in time order (activityDate, then id,
 * as one read gives them); where, order_by, count_by and max_items then apply to the whole.
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoCallResult, OnWait } from "../../connectors/marketo/types.js";
import { ValidationError } from "../../errors.js";
import { DEFAULT_MAX_ITEMS, type MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { capItems, MAX_RESULT_BYTES } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import type { ToolContext } from "../types.js";
import { activityStartWords } from "./activity-start.js";
import { type ActivityNaming, nameRecords } from "./activity-types.js";
import { keptBytesFor } from "./compute-answer.js";
import { computedJoined } from "./fan-out-read.js";
import { asRecords, type ReadAnswer, type Shaped } from "./read-calls.js";

/** Marketo's most activity type ids in one read. */
export const TYPES_A_READ = 10;
const READ_PATH = "/rest/v1/activities.json";

/** Whether this read names more types than one Marketo read takes (the step then reads them in groups). */
export const isGroupedRead = (path: string, ids: readonly number[] | undefined): boolean =>
  path === READ_PATH && (ids?.length ?? 0) > TYPES_A_READ;

/** What a grouped read does not combine with: a single page (no paginate) and a cursor (it has none to give). */
export function checkGrouped(input: MarketoApiCallInput, count: number): void {
  const field = "query_parameters.activityTypeIds";
  if (!input.paginate) {
    throw new ValidationError(
      field,
      `${count} activity types is more than the ${TYPES_A_READ} one Marketo read takes; with paginate true this step reads them ${TYPES_A_READ} at a time and joins them.`,
      { hint: "Send the same call with paginate true (and max_pages 200 for a lead's whole history)." },
    );
  }
  if (input.cursor !== undefined) {
    throw new ValidationError(
      "cursor",
      `a read of more than ${TYPES_A_READ} activity types is read whole in groups and gives no cursor: leave cursor out, or raise max_items.`,
    );
  }
}

export interface GroupOptions {
  path: CheckedPath;
  ids: readonly number[];
  onWait: OnWait;
  compute: RecordCompute | undefined;
  naming: ActivityNaming | undefined;
}

interface GroupRead {
  types: number[];
  result?: MarketoCallResult;
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
  const maxBytes = options.compute
    ? keptBytesFor(ctx, options.compute)
    : (ctx.fullResults?.maxBytes ?? MAX_RESULT_BYTES);
  const groups = groupsOf(options.ids).map((types): GroupRead => ({ types }));
  let records = 0;
  for (const [index, group] of groups.entries()) {
    const maxItems = limit - records;
    if (maxItems <= 0) break;
    group.result = await marketo.call({
      method: "GET",
      path: options.path,
      query: { ...input.query_parameters, activityTypeIds: group.types.join(",") },
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onWait: options.onWait,
      paginate: { maxPages: input.max_pages, maxItems, maxBytes },
    });
    records += group.result.result.length;
    ctx.progress({
      progress: index + 1,
      total: groups.length,
      message: `${n(index + 1)} of ${plural(groups.length, "group")} of activity types read, ${plural(records, "record")}`,
    });
    if (group.result.next !== undefined) break;
  }
  return groups;
}

const time = (record: Record<string, unknown>): string => String(record.activityDate ?? "");
const byTime = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : Number(a.id ?? 0) - Number(b.id ?? 0);

/** What was left unread, and what to change to read it: undefined when every group was read to its end. */
function cutWords(input: MarketoApiCallInput, groups: GroupRead[]): string | undefined {
  const stopped = groups.findIndex((group) => group.result?.next !== undefined);
  const unread = groups.filter((group) => group.result === undefined).flatMap((group) => group.types);
  if (stopped < 0 && unread.length === 0) return undefined;
  const result = groups[stopped]?.result;
  const fix =
    result?.stoppedBy === "maxPages"
      ? "raise max_pages (at most 200), or give a later sinceDatetime"
      : `raise max_items (now ${n(input.max_items ?? DEFAULT_MAX_ITEMS)}, at most 100,000), or count with count_by`;
  const which = [
    ...(stopped >= 0 ? [`group ${stopped + 1} was read in part`] : []),
    ...(unread.length > 0 ? [`types ${unread.join(", ")} were not read`] : []),
  ];
  return `the read stopped before its end (${which.join("; ")}): ${fix}`;
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
  const calls = results.reduce((sum, r) => sum + r.callsUsed, 0) + (options.naming?.calls ?? 0);
  const start = activityStartWords(input, records[0]);
  const base = {
    warnings: [...(start ? [start] : []), ...new Set(results.flatMap((r) => r.warnings))],
    record_errors: results.flatMap((r) => r.recordErrors),
    pages: results.reduce((sum, r) => sum + r.pages, 0),
    calls_used: calls,
    request_ids: results.flatMap((r) => r.requestIds),
  };
  const cut = cutWords(input, groups);
  const head =
    `GET ${READ_PATH}: ${plural(options.ids.length, "activity type")} read ${TYPES_A_READ} at a time ` +
    `(Marketo's most a read) in ${plural(results.length, "group")}, joined in time order: ` +
    `${plural(records.length, "record")}, ${plural(calls, "call")}`;
  if (options.compute) {
    const reader = { marketo, signal: ctx.signal, onWait: options.onWait };
    return computedJoined(input, ctx, options.compute, records, {
      head,
      base,
      cut,
      itemsCut: cut !== undefined,
      reader,
    });
  }
  const keep = ctx.fullResults !== undefined;
  const capped = capItems(records, MAX_RESULT_BYTES, true);
  const kept = keep && capped.dropped > 0;
  const data: Shaped = { result: capped.items, complete: !cut && (capped.dropped === 0 || kept), ...base };
  const shown =
    capped.dropped === 0
      ? `all ${plural(records.length, "record")} shown here`
      : `the first ${n(capped.items.length)} shown here, ${kept ? `all ${n(records.length)} in the full result linked below` : "the rest not kept by this client: narrow with where or count with count_by"}`;
  return {
    data,
    counts: { read: records.length, shown: capped.items.length, kept, end: !cut },
    summary: `${[`${head}; ${shown}`, cut].filter(Boolean).join(". ")}.`,
    ...(kept ? { full: { kind: "records" as const, items: records } } : {}),
  };
}
