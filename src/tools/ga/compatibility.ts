import type { CheckCompatibilityResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";

/**
 * Fails with the requested fields GA's checkCompatibility marks INCOMPATIBLE. The response lists
 * every field of the property with whether it could be ADDED to the request, so a field the
 * request does not use being INCOMPATIBLE says nothing about the request itself; only the requested
 * ones count (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/checkCompatibility).
 * Some pairs never work together, e.g. item-scoped dimensions with event-scoped metrics:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/compatibility
 */
export function throwIncompatible(
  response: CheckCompatibilityResponse,
  /** Every field name the request uses: dimensions, metrics and the fields its filters name. */
  requested: ReadonlySet<string>,
): void {
  const dimensions = (response.dimensionCompatibilities ?? [])
    .filter((entry) => entry.compatibility === "INCOMPATIBLE")
    .map((entry) => entry.dimensionMetadata?.apiName ?? "?")
    .filter((name) => requested.has(name));
  const metrics = (response.metricCompatibilities ?? [])
    .filter((entry) => entry.compatibility === "INCOMPATIBLE")
    .map((entry) => entry.metricMetadata?.apiName ?? "?")
    .filter((name) => requested.has(name));
  if (dimensions.length === 0 && metrics.length === 0) return;
  const listed = [
    ...(dimensions.length > 0 ? [`dimensions ${dimensions.join(", ")}`] : []),
    ...(metrics.length > 0 ? [`metrics ${metrics.join(", ")}`] : []),
  ].join(" and ");
  throw new ValidationError(
    metrics.length > 0 ? "metrics" : "dimensions",
    `GA cannot combine these fields in one report: ${listed} are incompatible with the rest of the request ` +
      "(usually a scope clash, such as item-scoped dimensions with event- or session-scoped metrics).",
    {
      hint:
        "Remove the listed fields or replace them with ones of the same scope; " +
        "see https://developers.google.com/analytics/devguides/reporting/data/v1/compatibility. No quota was spent.",
      details: { incompatible_dimensions: dimensions, incompatible_metrics: metrics },
    },
  );
}
