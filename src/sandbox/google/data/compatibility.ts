/**
 * Which fields may be combined, with the real API's 400 wording, and the metadata entries that
 * GET properties/{id}/metadata and :checkCompatibility return for each field.
 */
import type { DimensionDef, MetricDef, Scope } from "./fields.js";
import {
  type CatalogDimension,
  type CatalogMetric,
  DIMENSION_BY_NAME,
  METRIC_BY_NAME,
} from "./schema-catalog.js";

/**
 * The first field to remove to make the combination compatible, or undefined when it is compatible.
 * Rule: item-scoped fields go only with item-scoped metrics and with non-event dimensions.
 */
export function incompatibleField(
  dimensions: readonly string[],
  metrics: readonly string[],
  scopeOfCustom: (name: string) => Scope | undefined = () => undefined,
): string | undefined {
  const scopeOfDim = (name: string): Scope =>
    DIMENSION_BY_NAME.get(name)?.scope ?? scopeOfCustom(name) ?? "standard";
  const scopeOfMetric = (name: string): Scope =>
    METRIC_BY_NAME.get(name)?.scope ?? scopeOfCustom(name) ?? "standard";
  const itemUsed =
    dimensions.some((d) => scopeOfDim(d) === "item") || metrics.some((m) => scopeOfMetric(m) === "item");
  if (!itemUsed) return undefined;
  return (
    metrics.find((m) => scopeOfMetric(m) !== "item") ??
    dimensions.find((d) => scopeOfDim(d) === "event") ??
    undefined
  );
}

/** The real wording of the 400 for an incompatible request. */
export function incompatibleMessage(field: string): string {
  return (
    `Please remove ${field} to make the request compatible. The request's dimensions & metrics are ` +
    "incompatible. To learn more, see https://ga-dev-tools.google/ga4/dimensions-metrics-explorer/"
  );
}

/** Metadata entries as GET properties/{id}/metadata returns them. */
export function dimensionMetadata(def: DimensionDef & Pick<CatalogDimension, "deprecatedApiNames">) {
  return {
    apiName: def.apiName,
    uiName: def.uiName,
    description: def.description,
    ...(def.deprecatedApiNames ? { deprecatedApiNames: def.deprecatedApiNames } : {}),
    customDefinition: false,
    category: def.category,
  };
}

export function metricMetadata(def: MetricDef & Pick<CatalogMetric, "deprecatedApiNames">) {
  return {
    apiName: def.apiName,
    uiName: def.uiName,
    description: def.description,
    ...(def.deprecatedApiNames ? { deprecatedApiNames: def.deprecatedApiNames } : {}),
    type: def.type,
    category: def.category,
  };
}
