/**
 * Change Program Member Status (Swagger syncProgramMemberStatusUsingPOST,
 * POST /rest/v1/programs/{programId}/members/status.json with `{statusName, input:[{leadId}]}`;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members):
 * each lead (at most 300) gets the status, becoming a member when it was not one; each change writes a
 * "Change Status in Progression" activity (type 104: the program as primary attribute, new and old
 * status ids, the reason). Results carry seq, leadId and status updated|skipped (the Swagger's enum).
 *
 * Inferred: 1003 for a status that is not in the program's channel progression; a skipped record's
 * reason 1004 "Lead not found"; no activity when the lead already had the status; status ids as the
 * position of the status in the channel's progression.
 */
import { appendActivity } from "../activities/log.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
  type ProgramMembership,
  type World,
} from "../types.js";
import { inputOf, LEAD_NOT_FOUND, numberOf, objectBody, skipped } from "../wire/batch.js";
import { findProgram } from "./members.js";
import { programStatuses, statusNamed, successStatuses } from "./seed.js";

const CHANGE_STATUS = 104;

export function changeProgramMemberStatus(
  req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const program = findProgram(ctx, id);
  const body = objectBody(req.body);
  const statusName = typeof body.statusName === "string" ? body.statusName.trim() : "";
  if (statusName === "") throw new MarketoApiError("701", "statusName cannot be blank");
  const wanted = statusNamed(program, statusName);
  const input = inputOf(body);
  const now = ctx.now();
  const result = input.map((record, seq) => {
    const leadId = numberOf(record, "leadId");
    if (leadId === undefined || !ctx.world.leads.has(leadId))
      return skipped({ seq, ...(leadId === undefined ? {} : { leadId }) }, LEAD_NOT_FOUND);
    setMemberStatus(ctx.world, program, leadId, wanted, now);
    return { seq, leadId, status: "updated" };
  });
  return { result };
}

/** The status id Marketo reports: the status's position in the channel's progression (inferred). */
const statusId = (program: Program, name: string | undefined) =>
  name === undefined ? 0 : programStatuses(program.type).indexOf(name) + 1;

/**
 * Gives a lead a program status, making it a member when it was not one, and writes the "Change Status
 * in Progression" activity; nothing when it already had the status. Shared by the status endpoints and
 * the bulk program member import.
 */
export function setMemberStatus(
  world: World,
  program: Program,
  leadId: number,
  wanted: string,
  now: number,
): void {
  const members = world.programMembers.get(program.id) ?? new Map<number, ProgramMembership>();
  world.programMembers.set(program.id, members);
  const member = members.get(leadId);
  const old = member?.statusName;
  if (old === wanted) return;
  const reachedSuccess = successStatuses(program.type).includes(wanted);
  if (member)
    Object.assign(member, {
      statusName: wanted,
      reachedSuccess: member.reachedSuccess || reachedSuccess,
      updatedAt: now,
    });
  else
    members.set(leadId, {
      leadId,
      programId: program.id,
      statusName: wanted,
      reachedSuccess,
      acquiredBy: false,
      membershipDate: now,
      updatedAt: now,
    });
  appendActivity(world, {
    leadId,
    at: now,
    activityTypeId: CHANGE_STATUS,
    primaryAttributeValueId: program.id,
    primaryAttributeValue: program.name,
    attributes: [
      { name: "New Status ID", value: statusId(program, wanted) },
      { name: "Old Status ID", value: statusId(program, old) },
      { name: "Reason", value: "Changed by Web service API" },
    ],
  });
}
