/**
 * Properties: list (filter required), create, get, patch (updateMask required, snake_case), soft delete.
 * Shapes follow analyticsadmin v1beta's Property schema.
 */
import { historyStartTime } from "../data/dataset.js";
import { invalidArgument, parseJsonObject } from "../http.js";
import type { WorldProperty } from "../model.js";
import {
  type AdminRequest,
  authorize,
  iso,
  requireAccountRole,
  requireLiveAccount,
  requireProperty,
} from "./context.js";
import { listBody, paginate, showDeleted } from "./paging.js";
import {
  checkCurrency,
  checkMaxLength,
  checkTimeZone,
  optionalEnum,
  optionalString,
  parseUpdateMask,
  rejectUnknownFields,
  requireNonEmpty,
} from "./validate.js";

export const INDUSTRY_CATEGORIES = [
  "INDUSTRY_CATEGORY_UNSPECIFIED",
  "AUTOMOTIVE",
  "BUSINESS_AND_INDUSTRIAL_MARKETS",
  "FINANCE",
  "HEALTHCARE",
  "TECHNOLOGY",
  "TRAVEL",
  "OTHER",
  "ARTS_AND_ENTERTAINMENT",
  "BEAUTY_AND_FITNESS",
  "BOOKS_AND_LITERATURE",
  "FOOD_AND_DRINK",
  "GAMES",
  "HOBBIES_AND_LEISURE",
  "HOME_AND_GARDEN",
  "INTERNET_AND_TELECOM",
  "LAW_AND_GOVERNMENT",
  "NEWS",
  "ONLINE_COMMUNITIES",
  "PEOPLE_AND_SOCIETY",
  "PETS_AND_ANIMALS",
  "REAL_ESTATE",
  "REFERENCE",
  "SCIENCE",
  "SPORTS",
  "JOBS_AND_EDUCATION",
  "SHOPPING",
] as const;

const PROPERTY_TYPES = [
  "PROPERTY_TYPE_UNSPECIFIED",
  "PROPERTY_TYPE_ORDINARY",
  "PROPERTY_TYPE_SUBPROPERTY",
  "PROPERTY_TYPE_ROLLUP",
] as const;

const PROPERTY_FIELDS = [
  "name",
  "propertyType",
  "createTime",
  "updateTime",
  "parent",
  "displayName",
  "industryCategory",
  "timeZone",
  "currencyCode",
  "serviceLevel",
  "deleteTime",
  "expireTime",
  "account",
];
const MUTABLE = ["display_name", "industry_category", "time_zone", "currency_code"];
const IMMUTABLE = [
  "name",
  "property_type",
  "create_time",
  "update_time",
  "parent",
  "service_level",
  "delete_time",
  "expire_time",
  "account",
];

/** Trashed properties are purged 35 days after deletion (https://support.google.com/analytics/answer/6154772). */
const TRASH_RETENTION_MS = 35 * 24 * 3600 * 1000;

/** A property as the Admin API returns it at `nowMs`: one with data was created on its first data day. */
export function propertyJson(p: WorldProperty, nowMs: number): Record<string, unknown> {
  const created = historyStartTime(p.id, p.timeZone, nowMs) ?? p.createTime;
  const json: Record<string, unknown> = {
    name: `properties/${p.id}`,
    propertyType: "PROPERTY_TYPE_ORDINARY",
    createTime: created,
    // Never before its creation (a seeded property's updateTime is older than its moving first day).
    updateTime: p.updateTime > created ? p.updateTime : created,
    parent: `accounts/${p.accountId}`,
    displayName: p.displayName,
  };
  if (p.industryCategory && p.industryCategory !== "INDUSTRY_CATEGORY_UNSPECIFIED") {
    json.industryCategory = p.industryCategory;
  }
  json.timeZone = p.timeZone;
  json.currencyCode = p.currencyCode;
  json.serviceLevel = "GOOGLE_ANALYTICS_STANDARD";
  if (p.deleteTime) json.deleteTime = p.deleteTime;
  if (p.expireTime) json.expireTime = p.expireTime;
  json.account = `accounts/${p.accountId}`;
  return json;
}

/** Parses the required filter: parent:accounts/N, ancestor:accounts/N, parent:properties/N, firebase_project:X. */
function parseFilter(url: URL): { kind: "account" | "property" | "firebase"; id: string } {
  const filter = (url.searchParams.get("filter") ?? "").trim();
  if (filter === "") {
    throw invalidArgument(
      "filter is required: use filter=parent:accounts/{account_id} (or ancestor:accounts/{account_id}) to list the properties of an account.",
    );
  }
  const account = /^(?:parent|ancestor)\s*:\s*accounts\/(\d+)$/.exec(filter);
  if (account?.[1]) return { kind: "account", id: account[1] };
  const property = /^parent\s*:\s*properties\/(\d+)$/.exec(filter);
  if (property?.[1]) return { kind: "property", id: property[1] };
  const firebase = /^firebase_project\s*:\s*(\S+)$/.exec(filter);
  if (firebase?.[1]) return { kind: "firebase", id: firebase[1] };
  throw invalidArgument(
    `Invalid filter "${filter}": accepted forms are parent:accounts/{account_id}, ancestor:accounts/{account_id}, parent:properties/{property_id} and firebase_project:{project}.`,
  );
}

export function listProperties(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "ListProperties", false);
  const filter = parseFilter(r.url);
  const withDeleted = showDeleted(r.url);
  let items: WorldProperty[] = [];
  if (filter.kind === "account") {
    requireAccountRole(r.ctx, caller, filter.id, "viewer");
    items = r.ctx.world.propertiesOf(filter.id).filter((p) => withDeleted || !p.deleted);
  } else if (filter.kind === "property") {
    // The sandbox has no subproperties, so a property parent lists nothing once access is confirmed.
    requireProperty(r.ctx, caller, filter.id, "viewer", true);
  }
  const scope = `properties|${filter.kind}:${filter.id}|${withDeleted}`;
  const page = paginate(items, r.url, scope);
  return listBody("properties", { ...page, items: page.items.map((p) => propertyJson(p, r.ctx.now())) });
}

export function getProperty(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "GetProperty", false);
  return propertyJson(requireProperty(r.ctx, caller, r.params.property ?? "", "viewer", true), r.ctx.now());
}

interface EditableFields {
  displayName?: string;
  timeZone?: string;
  currencyCode?: string;
  industryCategory?: string;
}

/** Binds the JSON body the way ESF does: unknown members and wrong JSON types are rejected first. */
function bindProperty(body: string): { parent?: string; propertyType?: string; fields: EditableFields } {
  const json = parseJsonObject(body);
  rejectUnknownFields(json, PROPERTY_FIELDS, "property");
  const fields: EditableFields = {};
  const displayName = optionalString(json, "displayName", "property");
  const timeZone = optionalString(json, "timeZone", "property");
  const currencyCode = optionalString(json, "currencyCode", "property");
  const industry = optionalEnum(
    json,
    "industryCategory",
    "property",
    INDUSTRY_CATEGORIES,
    "IndustryCategory",
  );
  if (displayName !== undefined) fields.displayName = displayName;
  if (timeZone !== undefined) fields.timeZone = timeZone;
  if (currencyCode !== undefined) fields.currencyCode = currencyCode;
  if (industry !== undefined) fields.industryCategory = industry;
  const out: { parent?: string; propertyType?: string; fields: EditableFields } = { fields };
  const parent = optionalString(json, "parent", "property");
  const propertyType = optionalEnum(json, "propertyType", "property", PROPERTY_TYPES, "PropertyType");
  if (parent !== undefined) out.parent = parent;
  if (propertyType !== undefined) out.propertyType = propertyType;
  return out;
}

function validateFields(fields: EditableFields): void {
  const name = requireNonEmpty(fields.displayName, "displayName", "give the property a display name.");
  checkMaxLength(name, 100, "displayName");
  checkTimeZone(
    requireNonEmpty(fields.timeZone, "timeZone", 'use an IANA name such as "Europe/Paris".'),
    "timeZone",
  );
  if (fields.currencyCode !== undefined && fields.currencyCode !== "")
    checkCurrency(fields.currencyCode, "currencyCode");
}

export function createProperty(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateProperty", true);
  const { parent, propertyType, fields } = bindProperty(r.body);
  const account = /^accounts\/(\d+)$/.exec(requireNonEmpty(parent, "parent", 'use "accounts/{account_id}".'));
  if (!account?.[1]) throw invalidArgument(`parent "${parent}" is invalid: use "accounts/{account_id}".`);
  // A trashed account is on its way to being purged "and all child resources" (accounts.delete).
  requireLiveAccount(r.ctx, caller, account[1], "administrator");
  if (
    propertyType &&
    propertyType !== "PROPERTY_TYPE_ORDINARY" &&
    propertyType !== "PROPERTY_TYPE_UNSPECIFIED"
  ) {
    throw invalidArgument(
      `propertyType ${propertyType} cannot be created with CreateProperty: only ordinary properties can.`,
    );
  }
  validateFields(fields);
  const now = iso(r.ctx.now());
  const created = r.ctx.world.addProperty({
    accountId: account[1],
    displayName: fields.displayName ?? "",
    timeZone: fields.timeZone ?? "",
    // GA4 reports in US dollars when no currency is chosen.
    currencyCode: fields.currencyCode || "USD",
    ...(fields.industryCategory ? { industryCategory: fields.industryCategory } : {}),
    createTime: now,
  });
  return propertyJson(created, r.ctx.now());
}

export function patchProperty(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "UpdateProperty", true);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const mask = parseUpdateMask(r.url, MUTABLE, IMMUTABLE);
  const { fields } = bindProperty(r.body);
  const next: EditableFields = {
    displayName: mask.has("display_name") ? fields.displayName : property.displayName,
    timeZone: mask.has("time_zone") ? fields.timeZone : property.timeZone,
    currencyCode: mask.has("currency_code") ? fields.currencyCode : property.currencyCode,
    industryCategory: mask.has("industry_category") ? fields.industryCategory : property.industryCategory,
  };
  validateFields(next);
  property.displayName = next.displayName ?? property.displayName;
  property.timeZone = next.timeZone ?? property.timeZone;
  property.currencyCode = next.currencyCode || "USD";
  if (next.industryCategory) property.industryCategory = next.industryCategory;
  else delete property.industryCategory;
  property.updateTime = iso(r.ctx.now());
  return propertyJson(property, r.ctx.now());
}

/** Moves a property to the trash can: deleteTime now, purged (expireTime) 35 days later. */
export function trashProperty(property: WorldProperty, now: number): void {
  property.deleted = true;
  property.deleteTime = iso(now);
  property.expireTime = iso(now + TRASH_RETENTION_MS);
}

/** DELETE moves the property to the trash can and returns it, with deleteTime and expireTime set. */
export function deleteProperty(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "DeleteProperty", true);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "administrator");
  trashProperty(property, r.ctx.now());
  return propertyJson(property, r.ctx.now());
}
