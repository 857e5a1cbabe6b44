/**
 * Custom dimensions and metrics in the Data API: a property's custom definitions appear in its
 * metadata and work in its reports under the names the real API gives them
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/advanced#custom_definitions):
 * customEvent:{parameter} for event-scoped dimensions and metrics, customUser:{parameter} for user
 * properties, customItem:{parameter} for item-scoped dimensions.
 *
 * Values are pure functions of the fact, so totals stay consistent across breakdowns: a dimension
 * takes one of four values per slice (event parameters only on the events a site sends them with,
 * not on the automatically collected ones), a metric is a fixed share of a base count chosen from
 * the parameter name and its measurement unit.
 */

import type { CustomDefinition, CustomDefinitions } from "../types.js";
import type { EventStat, ItemStat, Slice } from "./dataset.js";
import {
  type Base,
  type MetricDef,
  type MetricType,
  money,
  type NamedKeyEvents,
  type Scope,
} from "./fields.js";
import { type KeyEventMetric, keyEventIndex, keyEventMetrics } from "./key-event-metrics.js";
import { hashString } from "./prng.js";

const PREFIX: Record<CustomDefinition["scope"], string> = {
  EVENT: "customEvent",
  USER: "customUser",
  ITEM: "customItem",
};
const CUSTOM = /^(customEvent|customUser|customItem):/;
/** Enhanced-measurement and automatic events carry no site-defined parameters. */
const AUTOMATIC = new Set([
  "session_start",
  "first_visit",
  "page_view",
  "user_engagement",
  "scroll",
  "click",
]);
const VARIANTS = ["A", "B", "C", "D"];
const NOT_SET = "(not set)";

export function isCustomField(name: string): boolean {
  return CUSTOM.test(name);
}

/** A property's own fields: its custom definitions, and its key events' metrics (key-event-metrics.ts). */
export interface CustomCatalog {
  dimensions: ReadonlyMap<string, CustomDefinition>;
  metrics: ReadonlyMap<string, MetricDef & { definition: CustomDefinition }>;
  /** The property's key events, each one's index into Base.perKeyEvent. */
  keyEvents: NamedKeyEvents;
  /** keyEvents:<name>, sessionKeyEventRate:<name>, userKeyEventRate:<name> per key event. */
  keyEventMetrics: ReadonlyMap<string, KeyEventMetric>;
  /** The same metrics by their deprecated conversions names. */
  keyEventMetricsByDeprecatedName: ReadonlyMap<string, KeyEventMetric>;
}

const UNIT_TYPES: Record<string, MetricType> = {
  STANDARD: "TYPE_STANDARD",
  CURRENCY: "TYPE_CURRENCY",
  FEET: "TYPE_FEET",
  METERS: "TYPE_METERS",
  KILOMETERS: "TYPE_KILOMETERS",
  MILES: "TYPE_MILES",
  MILLISECONDS: "TYPE_MILLISECONDS",
  SECONDS: "TYPE_SECONDS",
  MINUTES: "TYPE_MINUTES",
  HOURS: "TYPE_HOURS",
};

/** A share in 0.05..0.35, fixed per parameter, so a custom metric is stable across runs. */
function shareOf(parameterName: string): number {
  return 0.05 + (hashString(parameterName) % 300) / 1000;
}

function customCompute(unit: string, share: number): (b: Base, fx: number) => number {
  switch (unit) {
    case "CURRENCY":
      return (b, fx) => money(b.revenueUsd * share, fx);
    case "MILLISECONDS":
      return (b) => Math.round(b.engagementSeconds * 1000 * share);
    case "SECONDS":
      return (b) => Math.round(b.engagementSeconds * share);
    case "MINUTES":
      return (b) => Math.round((b.engagementSeconds / 60) * share * 100) / 100;
    case "HOURS":
      return (b) => Math.round((b.engagementSeconds / 3600) * share * 100) / 100;
    default:
      return (b) => Math.round(b.eventCount * share);
  }
}

export function customCatalog(
  defs: CustomDefinitions | undefined,
  keyEventNames: readonly string[] = [],
): CustomCatalog {
  const dimensions = new Map<string, CustomDefinition>();
  const metrics = new Map<string, MetricDef & { definition: CustomDefinition }>();
  for (const d of defs?.dimensions ?? []) dimensions.set(`${PREFIX[d.scope]}:${d.parameterName}`, d);
  for (const m of defs?.metrics ?? []) {
    const apiName = `customEvent:${m.parameterName}`;
    const unit = m.measurementUnit ?? "STANDARD";
    metrics.set(apiName, {
      apiName,
      uiName: m.displayName,
      description: m.description ?? "An event scoped custom metric for your Analytics property.",
      category: "Custom",
      type: UNIT_TYPES[unit] ?? "TYPE_STANDARD",
      scope: "standard",
      compute: customCompute(unit, shareOf(m.parameterName)),
      definition: m,
    });
  }
  const keyEvents = keyEventIndex(keyEventNames);
  const byKeyEvent = keyEventMetrics(keyEvents);
  const byDeprecatedName = new Map(
    [...byKeyEvent.values()].flatMap((m) => m.deprecatedApiNames.map((old) => [old, m] as const)),
  );
  return {
    dimensions,
    metrics,
    keyEvents,
    keyEventMetrics: byKeyEvent,
    keyEventMetricsByDeprecatedName: byDeprecatedName,
  };
}

/** A key event's metric of the property, by its current or deprecated name. */
export function keyEventMetric(catalog: CustomCatalog, name: string): KeyEventMetric | undefined {
  return catalog.keyEventMetrics.get(name) ?? catalog.keyEventMetricsByDeprecatedName.get(name);
}

export const NO_CUSTOM: CustomCatalog = customCatalog(undefined);

/** Event-scoped custom dimensions split by event; item-scoped ones by purchased item. */
export function customScope(catalog: CustomCatalog, name: string): Scope | undefined {
  if (catalog.metrics.has(name) || keyEventMetric(catalog, name)) return "standard";
  const def = catalog.dimensions.get(name);
  if (!def) return undefined;
  return def.scope === "ITEM" ? "item" : def.scope === "EVENT" ? "event" : "standard";
}

const article = (scope: string): string => (/^[AEIOU]/.test(scope) ? "An" : "A");

export function customDimensionMetadata(catalog: CustomCatalog): Record<string, unknown>[] {
  return [...catalog.dimensions].map(([apiName, d]) => ({
    apiName,
    uiName: d.displayName,
    description:
      d.description ??
      `${article(d.scope)} ${d.scope.toLowerCase()} scoped custom dimension for your Analytics property.`,
    customDefinition: true,
    category: "Custom",
  }));
}

export function customMetricMetadata(catalog: CustomCatalog): Record<string, unknown>[] {
  return [...catalog.metrics.values()].map((m) => ({
    apiName: m.apiName,
    uiName: m.uiName,
    description: m.description,
    type: m.type,
    customDefinition: true,
    category: m.category,
  }));
}

/** The value of a custom dimension for one fact (see the file comment). */
export function customDimensionValue(
  name: string,
  slice: Slice,
  event: EventStat | undefined,
  item: ItemStat | undefined,
): string {
  const [prefix, parameter = ""] = name.split(":");
  const label = parameter.replace(/_/g, " ");
  if (prefix === "customItem") {
    return item ? `${label} ${VARIANTS[hashString(`${parameter}|${item.item}`) % VARIANTS.length]}` : NOT_SET;
  }
  if (prefix === "customEvent" && (!event || AUTOMATIC.has(event.name))) return NOT_SET;
  const key = `${parameter}|${slice.day}|${slice.country}|${slice.traffic}|${slice.device}|${slice.page}`;
  return `${label} ${VARIANTS[hashString(key) % VARIANTS.length]}`;
}
