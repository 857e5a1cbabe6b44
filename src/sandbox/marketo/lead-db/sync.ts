/**
 * Sync Leads: `POST /rest/v1/leads.json` with `{action, lookupField, input[≤300]}`.
 * Record-level outcomes are success:true with per-record status; skipped records carry
 * `reasons[{code,message}]` and no `id` (GRP recording; the Swagger `reason` object is wrong).
 */
import { appendActivity } from "../activities/log.js";
import {
  type HandlerContext,
  type HandlerResult,
  type Lead,
  type LeadField,
  type LeadValue,
  MarketoApiError,
  type World,
} from "../types.js";
import { inputOf, objectBody, type Reason } from "../wire/batch.js";
import { isRecord } from "../wire/params.js";
import { fieldByName } from "./fields.js";
import { findLeads } from "./leads.js";
import { API_ORIGIN } from "./sources.js";

export const ACTIONS = ["createOnly", "updateOnly", "createOrUpdate", "createDuplicate"] as const;
export type Action = (typeof ACTIONS)[number];
export type Outcome =
  | { id: number; status: "created" | "updated" }
  | { status: "skipped"; reasons: Reason[] };

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

class SkipRecord extends Error {
  constructor(readonly reason: Reason) {
    super(reason.message);
  }
}

function skip(code: string, message: string): never {
  throw new SkipRecord({ code, message });
}

/** Validates and converts one input value to the field's type. */
function coerce(field: LeadField, raw: unknown): LeadValue {
  if (raw === null) return null;
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  const invalid = () => skip("1003", `Invalid value for field '${field.name}' and value '${text}'`);
  switch (field.dataType) {
    case "integer":
      if (typeof raw === "number" && Number.isInteger(raw)) return raw;
      if (typeof raw === "string" && /^-?\d+$/.test(raw.trim())) return Number(raw);
      return skip("1001", `Invalid data type for field '${field.name}'`);
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return skip("1001", `Invalid data type for field '${field.name}'`);
    case "email":
      if (typeof raw !== "string" || (raw !== "" && !EMAIL_RE.test(raw))) return invalid();
      return raw;
    case "date":
      if (typeof raw !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return invalid();
      return raw;
    default:
      if (typeof raw !== "string" && typeof raw !== "number") return invalid();
      return String(raw);
  }
}

/** The writable values of one input record (unknown fields skip the record with 1006). */
function recordValues(world: World, record: Record<string, unknown>): Map<LeadField, LeadValue> {
  const values = new Map<LeadField, LeadValue>();
  for (const [name, raw] of Object.entries(record)) {
    const field = fieldByName(world.fields, name);
    if (!field) skip("1006", `Field '${name}' not found`);
    if (field.readOnly) continue;
    values.set(field, coerce(field, raw));
  }
  return values;
}

function changeActivity(world: World, lead: Lead, field: LeadField, oldValue: LeadValue, now: number): void {
  appendActivity(world, {
    leadId: lead.id,
    at: now,
    activityTypeId: 13,
    primaryAttributeValueId: field.id,
    primaryAttributeValue: field.displayName,
    attributes: [
      { name: "New Value", value: String(lead[field.name] ?? "") },
      { name: "Old Value", value: oldValue === null ? "" : String(oldValue) },
      { name: "Reason", value: "Web service API" },
      { name: "Source", value: "Web service API" },
    ],
    change: { fieldId: field.id, field: field.name, oldValue, newValue: lead[field.name] ?? null },
  });
}

function create(world: World, values: Map<LeadField, LeadValue>, now: number): Outcome {
  const lead: Lead = { id: world.nextLeadId++, createdAt: now, updatedAt: now, ...API_ORIGIN };
  for (const field of world.fields) if (!field.readOnly) lead[field.name] = values.get(field) ?? null;
  world.leads.set(lead.id, lead);
  appendActivity(world, {
    leadId: lead.id,
    at: now,
    activityTypeId: 12,
    attributes: [{ name: "Source Type", value: "Web service API" }],
  });
  return { id: lead.id, status: "created" };
}

function update(world: World, lead: Lead, values: Map<LeadField, LeadValue>, now: number): Outcome {
  for (const [field, value] of values) {
    const old = lead[field.name] ?? null;
    if (old === value) continue;
    lead[field.name] = value;
    changeActivity(world, lead, field, old, now);
  }
  lead.updatedAt = now;
  return { id: lead.id, status: "updated" };
}

export function syncOne(
  world: World,
  action: Action,
  lookup: LeadField,
  record: unknown,
  now: number,
): Outcome {
  try {
    if (!isRecord(record)) skip("1003", "Invalid input record");
    const values = recordValues(world, record);
    const key =
      record[lookup.name] ??
      record[Object.keys(record).find((k) => k.toLowerCase() === lookup.name.toLowerCase()) ?? ""];
    if (action === "createDuplicate") return create(world, values, now);
    if (key === undefined || key === null || key === "") {
      skip("1003", `Value for lookup field '${lookup.name}' not specified`);
    }
    const matches = findLeads(world, lookup, [String(key)]);
    if (matches.length > 1) skip("1007", "Multiple lead match lookup criteria");
    const existing = matches[0];
    if (existing) {
      if (action === "createOnly") skip("1005", "Lead already exists");
      return update(world, existing, values, now);
    }
    if (action === "updateOnly") skip("1004", "Lead not found");
    if (lookup.name === "id") skip("1004", "Lead not found");
    return create(world, values, now);
  } catch (error) {
    if (error instanceof SkipRecord) return { status: "skipped", reasons: [error.reason] };
    throw error;
  }
}

/** The body's `lookupField` (email by default); 1006 when it is no lead field. */
export function lookupFieldOf(world: World, body: Record<string, unknown>): LeadField {
  const lookupName = typeof body.lookupField === "string" ? body.lookupField : "email";
  const lookup = fieldByName(world.fields, lookupName);
  if (!lookup) throw new MarketoApiError("1006", `Field '${lookupName}' not found`);
  return lookup;
}

export function syncLeads(req: { body: string }, ctx: HandlerContext): HandlerResult {
  const body = objectBody(req.body);
  const action = (body.action ?? "createOrUpdate") as Action;
  if (!ACTIONS.includes(action)) throw new MarketoApiError("1003", `Invalid action '${String(body.action)}'`);
  const lookup = lookupFieldOf(ctx.world, body);
  const input = inputOf(body);
  const now = ctx.now();
  return { result: input.map((record) => syncOne(ctx.world, action, lookup, record, now)) };
}
