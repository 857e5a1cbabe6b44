/**
 * Custom metrics (properties/{p}/customMetrics): list, create, get, patch and `:archive`, with the
 * field rules of analyticsadmin v1beta's CustomMetric (restrictedMetricType required for CURRENCY,
 * empty otherwise) and the limit of a standard property, 50
 * (https://support.google.com/analytics/answer/10075209). Archived metrics leave the list.
 */
import { invalidArgument, parseJsonObject, RpcError } from "../http.js";
import type { MeasurementUnit, RestrictedMetricType, WorldCustomMetric } from "../model.js";
import { type AdminRequest, authorize, requireProperty } from "./context.js";
import { checkEditable, checkNames } from "./custom-fields.js";
import { PropertyResources } from "./resources.js";
import { optionalEnum, parseUpdateMask, rejectUnknownFields } from "./validate.js";

const UNITS = [
  "MEASUREMENT_UNIT_UNSPECIFIED",
  "STANDARD",
  "CURRENCY",
  "FEET",
  "METERS",
  "KILOMETERS",
  "MILES",
  "MILLISECONDS",
  "SECONDS",
  "MINUTES",
  "HOURS",
] as const;
const RESTRICTED = ["RESTRICTED_METRIC_TYPE_UNSPECIFIED", "COST_DATA", "REVENUE_DATA"] as const;
const METRIC_LIMIT = 50;
const METRIC_FIELDS = [
  "name",
  "parameterName",
  "displayName",
  "description",
  "measurementUnit",
  "scope",
  "restrictedMetricType",
];

function metricJson(m: WorldCustomMetric): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `properties/${m.propertyId}/customMetrics/${m.id}`,
    parameterName: m.parameterName,
    displayName: m.displayName,
  };
  if (m.description) json.description = m.description;
  json.measurementUnit = m.measurementUnit;
  json.scope = m.scope;
  if (m.restrictedMetricType?.length) json.restrictedMetricType = [...m.restrictedMetricType];
  return json;
}

const metrics = new PropertyResources<WorldCustomMetric>({
  collection: "customMetrics",
  rpc: ["CustomMetric", "CustomMetrics"],
  param: "customMetric",
  items: (world, propertyId) => world.customMetrics.list(propertyId),
  json: metricJson,
});

function bindRestricted(json: Record<string, unknown>, unit: MeasurementUnit): RestrictedMetricType[] {
  const raw = json.restrictedMetricType ?? [];
  if (
    !Array.isArray(raw) ||
    raw.some((v) => typeof v !== "string" || !(RESTRICTED as readonly string[]).includes(v))
  ) {
    throw invalidArgument(
      `Invalid value at 'custom_metric.restricted_metric_type', ${JSON.stringify(raw)}: use COST_DATA and/or REVENUE_DATA.`,
    );
  }
  const types = (raw as string[]).filter(
    (v): v is RestrictedMetricType => v !== "RESTRICTED_METRIC_TYPE_UNSPECIFIED",
  );
  // "Required for metrics with CURRENCY measurement unit. Must be empty for metrics with a non-CURRENCY measurement unit."
  if (unit === "CURRENCY" && types.length === 0) {
    throw invalidArgument(
      "restrictedMetricType is required for CURRENCY metrics: use COST_DATA and/or REVENUE_DATA.",
    );
  }
  if (unit !== "CURRENCY" && types.length > 0) {
    throw invalidArgument(
      "restrictedMetricType must be empty for metrics whose measurementUnit is not CURRENCY.",
    );
  }
  return types;
}

function bindUnit(json: Record<string, unknown>): MeasurementUnit {
  const unit = optionalEnum(json, "measurementUnit", "custom_metric", UNITS, "CustomMetric.MeasurementUnit");
  if (unit === undefined || unit === "MEASUREMENT_UNIT_UNSPECIFIED") {
    throw invalidArgument("measurementUnit is required, e.g. STANDARD, CURRENCY or SECONDS.");
  }
  return unit;
}

export const listCustomMetrics = metrics.list;
export const getCustomMetric = metrics.get;

export function createCustomMetric(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateCustomMetric", true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, METRIC_FIELDS, "custom_metric");
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const scope = optionalEnum(
    json,
    "scope",
    "custom_metric",
    ["METRIC_SCOPE_UNSPECIFIED", "EVENT"] as const,
    "CustomMetric.MetricScope",
  );
  if (scope !== "EVENT") throw invalidArgument("scope is required: custom metrics are EVENT-scoped.");
  const names = checkNames(json, "custom_metric", 40);
  const measurementUnit = bindUnit(json);
  const restricted = bindRestricted(json, measurementUnit);
  const existing = r.ctx.world.customMetrics.list(property.id);
  if (existing.some((m) => m.parameterName === names.parameterName)) {
    throw new RpcError(
      409,
      "ALREADY_EXISTS",
      `A custom metric with parameter name "${names.parameterName}" already exists in properties/${property.id}.`,
    );
  }
  if (existing.length >= METRIC_LIMIT) {
    throw new RpcError(
      400,
      "FAILED_PRECONDITION",
      `The property already has the maximum of ${METRIC_LIMIT} custom metrics: archive one first.`,
    );
  }
  const created = r.ctx.world.customMetrics.add({
    propertyId: property.id,
    ...names,
    measurementUnit,
    scope: "EVENT",
    ...(restricted.length > 0 ? { restrictedMetricType: restricted } : {}),
  });
  return metricJson(created);
}

export function patchCustomMetric(r: AdminRequest): Record<string, unknown> {
  const property = metrics.property(r, "UpdateCustomMetric", true);
  const metric = metrics.find(r, property.id);
  const mask = parseUpdateMask(
    r.url,
    ["display_name", "description", "measurement_unit", "restricted_metric_type"],
    ["name", "parameter_name", "scope"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, METRIC_FIELDS, "custom_metric");
  const editable = checkEditable(json, "custom_metric", mask.has("display_name"));
  const unit = mask.has("measurement_unit") ? bindUnit(json) : metric.measurementUnit;
  const restricted = mask.has("restricted_metric_type")
    ? bindRestricted(json, unit)
    : bindRestricted({ restrictedMetricType: metric.restrictedMetricType ?? [] }, unit);
  if (mask.has("display_name")) metric.displayName = editable.displayName;
  if (mask.has("description")) metric.description = editable.description;
  metric.measurementUnit = unit;
  if (restricted.length > 0) metric.restrictedMetricType = restricted;
  else delete metric.restrictedMetricType;
  return metricJson(metric);
}

export const archiveCustomMetric = metrics.removal(
  (world, propertyId, metric) => world.customMetrics.remove(propertyId, metric.id),
  { rpc: "ArchiveCustomMetric", bodyName: "archive_custom_metric_request" },
);
