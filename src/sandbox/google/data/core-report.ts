/**
 * runReport: validates a RunReportRequest against the core schema, selects the facts of its date
 * ranges and runs the engine. Also exports the pieces runPivotReport reuses.
 */
import type { SandboxProperty } from "../types.js";
import { profileOf } from "./catalog-values.js";
import { incompatibleField, incompatibleMessage } from "./compatibility.js";
import { reportCurrency } from "./currency.js";
import { type CustomCatalog, customScope, isCustomField, keyEventMetric } from "./custom-fields.js";
import type { Dataset } from "./dataset.js";
import { parseDate, zonedNow } from "./dates.js";
import { type Fact, factsOf, grainFor } from "./facts.js";
import { type MetricDef, type NamedKeyEvents, REALTIME_ONLY_DIMENSIONS } from "./fields.js";
import type { CompiledFilter } from "./filters.js";
import { aggregate, aggregateRows, type EngineQuery, headers, type Range, toApiRow } from "./report.js";
import {
  DATE_RANGE,
  type MetricRequest,
  parseAggregations,
  parseDimensions,
  parseFilters,
  parseMetrics,
  parseOrderBys,
  parsePaging,
  rangeName,
  type Schema,
} from "./request.js";
import { API_SCHEMA_URL, invalidArgument, isObject, RpcError, rejectUnknownKeys } from "./rpc.js";
import {
  DIMENSION_BY_NAME,
  isCohortField,
  METRIC_BY_DEPRECATED_NAME,
  METRIC_BY_NAME,
} from "./schema-catalog.js";

export const MAX_DATE_RANGES = 4;

/** What a report needs from the world besides the request body. */
export interface ReportScope {
  dataset: Dataset;
  property: SandboxProperty;
  keyEventNames: readonly string[];
  /** The property's custom dimensions and metrics (customEvent:, customUser:, customItem:). */
  custom: CustomCatalog;
  now: number;
}

function requireMetric(defs: ReadonlyMap<string, MetricDef>, name: string): MetricDef {
  const def = defs.get(name);
  if (!def) throw new RpcError("INTERNAL", `Metric ${name} has no definition.`);
  return def;
}

function unknownCoreField(name: string, kind: "dimension" | "metric"): RpcError {
  const realtime = REALTIME_ONLY_DIMENSIONS.includes(name)
    ? ` ${name} is a Realtime dimension: use it with runRealtimeReport.`
    : "";
  const custom = isCustomField(name)
    ? " Custom fields must be registered in the property first (Admin API customDimensions / customMetrics)."
    : "";
  return invalidArgument(
    `Field ${name} is not a valid ${kind}.${realtime}${custom} For a list of valid dimensions and metrics, see ${API_SCHEMA_URL}`,
  );
}

const schemas = new WeakMap<CustomCatalog, Schema>();

/** The core schema of one property: the universal fields plus its custom definitions. */
export function coreSchema(custom: CustomCatalog): Schema {
  const known = schemas.get(custom);
  if (known) return known;
  const schema: Schema = {
    kindOf: (name) =>
      DIMENSION_BY_NAME.has(name) || custom.dimensions.has(name)
        ? "dimension"
        : METRIC_BY_NAME.has(name) ||
            custom.metrics.has(name) ||
            METRIC_BY_DEPRECATED_NAME.has(name) ||
            keyEventMetric(custom, name)
          ? "metric"
          : undefined,
    metric: (name) =>
      METRIC_BY_DEPRECATED_NAME.get(name) ??
      keyEventMetric(custom, name) ??
      requireMetric(custom.metrics.has(name) ? custom.metrics : METRIC_BY_NAME, name),
    unknownField: unknownCoreField,
  };
  schemas.set(custom, schema);
  return schema;
}

export function checkPropertyField(
  body: Record<string, unknown>,
  propertyId: string,
  where = "property",
): void {
  const value = body.property;
  if (value === undefined || value === "") return;
  if (value !== `properties/${propertyId}`) {
    throw invalidArgument(
      `${where} '${String(value)}' does not match the property in the URL (properties/${propertyId}). Leave it empty or make them equal.`,
    );
  }
}

export function rejectUnsupported(body: Record<string, unknown>): void {
  for (const key of ["cohortSpec", "comparisons"]) {
    const value = body[key];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      throw invalidArgument(`${key} is not supported by this sandbox emulator; remove it from the request.`);
    }
  }
}

export function parseDateRanges(raw: unknown, today: number, required: boolean): Range[] {
  const items = raw === undefined || raw === null ? [] : raw;
  if (!Array.isArray(items)) throw invalidArgument("dateRanges must be a list.");
  if (items.length === 0 && required) {
    throw invalidArgument(
      "dateRanges is required: give at least one {startDate, endDate}, e.g. 7daysAgo..yesterday.",
    );
  }
  if (items.length > MAX_DATE_RANGES) {
    throw invalidArgument(
      `Requests are limited to ${MAX_DATE_RANGES} dateRanges; this request has ${items.length}.`,
    );
  }
  const ranges = items.map((item, i): Range => {
    const at = `dateRanges[${i}]`;
    if (!isObject(item)) throw invalidArgument(`${at} must be an object with startDate and endDate.`);
    rejectUnknownKeys(item, ["startDate", "endDate", "name"], at);
    const from = parseDate(item.startDate, today, `${at}.startDate`);
    const to = parseDate(item.endDate, today, `${at}.endDate`);
    if (from > to) throw invalidArgument(`${at}: startDate cannot be after endDate.`);
    return { name: rangeName(item.name, i, at), from, to };
  });
  if (new Set(ranges.map((r) => r.name)).size !== ranges.length) {
    throw invalidArgument("dateRanges names must be unique.");
  }
  return ranges;
}

/** Facts for every day any range covers, at the grain the used fields need. */
export function loadFacts(
  scope: ReportScope,
  ranges: readonly Range[],
  fieldsUsed: Iterable<string>,
): Fact[] {
  const { property } = scope;
  const days = new Set<number>();
  for (const r of ranges) for (let d = r.from; d <= r.to; d++) days.add(d);
  const slices = [...days]
    .sort((a, b) => a - b)
    .flatMap((day) => scope.dataset.visible(property.id, day, scope.now, property.timeZone));
  const used = [...fieldsUsed];
  const grain = grainFor(used, (name) => customScope(scope.custom, name));
  const origin = Math.min(...ranges.map((r) => r.from));
  // Key events are counted one by one only when a key-event-specific metric is asked for.
  const named: NamedKeyEvents = used.some((name) => keyEventMetric(scope.custom, name))
    ? scope.custom.keyEvents
    : new Map();
  return factsOf(slices, grain, profileOf(property.id), new Set(scope.keyEventNames), origin, named);
}

export function checkCompatible(
  dimensions: readonly string[],
  metrics: readonly string[],
  custom: CustomCatalog,
): void {
  const cohort = [...dimensions, ...metrics].find(isCohortField);
  if (cohort) {
    throw invalidArgument(
      `${cohort} is a cohort field: it needs a cohortSpec, and this sandbox emulator does not support cohort reports.`,
    );
  }
  const field = incompatibleField(dimensions, metrics, (name) => customScope(custom, name));
  if (field) throw invalidArgument(incompatibleMessage(field));
}

export interface CoreCommon {
  ranges: Range[];
  metrics: MetricRequest[];
  dimensionFilter?: CompiledFilter;
  metricFilter?: CompiledFilter;
  currency: { code: string; fx: number };
  keepEmptyRows: boolean;
}

export function parseCoreCommon(body: Record<string, unknown>, scope: ReportScope): CoreCommon {
  checkPropertyField(body, scope.property.id);
  rejectUnsupported(body);
  const today = zonedNow(scope.now, scope.property.timeZone).day;
  return {
    ranges: parseDateRanges(body.dateRanges, today, true),
    metrics: parseMetrics(body.metrics, coreSchema(scope.custom)),
    ...parseFilters(body, coreSchema(scope.custom)),
    currency: reportCurrency(body.currencyCode, scope.property.currencyCode),
    keepEmptyRows: body.keepEmptyRows === true,
  };
}

const RUN_REPORT_KEYS = [
  "property",
  "dimensions",
  "metrics",
  "dateRanges",
  "dimensionFilter",
  "metricFilter",
  "offset",
  "limit",
  "metricAggregations",
  "orderBys",
  "currencyCode",
  "cohortSpec",
  "keepEmptyRows",
  "returnPropertyQuota",
  "comparisons",
];

export interface ReportResult {
  body: Record<string, unknown>;
  /** Inputs of the token cost (see quota.ts). */
  cost: { days: number; dimensions: number; rows: number };
}

export function spanDays(ranges: readonly Range[]): number {
  return ranges.reduce((sum, r) => sum + (r.to - r.from + 1), 0);
}

export function runReport(raw: unknown, scope: ReportScope): ReportResult {
  if (!isObject(raw)) throw invalidArgument("The request body must be a RunReportRequest JSON object.");
  rejectUnknownKeys(raw, RUN_REPORT_KEYS);
  const common = parseCoreCommon(raw, scope);
  const schema = coreSchema(scope.custom);
  let dimensions = parseDimensions(raw.dimensions, schema, [DATE_RANGE]);
  // "If multiple date ranges are requested, each response row will contain a zero based date range
  // index": the real API appends a dateRange dimension holding the range name.
  if (common.ranges.length > 1 && !dimensions.includes(DATE_RANGE)) dimensions = [...dimensions, DATE_RANGE];
  const metricNames = common.metrics.map((m) => m.name);
  const filterFields = [...(common.dimensionFilter?.fields ?? []), ...(common.metricFilter?.fields ?? [])];
  checkCompatible(
    [...dimensions, ...(common.dimensionFilter?.fields ?? [])],
    [...metricNames, ...(common.metricFilter?.fields ?? [])],
    scope.custom,
  );
  const paging = parsePaging(raw);
  const aggregations = parseAggregations(raw.metricAggregations);
  const query: EngineQuery = {
    facts: loadFacts(scope, common.ranges, [...dimensions, ...metricNames, ...filterFields]),
    ranges: common.ranges,
    dimensions,
    metrics: common.metrics,
    schema,
    fx: common.currency.fx,
    orderBys: parseOrderBys(raw.orderBys, dimensions, common.metrics),
    keepEmptyRows: common.keepEmptyRows,
    ...(common.dimensionFilter ? { dimensionFilter: common.dimensionFilter } : {}),
    ...(common.metricFilter ? { metricFilter: common.metricFilter } : {}),
  };
  const rows = aggregate(query);
  const page = rows.slice(paging.offset, paging.offset + paging.limit);
  const body: Record<string, unknown> = { ...headers(query) };
  // proto3 JSON omits empty repeated fields and zero ints: an empty report has no rows and no rowCount.
  if (page.length > 0) body.rows = page.map((r) => toApiRow(r.dims, r.values, query));
  if (rows.length > 0) {
    if (aggregations.has("TOTAL")) body.totals = aggregateRows(rows, query, "TOTAL");
    if (aggregations.has("MAXIMUM")) body.maximums = aggregateRows(rows, query, "MAXIMUM");
    if (aggregations.has("MINIMUM")) body.minimums = aggregateRows(rows, query, "MINIMUM");
    body.rowCount = rows.length;
  }
  body.metadata = { currencyCode: common.currency.code, timeZone: scope.property.timeZone };
  body.kind = "analyticsData#runReport";
  return { body, cost: { days: spanDays(common.ranges), dimensions: dimensions.length, rows: rows.length } };
}
