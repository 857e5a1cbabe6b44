/**
 * Program membership through the Lead DB API: Get Leads by Program Id
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#programs),
 * Get Program Members and Describe Program Member
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members).
 */

import { formatLead, requestedFields } from "../lead-db/leads.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  type Lead,
  MarketoApiError,
  type Program,
  type ProgramMembership,
} from "../types.js";
import { leadDate, parseMarketoDate } from "../wire/codec.js";
import { LEAD_DB_MAX_BATCH, multi, pageByToken, required, toInt } from "../wire/params.js";

/** Updated-at filters of Get Program Members span at most seven days (ADE program-members.md). */
const MAX_UPDATED_SPAN_MS = 7 * 86_400_000;
const DEFAULT_MEMBER_FIELDS = ["acquiredBy", "leadId", "membershipDate", "programId", "reachedSuccess"];
/** Adobe's describe example lists its custom field among the searchable ones (program-members page). */
const SEARCHABLE = ["leadId", "myCustomField", "reachedSuccess", "statusName"];

type FieldDef = readonly [name: string, dataType: string, length?: number, updateable?: boolean];
/**
 * Custom program member fields: the only updateable ones (Adobe's describe shows every standard field
 * `updateable: false`; Sync Program Member Data writes custom ones). "myCustomField" is the docs' example
 * name; "myCustomScore" (an integer) is inferred, so the sandbox has a second type to check.
 */
export const CUSTOM_MEMBER_FIELDS: readonly FieldDef[] = [
  ["myCustomField", "string", 255, true],
  ["myCustomScore", "integer", undefined, true],
];
export const MEMBER_FIELDS: readonly FieldDef[] = [
  ["acquiredBy", "boolean"],
  ["attendanceLikelihood", "integer"],
  ["createdAt", "datetime"],
  ["isExhausted", "boolean"],
  ["leadId", "integer"],
  ["membershipDate", "datetime"],
  ["nurtureCadence", "string", 4],
  ["program", "string", 255],
  ["programId", "integer"],
  ["reachedSuccess", "boolean"],
  ["reachedSuccessDate", "datetime"],
  ["registrationLikelihood", "integer"],
  ["statusName", "string", 255],
  ["statusReason", "string", 255],
  ["trackName", "string", 255],
  ["updatedAt", "datetime"],
  ["waitlistPriority", "integer"],
  ...CUSTOM_MEMBER_FIELDS,
];

/** An unknown program is 1013 "Object not found" (inferred: the pages show no error for it). */
export function findProgram(ctx: HandlerContext, rawId: string | undefined): Program {
  const id = toInt(rawId ?? "", "programId");
  const program = ctx.world.programs.find((p) => p.id === id);
  if (!program) throw new MarketoApiError("1013", `Program '${id}' not found`);
  return program;
}

function membersOf(ctx: HandlerContext, program: Program): ProgramMembership[] {
  return [...(ctx.world.programMembers.get(program.id)?.values() ?? [])].sort((a, b) => a.leadId - b.leadId);
}

export function getLeadsByProgram(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = findProgram(ctx, id);
  const fields = requestedFields(ctx.world, req.params);
  const rows = membersOf(ctx, program)
    .map((m) => [ctx.world.leads.get(m.leadId), m] as const)
    .filter((pair): pair is readonly [Lead, ProgramMembership] => pair[0] !== undefined);
  const { page, nextPageToken } = pageByToken(rows, req.params, "programleads");
  const result = page.map(([lead, m]) => ({
    ...formatLead(lead, fields),
    membership: {
      id: program.id,
      progressionStatus: m.statusName,
      progressionStatusType: m.statusName,
      isExhausted: m.isExhausted ?? false,
      acquiredBy: m.acquiredBy,
      reachedSuccess: m.reachedSuccess,
      membershipDate: leadDate(m.membershipDate),
      updatedAt: leadDate(m.updatedAt),
      ...(m.stream !== undefined ? { stream: m.stream, nurtureCadence: m.nurtureCadence } : {}),
    },
  }));
  return nextPageToken ? { result, nextPageToken } : { result };
}

export function memberValue(
  name: string,
  m: ProgramMembership,
  program: Program,
): string | number | boolean | null {
  switch (name) {
    case "acquiredBy":
      return m.acquiredBy;
    case "createdAt":
    case "membershipDate":
      return leadDate(m.membershipDate);
    case "isExhausted":
      return m.isExhausted ?? false;
    case "leadId":
      return m.leadId;
    case "nurtureCadence":
      return m.nurtureCadence ?? null;
    case "program":
      return program.name;
    case "programId":
      return program.id;
    case "reachedSuccess":
      return m.reachedSuccess;
    case "reachedSuccessDate":
      return m.reachedSuccess ? leadDate(m.updatedAt) : null;
    case "statusName":
      return m.statusName;
    case "trackName":
      return m.stream ?? null;
    case "updatedAt":
      return leadDate(m.updatedAt);
    default:
      return m.custom?.[name] ?? null;
  }
}

function memberFilter(req: ApiRequest, program: Program): (m: ProgramMembership) => boolean {
  const filterType = required(req.params, "filterType");
  if (filterType === "updatedAt") {
    const bound = (name: string) => {
      const raw = required(req.params, name);
      const ms = parseMarketoDate(raw);
      if (ms === undefined) throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
      return ms;
    };
    const [from, to] = [bound("startAt"), bound("endAt")];
    if (to < from || to - from > MAX_UPDATED_SPAN_MS) {
      throw new MarketoApiError("1003", "The updatedAt date range must be seven days or fewer");
    }
    return (m) => m.updatedAt >= from && m.updatedAt <= to;
  }
  if (!SEARCHABLE.includes(filterType))
    throw new MarketoApiError("1003", `Invalid filterType '${filterType}'`);
  required(req.params, "filterValues");
  const values = multi(req.params, "filterValues");
  if (values.length > LEAD_DB_MAX_BATCH) {
    throw new MarketoApiError(
      "1003",
      `Too many filterValues: ${values.length}, maximum is ${LEAD_DB_MAX_BATCH}`,
    );
  }
  const wanted = new Set(values.map((v) => v.toLowerCase()));
  return (m) => wanted.has(String(memberValue(filterType, m, program)).toLowerCase());
}

export function getProgramMembers(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = findProgram(ctx, id);
  const matches = memberFilter(req, program);
  const fields = req.params.has("fields") ? multi(req.params, "fields") : DEFAULT_MEMBER_FIELDS;
  for (const name of fields) {
    if (!MEMBER_FIELDS.some(([known]) => known === name))
      throw new MarketoApiError("1006", `Field '${name}' not found`);
  }
  const rows = membersOf(ctx, program).filter(matches);
  const { page, nextPageToken } = pageByToken(rows, req.params, "members");
  const result = page.map((m, seq) => {
    const row: Record<string, unknown> = { seq };
    // The Swagger's ProgramMember always carries these, whatever `fields` asks for.
    for (const name of new Set([...DEFAULT_MEMBER_FIELDS, ...fields]))
      row[name] = memberValue(name, m, program);
    return row;
  });
  return nextPageToken ? { result, nextPageToken, moreResult: true } : { result, moreResult: false };
}

export function describeProgramMembers(_req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const at = leadDate(Math.min(...ctx.world.programs.map((p) => p.createdAt)));
  return {
    result: [
      {
        name: "API Program Membership",
        description: "Map for API program membership fields",
        createdAt: at,
        updatedAt: at,
        dedupeFields: ["leadId", "programId"],
        searchableFields: SEARCHABLE.map((name) => [name]),
        fields: MEMBER_FIELDS.map(([name, dataType, length, updateable]) => ({
          name,
          displayName: name,
          dataType,
          ...(length !== undefined ? { length } : {}),
          updateable: updateable === true,
          crmManaged: false,
        })),
      },
    ],
  };
}
