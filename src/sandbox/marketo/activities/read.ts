/**
 * Activities and lead changes, paged by date tokens
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 *
 * Real tokens are base32 of "<datetime>,<offset>" (the docs' example decodes to
 * "2008-11-06T00:00:00.000+0000,0"). The service scans one time slice per call, so a page can
 * be EMPTY while `moreResult` is true when a slice holds no matching activity; `nextPageToken` is
 * always returned so a caller can resume later.
 */

import { findList } from "../lists/lists.js";
import {
  type Activity,
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { base32Decode, base32Encode, leadDate, parseMarketoDate, tokenDate } from "../wire/codec.js";
import { batchSize, intList, multi, required } from "../wire/params.js";

/** One call scans at most one day of activity history. */
const SLICE_MS = 86_400_000;
const MAX_TYPE_IDS = 10;
const MAX_LEAD_IDS = 30;
const MAX_CHANGE_FIELDS = 10;
/** Standard activity type "Delete Lead". */
export const DELETE_LEAD = 37;
/** Lists this large are refused as an activities filter (ADE activities.md, migration.md). */
const MAX_FILTER_LIST_SIZE = 10_000;

interface Position {
  sliceStart: number;
  index: number;
}

function encodeToken(pos: Position): string {
  return base32Encode(`${tokenDate(pos.sliceStart)},${pos.index}`);
}

function decodeToken(token: string): Position {
  const match = /^(.+),(\d+)$/.exec(base32Decode(token) ?? "");
  const sliceStart = match ? parseMarketoDate(match[1] as string) : undefined;
  if (!match || sliceStart === undefined)
    throw new MarketoApiError("1003", `Invalid nextPageToken '${token}'`);
  return { sliceStart, index: Number(match[2]) };
}

/** Index of the first activity at or after `at` (activities are sorted by time). */
function lowerBound(list: readonly Activity[], at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as Activity).at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function getPagingToken(req: ApiRequest): HandlerResult {
  const raw = required(req.params, "sinceDatetime");
  const since = parseMarketoDate(raw);
  if (since === undefined) throw new MarketoApiError("1003", `Invalid value '${raw}' for sinceDatetime`);
  // The position is resolved lazily (index 0 = "from the slice start"), as the real token's offset is.
  return { nextPageToken: encodeToken({ sliceStart: since, index: 0 }) };
}

/** Scans one slice from the token position and returns the matching items plus the next position. */
export function scanPage(
  req: ApiRequest,
  ctx: HandlerContext,
  matches: (a: Activity) => boolean,
  format: (a: Activity) => Record<string, unknown>,
): HandlerResult {
  const size = batchSize(req.params);
  const list = ctx.world.activities;
  const pos = decodeToken(required(req.params, "nextPageToken"));
  let i = Math.max(pos.index, lowerBound(list, pos.sliceStart));
  let sliceStart = pos.sliceStart;
  // Skip stretches with no activity at all, so old sinceDatetime values do not cost one call per day.
  const first = list[i];
  if (first && first.at >= sliceStart + SLICE_MS) sliceStart = first.at;
  const sliceEnd = sliceStart + SLICE_MS;
  const result: Record<string, unknown>[] = [];
  while (i < list.length && result.length < size) {
    const activity = list[i] as Activity;
    if (activity.at >= sliceEnd) break;
    if (matches(activity)) result.push(format(activity));
    i++;
  }
  const sliceDone = i >= list.length || (list[i] as Activity).at >= sliceEnd;
  const next: Position = sliceDone
    ? {
        sliceStart: i >= list.length ? Math.max(sliceStart, Math.min(sliceEnd, ctx.now())) : sliceEnd,
        index: i,
      }
    : { sliceStart, index: i };
  return { result, nextPageToken: encodeToken(next), moreResult: i < list.length };
}

function leadFilter(req: ApiRequest, ctx: HandlerContext): (a: Activity) => boolean {
  const leadIds = new Set(intList(req.params, "leadIds", MAX_LEAD_IDS));
  const listId = req.params.get("listId");
  let members: Set<number> | undefined;
  if (listId !== null && listId !== "") {
    const list = findList(ctx, listId);
    if (list.members.size >= MAX_FILTER_LIST_SIZE) {
      throw new MarketoApiError("1003", `List '${list.id}' has too many members to filter activities`);
    }
    members = list.members;
  }
  return (a) => (leadIds.size === 0 || leadIds.has(a.leadId)) && (!members || members.has(a.leadId));
}

function baseItem(a: Activity): Record<string, unknown> {
  return {
    id: a.id,
    marketoGUID: String(a.id),
    leadId: a.leadId,
    activityDate: leadDate(a.at),
    activityTypeId: a.activityTypeId,
    ...(a.campaignId !== undefined ? { campaignId: a.campaignId } : {}),
  };
}

/** An activities.json (and deletedleads.json) item. */
export function activityItem(a: Activity): Record<string, unknown> {
  return {
    ...baseItem(a),
    ...(a.primaryAttributeValueId !== undefined
      ? { primaryAttributeValueId: a.primaryAttributeValueId }
      : {}),
    ...(a.primaryAttributeValue !== undefined ? { primaryAttributeValue: a.primaryAttributeValue } : {}),
    attributes: a.attributes,
  };
}

export function getActivities(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  required(req.params, "nextPageToken");
  required(req.params, "activityTypeIds");
  const typeIds = new Set(intList(req.params, "activityTypeIds", MAX_TYPE_IDS));
  const assetIds = new Set(intList(req.params, "assetIds", Number.MAX_SAFE_INTEGER));
  const byLead = leadFilter(req, ctx);
  return scanPage(
    req,
    ctx,
    (a) =>
      typeIds.has(a.activityTypeId) &&
      byLead(a) &&
      (assetIds.size === 0 ||
        (a.primaryAttributeValueId !== undefined && assetIds.has(a.primaryAttributeValueId))),
    activityItem,
  );
}

/**
 * Deleted leads: the Delete Lead (37) activities after the token's datetime; "deletions greater than
 * 14 days old may be pruned" (Swagger getDeletedLeadsUsingGET), which the sandbox never does.
 */
export function getDeletedLeads(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  required(req.params, "nextPageToken");
  return scanPage(req, ctx, (a) => a.activityTypeId === DELETE_LEAD, activityItem);
}

/** Lead changes: Change Data Value (13) for the requested fields, and New Lead (12). */
export function getLeadChanges(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  required(req.params, "nextPageToken");
  required(req.params, "fields");
  const names = multi(req.params, "fields").map((f) => f.toLowerCase());
  if (names.length > MAX_CHANGE_FIELDS) {
    throw new MarketoApiError("1003", `Too many fields: ${names.length}, maximum is ${MAX_CHANGE_FIELDS}`);
  }
  const fields = new Set(names);
  const byLead = leadFilter(req, ctx);
  return scanPage(
    req,
    ctx,
    (a) =>
      byLead(a) &&
      (a.activityTypeId === 12 ||
        (a.activityTypeId === 13 && !!a.change && fields.has(a.change.field.toLowerCase()))),
    (a) => ({
      ...baseItem(a),
      fields: a.change
        ? [
            {
              id: a.change.fieldId,
              name: a.change.field,
              newValue: a.change.newValue,
              oldValue: a.change.oldValue,
            },
          ]
        : [],
      attributes: a.attributes.filter((attr) => attr.name !== "New Value" && attr.name !== "Old Value"),
    }),
  );
}

export function getActivityTypes(_req: ApiRequest, ctx: HandlerContext): HandlerResult {
  return { result: ctx.world.activityTypes };
}
