/**
 * Push Lead to Marketo (Swagger pushToMarketoUsingPOST, POST /rest/v1/leads/push.json with
 * `{programName, programStatus?, lookupField?, source?, reason?, input[≤300]}`): "Upserts a lead and
 * generates a Push Lead to Marketo activity" (the Swagger's description;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads).
 * Each record is upserted as Sync Leads' createOrUpdate does (sync.ts), becomes a member of the
 * named program and gets the "Push Lead to Marketo" activity, type 145 (Adobe's list of activity types,
 * which files it among those without a program id:
 * https://experienceleague.adobe.com/en/docs/marketo-measure/using/marketo-measure-and-marketo/marketo-measure-integrations-with-marketo/marketo-engage-activities-integration).
 * programName is required (the leads page: "programName ... required").
 *
 * Inferred: 701 for a blank programName (as other "cannot be blank" fields), 1013 for an unknown one
 * (as an unknown program id), 1003 for a programStatus outside the program's progression (as Change
 * Program Member Status); without programStatus a new member gets the channel's first status that is
 * not a success one (Email "Member", Event "Invited") and an existing member keeps its status; the
 * activity's attributes Program Name, Source and Reason (the request's `source`/`reason`, "Web service
 * API" when absent).
 */
import { appendActivity } from "../activities/log.js";
import { setMemberStatus } from "../programs/member-status.js";
import { programStatuses, statusNamed, successStatuses } from "../programs/seed.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { inputOf, objectBody } from "../wire/batch.js";
import { lookupFieldOf, syncOne } from "./sync.js";

export const PUSH_LEAD = 145;

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** The status a pushed lead gets: the requested one (checked) or the channel's first non-success one. */
function pushStatus(program: Program, requested: string): string {
  if (requested !== "") return statusNamed(program, requested);
  const statuses = programStatuses(program.type);
  const success = successStatuses(program.type);
  return statuses.find((s) => !success.includes(s)) ?? (statuses[0] as string);
}

export function pushLeads(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const body = objectBody(req.body);
  const programName = text(body.programName);
  if (programName === "") throw new MarketoApiError("701", "programName cannot be blank");
  const program = ctx.world.programs.find((p) => p.name.toLowerCase() === programName.toLowerCase());
  if (!program) throw new MarketoApiError("1013", `Program '${programName}' not found`);
  const requestedStatus = text(body.programStatus);
  const status = pushStatus(program, requestedStatus);
  const lookup = lookupFieldOf(ctx.world, body);
  const input = inputOf(body);
  const source = text(body.source) || "Web service API";
  const reason = text(body.reason) || "Web service API";
  const now = ctx.now();
  const world = ctx.world;
  // Results carry no `seq`, unlike Sync Program Member Data's: the page's response example is
  // {"id", "status"} per record (leads.md "Push Lead to Marketo"; Swagger ResponseOfPushLeadToMarketo,
  // result items Lead: id, status, reason, membership).
  const result = input.map((record) => {
    const outcome = syncOne(world, "createOrUpdate", lookup, record, now);
    if (outcome.status === "skipped") return outcome;
    const isMember = world.programMembers.get(program.id)?.has(outcome.id) === true;
    if (requestedStatus !== "" || !isMember) setMemberStatus(world, program, outcome.id, status, now);
    appendActivity(world, {
      leadId: outcome.id,
      at: now,
      activityTypeId: PUSH_LEAD,
      attributes: [
        { name: "Program Name", value: program.name },
        { name: "Source", value: source },
        { name: "Reason", value: reason },
      ],
    });
    return outcome;
  });
  return { result };
}
