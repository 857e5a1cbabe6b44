/**
 * Custom dimensions (properties/{p}/customDimensions): list, create, get, patch and `:archive`, with the
 * field rules of analyticsadmin v1beta's CustomDimension and the limits of a standard property
 * (https://support.google.com/analytics/answer/10075209: 50 event-scoped, 25 user-scoped and 10
 * item-scoped). Archived dimensions leave the list and cannot be read any more.
 */
import { invalidArgument, parseJsonObject, RpcError } from "../http.js";
import type { DimensionScope, WorldCustomDimension } from "../model.js";
import { type AdminRequest, authorize, requireProperty } from "./context.js";
import { checkEditable, checkNames } from "./custom-fields.js";
import { PropertyResources } from "./resources.js";
import { optionalEnum, parseUpdateMask, rejectUnknownFields } from "./validate.js";

const SCOPES = ["DIMENSION_SCOPE_UNSPECIFIED", "EVENT", "USER", "ITEM"] as const;
const DIMENSION_LIMITS: Record<DimensionScope, number> = { EVENT: 50, USER: 25, ITEM: 10 };
const DIMENSION_FIELDS = [
  "name",
  "parameterName",
  "displayName",
  "description",
  "scope",
  "disallowAdsPersonalization",
];

function dimensionJson(d: WorldCustomDimension): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `properties/${d.propertyId}/customDimensions/${d.id}`,
    parameterName: d.parameterName,
    displayName: d.displayName,
  };
  if (d.description) json.description = d.description;
  json.scope = d.scope;
  if (d.disallowAdsPersonalization) json.disallowAdsPersonalization = true;
  return json;
}

function bindAdsFlag(json: Record<string, unknown>, scope: DimensionScope): boolean {
  const flag = json.disallowAdsPersonalization;
  if (flag === undefined || flag === null || flag === false) return false;
  if (flag !== true)
    throw invalidArgument(
      `Invalid value at 'custom_dimension.disallow_ads_personalization' (TYPE_BOOL), ${JSON.stringify(flag)}`,
    );
  if (scope !== "USER")
    throw invalidArgument("disallowAdsPersonalization is only supported for user-scoped custom dimensions.");
  return true;
}

const dimensions = new PropertyResources<WorldCustomDimension>({
  collection: "customDimensions",
  rpc: ["CustomDimension", "CustomDimensions"],
  param: "customDimension",
  items: (world, propertyId) => world.customDimensions.list(propertyId),
  json: dimensionJson,
});

export const listCustomDimensions = dimensions.list;
export const getCustomDimension = dimensions.get;

export function createCustomDimension(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateCustomDimension", true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, DIMENSION_FIELDS, "custom_dimension");
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const scope = optionalEnum(json, "scope", "custom_dimension", SCOPES, "CustomDimension.DimensionScope");
  if (scope === undefined || scope === "DIMENSION_SCOPE_UNSPECIFIED") {
    throw invalidArgument("scope is required: use EVENT, USER or ITEM.");
  }
  const names = checkNames(json, "custom_dimension", scope === "USER" ? 24 : 40);
  const disallow = bindAdsFlag(json, scope);
  const existing = r.ctx.world.customDimensions.list(property.id);
  if (existing.some((d) => d.scope === scope && d.parameterName === names.parameterName)) {
    throw new RpcError(
      409,
      "ALREADY_EXISTS",
      `A ${scope.toLowerCase()}-scoped custom dimension with parameter name "${names.parameterName}" already exists in properties/${property.id}.`,
    );
  }
  if (existing.filter((d) => d.scope === scope).length >= DIMENSION_LIMITS[scope]) {
    throw new RpcError(
      400,
      "FAILED_PRECONDITION",
      `The property already has the maximum of ${DIMENSION_LIMITS[scope]} ${scope.toLowerCase()}-scoped custom dimensions: archive one first.`,
    );
  }
  const created = r.ctx.world.customDimensions.add({
    propertyId: property.id,
    ...names,
    scope,
    ...(disallow ? { disallowAdsPersonalization: true } : {}),
  });
  return dimensionJson(created);
}

export function patchCustomDimension(r: AdminRequest): Record<string, unknown> {
  const property = dimensions.property(r, "UpdateCustomDimension", true);
  const dimension = dimensions.find(r, property.id);
  const mask = parseUpdateMask(
    r.url,
    ["display_name", "description", "disallow_ads_personalization"],
    ["name", "parameter_name", "scope"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, DIMENSION_FIELDS, "custom_dimension");
  const editable = checkEditable(json, "custom_dimension", mask.has("display_name"));
  if (mask.has("display_name")) dimension.displayName = editable.displayName;
  if (mask.has("description")) dimension.description = editable.description;
  if (mask.has("disallow_ads_personalization")) {
    if (bindAdsFlag(json, dimension.scope)) dimension.disallowAdsPersonalization = true;
    else delete dimension.disallowAdsPersonalization;
  }
  return dimensionJson(dimension);
}

export const archiveCustomDimension = dimensions.removal(
  (world, propertyId, dimension) => world.customDimensions.remove(propertyId, dimension.id),
  { rpc: "ArchiveCustomDimension", bodyName: "archive_custom_dimension_request" },
);
