/**
 * Data retention settings (properties/{p}/dataRetentionSettings): get and patch, analyticsadmin v1beta
 * DataRetentionSettings. A standard property keeps event data two or fourteen months; the longer
 * durations are for Analytics 360 (https://support.google.com/analytics/answer/7667196), so the sandbox,
 * whose properties are all standard, refuses them. User data never takes them, 360 or not: the discovery
 * document's RetentionDuration says "Available to 360 properties only. Available for event data only."
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { DataRetention, RetentionDuration } from "../model.js";
import { type AdminRequest, authorize, requireProperty } from "./context.js";
import { optionalEnum, parseUpdateMask, rejectUnknownFields } from "./validate.js";

const DURATIONS = [
  "RETENTION_DURATION_UNSPECIFIED",
  "TWO_MONTHS",
  "FOURTEEN_MONTHS",
  "TWENTY_SIX_MONTHS",
  "THIRTY_EIGHT_MONTHS",
  "FIFTY_MONTHS",
] as const;
const STANDARD: readonly RetentionDuration[] = ["TWO_MONTHS", "FOURTEEN_MONTHS"];
const FIELDS = ["name", "eventDataRetention", "userDataRetention", "resetUserDataOnNewActivity"];

function retentionJson(propertyId: string, r: DataRetention): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `properties/${propertyId}/dataRetentionSettings`,
    eventDataRetention: r.eventDataRetention,
  };
  // proto3 JSON leaves out false booleans.
  if (r.resetUserDataOnNewActivity) json.resetUserDataOnNewActivity = true;
  json.userDataRetention = r.userDataRetention;
  return json;
}

function bindDuration(
  json: Record<string, unknown>,
  key: "eventDataRetention" | "userDataRetention",
): RetentionDuration {
  const value = optionalEnum(
    json,
    key,
    "data_retention_settings",
    DURATIONS,
    "DataRetentionSettings.RetentionDuration",
  );
  if (value === undefined || value === "RETENTION_DURATION_UNSPECIFIED") {
    throw invalidArgument(`${key} is required: use TWO_MONTHS or FOURTEEN_MONTHS.`);
  }
  if (!STANDARD.includes(value)) {
    throw invalidArgument(
      key === "userDataRetention"
        ? `userDataRetention ${value} is available for event data only: use TWO_MONTHS or FOURTEEN_MONTHS.`
        : `eventDataRetention ${value} is only available to Google Analytics 360 properties: use TWO_MONTHS or FOURTEEN_MONTHS.`,
    );
  }
  return value;
}

export function getDataRetention(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "GetDataRetentionSettings", false);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "viewer");
  return retentionJson(property.id, r.ctx.world.dataRetention(property.id));
}

export function patchDataRetention(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "UpdateDataRetentionSettings", true);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const mask = parseUpdateMask(
    r.url,
    ["event_data_retention", "user_data_retention", "reset_user_data_on_new_activity"],
    ["name"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, FIELDS, "data_retention_settings");
  const settings = r.ctx.world.dataRetention(property.id);
  const next = { ...settings };
  if (mask.has("event_data_retention")) next.eventDataRetention = bindDuration(json, "eventDataRetention");
  if (mask.has("user_data_retention")) next.userDataRetention = bindDuration(json, "userDataRetention");
  if (mask.has("reset_user_data_on_new_activity")) {
    const flag = json.resetUserDataOnNewActivity ?? false;
    if (typeof flag !== "boolean") {
      throw invalidArgument(
        `Invalid value at 'data_retention_settings.reset_user_data_on_new_activity' (TYPE_BOOL), ${JSON.stringify(flag)}`,
      );
    }
    next.resetUserDataOnNewActivity = flag;
  }
  Object.assign(settings, next);
  return retentionJson(property.id, settings);
}
