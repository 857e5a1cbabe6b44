/**
 * The schema methods: GET properties/{id}/metadata and POST properties/{id}:checkCompatibility.
 * Property "0" is the universal metadata; this emulator has no custom definitions, so every property
 * returns the same catalog.
 */

import { dimensionMetadata, incompatibleField, metricMetadata } from "./compatibility.js";
import { CORE_SCHEMA } from "./core-report.js";
import { DIMENSIONS, METRICS } from "./fields.js";
import { parseDimensions, parseFilters, parseMetrics } from "./request.js";
import { invalidArgument, isObject, rejectUnknownKeys } from "./rpc.js";

export function metadataOf(propertyId: string): Record<string, unknown> {
  return {
    name: `properties/${propertyId}/metadata`,
    dimensions: DIMENSIONS.map(dimensionMetadata),
    metrics: METRICS.map(metricMetadata),
  };
}

type Compatibility = "COMPATIBLE" | "INCOMPATIBLE";

export function checkCompatibility(raw: unknown): Record<string, unknown> {
  if (!isObject(raw))
    throw invalidArgument("The request body must be a CheckCompatibilityRequest JSON object.");
  rejectUnknownKeys(raw, ["dimensions", "metrics", "dimensionFilter", "metricFilter", "compatibilityFilter"]);
  const filter = raw.compatibilityFilter ?? "COMPATIBILITY_UNSPECIFIED";
  if (filter !== "COMPATIBILITY_UNSPECIFIED" && filter !== "COMPATIBLE" && filter !== "INCOMPATIBLE") {
    throw invalidArgument(
      `compatibilityFilter '${String(filter)}' is invalid. Use COMPATIBLE, INCOMPATIBLE or COMPATIBILITY_UNSPECIFIED.`,
    );
  }
  const dims = parseDimensions(raw.dimensions, CORE_SCHEMA);
  const metrics = parseMetrics(raw.metrics, CORE_SCHEMA).map((m) => m.name);
  const filters = parseFilters(raw, CORE_SCHEMA);
  // Fields used only in filters count as used, as they would in the runReport request.
  const usedDims = [...dims, ...(filters.dimensionFilter?.fields ?? [])];
  const usedMetrics = [...metrics, ...(filters.metricFilter?.fields ?? [])];
  const keep = (c: Compatibility): boolean => filter === "COMPATIBILITY_UNSPECIFIED" || filter === c;
  const verdict = (d: string[], m: string[]): Compatibility =>
    incompatibleField(d, m) === undefined ? "COMPATIBLE" : "INCOMPATIBLE";
  const body: Record<string, unknown> = {};
  const dimensionCompatibilities = DIMENSIONS.map((def) => ({
    dimensionMetadata: dimensionMetadata(def),
    compatibility: verdict([...usedDims, def.apiName], usedMetrics),
  })).filter((c) => keep(c.compatibility));
  const metricCompatibilities = METRICS.map((def) => ({
    metricMetadata: metricMetadata(def),
    compatibility: verdict(usedDims, [...usedMetrics, def.apiName]),
  })).filter((c) => keep(c.compatibility));
  if (dimensionCompatibilities.length > 0) body.dimensionCompatibilities = dimensionCompatibilities;
  if (metricCompatibilities.length > 0) body.metricCompatibilities = metricCompatibilities;
  return body;
}
