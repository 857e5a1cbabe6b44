/**
 * Change history (accounts/{a}:searchChangeHistoryEvents): every successful Admin API write of this
 * sandbox is recorded by the router and searched here with the request filters of analyticsadmin
 * v1beta's SearchChangeHistoryEventsRequest (property, resourceType, action, actorEmail, a time
 * window; pageSize 50 by default, 200 at most). The resource after the change is given for the types
 * ChangeHistoryResource has a member for.
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { WorldChange } from "../model.js";
import { type AdminContext, type AdminRequest, authorize, iso, requireAccountRole } from "./context.js";
import { rejectUnknownFields } from "./validate.js";

/** Collection name in a resource path → ChangeHistoryResource member and resourceType enum value. */
const RESOURCE_TYPES: Record<string, { member?: string; type: string }> = {
  accounts: { member: "account", type: "ACCOUNT" },
  properties: { member: "property", type: "PROPERTY" },
  dataStreams: { member: "dataStream", type: "DATA_STREAM" },
  firebaseLinks: { member: "firebaseLink", type: "FIREBASE_LINK" },
  googleAdsLinks: { member: "googleAdsLink", type: "GOOGLE_ADS_LINK" },
  measurementProtocolSecrets: { member: "measurementProtocolSecret", type: "MEASUREMENT_PROTOCOL_SECRET" },
  conversionEvents: { member: "conversionEvent", type: "CONVERSION_EVENT" },
  keyEvents: { type: "CONVERSION_EVENT" },
  customDimensions: { type: "CUSTOM_DIMENSION" },
  customMetrics: { type: "CUSTOM_METRIC" },
  dataRetentionSettings: { member: "dataRetentionSettings", type: "DATA_RETENTION_SETTINGS" },
};
const RESOURCE_TYPE_VALUES = [
  "CHANGE_HISTORY_RESOURCE_TYPE_UNSPECIFIED",
  "ACCOUNT",
  "PROPERTY",
  "FIREBASE_LINK",
  "GOOGLE_ADS_LINK",
  "GOOGLE_SIGNALS_SETTINGS",
  "CONVERSION_EVENT",
  "MEASUREMENT_PROTOCOL_SECRET",
  "CUSTOM_DIMENSION",
  "CUSTOM_METRIC",
  "DATA_RETENTION_SETTINGS",
  "DISPLAY_VIDEO_360_ADVERTISER_LINK",
  "DISPLAY_VIDEO_360_ADVERTISER_LINK_PROPOSAL",
  "DATA_STREAM",
  "ATTRIBUTION_SETTINGS",
];
const ACTIONS = ["ACTION_TYPE_UNSPECIFIED", "CREATED", "UPDATED", "DELETED"];
const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

function typeOf(resource: string): { member?: string; type: string } | undefined {
  const collection = resource.split("/").at(-2) ?? "";
  return RESOURCE_TYPES[resource.endsWith("/dataRetentionSettings") ? "dataRetentionSettings" : collection];
}

/** Called by the router after a successful write; reads are never recorded. */
export function recordChange(
  ctx: AdminContext,
  r: Pick<AdminRequest, "req" | "params">,
  method: string,
  template: string,
  result: Record<string, unknown>,
): void {
  if (method === "GET" || /:(runAccessReport|searchChangeHistoryEvents)$/.test(template)) return;
  const email = ctx.tokens.authenticate(r.req.headers.authorization)?.email ?? "";
  const path = template.replace(/^\/v1beta\//, "").replace(/\{(\w+)\}/g, (_, n: string) => r.params[n] ?? "");
  const resource = typeof result.name === "string" ? result.name : path.replace(/:\w+$/, "");
  const propertyId = /^properties\/(\d+)/.exec(resource)?.[1];
  const accountId = propertyId
    ? (ctx.world.property(propertyId)?.accountId ?? "")
    : (/^accounts\/(\d+)/.exec(resource)?.[1] ?? "");
  const action =
    method === "DELETE" ? "DELETED" : method === "POST" && !/:\w+$/.test(template) ? "CREATED" : "UPDATED";
  const kind = typeOf(resource);
  const change: WorldChange = {
    id: String(ctx.world.changes.length + 1),
    accountId,
    ...(propertyId ? { propertyId } : {}),
    changeTime: iso(ctx.now()),
    actorEmail: email,
    action,
    resource,
    ...(kind?.member && action !== "DELETED" ? { after: { type: kind.member, json: result } } : {}),
  };
  ctx.world.changes.push(change);
}

function stringList(json: Record<string, unknown>, key: string, allowed?: readonly string[]): string[] {
  const value = json[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw invalidArgument(`${key} must be a list of strings.`);
  for (const v of value as string[]) {
    if (allowed && !allowed.includes(v))
      throw invalidArgument(`Invalid value at '${key}': "${v}". Use one of ${allowed.slice(1).join(", ")}.`);
  }
  return value as string[];
}

function timeBound(json: Record<string, unknown>, key: string): number | undefined {
  const value = json[key];
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalidArgument(`${key} must be an RFC 3339 timestamp, e.g. 2025-01-31T00:00:00Z.`);
  return ms;
}

export function searchChangeHistoryEvents(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "SearchChangeHistoryEvents", true);
  const account = requireAccountRole(r.ctx, caller, r.params.account ?? "", "editor");
  const json = parseJsonObject(r.body);
  rejectUnknownFields(
    json,
    [
      "property",
      "resourceType",
      "action",
      "actorEmail",
      "earliestChangeTime",
      "latestChangeTime",
      "pageSize",
      "pageToken",
    ],
    "",
  );
  const property = json.property;
  if (property !== undefined && (typeof property !== "string" || !/^properties\/\d+$/.test(property)))
    throw invalidArgument("property must be a resource name like properties/123.");
  const types = stringList(json, "resourceType", RESOURCE_TYPE_VALUES);
  const actions = stringList(json, "action", ACTIONS);
  const actors = stringList(json, "actorEmail").map((e) => e.toLowerCase());
  const earliest = timeBound(json, "earliestChangeTime");
  const latest = timeBound(json, "latestChangeTime");
  const size = Math.min(MAX_PAGE, Math.max(1, Number(json.pageSize ?? DEFAULT_PAGE) || DEFAULT_PAGE));
  const offset = json.pageToken ? Number(json.pageToken) : 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw invalidArgument("pageToken is not one this method returned.");
  const matching = r.ctx.world.changes
    .filter((c) => c.accountId === account.id)
    .filter((c) => !property || c.resource === property || c.resource.startsWith(`${property}/`))
    .filter((c) => types.length === 0 || types.includes(typeOf(c.resource)?.type ?? ""))
    .filter((c) => actions.length === 0 || actions.includes(c.action))
    .filter((c) => actors.length === 0 || actors.includes(c.actorEmail.toLowerCase()))
    .filter((c) => earliest === undefined || Date.parse(c.changeTime) >= earliest)
    .filter((c) => latest === undefined || Date.parse(c.changeTime) <= latest)
    .reverse(); // newest first, as the console's change history lists them
  const page = matching.slice(offset, offset + size);
  const body: Record<string, unknown> = {};
  if (page.length > 0) {
    body.changeHistoryEvents = page.map((c) => ({
      id: c.id,
      changeTime: c.changeTime,
      actorType: "USER",
      userActorEmail: c.actorEmail,
      changesFiltered: false,
      changes: [
        {
          resource: c.resource,
          action: c.action,
          ...(c.after ? { resourceAfterChange: { [c.after.type]: c.after.json } } : {}),
        },
      ],
    }));
  }
  if (offset + size < matching.length) body.nextPageToken = String(offset + size);
  return body;
}
