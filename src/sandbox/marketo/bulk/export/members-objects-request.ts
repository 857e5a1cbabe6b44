/**
 * Create Export Program Member Job and Create Export Custom Object Job: their fields and filters
 * (Swagger ExportProgramMemberRequest/Filter, ExportCustomObjectRequest/Filter).
 *
 * Program members (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-program-member-extract):
 * "You must specify either the programId or the programIds filter" (not both; programIds takes up to 10
 * ids and adds a programId column first in the file); isExhausted, nurtureCadence (paus|norm),
 * statusNames and updatedAt are optional and "ANDed together". Fields are program member fields
 * (Describe Program Member) or lead fields.
 *
 * Custom objects (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-custom-object-extract):
 * records of a custom object type linked to the leads of a static or smart list, or updated within a
 * date range; "Only one filter type may be specified per export job". Fields are the type's attributes.
 *
 * Inferred: the wording of the refusals, and 1013 for an unknown custom object type.
 */

import type { CustomObjectType } from "../../custom-objects/model.js";
import { fieldByName } from "../../lead-db/fields.js";
import { MEMBER_FIELDS } from "../../programs/members.js";
import { MarketoApiError, type World } from "../../types.js";
import type { BulkSelection } from "../model.js";
import { dateRange, intArray, invalid, listFilter, missing, oneFilter } from "./filters.js";

const MEMBER_FILTERS = [
  "programId",
  "programIds",
  "isExhausted",
  "nurtureCadence",
  "statusNames",
  "updatedAt",
];
const CUSTOM_FILTERS = ["updatedAt", "staticListId", "staticListName", "smartListId", "smartListName"];
/** programIds "Accepts an array of up to 10 program ids". */
const MAX_PROGRAM_IDS = 10;

function fieldNames(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((f) => typeof f !== "string" || f === ""))
    throw missing("fields");
  return raw as string[];
}

/** A program member field (Describe Program Member) or a lead field. */
export function memberExportFields(world: World, raw: unknown): string[] {
  const fields = fieldNames(raw);
  for (const name of fields) {
    const known =
      MEMBER_FIELDS.some(([field]) => field === name) || fieldByName(world.fields, name) !== undefined;
    if (!known) throw new MarketoApiError("1006", `Field '${name}' not found`);
  }
  return fields;
}

export function exportType(world: World, apiName: string | undefined): CustomObjectType {
  const type = world.customObjectTypes.find((t) => t.apiName === apiName);
  if (!type) throw new MarketoApiError("1013", `Custom object '${apiName ?? ""}' not found`);
  return type;
}

export function customExportFields(type: CustomObjectType, raw: unknown): string[] {
  const fields = fieldNames(raw);
  for (const name of fields) {
    if (!type.fields.some((f) => f.name === name))
      throw new MarketoApiError("1006", `Field '${name}' not found in custom object '${type.apiName}'`);
  }
  return fields;
}

function programIds(world: World, filter: Record<string, unknown>): { ids: number[]; many: boolean } {
  const one = filter.programId;
  const many = filter.programIds;
  if (one !== undefined && many !== undefined)
    throw invalid("programId and programIds cannot be used together");
  if (one === undefined && many === undefined) throw missing("filter.programId");
  const ids = many === undefined ? [one] : intArray(many, "programIds", MAX_PROGRAM_IDS);
  if (ids.length === 0) throw missing("filter.programIds");
  for (const id of ids) {
    if (!Number.isInteger(id)) throw invalid(`Invalid value '${String(id)}' for programId`);
    if (!world.programs.some((p) => p.id === id)) throw invalid(`Program '${String(id)}' not found`);
  }
  return { ids: ids as number[], many: many !== undefined };
}

export function programMemberSelection(world: World, filter: Record<string, unknown>): BulkSelection {
  const unknown = Object.keys(filter).find((k) => !MEMBER_FILTERS.includes(k));
  if (unknown) throw invalid(`Invalid filter type '${unknown}'`);
  const { ids, many } = programIds(world, filter);
  const selection: Extract<BulkSelection, { kind: "programMembers" }> = {
    kind: "programMembers",
    programIds: ids,
    many,
  };
  if (filter.isExhausted !== undefined) {
    if (typeof filter.isExhausted !== "boolean") throw invalid("isExhausted must be true or false");
    selection.isExhausted = filter.isExhausted;
  }
  if (filter.nurtureCadence !== undefined) {
    if (filter.nurtureCadence !== "paus" && filter.nurtureCadence !== "norm")
      throw invalid(`Invalid value '${String(filter.nurtureCadence)}' for nurtureCadence: use paus or norm`);
    selection.nurtureCadence = filter.nurtureCadence;
  }
  if (filter.statusNames !== undefined) {
    const names = filter.statusNames;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string"))
      throw invalid("statusNames must be a non-empty array of status names");
    selection.statusNames = names as string[];
  }
  if (filter.updatedAt !== undefined) selection.updatedAt = dateRange(filter.updatedAt, "updatedAt");
  return selection;
}

export function customObjectSelection(world: World, filter: Record<string, unknown>): BulkSelection {
  const key = oneFilter(filter, CUSTOM_FILTERS);
  if (key === "updatedAt") return { kind: "customObjects", by: "date", ...dateRange(filter[key], key) };
  return { kind: "customObjects", by: "list", ...listFilter(world, key, filter[key]) };
}
