/**
 * The schema methods: GET properties/{id}/metadata and POST properties/{id}:checkCompatibility.
 * Property "0" is the universal metadata; any other property adds its custom definitions
 * (customEvent:, customUser:, customItem:) and its key events' metrics (key-event-metrics.ts), as the
 * discovery document describes getMetadata.
 */

import { dimensionMetadata, incompatibleField, metricMetadata } from "./compatibility.js";
import { coreSchema } from "./core-report.js";
import {
  type CustomCatalog,
  customDimensionMetadata,
  customMetricMetadata,
  customScope,
  NO_CUSTOM,
} from "./custom-fields.js";
import { parseDimensions, parseFilters, parseMetrics } from "./request.js";
import { invalidArgument, isObject, rejectUnknownKeys } from "./rpc.js";
import { DIMENSIONS, isCohortField, METRICS } from "./schema-catalog.js";

export function metadataOf(propertyId: string, custom: CustomCatalog = NO_CUSTOM): Record<string, unknown> {
  return {
    name: `properties/${propertyId}/metadata`,
    dimensions: [...DIMENSIONS.map(dimensionMetadata), ...customDimensionMetadata(custom)],
    metrics: [
      ...METRICS.map(metricMetadata),
      ...[...custom.keyEventMetrics.values()].map(metricMetadata),
      ...customMetricMetadata(custom),
    ],
  };
}

type Compatibility = "COMPATIBLE" | "INCOMPATIBLE";

function parseCompatibilityFilter(raw: Record<string, unknown>): string {
  const filter = raw.compatibilityFilter ?? "COMPATIBILITY_UNSPECIFIED";
  if (filter !== "COMPATIBILITY_UNSPECIFIED" && filter !== "COMPATIBLE" && filter !== "INCOMPATIBLE") {
    throw invalidArgument(
      `compatibilityFilter '${String(filter)}' is invalid. Use COMPATIBLE, INCOMPATIBLE or COMPATIBILITY_UNSPECIFIED.`,
    );
  }
  return filter;
}

/**
 * "This method fails if the request's dimensions and metrics are incompatible" (discovery document,
 * properties.checkCompatibility): an invalid or incompatible request is a 400, never a 200 listing
 * everything as INCOMPATIBLE.
 */
export function checkCompatibility(raw: unknown, custom: CustomCatalog = NO_CUSTOM): Record<string, unknown> {
  if (!isObject(raw))
    throw invalidArgument("The request body must be a CheckCompatibilityRequest JSON object.");
  rejectUnknownKeys(raw, ["dimensions", "metrics", "dimensionFilter", "metricFilter", "compatibilityFilter"]);
  const filter = parseCompatibilityFilter(raw);
  const schema = coreSchema(custom);
  const dims = parseDimensions(raw.dimensions, schema);
  const metrics = parseMetrics(raw.metrics, schema).map((m) => m.name);
  const filters = parseFilters(raw, schema);
  // Fields used only in filters count as used, as they would in the runReport request.
  const usedDims = [...dims, ...(filters.dimensionFilter?.fields ?? [])];
  const usedMetrics = [...metrics, ...(filters.metricFilter?.fields ?? [])];
  const scopeOf = (name: string) => customScope(custom, name);
  const offending = incompatibleField(usedDims, usedMetrics, scopeOf);
  if (offending) {
    throw invalidArgument(
      `The request's dimensions and metrics are incompatible: remove ${offending} to make the request compatible.`,
    );
  }
  const keep = (c: Compatibility): boolean => filter === "COMPATIBILITY_UNSPECIFIED" || filter === c;
  const verdict = (d: string[], m: string[]): Compatibility =>
    [...d, ...m].some(isCohortField) || incompatibleField(d, m, scopeOf) !== undefined
      ? "INCOMPATIBLE"
      : "COMPATIBLE";
  const body: Record<string, unknown> = {};
  const dimensionCompatibilities = [
    ...DIMENSIONS.map((def) => ({ apiName: def.apiName, dimensionMetadata: dimensionMetadata(def) })),
    ...customDimensionMetadata(custom).map((m) => ({ apiName: String(m.apiName), dimensionMetadata: m })),
  ]
    .map(({ apiName, dimensionMetadata }) => ({
      dimensionMetadata,
      compatibility: verdict([...usedDims, apiName], usedMetrics),
    }))
    .filter((c) => keep(c.compatibility));
  const metricCompatibilities = [
    ...[...METRICS, ...custom.keyEventMetrics.values()].map((def) => ({
      apiName: def.apiName,
      metricMetadata: metricMetadata(def),
    })),
    ...customMetricMetadata(custom).map((m) => ({ apiName: String(m.apiName), metricMetadata: m })),
  ]
    .map(({ apiName, metricMetadata }) => ({
      metricMetadata,
      compatibility: verdict(usedDims, [...usedMetrics, apiName]),
    }))
    .filter((c) => keep(c.compatibility));
  if (dimensionCompatibilities.length > 0) body.dimensionCompatibilities = dimensionCompatibilities;
  if (metricCompatibilities.length > 0) body.metricCompatibilities = metricCompatibilities;
  return body;
}
