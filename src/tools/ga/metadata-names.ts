/**
 * One property's metadata (GET v1beta/properties/{id}/metadata) as the answer shows it when the whole is kept: each
 * dimension and metric as its API name and UI name, "itemVariant (Item variant)", the property's custom ones first,
 * and Google's whole answer (category, description, a metric's type and expression) one row each in the full
 * result. Trials s38 N547, s40 N569 and N575: 34,000 to 42,000 characters of descriptions read for a name the
 * summary's custom definitions gave, or to see that none was there. Each item's fields:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DimensionMetadata and
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/MetricMetadata.
 */
import { isObject } from "../records/values.js";
import type { FullResult } from "../types.js";
import { isMetadata } from "./metadata-words.js";

interface Definition {
  apiName?: unknown;
  uiName?: unknown;
  customDefinition?: unknown;
}

const LISTS = ["dimensions", "metrics"] as const;

/** A definition as a name: "apiName (UI name)", or the API name alone when the UI's is the same or none. */
function named(item: Definition): string {
  const api = String(item.apiName ?? "");
  const ui = typeof item.uiName === "string" && item.uiName !== "" && item.uiName !== api ? item.uiName : "";
  return ui ? `${api} (${ui})` : api;
}

/** The property's own first, each list's order kept otherwise. */
const customFirst = (list: Definition[]) => [
  ...list.filter((item) => item.customDefinition === true),
  ...list.filter((item) => item.customDefinition !== true),
];

/** One property's metadata as names, with Google's whole answer as the full result; undefined for anything else. */
export function metadataNames(
  body: unknown,
): { body: Record<string, unknown>; full: FullResult; words: string } | undefined {
  if (!isMetadata(body)) return undefined;
  if (!LISTS.every((key) => body[key] === undefined || Array.isArray(body[key]))) return undefined;
  const lists = LISTS.map((key) => ((body[key] ?? []) as unknown[]).filter(isObject) as Definition[]);
  if (lists.every((list) => list.length === 0)) return undefined;
  const [dimensions = [], metrics = []] = lists.map(customFirst);
  const rows = LISTS.flatMap((key, i) =>
    (lists[i] ?? []).map((item) => ({ kind: key === "dimensions" ? "dimension" : "metric", ...item })),
  );
  return {
    body: { ...body, dimensions: dimensions.map(named), metrics: metrics.map(named) },
    full: { kind: "items", items: rows },
    words:
      "Each dimension and metric is shown as its API name (UI name), the property's custom ones first; Google's " +
      "whole answer, with each one's category, description and a metric's type, is the full result linked, a row each.",
  };
}
