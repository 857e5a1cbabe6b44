/**
 * Merge Leads, Associate Lead, Get Lead Partitions and Update Lead Partition
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads "Merge",
 * "Associate Web Activity", "Partitions"; Swagger mergeLeadsUsingPOST, associateLeadUsingPOST,
 * getLeadPartitionsUsingGET). Merge keeps the winner (the path's lead): each loser's empty-on-the-winner
 * fields fill the winner's, the first loser listed first
 * (https://experienceleague.adobe.com/en/docs/experience-cloud-kcs/kbarticles/ka-28666), the loser's list and program memberships move to the winner, the losers are
 * deleted (their activities and custom object records moved to the winner first), and a "Merge Leads" activity (32) on the winner records their ids. `leadId` names one loser,
 * `leadIds` several (Swagger mergeLeadsUsingPOST). Associate takes the Munchkin cookie (`id:…&token:…`). The
 * sandbox has one partition, "Default".
 *
 * Inferred: 1004 for an unknown winner or loser; 1003 for a loser that is the winner, a missing loser
 * or a cookie not of Munchkin's shape; the activity's attribute values; the partition's description.
 */

import { appendActivity } from "../activities/log.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  type Lead,
  MarketoApiError,
} from "../types.js";
import { inputOf, LEAD_NOT_FOUND, numberOf, skipped } from "../wire/batch.js";
import { intList, isRecord, jsonBody, LEAD_DB_MAX_BATCH, required, toInt } from "../wire/params.js";

const MERGE_LEADS = 32;

function lead(ctx: HandlerContext, id: number): Lead {
  const found = ctx.world.leads.get(id);
  if (!found) throw new MarketoApiError("1004", `Lead '${id}' not found`);
  return found;
}

export function mergeLeads(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const winner = lead(ctx, toInt(id ?? "", "leadId"));
  const losers = req.params.has("leadIds")
    ? intList(req.params, "leadIds", LEAD_DB_MAX_BATCH)
    : req.params.has("leadId")
      ? [toInt(req.params.get("leadId") ?? "", "leadId")]
      : [];
  if (losers.length === 0)
    throw new MarketoApiError("1003", "leadId or leadIds is required: the leads to merge into the winner");
  if (losers.includes(winner.id)) throw new MarketoApiError("1003", "A lead cannot be merged into itself");
  const merged = losers.map((loserId) => lead(ctx, loserId));
  const { world } = ctx;
  const now = ctx.now();
  for (const loser of merged) {
    for (const [field, value] of Object.entries(loser)) {
      const current = winner[field];
      if (field !== "id" && (current === null || current === undefined || current === ""))
        winner[field] = value;
    }
    for (const list of world.lists) {
      if (list.members.delete(loser.id)) list.members.add(winner.id);
    }
    for (const members of world.programMembers.values()) {
      const membership = members.get(loser.id);
      members.delete(loser.id);
      if (membership && !members.has(winner.id)) members.set(winner.id, { ...membership, leadId: winner.id });
    }
    // "All activity log items are merged" (docs.marketo.com, Merging People): the loser's history is the
    // winner's; and its custom object records follow it, or they would link to a lead that is gone.
    for (const activity of world.activities) if (activity.leadId === loser.id) activity.leadId = winner.id;
    for (const type of world.customObjectTypes)
      for (const record of world.customObjects.get(type.apiName) ?? [])
        if (Number(record.values[type.leadLink]) === loser.id) record.values[type.leadLink] = winner.id;
    world.leads.delete(loser.id);
  }
  winner.updatedAt = now;
  appendActivity(world, {
    leadId: winner.id,
    at: now,
    activityTypeId: MERGE_LEADS,
    primaryAttributeValueId: winner.id,
    primaryAttributeValue: [winner.firstName, winner.lastName]
      .filter((p) => typeof p === "string" && p)
      .join(" "),
    attributes: [
      { name: "Merge IDs", value: merged.map((l) => l.id).join(",") },
      { name: "Merged in Sales", value: req.params.get("mergeInCRM") === "true" },
      { name: "Merge Source", value: "Web service API" },
    ],
  });
  return {};
}

/** The Munchkin cookie: `id:<munchkin id>&token:_mch-…` (ADE leads.md "Associate Web Activity"). */
const COOKIE = /^id:[A-Za-z0-9-]+&token:_mch-[A-Za-z0-9.-]+$/;

export function associateLead(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const found = lead(ctx, toInt(id ?? "", "leadId"));
  const cookie = required(req.params, "cookie");
  if (!COOKIE.test(cookie))
    throw new MarketoApiError(
      "1003",
      `Invalid value '${cookie}' for cookie: use id:<munchkin id>&token:_mch-…`,
    );
  found.updatedAt = ctx.now();
  return {};
}

const PARTITIONS = [{ id: 1, name: "Default", description: "Initial system lead partition" }];

export function getLeadPartitions(): HandlerResult {
  return { result: PARTITIONS };
}

/**
 * Update Lead Partition (Swagger updatePartitionsUsingPOST, `{input:[{id, partitionName}]}`, at most 300):
 * every lead is in the one partition, so a move to "Default" is an update that changes nothing.
 * Inferred: 1004 for an unknown lead, 1003 for an unknown partition, both per record.
 */
export function updateLeadPartitions(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const result = inputOf(jsonBody(req.body)).map((record) => {
    const id = numberOf(record, "id") ?? 0;
    const name = isRecord(record) ? record.partitionName : undefined;
    if (!ctx.world.leads.has(id)) return skipped({ id }, LEAD_NOT_FOUND);
    if (!PARTITIONS.some((p) => p.name === name))
      return skipped({ id }, { code: "1003", message: `Partition '${String(name)}' not found` });
    return { id, status: "updated" };
  });
  return { result };
}
