/**
 * Sync Program Member Data (Swagger syncProgramMemberDataUsingPOST,
 * POST /rest/v1/programs/{programId}/members.json with `{input:[{leadId, <field>: value}]}`;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members):
 * "Only existing members of the program may have their data changed with this API", and only fields the
 * describe marks updateable (the custom ones) may be written. Results carry seq, leadId and status
 * updated|skipped (ProgramMemberStatusResponse's enum), at most 300 records.
 *
 * Inferred (the pages show no failing record): a non-member is skipped with 1004, an unknown field with
 * 1006 "Field not found" (as Sync Leads), a standard (not updateable) field with 1003, a value of the
 * wrong type with 1001 and a string over the field's length with 1003; a skipped record changes nothing.
 */

import type { ApiRequest, HandlerContext, HandlerResult } from "../types.js";
import { inputOf, numberOf, objectBody, type Reason, skipped } from "../wire/batch.js";
import { isRecord } from "../wire/params.js";
import { findProgram, MEMBER_FIELDS } from "./members.js";

type Value = string | number | null;

/** The record's field values, or the reason it is skipped. */
function memberValues(record: Record<string, unknown>): Map<string, Value> | Reason {
  const values = new Map<string, Value>();
  for (const [name, raw] of Object.entries(record)) {
    if (name === "leadId") continue;
    const def = MEMBER_FIELDS.find(([known]) => known === name);
    if (!def) return { code: "1006", message: `Field '${name}' not found` };
    const [, dataType, length, updateable] = def;
    if (updateable !== true) return { code: "1003", message: `Field '${name}' is not updateable` };
    if (raw === null) values.set(name, null);
    else if (dataType === "integer") {
      const n = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n))
        return { code: "1001", message: `Invalid data type for field '${name}'` };
      values.set(name, n);
    } else {
      if (typeof raw !== "string" && typeof raw !== "number")
        return { code: "1001", message: `Invalid data type for field '${name}'` };
      const text = String(raw);
      if (length !== undefined && text.length > length)
        return { code: "1003", message: `Value for field '${name}' is longer than ${length} characters` };
      values.set(name, text);
    }
  }
  return values;
}

export function syncProgramMemberData(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = findProgram(ctx, id);
  const input = inputOf(objectBody(req.body));
  const members = ctx.world.programMembers.get(program.id);
  const now = ctx.now();
  const result = input.map((record, seq) => {
    const leadId = numberOf(record, "leadId");
    const names = { seq, ...(leadId !== undefined ? { leadId } : {}) };
    if (!isRecord(record) || leadId === undefined)
      return skipped(names, { code: "1003", message: "leadId is required" });
    const member = members?.get(leadId);
    if (!member)
      return skipped(names, {
        code: "1004",
        message: `Lead ${leadId} is not a member of program ${program.id}`,
      });
    const values = memberValues(record);
    if (!(values instanceof Map)) return skipped(names, values);
    member.custom = { ...member.custom, ...Object.fromEntries(values) };
    member.updatedAt = now;
    return { seq, leadId, status: "updated" };
  });
  return { result };
}
