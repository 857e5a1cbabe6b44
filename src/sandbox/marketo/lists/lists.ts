/**
 * Static lists and membership (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists).
 * Lead ids come as `id` query parameters (repeated or comma-separated) or as a JSON body
 * `{"input":[{"id":n}]}`; at most 300 per call.
 */

import { appendActivity } from "../activities/log.js";
import { formatLead, requestedFields } from "../lead-db/leads.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  type Lead,
  MarketoApiError,
  type StaticList,
} from "../types.js";
import { checkBatchSize, inputIds, LEAD_NOT_FOUND, skipped } from "../wire/batch.js";
import { leadDate } from "../wire/codec.js";
import { intList, jsonBody, LEAD_DB_MAX_BATCH, multi, pageByToken, toInt } from "../wire/params.js";

export function findList(ctx: HandlerContext, rawId: string | undefined): StaticList {
  const id = toInt(rawId ?? "", "listId");
  const list = ctx.world.lists.find((l) => l.id === id);
  if (!list) throw new MarketoApiError("1013", `Static list '${id}' not found`);
  return list;
}

function formatList(list: StaticList) {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    programName: list.programName,
    workspaceName: list.workspaceName,
    createdAt: leadDate(list.createdAt),
    updatedAt: leadDate(list.updatedAt),
  };
}

export function getLists(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const ids = new Set(intList(req.params, "id", LEAD_DB_MAX_BATCH));
  const names = new Set(multi(req.params, "name"));
  const programNames = new Set(multi(req.params, "programName"));
  const workspaces = new Set(multi(req.params, "workspaceName"));
  const matches = ctx.world.lists.filter(
    (l) =>
      (ids.size === 0 || ids.has(l.id)) &&
      (names.size === 0 || names.has(l.name)) &&
      (programNames.size === 0 || programNames.has(l.programName)) &&
      (workspaces.size === 0 || workspaces.has(l.workspaceName)),
  );
  const { page, nextPageToken } = pageByToken(matches, req.params, "lists");
  const result = page.map(formatList);
  // A paged Get Lists answer carries nextPageToken and no moreResult (ADE static-lists.md examples,
  // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists).
  return nextPageToken ? { result, nextPageToken } : { result };
}

export function getListById(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  return { result: [formatList(findList(ctx, id))] };
}

export function getListMembers(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = findList(ctx, id);
  const fields = requestedFields(ctx.world, req.params);
  const members = [...list.members]
    .sort((a, b) => a - b)
    .map((leadId) => ctx.world.leads.get(leadId))
    .filter((lead): lead is Lead => lead !== undefined);
  const { page, nextPageToken } = pageByToken(members, req.params, "members");
  const result = page.map((lead) => formatLead(lead, fields));
  // List-membership examples carry only nextPageToken, no moreResult (ADE list-membership.md).
  return nextPageToken ? { result, nextPageToken } : { result };
}

/** Lead ids from `id` query values or a JSON `{"input":[{"id":n}]}` body. */
function requestIds(req: ApiRequest): number[] {
  let ids = intList(req.params, "id", Number.MAX_SAFE_INTEGER);
  if (ids.length === 0 && req.body.trim() !== "") ids = inputIds(jsonBody(req.body));
  if (ids.length === 0) throw new MarketoApiError("701", "id cannot be blank");
  checkBatchSize(ids.length, "ids");
  return ids;
}

function membershipActivity(ctx: HandlerContext, list: StaticList, leadId: number, typeId: 24 | 25): void {
  appendActivity(ctx.world, {
    leadId,
    at: ctx.now(),
    activityTypeId: typeId,
    primaryAttributeValueId: list.id,
    primaryAttributeValue: list.name,
    attributes: [{ name: "Source", value: "Web service API" }],
  });
  list.updatedAt = ctx.now();
}

export function addToList(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = findList(ctx, id);
  const result = requestIds(req).map((leadId) => {
    if (!ctx.world.leads.has(leadId)) return skipped({ id: leadId }, LEAD_NOT_FOUND);
    if (!list.members.has(leadId)) {
      list.members.add(leadId);
      membershipActivity(ctx, list, leadId, 24);
    }
    // Adding a lead that is already a member is reported as "added" too.
    return { id: leadId, status: "added" };
  });
  return { result };
}

export function removeFromList(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = findList(ctx, id);
  const result = requestIds(req).map((leadId) => {
    if (!ctx.world.leads.has(leadId)) return skipped({ id: leadId }, LEAD_NOT_FOUND);
    if (!list.members.delete(leadId)) {
      return skipped({ id: leadId }, { code: "1015", message: "Lead not in list" });
    }
    membershipActivity(ctx, list, leadId, 25);
    return { id: leadId, status: "removed" };
  });
  return { result };
}

export function isMember(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = findList(ctx, id);
  const result = requestIds(req).map((leadId) => {
    if (!ctx.world.leads.has(leadId)) return skipped({ id: leadId }, LEAD_NOT_FOUND);
    return { id: leadId, status: list.members.has(leadId) ? "memberof" : "notmemberof" };
  });
  return { result };
}
