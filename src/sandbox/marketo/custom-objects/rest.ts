/**
 * Custom objects through the Lead DB API
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/custom-objects;
 * Swagger listCustomObjectsUsingGET, describeUsingGET_1, getCustomObjectsUsingGET,
 * syncCustomObjectsUsingPOST, deleteCustomObjectsUsingPOST): list the types (`names` narrows), describe
 * one, query records by a dedupe, id or searchable field (at most 300 values, paged by
 * nextPageToken), sync records (createOnly, updateOnly, createOrUpdate; dedupeBy dedupeFields or idField)
 * and delete them (deleteBy dedupeFields or idField). Query answers carry marketoGUID, the dedupe fields,
 * createdAt and updatedAt unless `fields` asks otherwise (LookupCustomObjectRequest.fields).
 *
 * Inferred: 1013 for an unknown type and for a record not found, 1005 for createOnly on an existing
 * record, 1006 for an unknown field, and the wording of every refusal.
 */

import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type World,
} from "../types.js";
import { inputOf, objectBody, skipped } from "../wire/batch.js";
import { leadDate } from "../wire/codec.js";
import { isRecord, LEAD_DB_MAX_BATCH, multi, pageByToken, required } from "../wire/params.js";
import { type CustomObjectRecord, type CustomObjectType, type CustomValue, customGuid } from "./model.js";

export function findType(world: World, apiName: string | undefined): CustomObjectType {
  const type = world.customObjectTypes.find((t) => t.apiName === apiName);
  if (!type) throw new MarketoApiError("1013", `Custom object '${apiName ?? ""}' not found`);
  return type;
}

const recordsOf = (world: World, type: CustomObjectType): CustomObjectRecord[] => {
  const records = world.customObjects.get(type.apiName) ?? [];
  world.customObjects.set(type.apiName, records);
  return records;
};

/** The type's metadata: the docs' `name` beside the Swagger's `apiName`, `state` and `version`. */
function metadata(type: CustomObjectType): Record<string, unknown> {
  return {
    name: type.apiName,
    apiName: type.apiName,
    displayName: type.displayName,
    pluralName: type.pluralName,
    description: type.description,
    createdAt: leadDate(type.createdAt),
    updatedAt: leadDate(type.updatedAt),
    idField: "marketoGUID",
    dedupeFields: type.dedupeFields,
    searchableFields: type.searchableFields,
    relationships: [{ field: type.leadLink, type: "parent", relatedTo: { name: "Lead", field: "id" } }],
    state: "approved",
    version: "approved",
    fields: type.fields.map((f) => ({
      name: f.name,
      displayName: f.displayName,
      dataType: f.dataType,
      ...(f.length !== undefined ? { length: f.length } : {}),
      updateable: f.updateable,
      crmManaged: false,
    })),
  };
}

export function listCustomObjects(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const names = new Set(multi(req.params, "names"));
  return {
    result: ctx.world.customObjectTypes.filter((t) => names.size === 0 || names.has(t.apiName)).map(metadata),
  };
}

export function describeCustomObject(_req: ApiRequest, ctx: HandlerContext, [name]: string[]): HandlerResult {
  return { result: [metadata(findType(ctx.world, name))] };
}

function value(record: CustomObjectRecord, name: string): CustomValue {
  if (name === "marketoGUID") return record.marketoGUID;
  if (name === "createdAt" || name === "updatedAt") return leadDate(record[name]);
  return record.values[name] ?? null;
}

/** The field a filterType names: `dedupeFields`, `idField`, or a searchable field. */
function filterField(type: CustomObjectType, filterType: string): string {
  if (filterType === "dedupeFields") return type.dedupeFields[0] as string;
  if (filterType === "idField") return "marketoGUID";
  if (!type.searchableFields.some((key) => key.length === 1 && key[0] === filterType))
    throw new MarketoApiError(
      "1003",
      `Invalid filterType '${filterType}': use a searchable field of describe.json`,
    );
  return filterType;
}

/**
 * What a query asks: the filter's field and values from the query string, or, for a compound key, the
 * `input` objects of a JSON body sent as `POST …?_method=GET` (custom-objects.md "Query"; Swagger
 * getCustomObjectsUsingGET customObjectLookupRequest: "all query parameters used for simple-key queries
 * except filterValues"). filterType is required either way (Swagger: `required: true`): 701 "filterType
 * cannot be blank" (error-codes.md 701 "%s cannot be blank").
 */
interface Lookup {
  filterType: string;
  /** One object per wanted record: field → value (a simple key has one field). */
  keys: Record<string, string>[];
  fields?: string[];
  params: URLSearchParams;
}

function lookupOf(req: ApiRequest, type: CustomObjectType): Lookup {
  const body = req.body.trim() === "" ? undefined : objectBody(req.body);
  if (!body) {
    const filterType = required(req.params, "filterType");
    required(req.params, "filterValues");
    const field = filterField(type, filterType);
    const keys = multi(req.params, "filterValues").map((v) => ({ [field]: v }));
    const fields = req.params.has("fields") ? multi(req.params, "fields") : undefined;
    return { filterType, keys, ...(fields ? { fields } : {}), params: req.params };
  }
  const filterType = typeof body.filterType === "string" ? body.filterType : "";
  if (filterType === "") throw new MarketoApiError("701", "filterType cannot be blank");
  if (filterType !== "dedupeFields" && filterType !== "idField") filterField(type, filterType);
  const keys = inputOf(body).map((entry) =>
    Object.fromEntries(Object.entries(isRecord(entry) ? entry : {}).map(([k, v]) => [k, String(v)])),
  );
  const params = new URLSearchParams(req.params);
  for (const name of ["batchSize", "nextPageToken"]) {
    const value = body[name];
    if (typeof value === "string" || typeof value === "number") params.set(name, String(value));
  }
  const fields = Array.isArray(body.fields) ? body.fields.map(String) : undefined;
  return { filterType, keys, ...(fields ? { fields } : {}), params };
}

export function queryCustomObjects(req: ApiRequest, ctx: HandlerContext, [name]: string[]): HandlerResult {
  const type = findType(ctx.world, name);
  const lookup = lookupOf(req, type);
  if (lookup.keys.length > LEAD_DB_MAX_BATCH)
    throw new MarketoApiError(
      "1003",
      `Too many filterValues: ${lookup.keys.length}, maximum is ${LEAD_DB_MAX_BATCH}`,
    );
  const fields = lookup.fields ?? ["marketoGUID", ...type.dedupeFields, "createdAt", "updatedAt"];
  for (const f of fields) {
    if (!type.fields.some((known) => known.name === f))
      throw new MarketoApiError("1006", `Field '${f}' not found`);
  }
  const matches = (r: CustomObjectRecord, key: Record<string, string>) =>
    Object.entries(key).every(([f, v]) => String(value(r, f)).toLowerCase() === v.toLowerCase());
  const rows = recordsOf(ctx.world, type).filter((r) => lookup.keys.some((key) => matches(r, key)));
  const { page, nextPageToken } = pageByToken(rows, lookup.params, "customobjects");
  const result = page.map((r, seq) => {
    const row: Record<string, unknown> = { seq, marketoGUID: r.marketoGUID };
    for (const f of fields) row[f] = value(r, f);
    return row;
  });
  return nextPageToken ? { result, nextPageToken } : { result };
}

/** The records of a sync or delete body (609, 701, 1003 as every Lead DB batch: wire/batch.ts). */
function batchOf(text: string): { body: Record<string, unknown>; input: Record<string, unknown>[] } {
  const body = objectBody(text);
  return { body, input: inputOf(body).map((record) => (isRecord(record) ? record : {})) };
}

/** The key field of `dedupeFields` or `idField`, and the record an input names by it. */
function keyed(type: CustomObjectType, by: unknown, name: string): string {
  if (by === undefined || by === "dedupeFields") return type.dedupeFields[0] as string;
  if (by === "idField") return "marketoGUID";
  throw new MarketoApiError("1003", `Invalid value '${String(by)}' for ${name}: use dedupeFields or idField`);
}

export function syncCustomObjects(req: ApiRequest, ctx: HandlerContext, [name]: string[]): HandlerResult {
  const type = findType(ctx.world, name);
  const { body, input } = batchOf(req.body);
  const { action = "createOrUpdate", dedupeBy } = body;
  if (action !== "createOnly" && action !== "updateOnly" && action !== "createOrUpdate")
    throw new MarketoApiError("1003", `Invalid action '${String(action)}'`);
  const key = keyed(type, dedupeBy, "dedupeBy");
  const now = ctx.now();
  return {
    result: input.map((record, seq) => {
      const outcome = syncRecord(ctx.world, type, action, key, record, now);
      return outcome.status === "skipped"
        ? skipped({ seq }, { code: outcome.code, message: outcome.message })
        : { seq, marketoGUID: outcome.marketoGUID, status: outcome.status };
    }),
  };
}

export type SyncOutcome =
  | { status: "created" | "updated"; marketoGUID: string }
  | { status: "skipped"; code: string; message: string };

/** One record written by its key field (the dedupe field or marketoGUID); also the bulk import's row. */
export function syncRecord(
  world: World,
  type: CustomObjectType,
  action: "createOnly" | "updateOnly" | "createOrUpdate",
  key: string,
  record: Record<string, unknown>,
  now: number,
): SyncOutcome {
  const skip = (code: string, message: string): SyncOutcome => ({ status: "skipped", code, message });
  const records = recordsOf(world, type);
  const unknown = Object.keys(record).find((f) => !type.fields.some((known) => known.name === f));
  if (unknown) return skip("1006", `Field '${unknown}' not found`);
  const keyValue = record[key];
  if (keyValue === undefined || keyValue === null || keyValue === "")
    return skip("1003", `Value for the key field '${key}' is required`);
  const existing = records.find((r) => String(value(r, key)) === String(keyValue));
  if (existing && action === "createOnly") return skip("1005", "Record already exists");
  if (!existing && (action === "updateOnly" || key === "marketoGUID"))
    return skip("1013", "Record not found");
  const link = record[type.leadLink] ?? existing?.values[type.leadLink];
  if (!world.leads.has(Number(link)))
    return skip("1003", `Value for the link field '${type.leadLink}' is not a lead id`);
  const values = Object.fromEntries(
    Object.entries(record).filter(([f]) => f !== "marketoGUID" && f !== "createdAt" && f !== "updatedAt"),
  ) as Record<string, CustomValue>;
  if (existing) {
    Object.assign(existing.values, values);
    existing.updatedAt = now;
    return { status: "updated", marketoGUID: existing.marketoGUID };
  }
  const created = {
    marketoGUID: customGuid(type.apiName, records.length + 1 + now),
    createdAt: now,
    updatedAt: now,
    values,
  };
  records.push(created);
  return { status: "created", marketoGUID: created.marketoGUID };
}

export function deleteCustomObjects(req: ApiRequest, ctx: HandlerContext, [name]: string[]): HandlerResult {
  const type = findType(ctx.world, name);
  const { body, input } = batchOf(req.body);
  const key = keyed(type, body.deleteBy, "deleteBy");
  const records = recordsOf(ctx.world, type);
  return {
    result: input.map((record, seq) => {
      const at = records.findIndex((r) => String(value(r, key)) === String(record[key]));
      const found = records[at];
      if (!found) return skipped({ seq }, { code: "1013", message: "Record not found" });
      records.splice(at, 1);
      return { seq, marketoGUID: found.marketoGUID, status: "deleted" };
    }),
  };
}
