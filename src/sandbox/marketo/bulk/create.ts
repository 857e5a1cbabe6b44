/**
 * Create Export Lead Job / Create Export Activity Job: the request body (Swagger ExportLeadRequest,
 * ExportActivityRequest) checked as the pages describe it
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract,
 * .../bulk-activity-extract). Codes: 1002 missing required parameter and 1006 unknown field
 * (error-codes.md); the other refusals are 1003 "Invalid data" with inferred wording.
 */
import { parseMarketoDate } from "../codec.js";
import { fieldByName } from "../data-leads.js";
import { isRecord } from "../params.js";
import { MarketoApiError, type World } from "../types.js";
import type { BulkJob, BulkKind, BulkSelection } from "./model.js";

/** Max time span of a createdAt/updatedAt filter (ADE bulk-extract.md "Limits"). */
const MAX_SPAN_MS = 31 * 86_400_000;
/** primaryAttributeValueIds / primaryAttributeValues take at most 50 values. */
const MAX_PRIMARY_VALUES = 50;
/** The filter types of each export (Swagger ExportLeadFilter, ExportActivityFilter; the pages' "Filters"). */
const LEAD_FILTERS = [
  "createdAt",
  "updatedAt",
  "staticListId",
  "staticListName",
  "smartListId",
  "smartListName",
];
const ACTIVITY_FILTERS = [
  "createdAt",
  "activityTypeIds",
  "primaryAttributeValueIds",
  "primaryAttributeValues",
];
export const ACTIVITY_FIELDS = [
  "marketoGUID",
  "leadId",
  "activityDate",
  "activityTypeId",
  "campaignId",
  "primaryAttributeValueId",
  "primaryAttributeValue",
  "attributes",
] as const;
const ACTIVITY_EXTRA_FIELDS = ["actionResult"];

const invalid = (message: string): MarketoApiError => new MarketoApiError("1003", message);
const missing = (name: string): MarketoApiError =>
  new MarketoApiError("1002", `Missing value for the required parameter '${name}'`);

function dateRange(raw: unknown, name: string): { from: number; to: number } {
  if (!isRecord(raw)) throw invalid(`${name} must be an object with startAt and endAt`);
  const bound = (key: "startAt" | "endAt") => {
    const value = raw[key];
    if (typeof value !== "string" || value === "") throw missing(`${name}.${key}`);
    const ms = parseMarketoDate(value);
    if (ms === undefined) throw invalid(`Invalid value '${value}' for ${name}.${key}`);
    return ms;
  };
  const from = bound("startAt");
  const to = bound("endAt");
  if (to < from) throw invalid(`${name}.endAt must not be before ${name}.startAt`);
  if (to - from > MAX_SPAN_MS) throw invalid(`The ${name} date range must be 31 days or fewer`);
  return { from, to };
}

function intArray(raw: unknown, name: string, max: number): number[] {
  if (!Array.isArray(raw) || raw.some((v) => !Number.isInteger(v)))
    throw invalid(`${name} must be an array of integers`);
  if (raw.length > max) throw invalid(`Too many values for ${name}: ${raw.length}, maximum is ${max}`);
  return raw as number[];
}

function leadSelection(world: World, filter: Record<string, unknown>): BulkSelection {
  const keys = Object.keys(filter);
  const unknown = keys.find((k) => !LEAD_FILTERS.includes(k));
  if (unknown) throw invalid(`Invalid filter type '${unknown}'`);
  if (keys.length !== 1) throw invalid("Exactly one filter type is allowed per export job");
  const key = keys[0] as string;
  const value = filter[key];
  if (key === "createdAt" || key === "updatedAt") {
    return { kind: "leads", by: "date", field: key, ...dateRange(value, key) };
  }
  const list = key.startsWith("static") ? "static" : "smart";
  const byId = key.endsWith("Id");
  if (byId ? !Number.isInteger(value) : typeof value !== "string" || value === "") {
    throw invalid(`Invalid value '${String(value)}' for ${key}`);
  }
  const pool: readonly { id: number; name: string }[] = list === "static" ? world.lists : world.smartLists;
  if (!pool.some((item) => (byId ? item.id === value : item.name === value))) {
    throw invalid(`${list === "static" ? "Static" : "Smart"} list '${String(value)}' not found`);
  }
  return byId
    ? { kind: "leads", by: "list", list, id: value as number }
    : { kind: "leads", by: "list", list, name: value as string };
}

function activitySelection(world: World, filter: Record<string, unknown>): BulkSelection {
  // An unknown filter type is refused as for leads, never ignored: ignoring it widens the export.
  const unknown = Object.keys(filter).find((k) => !ACTIVITY_FILTERS.includes(k));
  if (unknown) throw invalid(`Invalid filter type '${unknown}'`);
  if (filter.createdAt === undefined) throw missing("filter.createdAt");
  const selection: Extract<BulkSelection, { kind: "activities" }> = {
    kind: "activities",
    ...dateRange(filter.createdAt, "createdAt"),
  };
  if (filter.activityTypeIds !== undefined) {
    const ids = intArray(filter.activityTypeIds, "activityTypeIds", Number.MAX_SAFE_INTEGER);
    for (const id of ids) {
      if (id === 37) throw invalid("The Delete Lead activity is not supported: use Get Deleted Leads");
      if (!world.activityTypes.some((t) => t.id === id)) throw invalid(`Invalid activity type id '${id}'`);
    }
    selection.activityTypeIds = ids;
  }
  const byIds = filter.primaryAttributeValueIds;
  const byValues = filter.primaryAttributeValues;
  if (byIds !== undefined && byValues !== undefined) {
    throw invalid("primaryAttributeValueIds and primaryAttributeValues cannot be used together");
  }
  if ((byIds !== undefined || byValues !== undefined) && !selection.activityTypeIds) {
    throw invalid("primaryAttributeValueIds and primaryAttributeValues need the activityTypeIds filter");
  }
  if (byIds !== undefined)
    selection.primaryAttributeValueIds = intArray(byIds, "primaryAttributeValueIds", MAX_PRIMARY_VALUES);
  if (byValues !== undefined) {
    if (!Array.isArray(byValues) || byValues.some((v) => typeof v !== "string")) {
      throw invalid("primaryAttributeValues must be an array of strings");
    }
    if (byValues.length > MAX_PRIMARY_VALUES)
      throw invalid(`Too many values for primaryAttributeValues, maximum is ${MAX_PRIMARY_VALUES}`);
    selection.primaryAttributeValues = byValues as string[];
  }
  return selection;
}

function exportFields(world: World, kind: BulkKind, raw: unknown): string[] {
  if (raw === undefined) {
    if (kind === "leads") throw missing("fields");
    return [...ACTIVITY_FIELDS];
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((f) => typeof f !== "string" || f === "")) {
    throw kind === "leads" ? missing("fields") : invalid("fields must be a non-empty array of field names");
  }
  for (const name of raw as string[]) {
    const known =
      kind === "leads"
        ? fieldByName(world.fields, name) !== undefined
        : [...ACTIVITY_FIELDS, ...ACTIVITY_EXTRA_FIELDS].includes(name);
    if (!known) throw new MarketoApiError("1006", `Field '${name}' not found`);
  }
  return raw as string[];
}

/** The job a valid create request describes (not yet stored). */
export function parseCreate(
  world: World,
  kind: BulkKind,
  body: unknown,
): Pick<BulkJob, "kind" | "format" | "fields" | "headers" | "selection"> {
  if (!isRecord(body)) throw new MarketoApiError("609", "Invalid JSON");
  const fields = exportFields(world, kind, body.fields);
  const format = body.format ?? "CSV";
  if (format !== "CSV" && format !== "TSV" && format !== "SSV") {
    throw invalid(`Invalid value '${String(format)}' for format: use CSV, TSV or SSV`);
  }
  const names = body.columnHeaderNames ?? {};
  if (!isRecord(names) || Object.values(names).some((v) => typeof v !== "string")) {
    throw invalid("columnHeaderNames must be an object of field name → column header");
  }
  const strange = Object.keys(names).find((k) => !fields.includes(k));
  if (strange) throw invalid(`columnHeaderNames names '${strange}', which is not in fields`);
  if (!isRecord(body.filter)) throw missing("filter");
  return {
    kind,
    format,
    fields,
    headers: fields.map((f) => (names[f] as string | undefined) ?? f),
    selection: kind === "leads" ? leadSelection(world, body.filter) : activitySelection(world, body.filter),
  };
}
