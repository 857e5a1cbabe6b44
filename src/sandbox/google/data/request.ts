/**
 * Validation of the parts shared by runReport, runPivotReport and runRealtimeReport requests:
 * dimensions (≤9), metrics (≤10), filters, orderBys, limit/offset (int64 as string or number),
 * metricAggregations, date and minute ranges. Limits from the discovery document.
 */

import type { MetricDef } from "./fields.js";
import { type CompiledFilter, compileFilter, type FieldKind } from "./filters.js";
import { invalidArgument, isObject, type RpcError, rejectUnknownKeys } from "./rpc.js";

export const MAX_DIMENSIONS = 9;
export const MAX_METRICS = 10;
export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 250_000;

/** The field catalog a method validates against (core or realtime). */
export interface Schema {
  kindOf(name: string): FieldKind | undefined;
  metric(name: string): MetricDef;
  /** The 400 for a name the schema does not know (message names the schema page). */
  unknownField(name: string, kind: FieldKind): RpcError;
}

export interface MetricRequest {
  name: string;
  invisible: boolean;
}

export type Aggregation = "TOTAL" | "MINIMUM" | "MAXIMUM";

export type OrderBy =
  | { kind: "metric"; name: string; desc: boolean }
  | { kind: "dimension"; name: string; desc: boolean; orderType: string };

export const DATE_RANGE = "dateRange";

function list(raw: unknown, where: string): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidArgument(`${where} must be a list.`);
  return raw;
}

export function parseDimensions(raw: unknown, schema: Schema, extra: readonly string[] = []): string[] {
  const items = list(raw, "dimensions");
  if (items.length > MAX_DIMENSIONS) {
    throw invalidArgument(
      `Requests are limited to ${MAX_DIMENSIONS} dimensions; this request has ${items.length}.`,
    );
  }
  const names: string[] = [];
  items.forEach((item, i) => {
    if (!isObject(item)) throw invalidArgument(`dimensions[${i}] must be an object with a name.`);
    rejectUnknownKeys(item, ["name", "dimensionExpression"], `dimensions[${i}]`);
    if (item.dimensionExpression !== undefined) {
      throw invalidArgument(
        `dimensions[${i}].dimensionExpression is not supported by this sandbox emulator.`,
      );
    }
    const name = item.name;
    if (typeof name !== "string" || name === "") throw invalidArgument(`dimensions[${i}].name is required.`);
    if (!extra.includes(name) && schema.kindOf(name) !== "dimension")
      throw schema.unknownField(name, "dimension");
    if (names.includes(name)) throw invalidArgument(`Dimension ${name} is requested more than once.`);
    names.push(name);
  });
  return names;
}

export function parseMetrics(raw: unknown, schema: Schema): MetricRequest[] {
  const items = list(raw, "metrics");
  if (items.length > MAX_METRICS) {
    throw invalidArgument(
      `Requests are limited to ${MAX_METRICS} metrics; this request has ${items.length}.`,
    );
  }
  const metrics: MetricRequest[] = [];
  items.forEach((item, i) => {
    if (!isObject(item)) throw invalidArgument(`metrics[${i}] must be an object with a name.`);
    rejectUnknownKeys(item, ["name", "expression", "invisible"], `metrics[${i}]`);
    if (item.expression !== undefined && item.expression !== "") {
      throw invalidArgument(
        `metrics[${i}].expression (derived metrics) is not supported by this sandbox emulator.`,
      );
    }
    const name = item.name;
    if (typeof name !== "string" || name === "") throw invalidArgument(`metrics[${i}].name is required.`);
    if (schema.kindOf(name) !== "metric") throw schema.unknownField(name, "metric");
    if (metrics.some((m) => m.name === name))
      throw invalidArgument(`Metric ${name} is requested more than once.`);
    metrics.push({ name, invisible: item.invisible === true });
  });
  return metrics;
}

export function parseFilters(
  body: Record<string, unknown>,
  schema: Schema,
): { dimensionFilter?: CompiledFilter; metricFilter?: CompiledFilter } {
  const kindOf = (n: string) => schema.kindOf(n);
  const unknown = (n: string, k: FieldKind) => schema.unknownField(n, k);
  const dimensionFilter = compileFilter(body.dimensionFilter, "dimension", kindOf, unknown);
  const metricFilter = compileFilter(body.metricFilter, "metric", kindOf, unknown);
  return {
    ...(dimensionFilter ? { dimensionFilter } : {}),
    ...(metricFilter ? { metricFilter } : {}),
  };
}

/** int64 fields arrive as JSON strings ("1000") from Google clients, or as numbers from hand-written JSON. */
export function parseInt64(raw: unknown, where: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw invalidArgument(`Invalid value at '${where}' (TYPE_INT64), ${JSON.stringify(raw)}`);
  }
  return value;
}

export function parsePaging(body: Record<string, unknown>, where = ""): { offset: number; limit: number } {
  const limit = parseInt64(body.limit, `${where}limit`);
  const offset = parseInt64(body.offset, `${where}offset`) ?? 0;
  if (limit !== undefined && limit <= 0) throw invalidArgument(`limit must be positive; it is ${limit}.`);
  if (offset < 0) throw invalidArgument(`offset must not be negative; it is ${offset}.`);
  // "The API returns a maximum of 250,000 rows per request, no matter how many you ask for."
  return { offset, limit: Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT) };
}

export function parseOrderBys(
  raw: unknown,
  dimensions: readonly string[],
  metrics: readonly MetricRequest[],
  where = "orderBys",
): OrderBy[] {
  return list(raw, where).map((item, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(item)) throw invalidArgument(`${at} must be an object.`);
    rejectUnknownKeys(item, ["desc", "metric", "dimension", "pivot"], at);
    const desc = item.desc === true;
    if (item.pivot !== undefined) {
      throw invalidArgument(`${at}.pivot orderBys are not supported by this sandbox emulator.`);
    }
    if (isObject(item.metric) && item.dimension === undefined) {
      rejectUnknownKeys(item.metric, ["metricName"], `${at}.metric`);
      const name = String(item.metric.metricName ?? "");
      if (!metrics.some((m) => m.name === name)) {
        throw invalidArgument(`${at}.metric.metricName '${name}' must be one of the metrics in the request.`);
      }
      return { kind: "metric", name, desc };
    }
    if (isObject(item.dimension) && item.metric === undefined) {
      rejectUnknownKeys(item.dimension, ["dimensionName", "orderType"], `${at}.dimension`);
      const name = String(item.dimension.dimensionName ?? "");
      if (!dimensions.includes(name)) {
        throw invalidArgument(
          `${at}.dimension.dimensionName '${name}' must be one of the dimensions in the request.`,
        );
      }
      const orderType = String(item.dimension.orderType ?? "ALPHANUMERIC");
      const known = ["ORDER_TYPE_UNSPECIFIED", "ALPHANUMERIC", "CASE_INSENSITIVE_ALPHANUMERIC", "NUMERIC"];
      if (!known.includes(orderType)) {
        throw invalidArgument(
          `${at}.dimension.orderType '${orderType}' is invalid. Use one of ${known.join(", ")}.`,
        );
      }
      return { kind: "dimension", name, desc, orderType };
    }
    throw invalidArgument(`${at} must set exactly one of metric or dimension.`);
  });
}

export function parseAggregations(raw: unknown, where = "metricAggregations"): Set<Aggregation> {
  const out = new Set<Aggregation>();
  for (const value of list(raw, where)) {
    if (value === "TOTAL" || value === "MINIMUM" || value === "MAXIMUM") out.add(value);
    // COUNT is a valid enum value, but RunReportResponse has no field to carry it (only totals,
    // maximums and minimums), so like the real API it adds nothing to the response.
    else if (value !== "COUNT") {
      throw invalidArgument(
        `Invalid value at '${where}': ${JSON.stringify(value)}. Use TOTAL, MINIMUM, MAXIMUM or COUNT.`,
      );
    }
  }
  return out;
}

/** Custom range names "cannot begin with date_range_ or RESERVED_" (DateRange / MinuteRange). */
export function rangeName(raw: unknown, index: number, where: string): string {
  if (raw === undefined || raw === null || raw === "") return `date_range_${index}`;
  if (typeof raw !== "string" || raw.startsWith("date_range_") || raw.startsWith("RESERVED_")) {
    throw invalidArgument(`${where}.name cannot begin with 'date_range_' or 'RESERVED_'.`);
  }
  return raw;
}
