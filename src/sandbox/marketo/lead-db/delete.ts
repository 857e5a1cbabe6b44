/**
 * Delete Leads (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#delete):
 * `POST /rest/v1/leads/delete.json` with `{"input":[{"id":n}]}` (or `?id=1,2` when the body is empty),
 * and the older spellings real clients still send: `DELETE /rest/v1/leads.json` with the same body
 * (marketorestpython `delete_lead`) and `POST /rest/v1/leads.json?_method=DELETE` (recorded in GRP,
 * answered `status:"deleted"`). Each deletion leaves a Delete Lead (37) activity for deletedleads.json.
 */

import { appendActivity } from "../activities/log.js";
import { DELETE_LEAD } from "../activities/read.js";
import { type ApiRequest, type HandlerContext, type HandlerResult, MarketoApiError } from "../types.js";
import { checkBatchSize, inputIds, LEAD_NOT_FOUND, skipped } from "../wire/batch.js";
import { intList, jsonBody } from "../wire/params.js";

/** Ids from the JSON body, else from `id` query values; at most 300 (ADE leads.md). */
function deleteInput(req: ApiRequest): number[] {
  const body = jsonBody(req.body);
  const ids = body !== undefined ? inputIds(body) : intList(req.params, "id", Number.MAX_SAFE_INTEGER);
  if (ids.length === 0) throw new MarketoApiError("701", "input cannot be blank");
  checkBatchSize(ids.length);
  return ids;
}

export function deleteLeads(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const { world } = ctx;
  const result = deleteInput(req).map((id) => {
    const lead = world.leads.get(id);
    // The skipped record keeps its id here (inferred: the docs show only deleted records).
    if (!lead) return skipped({ id }, LEAD_NOT_FOUND);
    world.leads.delete(id);
    for (const list of world.lists) list.members.delete(id);
    for (const members of world.programMembers.values()) members.delete(id);
    const name = [lead.firstName, lead.lastName].filter((p) => typeof p === "string" && p !== "").join(" ");
    appendActivity(world, {
      leadId: id,
      at: ctx.now(),
      activityTypeId: DELETE_LEAD,
      primaryAttributeValueId: id,
      primaryAttributeValue: name,
      attributes: [],
    });
    return { id, status: "deleted" };
  });
  return { result };
}
