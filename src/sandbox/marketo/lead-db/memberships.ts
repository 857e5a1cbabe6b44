/**
 * A lead's memberships (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads
 * "Membership"; Swagger getListMembershipUsingGET, getProgramMembershipUsingGET,
 * getSmartCampaignMembershipUsingGET): the static lists it is in, the programs it is a member of (by
 * `filterType=programId`, `earliestUpdatedAt`/`latestUpdatedAt`), and the smart campaigns it has been
 * through (its activities' campaigns and the campaigns requested or scheduled for it), each paged by
 * nextPageToken. And Change Lead Program Status (changeLeadProgramStatusUsingPOST,
 * `{status, input:[{id}]}`), which writes the status change as Change Program Member Status does, and
 * Delete Program Members.
 *
 * Inferred: 1004 "Lead not found" for an unknown lead; a smart campaign's dates are the campaign's.
 */

import { setMemberStatus } from "../programs/member-status.js";
import { findProgram } from "../programs/members.js";
import { statusNamed } from "../programs/seed.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  type Lead,
  MarketoApiError,
} from "../types.js";
import { inputOf, LEAD_NOT_FOUND, numberOf, objectBody, skipped } from "../wire/batch.js";
import { leadDate, parseMarketoDate } from "../wire/codec.js";
import { jsonBody, multi, pageByToken, toInt } from "../wire/params.js";

function findLead(ctx: HandlerContext, raw: string | undefined): Lead {
  const lead = ctx.world.leads.get(toInt(raw ?? "", "leadId"));
  if (!lead) throw new MarketoApiError("1004", "Lead not found");
  return lead;
}

function paged<T>(rows: T[], req: ApiRequest, kind: string): HandlerResult {
  const { page, nextPageToken } = pageByToken(rows, req.params, kind);
  return nextPageToken ? { result: page, nextPageToken } : { result: page };
}

function dateBounds(req: ApiRequest): (at: number) => boolean {
  const bound = (name: string, dflt: number) => {
    const raw = req.params.get(name);
    if (raw === null || raw === "") return dflt;
    const ms = parseMarketoDate(raw);
    if (ms === undefined) throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
    return ms;
  };
  const from = bound("earliestUpdatedAt", Number.NEGATIVE_INFINITY);
  const to = bound("latestUpdatedAt", Number.POSITIVE_INFINITY);
  return (at) => at >= from && at <= to;
}

export function getListMembership(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const lead = findLead(ctx, id);
  const rows = ctx.world.lists
    .filter((l) => l.members.has(lead.id))
    .map((l) => ({ listId: l.id, createdAt: leadDate(l.createdAt), updatedAt: leadDate(l.updatedAt) }));
  return paged(rows, req, "listmembership");
}

export function getProgramMembership(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const lead = findLead(ctx, id);
  const inRange = dateBounds(req);
  const filterType = req.params.get("filterType");
  if (filterType !== null && filterType !== "programId")
    throw new MarketoApiError("1003", `Invalid filterType '${filterType}': use programId`);
  const wanted = new Set(multi(req.params, "filterValues").map((v) => toInt(v, "filterValues")));
  const rows = [...ctx.world.programMembers.values()]
    .map((members) => members.get(lead.id))
    .filter((m) => m !== undefined)
    .filter((m) => inRange(m.updatedAt) && (filterType === null || wanted.has(m.programId)))
    .sort((a, b) => a.programId - b.programId)
    .map((m) => ({
      id: m.programId,
      progressionStatus: m.statusName,
      isExhausted: m.isExhausted ?? false,
      acquiredBy: m.acquiredBy,
      reachedSuccess: m.reachedSuccess,
      membershipDate: leadDate(m.membershipDate),
      updatedAt: leadDate(m.updatedAt),
      ...(m.stream !== undefined ? { stream: m.stream, nurtureCadence: m.nurtureCadence } : {}),
    }));
  return paged(rows, req, "programmembership");
}

export function getSmartCampaignMembership(
  req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const lead = findLead(ctx, id);
  const inRange = dateBounds(req);
  const ids = new Set<number>();
  for (const a of ctx.world.activities)
    if (a.leadId === lead.id && a.campaignId !== undefined) ids.add(a.campaignId);
  for (const run of ctx.world.campaignRuns) if (run.leadIds.includes(lead.id)) ids.add(run.campaignId);
  const rows = ctx.world.campaigns
    .filter((c) => ids.has(c.id) && inRange(c.updatedAt))
    .map((c) => ({
      smartCampaignId: c.id,
      createdAt: leadDate(c.createdAt),
      updatedAt: leadDate(c.updatedAt),
    }));
  return paged(rows, req, "campaignmembership");
}

export function changeLeadProgramStatus(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = findProgram(ctx, id);
  const body = objectBody(req.body);
  const asked = typeof body.status === "string" ? body.status.trim() : "";
  if (asked === "") throw new MarketoApiError("701", "status cannot be blank");
  const status = statusNamed(program, asked);
  const input = inputOf(body);
  const now = ctx.now();
  const result = input.map((record) => {
    const leadId = numberOf(record, "id");
    if (leadId === undefined || !ctx.world.leads.has(leadId))
      return skipped({ id: leadId ?? 0 }, LEAD_NOT_FOUND);
    setMemberStatus(ctx.world, program, leadId, status, now);
    return { id: leadId, status };
  });
  return { result };
}

/**
 * Delete Program Members (Swagger deleteProgramMemberUsingPOST, `{input:[{leadId}]}`, at most 300): the
 * membership goes, the lead stays. Inferred: a lead that is no member is skipped with 1013.
 */
export function deleteProgramMembers(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = findProgram(ctx, id);
  const input = inputOf(jsonBody(req.body));
  const members = ctx.world.programMembers.get(program.id);
  const result = input.map((record, seq) => {
    const leadId = numberOf(record, "leadId") ?? 0;
    if (!ctx.world.leads.has(leadId)) return skipped({ seq, leadId }, LEAD_NOT_FOUND);
    if (!members?.delete(leadId))
      return skipped({ seq, leadId }, { code: "1013", message: "Program member not found" });
    return { seq, leadId, status: "deleted" };
  });
  return { result };
}
