/**
 * Lead reads: Get Leads by Filter Type, Get Lead by Id, Describe Lead
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads).
 */

import {
  type HandlerContext,
  type HandlerResult,
  type Lead,
  type LeadField,
  type LeadValue,
  MarketoApiError,
  type World,
} from "../types.js";
import { leadDate } from "../wire/codec.js";
import { LEAD_DB_MAX_BATCH, multi, pageByToken, required, toInt } from "../wire/params.js";
import { DEFAULT_LEAD_FIELDS, fieldByName } from "./fields.js";

/** The real service refuses filters matching more than this many leads (ADE leads.md). */
const MAX_FILTER_MATCHES = 1000;

/** The fields a read returns: `fields` if given (unknown ones are an error), else the defaults. */
export function requestedFields(world: World, params: URLSearchParams): LeadField[] {
  const names = params.has("fields") ? multi(params, "fields") : [...DEFAULT_LEAD_FIELDS];
  const fields: LeadField[] = [];
  for (const name of ["id", ...names]) {
    const field = fieldByName(world.fields, name);
    if (!field) throw new MarketoApiError("1006", `Field '${name}' not found`);
    if (!fields.includes(field)) fields.push(field);
  }
  return fields;
}

/** Wire form of a lead: requested fields only, empty ones as null (GRP recording), datetimes as "…Z". */
export function formatLead(lead: Lead, fields: readonly LeadField[]): Record<string, LeadValue> {
  const out: Record<string, LeadValue> = {};
  for (const field of fields) {
    const value = lead[field.name] ?? null;
    out[field.name] = field.dataType === "datetime" && typeof value === "number" ? leadDate(value) : value;
  }
  return out;
}

/** Comparable form of a value; Marketo compares lookup values case-insensitively for text fields. */
function lookupKey(field: LeadField, value: LeadValue | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (field.dataType === "datetime" && typeof value === "number") return leadDate(value);
  const text = String(value).trim();
  if (field.dataType === "integer") return /^-?\d+$/.test(text) ? String(Number(text)) : undefined;
  return text.toLowerCase();
}

/** Leads whose `field` equals any of `values`, in id order; one scan whatever the number of values. */
export function findLeads(world: World, field: LeadField, values: readonly string[]): Lead[] {
  if (field.name === "id") {
    const ids = new Set(
      values
        .map((v) => lookupKey(field, v))
        .filter((k) => k !== undefined)
        .map(Number),
    );
    return [...ids]
      .sort((a, b) => a - b)
      .map((id) => world.leads.get(id))
      .filter((lead): lead is Lead => lead !== undefined);
  }
  const wanted = new Set(values.map((v) => lookupKey(field, v)).filter((k) => k !== undefined));
  const out: Lead[] = [];
  for (const lead of world.leads.values()) {
    const key = lookupKey(field, lead[field.name]);
    if (key !== undefined && wanted.has(key)) out.push(lead);
  }
  return out.sort((a, b) => a.id - b.id);
}

export function getLeadsByFilter(req: { params: URLSearchParams }, ctx: HandlerContext): HandlerResult {
  const { world } = ctx;
  const filterType = required(req.params, "filterType");
  required(req.params, "filterValues");
  const field = fieldByName(world.fields, filterType);
  // Only the fields describe2 lists as searchable are filter types (ADE leads.md "Query").
  if (!field || !searchableFields(world).includes(field)) {
    throw new MarketoApiError("1003", `Invalid filterType '${filterType}'`);
  }
  const values = multi(req.params, "filterValues");
  if (values.length > LEAD_DB_MAX_BATCH) {
    throw new MarketoApiError(
      "1003",
      `Too many filterValues: ${values.length}, maximum is ${LEAD_DB_MAX_BATCH}`,
    );
  }
  const fields = requestedFields(world, req.params);
  const matched = findLeads(world, field, values);
  if (matched.length > MAX_FILTER_MATCHES)
    throw new MarketoApiError("1003", "Too many results match the filter");
  const { page, nextPageToken } = pageByToken(matched, req.params, "leads");
  const result = page.map((lead) => formatLead(lead, fields));
  return nextPageToken ? { result, nextPageToken, moreResult: true } : { result };
}

export function getLeadById(
  req: { params: URLSearchParams },
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const lead = ctx.world.leads.get(toInt(id ?? "", "leadId"));
  // A missing lead is not an error on the real service: success with an empty result.
  return { result: lead ? [formatLead(lead, requestedFields(ctx.world, req.params))] : [] };
}

export function describeLeads(_req: unknown, ctx: HandlerContext): HandlerResult {
  return {
    result: ctx.world.fields.map((f) => ({
      id: f.id,
      displayName: f.displayName,
      dataType: f.dataType,
      ...(f.length !== undefined ? { length: f.length } : {}),
      rest: { name: f.name, readOnly: f.readOnly },
      soap: { name: f.name.charAt(0).toUpperCase() + f.name.slice(1), readOnly: f.readOnly },
    })),
  };
}

/**
 * Describe Lead2 (Swagger describeUsingGET_6, LeadAttribute2): one "API Lead" object with the
 * searchable fields (each an array, as compound keys would be) and every field's metadata. Searchable
 * are id, email and custom string/email/integer fields, the filterTypes the Swagger names.
 */
export function searchableFields(world: World): LeadField[] {
  return world.fields.filter(
    (f) =>
      f.name === "id" ||
      f.name === "email" ||
      (f.id >= 100 && (f.dataType === "string" || f.dataType === "email" || f.dataType === "integer")),
  );
}

export function describeLeads2(_req: unknown, ctx: HandlerContext): HandlerResult {
  const searchable = searchableFields(ctx.world);
  return {
    result: [
      {
        name: "API Lead",
        searchableFields: searchable.map((f) => [f.name]),
        fields: ctx.world.fields.map((f) => ({
          name: f.name,
          displayName: f.displayName,
          dataType: f.dataType,
          ...(f.length !== undefined ? { length: f.length } : {}),
          updateable: !f.readOnly,
          crmManaged: false,
        })),
      },
    ],
  };
}
