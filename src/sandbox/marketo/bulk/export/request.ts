/**
 * Create Export Lead Job / Create Export Activity Job: the request body (Swagger ExportLeadRequest,
 * ExportActivityRequest) checked as the pages describe it
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract,
 * .../bulk-activity-extract). Codes: 1002 missing required parameter and 1006 unknown field
 * (error-codes.md); the other refusals are 1003 "Invalid data" with inferred wording.
 */
import { fieldByName } from "../../lead-db/fields.js";
import { MarketoApiError, type World } from "../../types.js";
import { isRecord } from "../../wire/params.js";
import type { BulkJob, BulkKind, BulkSelection } from "../model.js";
import { dateRange, intArray, invalid, listFilter, missing, oneFilter } from "./filters.js";
import {
  customExportFields,
  customObjectSelection,
  exportType,
  memberExportFields,
  programMemberSelection,
} from "./members-objects-request.js";

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

function leadSelection(world: World, filter: Record<string, unknown>): BulkSelection {
  const key = oneFilter(filter, LEAD_FILTERS);
  const value = filter[key];
  if (key === "createdAt" || key === "updatedAt") {
    return { kind: "leads", by: "date", field: key, ...dateRange(value, key) };
  }
  return { kind: "leads", by: "list", ...listFilter(world, key, value) };
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

function exportFields(world: World, kind: "leads" | "activities", raw: unknown): string[] {
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

type Parsed = Pick<BulkJob, "kind" | "format" | "fields" | "headers" | "selection">;

/** The fields and selection of each export type (program members and custom objects: members-objects-request.ts). */
function fieldsAndSelection(
  world: World,
  kind: BulkKind,
  body: Record<string, unknown>,
  apiName: string | undefined,
): { fields: string[]; selection: () => BulkSelection } {
  const filter = () => {
    if (!isRecord(body.filter)) throw missing("filter");
    return body.filter;
  };
  switch (kind) {
    case "leads":
      return {
        fields: exportFields(world, kind, body.fields),
        selection: () => leadSelection(world, filter()),
      };
    case "activities":
      return {
        fields: exportFields(world, kind, body.fields),
        selection: () => activitySelection(world, filter()),
      };
    case "programMembers":
      return {
        fields: memberExportFields(world, body.fields),
        selection: () => programMemberSelection(world, filter()),
      };
    default: {
      const type = exportType(world, apiName);
      return {
        fields: customExportFields(type, body.fields),
        selection: () => customObjectSelection(world, filter()),
      };
    }
  }
}

/** The job a valid create request describes (not yet stored). */
export function parseCreate(world: World, kind: BulkKind, body: unknown, apiName?: string): Parsed {
  if (!isRecord(body)) throw new MarketoApiError("609", "Invalid JSON");
  const spec = fieldsAndSelection(world, kind, body, apiName);
  const { fields } = spec;
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
  return {
    kind,
    format,
    fields,
    headers: fields.map((f) => (names[f] as string | undefined) ?? f),
    selection: spec.selection(),
  };
}
